// SPDX-License-Identifier: MIT
// The check before measuring: what on this machine would add noise to a
// measurement, each with what to do about it. `run`, `ab` and `campaign
// resume` print the problems once before the first run; `gfxstat tune show`
// prints every item as a table. Everything is read under system_root().
#pragma once

#include <string>
#include <vector>

#include "drivers/drm_fdinfo.h"

namespace gfxstat::drivers {

struct MachineFinding {
    // governor, turbo, gpu_frequency, battery, load, drm_clients, swap,
    // tuned_earlier, tuned_now, tune_state (a state file that cannot be read)
    std::string id;
    std::string what;    // for a table's first column: "CPU governor"
    std::string state;   // what was found: "powersave on cpu0-1,3"
    std::string advice;  // what to do; "" when nothing needs doing
    // A problem adds noise (or, for tuned_earlier, a stale state); the
    // warning prints problems only.
    bool problem = false;
};

// A source the check looked for and this machine lacks, for `tune show`
// to say what it could not check: "cpufreq control" and why, "no
// /sys/devices/system/cpu/cpu0/cpufreq".
struct MissingSource {
    std::string id;    // the finding's id it would have given: governor, turbo, ...
    std::string what;  // "cpufreq control"
    std::string why;   // "no /sys/devices/system/cpu/cpu0/cpufreq"
};

// The load average above which the check speaks: one runnable task per
// online CPU, plus one. The load average is not per CPU: it counts the
// tasks that run or wait for a CPU, averaged over the last minute. A
// load of n on n CPUs keeps every CPU busy with something else, so the
// workload (or the driver thread that feeds the GPU) waits for one; the
// one more is the run's own share, since a run that just ended (the runs
// before it, ab's other variant, the campaign's last step) stays in the
// one-minute average for a minute after it. Below that, the background
// of a small box (a desktop, a CI agent on 2 cores at a load of 1.5)
// leaves a CPU free; a competing build (make -j2 on 2 cores) or a
// busy-loop per CPU goes above it.
double high_load_threshold(unsigned cpus);

// The check. `clients` are the open DRM files of the machine
// (list_drm_clients(system_root())); those of `self_pid` (gfxstat itself,
// before the workload starts) are left out. An item whose source this
// machine lacks (no cpufreq, no GPU with frequency controls, no battery)
// gives no finding; when `missing` is given, it gets one entry for each
// such source, in the order of the findings.
std::vector<MachineFinding> check_machine(const std::vector<DrmClient>& clients, int self_pid,
                                          std::vector<MissingSource>* missing = nullptr);

// The same with the machine's own clients and this process.
std::vector<MachineFinding> check_machine(std::vector<MissingSource>* missing = nullptr);

// "Xorg (pid 812) and firefox (pid 1440) also use card0": the processes
// other than `self_pid` holding each card, one clause per card, "; "
// between cards. "" when there are none.
std::string other_drm_clients_text(const std::vector<DrmClient>& clients, int self_pid);

}  // namespace gfxstat::drivers
