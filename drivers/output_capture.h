// SPDX-License-Identifier: MIT
// A run's stdout and stderr, captured in memory files (memfd) while the
// workload runs and read in place afterwards: creating two files per run
// costs more than running `true`, and most benchmarks print little, so the
// log directory gets a file only for output that is not empty. The parsers
// read the output through a read-only mapping: 100 MB of output is not
// copied into a string (docs/run.md, "Memory").
//
// The run loop keeps one capture for all its runs (`reusable`): between
// runs the memory files are emptied and given to the next run, unless
// something other than gfxstat may still write them. A workload can leave
// a process behind that holds its stdout (a daemon that escaped its
// process group, a descriptor passed away); that process must not write
// into the next run's output. So a memory file is reused only when no
// file but gfxstat's own is open on it: the child gets its streams from
// opening /proc/self/fd/N (a file of its own, never gfxstat's), and a
// write lease (fcntl F_SETLEASE F_WRLCK), which the kernel grants only
// when no other file is open on the inode, tells that every such file is
// closed (also one kept alive by a mapping). When the lease is refused
// (a writer is left, or leases are off: /proc/sys/fs/leases-enable, a
// security module), that run's files are sealed against shrinking, as a
// single-run capture's are, and the next run gets new ones.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gfxstat::drivers {

class OutputCapture {
public:
    // Throws std::runtime_error when the memory files cannot be made.
    explicit OutputCapture(bool reusable = false);
    ~OutputCapture();
    OutputCapture(const OutputCapture&) = delete;
    OutputCapture& operator=(const OutputCapture&) = delete;

    // Before a run: new memory files for those that were not kept (a
    // reusable capture after end_run). Throws like the constructor.
    void begin_run();
    // A path the process runner can open (and truncate) for stream i
    // (0: stdout, 1: stderr): "/proc/self/fd/N".
    const std::string& path(int i) const { return streams_[i].path; }
    // Stream i as written so far, valid until end_run (or the capture's
    // end). Unless the file is known to have no other writer left, it is
    // sealed against shrinking first: a background process the run left
    // behind may still hold it, and a truncation under the mapping would
    // be a SIGBUS. What is written after this call is not seen.
    std::string_view text(int i);
    // After a run of a reusable capture: the mappings go, and each memory
    // file is emptied for the next run when only gfxstat has it open, or
    // else closed (begin_run makes a new one). Never throws.
    void end_run() noexcept;

    // For tests: how many memory files this capture has made.
    size_t files_made() const { return files_made_; }

private:
    struct Stream {
        int fd = -1;     // the memory file (O_RDWR, close-on-exec)
        int probe = -1;  // a read-only file of it, for the lease (reusable only)
        void* map = nullptr;
        size_t size = 0;
        bool seen_empty = false;  // text() found nothing written
        int alone = -1;  // -1: not asked this run; 1: no other file open on it; 0: maybe
        std::string path;
    };
    void open_stream(int i);
    void close_stream(Stream& s) noexcept;
    bool alone(Stream& s) noexcept;

    Stream streams_[2];
    bool reusable_ = false;
    bool leases_refused_ = false;  // F_SETLEASE failed otherwise than EAGAIN
    size_t files_made_ = 0;
};

}  // namespace gfxstat::drivers
