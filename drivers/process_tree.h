// SPDX-License-Identifier: MIT
// The processes of a running workload: the process gfxstat started and
// its descendants, read from the real /proc (the workload's processes are
// real, whatever GFXSTAT_SYSFS_ROOT says; drivers/system_root.h).
//
// Why descendants by parent, not the process group: a workload's helpers
// may leave the group (a test harness that gives each test its own group,
// a shell with job control, setsid), but they stay its children. The
// walk follows /proc/PID/task/TID/children from the root, so a refresh
// costs reads of the tree's own processes and threads only, however many
// processes the machine runs (bench/gpu_usage_sampler.sh). A process once
// seen stays a member while it lives, even when its parent exits and it
// is reparented: a pid is matched with its start time, so a reused pid is
// not taken for the member it replaced. A descendant whose parent exited
// before any refresh saw it (a double fork between two refreshes) is not
// found. On kernels without the children files (CONFIG_PROC_CHILDREN off)
// every /proc/PID/stat is read instead: the cost then grows with the
// machine's process count.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gfxstat::drivers {

class ProcessTree {
public:
    // `proc`: where /proc is ("/proc"; another tree for tests).
    explicit ProcessTree(int root_pid, std::string proc = "/proc");

    // The live (not zombie) members now, root first, then in the order
    // found. Processes that ended or cannot be read are dropped.
    std::vector<int> refresh();

    // Whether the last refresh had to read all of /proc (no children files).
    bool scanned_all() const { return scanned_all_; }

private:
    struct Stat {
        char state = 0;
        int ppid = 0;
        uint64_t start = 0;  // clock ticks after boot: with the pid, a process's identity
    };
    bool read_stat(int pid, Stat& st) const;
    // Appends the children of every thread of `pid`; false when the
    // kernel has no children files.
    bool read_children(int pid, std::vector<int>& out) const;
    void scan_all(std::vector<int>& live);

    int root_;
    std::string proc_;
    std::map<int, uint64_t> members_;  // pid -> start time
    bool scanned_all_ = false;
};

}  // namespace gfxstat::drivers
