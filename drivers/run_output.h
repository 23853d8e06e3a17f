// SPDX-License-Identifier: MIT
// Where a run's output goes: captured in memory files while the workload
// runs, parsed in place, and kept in the log directory (created there,
// under its checked descriptor, without following links) when not empty.
// Log names: the results file's id, the label made file-safe, the index.
#pragma once

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

#include "drivers/run_loop.h"

namespace gfxstat::drivers {

// A variant label as a file name: letters, digits, '.', '_', '-' kept, and
// a hash of the label when anything was replaced.
std::string file_safe(const std::string& s);

// The start of a log's name from the results file's id: "" without one.
std::string log_name_prefix(const std::string& id);

// A run's output is captured in memory files (memfd) and written to the
// log directory only when non-empty: creating two files per run costs more
// than running `true`, and most benchmarks print little. The parsers read
// it in place through a read-only mapping: 100 MB of output is not copied
// into a string (docs/run.md, "Memory").
class OutputCapture {
public:
    OutputCapture() {
        for (int i = 0; i < 2; ++i) {
            fd_[i] = memfd_create(i ? "gfxstat-stderr" : "gfxstat-stdout", MFD_CLOEXEC | MFD_ALLOW_SEALING);
            if (fd_[i] < 0) throw std::runtime_error(std::string("memfd_create: ") + std::strerror(errno));
        }
    }
    ~OutputCapture() {
        for (int i = 0; i < 2; ++i) {
            if (map_[i]) munmap(map_[i], size_[i]);
            if (fd_[i] >= 0) close(fd_[i]);
        }
    }
    OutputCapture(const OutputCapture&) = delete;
    OutputCapture& operator=(const OutputCapture&) = delete;
    // A path the process runner can open (and truncate) for stream i.
    std::string path(int i) const { return "/proc/self/fd/" + std::to_string(fd_[i]); }
    // Stream i as written so far, valid while the capture lives. The file
    // is sealed against shrinking first: a background process the run left
    // behind may still hold it, and a truncation under the mapping would
    // be a SIGBUS. What is written after this call is not seen.
    std::string_view text(int i) {
        if (map_[i]) return {static_cast<const char*>(map_[i]), size_[i]};
        fcntl(fd_[i], F_ADD_SEALS, F_SEAL_SHRINK);
        struct stat st {};
        if (fstat(fd_[i], &st) != 0 || st.st_size <= 0) return {};
        void* p = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_SHARED, fd_[i], 0);
        if (p == MAP_FAILED)
            throw std::runtime_error(std::string("cannot map the run's output: ") + std::strerror(errno));
        map_[i] = p;
        size_[i] = static_cast<size_t>(st.st_size);
        return {static_cast<const char*>(p), size_[i]};
    }

private:
    int fd_[2] = {-1, -1};
    void* map_[2] = {nullptr, nullptr};
    size_t size_[2] = {0, 0};
};

// Writes `text` to the new file `name` in the run's log directory when not
// empty; true when a file was kept. A name already taken is never followed
// or truncated, and that or a failed write is a warning in `report`.
bool keep_output(const Execution& ex, const std::string& name, std::string_view text, RunReport& report);

}  // namespace gfxstat::drivers
