// SPDX-License-Identifier: MIT
#include "drivers/kernel_log_watch.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace gfxstat::drivers {

namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool parse_u64(std::string_view s, uint64_t& v) {
    if (s.empty() || s.size() > 19) return false;
    v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    return true;
}

// The longest record the kernel hands out (PRINTK_MESSAGE_MAX and its
// dictionary) fits: a read into a smaller buffer fails with EINVAL.
constexpr size_t kReadSize = 16384;
// A line longer than this is no kmsg record (the kernel cuts messages at
// 1 KiB): its start is kept, the rest dropped, so a FIFO fed without
// newlines cannot grow the buffer without bound.
constexpr size_t kMaxLine = 8192;
// At most this much is read per drain (a run's start or end), so that a
// source that is always readable cannot hold gfxstat.
constexpr size_t kMaxDrain = 16u << 20;

}  // namespace

std::string decode_kmsg_escapes(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 3 < text.size() && text[i + 1] == 'x') {
            const int hi = hex_digit(text[i + 2]), lo = hex_digit(text[i + 3]);
            if (hi >= 0 && lo >= 0) {
                out += static_cast<char>(hi * 16 + lo);
                i += 3;
                continue;
            }
        }
        out += text[i];
    }
    return out;
}

std::optional<KmsgRecord> parse_kmsg_line(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line[0] == ' ') return std::nullopt;  // a continuation line
    const size_t semi = line.find(';');
    if (semi == std::string_view::npos) return std::nullopt;
    const std::string_view header = line.substr(0, semi);
    // PRIO,SEQ,TIMESTAMP_US,FLAGS[,more fields a newer kernel adds]
    uint64_t fields[3] = {};
    size_t start = 0;
    for (int k = 0; k < 3; ++k) {
        const size_t comma = header.find(',', start);
        if (comma == std::string_view::npos) return std::nullopt;
        if (!parse_u64(header.substr(start, comma - start), fields[k])) return std::nullopt;
        start = comma + 1;
    }
    KmsgRecord r;
    r.level = static_cast<int>(fields[0] & 7);
    r.seq = fields[1];
    r.message = decode_kmsg_escapes(line.substr(semi + 1));
    return r;
}

std::unique_ptr<KernelLogWatch> KernelLogWatch::open_path(const std::string& path) {
    std::unique_ptr<KernelLogWatch> w(new KernelLogWatch);
    w->path_ = path;
    // Non-blocking: a FIFO opens without a writer, and reads return what is
    // there. Never written to, so a link is as good as its target.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        const int e = errno;
        w->why_not_ = "cannot read " + path + " (" + std::strerror(e) +
                      "): GPU hangs and kernel warnings during runs will not be caught";
        if (e == EACCES || e == EPERM) w->why_not_ += "; run as root or set kernel.dmesg_restrict=0";
        return w;
    }
    struct stat st {};
    const bool stat_ok = fstat(fd, &st) == 0;
    // A file or FIFO in kmsg's format (tests), /dev/kmsg itself (char
    // device 1:11) or /dev/null (1:3, nothing to watch, on purpose): another
    // device (/dev/zero, a tty) would never run dry or never be a log.
    const bool log_device = S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 &&
                            (minor(st.st_rdev) == 11 || minor(st.st_rdev) == 3);
    if (!stat_ok || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) || log_device)) {
        ::close(fd);
        w->why_not_ = "cannot read " + path +
                      " (not a kernel log): GPU hangs and kernel warnings during runs will not be caught";
        return w;
    }
    // Only what comes after: /dev/kmsg's SEEK_END skips the records already
    // in the ring buffer, a file's skips what it already holds. A FIFO
    // cannot seek; begin_run discards what waits in it.
    if (S_ISCHR(st.st_mode) || S_ISREG(st.st_mode)) lseek(fd, 0, SEEK_END);
    w->fd_ = fd;
    return w;
}

KernelLogWatch::~KernelLogWatch() {
    if (fd_ >= 0) ::close(fd_);
}

void KernelLogWatch::take_line(std::string_view line, KernelLogFinding& f) {
    const std::optional<KmsgRecord> r = parse_kmsg_line(line);
    if (!r) return;
    const std::optional<KernelTrouble> t = match_kernel_trouble(r->message);
    if (!t) return;
    if (f.trouble_lines++ == 0) {
        f.first_line = r->message;
        f.first = *t;
    }
}

void KernelLogWatch::drain(KernelLogFinding& f) {
    if (fd_ < 0) return;
    std::string buf(kReadSize, '\0');
    // Bounded: a writer that never pauses must not keep gfxstat here; what
    // is left waits for the next drain.
    size_t taken = 0;
    while (taken < kMaxDrain) {
        const ssize_t n = ::read(fd_, buf.data(), buf.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            // /dev/kmsg: records were overwritten before they were read; the
            // next read goes on with the oldest one left.
            if (errno == EPIPE) {
                f.overflowed = true;
                continue;
            }
            break;  // EAGAIN: nothing more now
        }
        if (n == 0) break;  // a file's end, a FIFO without a writer
        taken += static_cast<size_t>(n);
        // /dev/kmsg hands out one record per read, a file or FIFO a stream:
        // both are lines, a record's continuation lines beginning with a space.
        std::string_view chunk(buf.data(), static_cast<size_t>(n));
        while (!chunk.empty()) {
            const size_t nl = chunk.find('\n');
            const std::string_view piece = chunk.substr(0, nl);
            if (partial_.size() < kMaxLine) partial_.append(piece.substr(0, kMaxLine - partial_.size()));
            if (nl == std::string_view::npos) break;
            take_line(partial_, f);
            partial_.clear();
            chunk.remove_prefix(nl + 1);
        }
    }
}

KernelLogFinding KernelLogWatch::begin_run() {
    KernelLogFinding between;
    drain(between);
    // A line cut in two by the run's start belongs to before it.
    partial_.clear();
    return between;
}

KernelLogFinding KernelLogWatch::end_run() {
    KernelLogFinding f;
    drain(f);
    return f;
}

std::shared_ptr<KernelLogWatch> process_kernel_log_watch() {
    static std::mutex m;
    static std::shared_ptr<KernelLogWatch> watch;
    std::lock_guard<std::mutex> lock(m);
    if (!watch) {
        const char* env = std::getenv("GFXSTAT_KMSG");
        watch = KernelLogWatch::open_path(env && *env ? env : "/dev/kmsg");
    }
    return watch;
}

std::string kernel_trouble_reason(const KernelLogFinding& f) {
    std::string s = "kernel: " + f.first_line;
    if (f.trouble_lines > 1)
        s += " (and " + std::to_string(f.trouble_lines - 1) + " more line" + (f.trouble_lines == 2 ? "" : "s") +
             " of kernel trouble)";
    return s;
}

}  // namespace gfxstat::drivers
