#include "data/results_writer.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <unordered_set>

#include "data/input_error.h"
#include "data/results_json.h"
#include "data/results_reader.h"

#ifndef GFXSTAT_VERSION
#define GFXSTAT_VERSION "0.1.0"
#endif

namespace gfxstat::data {

namespace {

std::string errno_text() { return std::strerror(errno); }

void write_all(int fd, const std::string& bytes, const std::string& path) {
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw input_error(path, 0, "write error: " + errno_text());
        }
        done += static_cast<size_t>(n);
    }
}

std::string directory_of(const std::string& path) {
    const size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

// The rename itself must reach the disk too, or a power loss could bring
// back the old directory entry.
void sync_directory(const std::string& path) {
    const int dfd = ::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) return;
    ::fsync(dfd);
    ::close(dfd);
}

}  // namespace

std::string utc_now_rfc3339() {
    const auto now = std::chrono::system_clock::now();
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count();
    const std::time_t secs = static_cast<std::time_t>(us / 1000000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06lldZ", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                  static_cast<long long>(us % 1000000));
    return buf;
}

ResultsHeader new_results_header() {
    ResultsHeader h;
    unsigned char bytes[16];
    size_t got = 0;
    while (got < sizeof bytes) {
        const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error("getrandom failed: " + errno_text());
        }
        got += static_cast<size_t>(n);
    }
    char hex[33];
    for (size_t i = 0; i < sizeof bytes; ++i) std::snprintf(hex + 2 * i, 3, "%02x", bytes[i]);
    h.id = hex;
    h.created = utc_now_rfc3339();
    h.generator = "gfxstat " GFXSTAT_VERSION;
    return h;
}

std::string serialize_results(const ResultsFile& file) {
    std::string out;
    append_header_line(out, file.header);
    std::unordered_set<std::string> metric_done, env_done;
    for (const RunRecord& run : file.runs()) {
        if (!run.environment.empty() && env_done.insert(run.environment).second)
            append_environment_line(out, *file.find_environment(run.environment));
        for (const MetricValues& m : run.metrics)
            if (metric_done.insert(m.name).second) append_metric_line(out, *file.find_metric(m.name));
        append_run_line(out, run);
    }
    // Declarations no run uses are kept too (a metric every run failed to report).
    for (const MetricInfo& m : file.metrics())
        if (!metric_done.count(m.name)) append_metric_line(out, m);
    for (const Environment& e : file.environments())
        if (!env_done.count(e.id)) append_environment_line(out, e);
    return out;
}

void write_results_file(const std::string& path, const ResultsFile& file, bool replace) {
    const std::string text = serialize_results(file);
    // A writer killed here leaves its temporary file; a later one with the
    // same pid (pid 1 in a container, say) must not be blocked by it.
    std::string tmp;
    int fd = -1;
    for (int attempt = 0; fd < 0; ++attempt) {
        tmp = path + ".tmp." + std::to_string(::getpid());
        if (attempt > 0) tmp += "." + std::to_string(attempt);
        fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0 && (errno != EEXIST || attempt == 100))
            throw input_error(tmp, 0, "cannot create: " + errno_text());
    }
    try {
        write_all(fd, text, tmp);
        if (::fsync(fd) != 0) throw input_error(tmp, 0, "fsync failed: " + errno_text());
        ::close(fd);
    } catch (...) {
        ::close(fd);
        ::unlink(tmp.c_str());
        throw;
    }
    // link() fails when the target exists: no check-then-replace race.
    const int rc = replace ? ::rename(tmp.c_str(), path.c_str()) : ::link(tmp.c_str(), path.c_str());
    const int err = errno;
    if (!replace || rc != 0) ::unlink(tmp.c_str());
    if (rc != 0) {
        if (err == EEXIST)
            throw input_error(path, 0, "already exists; not replaced (choose another name, "
                                       "or --append to add to it)");
        throw input_error(path, 0, std::string("cannot write: ") + std::strerror(err));
    }
    sync_directory(path);
}

// ---------------------------------------------------------------- appender

ResultsAppender::ResultsAppender(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd_ < 0 && errno == ENOENT) {
        ResultsFile fresh;
        fresh.header = new_results_header();
        try {
            write_results_file(path, fresh, false);
        } catch (const InputError&) {
            // Lost a race with another creator: fine, open what it made.
        }
        fd_ = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    }
    if (fd_ < 0) throw input_error(path, 0, "cannot open for appending: " + errno_text());
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        ::close(fd_);
        fd_ = -1;
        if (err == EWOULDBLOCK)
            throw input_error(path, 0, "another gfxstat is writing to this results file");
        throw input_error(path, 0, std::string("cannot lock: ") + std::strerror(err));
    }
    try {
        const std::string text = read_all(fd_, path);
        ReadReport report;
        file_ = parse_results(text, path, &report);
        if (report.torn_tail) {
            repaired_ = torn_tail_message(path, report) + "; cut off before appending";
            if (::ftruncate(fd_, static_cast<off_t>(report.good_bytes)) != 0 || ::fsync(fd_) != 0)
                throw input_error(path, 0, "cannot cut off the incomplete last record: " + errno_text());
        } else if (!text.empty() && text.back() != '\n') {
            // The last record is complete but unterminated (edited by hand).
            write_durably("\n");
        }
        if (::lseek(fd_, 0, SEEK_END) < 0) throw input_error(path, 0, "seek failed: " + errno_text());
    } catch (...) {
        ::close(fd_);
        fd_ = -1;
        throw;
    }
}

ResultsAppender::~ResultsAppender() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

void ResultsAppender::declare_metric(const MetricInfo& metric) {
    if (file_.find_metric(metric.name)) {
        const std::string conflict = file_.declare_metric(metric);
        if (!conflict.empty()) throw input_error(path_, 0, conflict);
        return;
    }
    const std::string conflict = file_.declare_metric(metric);
    if (!conflict.empty()) throw input_error(path_, 0, conflict);
    append_metric_line(pending_, metric);
}

std::string ResultsAppender::add_environment(Environment env) {
    if (env.id.empty()) env.id = environment_id(env);
    const bool known = file_.find_environment(env.id) != nullptr;
    const std::string conflict = file_.add_environment(env);
    if (!conflict.empty()) throw input_error(path_, 0, conflict);
    if (!known) append_environment_line(pending_, env);
    return env.id;
}

void ResultsAppender::append_run(const RunRecord& run) {
    if (failed_)
        throw input_error(path_, 0, "an earlier append failed; reopen the file to append again");
    std::string bytes = pending_;
    append_run_line(bytes, run);
    // Validate against the file before anything reaches the disk.
    const std::string conflict = file_.add_run(run);
    if (!conflict.empty()) throw input_error(path_, 0, conflict);
    write_durably(bytes);
    pending_.clear();
}

void ResultsAppender::append_run_and_release_values(RunRecord& run) {
    if (failed_)
        throw input_error(path_, 0, "an earlier append failed; reopen the file to append again");
    std::string bytes = pending_;
    append_run_line(bytes, run);
    for (MetricValues& m : run.metrics) std::vector<NumberToken>().swap(m.values);
    const std::string conflict = file_.add_run(run);
    if (!conflict.empty()) throw input_error(path_, 0, conflict);
    write_durably(bytes);
    pending_.clear();
}

void ResultsAppender::write_durably(const std::string& bytes) {
    // One write() call: with O_APPEND semantics emulated by the lseek above
    // and the exclusive lock, the record lands whole after the last one, or
    // (killed or powered off mid-way) as a torn last line.
    const off_t before = ::lseek(fd_, 0, SEEK_CUR);
    try {
        write_all(fd_, bytes, path_);
        if (::fdatasync(fd_) != 0) throw input_error(path_, 0, "fdatasync failed: " + errno_text());
    } catch (...) {
        // A write that failed part-way (disk full) left a partial line: cut
        // it off, or the next record would be glued onto it -- corruption
        // in the middle of the file. Best effort; a reader or the next
        // appender treats a partial line left behind as a torn tail.
        failed_ = true;
        if (before >= 0 && ::ftruncate(fd_, before) == 0) {
            ::lseek(fd_, before, SEEK_SET);
            ::fdatasync(fd_);
        }
        throw;
    }
}

}  // namespace gfxstat::data
