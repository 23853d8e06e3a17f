// SPDX-License-Identifier: MIT
#include "data/results_writer.h"

#include <fcntl.h>
#include <sys/file.h>
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
#include "data/safe_files.h"
#include "data/file_read.h"
#include "data/gfxstat_version.h"
#include "data/random_hex.h"

namespace gfxstat::data {

namespace {

std::string errno_text() { return std::strerror(errno); }

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
    const std::optional<std::string> id = random_hex(16);
    if (!id) throw std::runtime_error("getrandom failed: " + errno_text());
    h.id = *id;
    h.created = utc_now_rfc3339();
    h.generator = std::string("gfxstat ") + gfxstat_version();
    return h;
}

std::string serialize_results(const ResultsFile& file) {
    std::string out;
    append_header_line(out, file.header);
    std::unordered_set<std::string> metric_done, env_done, design_done;
    for (const RunRecord& run : file.runs()) {
        if (!run.design.empty() && design_done.insert(run.design).second)
            append_design_line(out, *file.find_design(run.design));
        if (!run.environment.empty() && env_done.insert(run.environment).second)
            append_environment_line(out, *file.find_environment(run.environment));
        for (const MetricValues& m : run.metrics)
            if (metric_done.insert(m.name).second) append_metric_line(out, *file.find_metric(m.name));
        append_run_line(out, run);
    }
    // Checking runs after the timed runs, in file order, each after what
    // it refers to.
    for (const ImageCheck& k : file.image_checks()) {
        if (!k.design.empty() && design_done.insert(k.design).second)
            append_design_line(out, *file.find_design(k.design));
        if (!k.environment.empty() && env_done.insert(k.environment).second)
            append_environment_line(out, *file.find_environment(k.environment));
        append_image_check_line(out, k);
    }
    // Declarations no run uses are kept too (a metric every run failed to report).
    for (const MetricInfo& m : file.metrics())
        if (!metric_done.count(m.name)) append_metric_line(out, m);
    for (const Environment& e : file.environments())
        if (!env_done.count(e.id)) append_environment_line(out, e);
    for (const DesignRecord& d : file.designs())
        if (!design_done.count(d.id)) append_design_line(out, d);
    return out;
}

void write_new_results_file(const std::string& path, const ResultsFile& file) {
    sweep_stale_temp_files(path);
    write_file_atomically(path, serialize_results(file), 0644, false);
}

// ---------------------------------------------------------------- the lock

ResultsLock::~ResultsLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

ResultsLock& ResultsLock::operator=(ResultsLock&& o) noexcept {
    if (this != &o) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = o.fd_;
        o.fd_ = -1;
    }
    return *this;
}

ResultsLock ResultsLock::acquire(const std::string& path, int flags, double wait_s) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_s);
    // Each pass: open what the path names now, lock it, and check that the
    // path still names it. A rewriter renames its new file into place while
    // holding the lock on the old one; whoever was waiting then holds a
    // lock on a file nobody will read again, and must start over.
    for (int pass = 0;; ++pass) {
        // A FIFO at the name must be refused, not opened: open() would wait
        // for its other end (import --append and merge --replace read it).
        UniqueFd opened = open_regular_file(path, flags, 0, path);
        if (!opened) {
            const int err = errno;
            if (err == ENOENT) return ResultsLock();
            if (err == ELOOP)
                throw input_error(path, 0, "is a symbolic link; gfxstat does not write results through links "
                                           "(give the file it points to)");
            throw input_error(path, 0, "cannot open: " + std::string(std::strerror(err)));
        }
        const int fd = opened.release();
        ResultsLock lock(fd);
        struct stat held {};
        if (::fstat(fd, &held) != 0) throw input_error(path, 0, "cannot stat: " + errno_text());
        for (;;) {
            if (::flock(fd, LOCK_EX | LOCK_NB) == 0) break;
            if (errno == EINTR) continue;
            if (errno != EWOULDBLOCK) throw input_error(path, 0, "cannot lock: " + errno_text());
            if (std::chrono::steady_clock::now() >= deadline) {
                char waited[32];
                std::snprintf(waited, sizeof waited, "%g", wait_s);
                throw input_error(path, 0, std::string("another gfxstat is writing to this results file "
                                                       "(still locked after ") + waited + " s); nothing was written");
            }
            ::usleep(5000);
        }
        struct stat named {};
        if (::lstat(path.c_str(), &named) == 0 && named.st_dev == held.st_dev && named.st_ino == held.st_ino) {
            if (::fstat(fd, &held) == 0 && held.st_nlink > 0) return lock;
        }
        // Replaced (or removed) while we waited: the new file is the one to lock.
        if (pass == 1000) throw input_error(path, 0, "keeps being replaced by another writer; nothing was written");
    }
}

void rewrite_results_file(const std::string& path, ExistingFile existing,
                          const std::function<ResultsFile(const ResultsFile*, const ReadReport&)>& build) {
    sweep_stale_temp_files(path);
    for (int pass = 0;; ++pass) {
        if (existing == ExistingFile::refuse) {
            // link() is the lock here: it never replaces what another writer made.
            write_file_atomically(path, serialize_results(build(nullptr, ReadReport{})), 0644, false);
            return;
        }
        ResultsLock lock = ResultsLock::acquire(path, O_RDONLY);
        if (!lock.held()) {
            if (existing == ExistingFile::update)
                throw input_error(path, 0, "cannot open: " + std::string(std::strerror(ENOENT)));
            // Nothing to replace: create it, unless another writer did first
            // (then lock what it made and start again).
            try {
                write_file_atomically(path, serialize_results(build(nullptr, ReadReport{})), 0644, false);
                return;
            } catch (const InputError&) {
                struct stat st {};
                if (::lstat(path.c_str(), &st) != 0 || pass == 100) throw;
                continue;
            }
        }
        ReadReport report;
        ResultsFile current;
        if (existing == ExistingFile::update) current = parse_results(read_all(lock.fd(), path), path, &report);
        const ResultsFile next = build(existing == ExistingFile::update ? &current : nullptr, report);
        // Renamed over the old file while its lock is held: a writer that
        // waited for the lock sees the name moved on and locks the new file.
        write_file_atomically(path, serialize_results(next), 0644, true);
        return;
    }
}

void write_results_text(const std::string& path, bool replace, const std::function<std::string()>& text) {
    sweep_stale_temp_files(path);
    for (int pass = 0;; ++pass) {
        if (!replace) {
            write_file_atomically(path, text(), 0644, false);
            return;
        }
        ResultsLock lock = ResultsLock::acquire(path, O_RDONLY);
        if (!lock.held()) {
            try {
                write_file_atomically(path, text(), 0644, false);
                return;
            } catch (const InputError&) {
                struct stat st {};
                if (::lstat(path.c_str(), &st) != 0 || pass == 100) throw;
                continue;
            }
        }
        write_file_atomically(path, text(), 0644, true);
        return;
    }
}

// ---------------------------------------------------------------- appender

ResultsAppender::ResultsAppender(const std::string& path, double wait_s) : path_(path) {
    for (int pass = 0; !lock_.held(); ++pass) {
        lock_ = ResultsLock::acquire(path, O_RDWR, wait_s);
        if (lock_.held() || pass == 100) break;
        ResultsFile fresh;
        fresh.header = new_results_header();
        try {
            write_new_results_file(path, fresh);
        } catch (const InputError&) {
            // Lost a race with another creator (fine: lock what it made),
            // or cannot create at all (the next pass says why).
            struct stat st {};
            if (::lstat(path.c_str(), &st) != 0) throw;
        }
    }
    if (!lock_.held()) throw input_error(path, 0, "cannot open for appending: it keeps disappearing");
    const int fd = lock_.fd();
    const std::string text = read_all(fd, path);
    ReadReport report;
    file_ = parse_results(text, path, &report);
    if (report.torn_tail) {
        repaired_ = torn_tail_message(path, report) + "; cut off before appending";
        if (::ftruncate(fd, static_cast<off_t>(report.good_bytes)) != 0 || ::fsync(fd) != 0)
            throw input_error(path, 0, "cannot cut off the incomplete last record: " + errno_text());
    } else if (!text.empty() && text.back() != '\n') {
        // The last record is complete but unterminated (edited by hand).
        if (::lseek(fd, 0, SEEK_END) < 0) throw input_error(path, 0, "seek failed: " + errno_text());
        write_durably("\n");
    }
    if (::lseek(fd, 0, SEEK_END) < 0) throw input_error(path, 0, "seek failed: " + errno_text());
}

ResultsAppender::~ResultsAppender() = default;  // the lock goes with its descriptor

void ResultsAppender::declare_metric(const MetricInfo& metric) {
    if (const MetricInfo* old = file_.find_metric(metric.name)) {
        const bool fills_primary = !old->primary && metric.primary;
        const std::string conflict = file_.declare_metric(metric);
        if (!conflict.empty()) throw input_error(path_, 0, conflict);
        // A file from before `primary` was recorded learns it: declared
        // again (allowed with the same unit, direction and exact), so that
        // the file says what the model now knows.
        if (fills_primary) append_metric_line(pending_, metric);
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

void ResultsAppender::declare_design(const DesignRecord& design) {
    const bool known = file_.find_design(design.id) != nullptr;
    const std::string conflict = file_.add_design(design);
    if (!conflict.empty()) throw input_error(path_, 0, conflict);
    if (!known) append_design_line(pending_, design);
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

void ResultsAppender::append_image_check(const ImageCheck& check) {
    if (failed_)
        throw input_error(path_, 0, "an earlier append failed; reopen the file to append again");
    std::string bytes = pending_;
    append_image_check_line(bytes, check);
    const std::string conflict = file_.add_image_check(check);
    if (!conflict.empty()) throw input_error(path_, 0, conflict);
    write_durably(bytes);
    pending_.clear();
}

void ResultsAppender::append_run_and_release_values(RunRecord& run) {
    std::vector<PackedTokens> none;
    append_run_and_release_values(run, none);
}

void ResultsAppender::append_run_and_release_values(RunRecord& run, std::vector<PackedTokens>& packed) {
    if (failed_)
        throw input_error(path_, 0, "an earlier append failed; reopen the file to append again");
    std::string bytes = pending_;
    // Room for two bytes a value ("7,"), the shortest they can take: the
    // text of ten million one-digit values is not grown through doubling
    // buffers (three times its size at the moment it is copied).
    size_t values = 0;
    for (const MetricValues& m : run.metrics) values += m.values.size();
    for (const PackedTokens& p : packed) values += p.size();
    bytes.reserve(bytes.size() + 4096 + 2 * values);
    append_run_line(bytes, run, packed);
    for (MetricValues& m : run.metrics) m.values.clear();  // frees them
    for (PackedTokens& p : packed) p.release();
    const std::string conflict = file_.add_run(run);
    if (!conflict.empty()) throw input_error(path_, 0, conflict);
    write_durably(bytes);
    pending_.clear();
}

void ResultsAppender::write_durably(const std::string& bytes) {
    // One write() call: with O_APPEND semantics emulated by the lseek above
    // and the exclusive lock, the record lands whole after the last one, or
    // (killed or powered off mid-way) as a torn last line.
    const off_t before = ::lseek(lock_.fd(), 0, SEEK_CUR);
    try {
        write_fully(lock_.fd(), bytes, path_);
        if (::fdatasync(lock_.fd()) != 0) throw input_error(path_, 0, "fdatasync failed: " + errno_text());
    } catch (...) {
        // A write that failed part-way (disk full) left a partial line: cut
        // it off, or the next record would be glued onto it -- corruption
        // in the middle of the file. Best effort; a reader or the next
        // appender treats a partial line left behind as a torn tail.
        failed_ = true;
        if (before >= 0 && ::ftruncate(lock_.fd(), before) == 0) {
            ::lseek(lock_.fd(), before, SEEK_SET);
            ::fdatasync(lock_.fd());
        }
        throw;
    }
}

}  // namespace gfxstat::data
