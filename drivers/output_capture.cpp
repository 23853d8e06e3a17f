// SPDX-License-Identifier: MIT
#include "drivers/output_capture.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace gfxstat::drivers {

OutputCapture::OutputCapture(bool reusable) : reusable_(reusable) {
    try {
        begin_run();
    } catch (...) {
        for (Stream& s : streams_) close_stream(s);
        throw;
    }
}

OutputCapture::~OutputCapture() {
    for (Stream& s : streams_) close_stream(s);
}

void OutputCapture::open_stream(int i) {
    Stream& s = streams_[i];
    s.fd = memfd_create(i ? "gfxstat-stderr" : "gfxstat-stdout", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (s.fd < 0) throw std::runtime_error(std::string("memfd_create: ") + std::strerror(errno));
    ++files_made_;
    s.path = "/proc/self/fd/" + std::to_string(s.fd);
    // The lease is taken on a read-only file of the memory file: the
    // memfd's own file is not counted as a writer by the kernel, and the
    // lease's holder must be the only file open on the inode.
    if (reusable_ && !leases_refused_) s.probe = open(s.path.c_str(), O_RDONLY | O_CLOEXEC);
}

void OutputCapture::close_stream(Stream& s) noexcept {
    if (s.map) munmap(s.map, s.size);
    if (s.probe >= 0) close(s.probe);
    if (s.fd >= 0) close(s.fd);
    s = Stream();
}

void OutputCapture::begin_run() {
    for (int i = 0; i < 2; ++i)
        if (streams_[i].fd < 0) open_stream(i);
}

// True when no file other than the capture's own is open on the memory
// file: every process of the run has closed (or never had) its stdout.
// Asked once a run. The lease is given back at once: while it is held, a
// process that opens the file would wait for it, and gfxstat would get a
// SIGIO.
bool OutputCapture::alone(Stream& s) noexcept {
    if (s.alone < 0) {
        s.alone = 0;
        if (s.probe >= 0 && fcntl(s.probe, F_SETLEASE, F_WRLCK) == 0) {
            fcntl(s.probe, F_SETLEASE, F_UNLCK);
            s.alone = 1;
        } else if (s.probe >= 0 && errno != EAGAIN) {
            // Leases are off here (/proc/sys/fs/leases-enable, a security
            // module): every run gets new files, and no probe is opened.
            leases_refused_ = true;
        }
    }
    return s.alone == 1;
}

std::string_view OutputCapture::text(int i) {
    Stream& s = streams_[i];
    if (s.map) return {static_cast<const char*>(s.map), s.size};
    if (!(reusable_ && alone(s))) fcntl(s.fd, F_ADD_SEALS, F_SEAL_SHRINK);
    struct stat st {};
    if (fstat(s.fd, &st) != 0 || st.st_size <= 0) {
        s.seen_empty = st.st_size == 0;
        return {};
    }
    void* p = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_SHARED, s.fd, 0);
    if (p == MAP_FAILED) throw std::runtime_error(std::string("cannot map the run's output: ") + std::strerror(errno));
    s.map = p;
    s.size = static_cast<size_t>(st.st_size);
    return {static_cast<const char*>(p), s.size};
}

void OutputCapture::end_run() noexcept {
    for (Stream& s : streams_) {
        if (s.fd < 0) continue;
        if (s.map) munmap(s.map, s.size);
        s.map = nullptr;
        s.size = 0;
        // Emptied now, not at the next run: the memory of a large output
        // is given back before the record is appended (the runner's
        // O_TRUNC would do it only then). A file that was sealed, or that
        // someone else may still write, is not reused.
        if (reusable_ && alone(s) && (s.seen_empty || ftruncate(s.fd, 0) == 0)) {
            s.alone = -1;
            s.seen_empty = false;
        } else {
            close_stream(s);
        }
    }
}

}  // namespace gfxstat::drivers
