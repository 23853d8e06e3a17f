// SPDX-License-Identifier: MIT
// The GPU time sampler's cost per tick (drivers/gpu_usage_sampler.h) on
// a machine with many processes: starts IDLE idle processes that are not
// the workload's, then runs a workload tree (a shell with a few children,
// each holding open files) under the sampler at 10 Hz, and prints the
// sampler thread's CPU time per tick and as a share of one core. For
// comparison, the cost of one pass over every /proc/PID/stat, what a
// tree found by scanning /proc would cost per tick.
//
// Usage: gfxstat_gpu_usage_bench [IDLE (1000)] [SECONDS (3)]
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "drivers/gpu_usage_sampler.h"
#include "drivers/process_runner.h"

using namespace gfxstat::drivers;

namespace {

uint64_t thread_cpu_ns() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

// One pass over /proc/*/stat: what each tick would cost if the tree were
// found by scanning every process.
size_t scan_all_stats() {
    size_t n = 0;
    DIR* d = opendir("/proc");
    if (!d) return 0;
    char path[300], buf[1024];
    while (const dirent* e = readdir(d)) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
        std::snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        const int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        if (read(fd, buf, sizeof buf) > 0) ++n;
        close(fd);
    }
    closedir(d);
    return n;
}

}  // namespace

int main(int argc, char** argv) {
    const int idle = argc > 1 ? std::atoi(argv[1]) : 1000;
    const double seconds = argc > 2 ? std::atof(argv[2]) : 3;
    if (idle < 0 || !(seconds > 0)) {
        std::fprintf(stderr, "usage: %s [IDLE] [SECONDS]\n", argv[0]);
        return 2;
    }
    std::vector<pid_t> idlers;
    for (int i = 0; i < idle; ++i) {
        const pid_t p = fork();
        if (p < 0) {
            std::perror("fork");
            break;
        }
        if (p == 0) {
            pause();
            _exit(0);
        }
        idlers.push_back(p);
    }

    size_t procs = 0;
    const uint64_t s0 = thread_cpu_ns();
    constexpr int kScans = 20;
    for (int i = 0; i < kScans; ++i) procs = scan_all_stats();
    const double scan_us = double(thread_cpu_ns() - s0) / kScans / 1e3;

    GpuUsageSampler sampler(0.1);
    ProcessSpec spec;
    const std::string s = std::to_string(seconds);
    // Four processes, each with a few more open files than a shell has.
    spec.argv = {"sh", "-c", "exec 3</dev/null 4</dev/null 5</dev/null; sleep " + s + " & sleep " + s +
                                 " & sleep " + s + " & wait"};
    spec.end_group = true;
    spec.on_started = [&](int pid) { sampler.start(pid); };
    run_process(spec);
    sampler.stop();
    const auto c = sampler.cost();

    for (pid_t p : idlers) kill(p, SIGKILL);
    for (pid_t p : idlers) waitpid(p, nullptr, 0);

    const double per_tick_us = c.ticks ? double(c.cpu_ns) / double(c.ticks) / 1e3 : 0;
    std::printf("machine: %zu processes (%d idle ones started here)\n", procs, idle);
    std::printf("sampler: %zu ticks, largest tree %zu processes, %.1f us CPU per tick, %.3f%% of a core at 10 Hz\n",
                c.ticks, c.most_processes, per_tick_us, per_tick_us * 10 / 1e6 * 100);
    std::printf("for comparison, one pass over every /proc/PID/stat: %.1f us (%.2f%% of a core at 10 Hz)\n",
                scan_us, scan_us * 10 / 1e6 * 100);
    return 0;
}
