// SPDX-License-Identifier: MIT
#include "drivers/campaign_journal.h"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/file_read.h"
#include "data/input_error.h"
#include "data/results_writer.h"

namespace gfxstat::drivers {

namespace {

using nlohmann::json;

double epoch_now() {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

JournalEvent parse_event(const std::string& line) {
    const json j = json::parse(line);
    if (!j.is_object() || !j.contains("type") || !j["type"].is_string())
        throw std::runtime_error("expected an object with a \"type\"");
    JournalEvent e;
    e.type = j["type"].get<std::string>();
    const auto str = [&](const char* k, std::string& out) {
        if (j.contains(k)) out = j[k].get<std::string>();
    };
    const auto num = [&](const char* k, std::optional<uint64_t>& out) {
        if (!j.contains(k)) return;
        // Whole and not negative: a float or a negative number here (a
        // hand edit) would not convert.
        if (!j[k].is_number_unsigned()) throw std::runtime_error(std::string("\"") + k + "\" must be a whole number");
        out = j[k].get<uint64_t>();
    };
    str("time", e.time);
    if (j.contains("t")) {
        if (!j["t"].is_number()) throw std::runtime_error("\"t\" must be a number");
        e.t = j["t"].get<double>();
    }
    str("boot", e.boot);
    num("step", e.step);
    num("slot", e.slot);
    num("attempt", e.attempt);
    num("progress", e.progress);
    if (j.contains("pid")) {
        if (!j["pid"].is_number_integer()) throw std::runtime_error("\"pid\" must be a whole number");
        e.pid = j["pid"].get<long>();
    }
    str("kernel", e.kernel);
    str("exit_class", e.exit_class);
    str("detail", e.detail);
    return e;
}

}  // namespace

std::string journal_line(const JournalEvent& e) {
    json j;
    j["type"] = e.type;
    j["time"] = e.time;
    j["t"] = e.t;
    if (!e.boot.empty()) j["boot"] = e.boot;
    if (e.slot) j["slot"] = *e.slot;
    if (e.step) j["step"] = *e.step;
    if (e.attempt) j["attempt"] = *e.attempt;
    if (e.progress) j["progress"] = *e.progress;
    if (e.pid) j["pid"] = *e.pid;
    if (!e.kernel.empty()) j["kernel"] = e.kernel;
    if (!e.exit_class.empty()) j["exit_class"] = e.exit_class;
    if (!e.detail.empty()) j["detail"] = e.detail;
    // Invalid UTF-8 from a command's output must not make the line unwritable.
    return j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

std::vector<JournalEvent> read_journal(const std::string& path, uint64_t offset, bool* torn, uint64_t* end) {
    if (offset == 0) return parse_journal(data::read_whole_file(path), path, 0, torn, end);
    // From `offset` on only: a resume reads what was appended since its
    // last look at every step, and must not read the whole journal again.
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw data::input_error(path, 0, std::string("cannot open: ") + std::strerror(errno));
    std::string tail;
    char buf[65536];
    off_t at = static_cast<off_t>(offset);
    while (true) {
        const ssize_t n = pread(fd, buf, sizeof buf, at);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int err = errno;
            close(fd);
            throw data::input_error(path, 0, std::string("cannot read: ") + std::strerror(err));
        }
        if (n == 0) break;
        tail.append(buf, static_cast<size_t>(n));
        at += n;
    }
    close(fd);
    try {
        uint64_t tail_end = 0;
        std::vector<JournalEvent> events = parse_journal(tail, path, 0, torn, &tail_end);
        if (end) *end = offset + tail_end;
        return events;
    } catch (const data::InputError&) {
        // Read again whole, for the right line number in the message.
        return parse_journal(data::read_whole_file(path), path, offset, torn, end);
    }
}

std::vector<JournalEvent> parse_journal(std::string_view text, const std::string& path, uint64_t offset, bool* torn,
                                        uint64_t* end) {
    if (end) *end = text.size();
    if (torn) *torn = false;
    std::vector<JournalEvent> events;
    size_t line_no = 1;
    for (size_t i = 0; i < offset && i < text.size(); ++i) line_no += text[i] == '\n';
    size_t pos = offset;
    while (pos < text.size()) {
        const size_t nl = text.find('\n', pos);
        if (nl == std::string::npos) {
            // A line without its newline: the write it belonged to never
            // finished (a power cut, kill -9). Not an event.
            if (torn) *torn = true;
            if (end) *end = pos;
            break;
        }
        const std::string line(text.substr(pos, nl - pos));
        if (!line.empty()) {
            try {
                events.push_back(parse_event(line));
            } catch (const std::exception& e) {
                throw data::input_error(path, line_no, std::string("not a journal event: ") + e.what());
            }
        }
        pos = nl + 1;
        ++line_no;
    }
    return events;
}

JournalWriter::JournalWriter(const std::string& path) : path_(path) {
    // O_NOFOLLOW: a link planted as the journal must not make a resume
    // (root, at boot) append to the file it points to.
    fd_ = open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd_ < 0)
        throw data::input_error(path, 0, errno == ELOOP ? "is a symbolic link; a campaign's journal must be a file"
                                                        : std::string("cannot open the journal: ") + std::strerror(errno));
}

JournalWriter::~JournalWriter() {
    if (fd_ >= 0) close(fd_);
}

void JournalWriter::append(JournalEvent event) {
    if (event.time.empty()) event.time = data::utc_now_rfc3339();
    if (event.t == 0) event.t = epoch_now();
    const std::string line = journal_line(event);
    // `stop` appends from another process while `resume` runs: the lock
    // keeps lines whole, and the tail check below runs under it.
    while (flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
    struct Unlock {
        int fd;
        ~Unlock() { flock(fd, LOCK_UN); }
    } unlock{fd_};
    struct stat st {};
    if (fstat(fd_, &st) != 0) throw std::runtime_error(path_ + ": " + std::strerror(errno));
    off_t size = st.st_size;
    if (size > 0) {
        // Cut a torn last line (no newline) left by a write that never ended.
        char c = 0;
        if (pread(fd_, &c, 1, size - 1) == 1 && c != '\n') {
            off_t keep = size - 1;
            char buf[4096];
            while (keep > 0) {
                const off_t from = keep > static_cast<off_t>(sizeof buf) ? keep - static_cast<off_t>(sizeof buf) : 0;
                const ssize_t n = pread(fd_, buf, static_cast<size_t>(keep - from), from);
                if (n <= 0) break;
                off_t i = n;
                while (i > 0 && buf[i - 1] != '\n') --i;
                if (i > 0) {
                    keep = from + i;
                    break;
                }
                keep = from;
            }
            if (ftruncate(fd_, keep) != 0) throw std::runtime_error(path_ + ": " + std::strerror(errno));
            size = keep;
        }
    }
    size_t done = 0;
    while (done < line.size()) {
        const ssize_t n = write(fd_, line.data() + done, line.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int err = errno;
            if (ftruncate(fd_, size) != 0) {
            }
            throw std::runtime_error(path_ + ": cannot append to the journal: " + std::strerror(err));
        }
        done += static_cast<size_t>(n);
    }
    if (fdatasync(fd_) != 0) throw std::runtime_error(path_ + ": fdatasync: " + std::strerror(errno));
}

}  // namespace gfxstat::drivers
