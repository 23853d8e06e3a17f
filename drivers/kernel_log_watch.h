// SPDX-License-Identifier: MIT
// Reads the kernel log during runs, so that a run during which the GPU hung
// (or the kernel warned) is not taken for a measurement. The source is
// /dev/kmsg, or a kmsg-format file or FIFO named by GFXSTAT_KMSG (tests,
// and machines whose log is relayed). Only what the kernel logs after the
// watch was opened counts; each run sees what arrived between its
// begin_run and end_run (docs/run.md, "Kernel log").
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "drivers/kernel_trouble.h"

namespace gfxstat::drivers {

// One kmsg record: "PRIO,SEQ,TIMESTAMP_US,FLAGS[,...];MESSAGE", the
// message's \xHH escapes decoded (the kernel escapes control characters
// and non-ASCII bytes that way). PRIO holds facility * 8 + level.
struct KmsgRecord {
    int level = 0;          // 0 (emerg) .. 7 (debug)
    uint64_t seq = 0;
    std::string message;
};

// Parses one record line (without its newline). Continuation lines (they
// begin with a space: " SUBSYSTEM=drm") and lines that are not records
// give nothing.
std::optional<KmsgRecord> parse_kmsg_line(std::string_view line);

// "\x1b" -> the byte 0x1b; anything else is kept as it is.
std::string decode_kmsg_escapes(std::string_view text);

// What one run's stretch of the log held.
struct KernelLogFinding {
    size_t trouble_lines = 0;       // lines match_kernel_trouble matched
    std::string first_line;         // the first of them, decoded, raw (may hold control characters)
    KernelTrouble first;            // what it was
    bool overflowed = false;        // /dev/kmsg overwrote records before they were read
};

class KernelLogWatch {
public:
    // Opens `path` (a kmsg character device, a regular file or a FIFO)
    // without blocking, at its end. One that cannot be opened leaves the
    // watch off, with why_not() saying what is not watched.
    static std::unique_ptr<KernelLogWatch> open_path(const std::string& path);
    ~KernelLogWatch();
    KernelLogWatch(const KernelLogWatch&) = delete;
    KernelLogWatch& operator=(const KernelLogWatch&) = delete;

    bool watching() const { return fd_ >= 0; }
    // The one warning for the user when not watching ("" when watching).
    const std::string& why_not() const { return why_not_; }
    const std::string& path() const { return path_; }

    // Starts a run's stretch: what arrived since the last end_run (between
    // runs) is read and set aside; its trouble, if any, is returned so that
    // the caller can say so, but it is no run's.
    KernelLogFinding begin_run();
    // Ends the stretch: everything that arrived since begin_run.
    KernelLogFinding end_run();

private:
    KernelLogWatch() = default;
    // Reads everything pending into `f`.
    void drain(KernelLogFinding& f);
    void take_line(std::string_view line, KernelLogFinding& f);

    int fd_ = -1;
    std::string path_, why_not_;
    std::string partial_;   // a line not yet ended by its newline
};

// The watch every run of this process shares: opened on the first call,
// from GFXSTAT_KMSG when set, else /dev/kmsg. run, ab and campaign print
// its why_not() once, before their first run.
std::shared_ptr<KernelLogWatch> process_kernel_log_watch();

// A run's reason when the kernel reported trouble during it: "kernel: " and
// the line, made one line (control characters as spaces), with how many
// more trouble lines followed.
std::string kernel_trouble_reason(const KernelLogFinding& f);

}  // namespace gfxstat::drivers
