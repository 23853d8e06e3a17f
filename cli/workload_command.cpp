// SPDX-License-Identifier: MIT
// gfxstat workload NAME: one of gfxstat's built-in workloads, run once and
// printed in the lines its parser reads (`gfxstat run --workload NAME` runs
// it as a child process). Exit statuses: 0 done; 2 usage errors or a bad
// --device; 77 the machine cannot run it; 1 it failed otherwise
// (drivers/drm_workloads.h).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>

#include "cli/command_line.h"
#include "cli/run_command.h"
#include "drivers/workload_setup.h"
#include "drivers/drm_workloads.h"
#include "drivers/wakeup_latency.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

using text::escape_message;

int workload_main(int argc, char** argv) {
    CLI::App app{"gfxstat's built-in workloads (run them with gfxstat run --workload NAME).", "gfxstat workload"};
    std::string name, device;
    drivers::WakeupOptions o;
    uint64_t iterations = 0, size = 1 << 20;
    unsigned burst = 8;
    app.add_option("name", name, "wakeup-latency, drm-ioctl, drm-gem, i915-exec-nop")
        ->required()
        ->check(CLI::IsMember(kWorkloads));
    app.add_option("--duration", o.duration_s,
                   "wakeup-latency, i915-exec-nop: seconds of measuring (per engine; default 1)")
        ->check(number_in(0.001, 3600));
    app.add_option("--interval", o.interval_us, "wakeup-latency: microseconds between deadlines (default 1000)")
        ->check(number_in(10, 1e7));
    app.add_option("--load-threads", o.load_threads, "wakeup-latency: busy background threads (default 0)")
        ->check(CLI::Range(0, 1024));
    app.add_option("--device", device, "DRM workloads: the node (default: the first fitting device)");
    app.add_option("--iterations", iterations, "drm-ioctl (default 10000), drm-gem (default 200): timed iterations")
        ->check(CLI::Range(uint64_t{1}, uint64_t{10000000}));
    app.add_option("--size", size, "drm-gem: bytes per dumb buffer, a multiple of 4 (default 1048576)")
        ->check(CLI::Range(uint64_t{4}, uint64_t{0xFFFFF000}));
    app.add_option("--burst", burst, "i915-exec-nop: batches per engine per round-robin turn (default 8)")
        ->check(CLI::Range(1u, 1000000u));
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    const std::string prog = "gfxstat workload " + name;
    const auto given = [&](const char* opt) { return app.get_option(opt)->count() > 0; };
    const struct {
        const char* option;
        std::vector<std::string> workloads;
    } own[] = {{"--duration", {"wakeup-latency", "i915-exec-nop"}},
               {"--interval", {"wakeup-latency"}},
               {"--load-threads", {"wakeup-latency"}},
               {"--device", {"drm-ioctl", "drm-gem", "i915-exec-nop"}},
               {"--iterations", {"drm-ioctl", "drm-gem"}},
               {"--size", {"drm-gem"}},
               {"--burst", {"i915-exec-nop"}}};
    for (const auto& x : own)
        if (given(x.option) && std::find(x.workloads.begin(), x.workloads.end(), name) == x.workloads.end()) {
            std::fprintf(stderr, "%s: %s does not go with %s\n", prog.c_str(), x.option, name.c_str());
            return 2;
        }
    if (name == "wakeup-latency") {
        const drivers::WakeupResult r = drivers::measure_wakeups(o);
        drivers::print_wakeup_report(r, stdout);
        return 0;
    }
    try {
        if (name == "drm-ioctl") {
            drivers::DrmIoctlOptions io;
            io.device = device;
            if (iterations) io.iterations = iterations;
            drivers::print_drm_ioctl_report(drivers::run_drm_ioctl(io), stdout);
        } else if (name == "drm-gem") {
            drivers::DrmGemOptions go;
            go.device = device;
            go.size = size;
            if (iterations) go.iterations = iterations;
            drivers::print_drm_gem_report(drivers::run_drm_gem(go), stdout);
        } else {
            drivers::I915ExecNopOptions no;
            no.device = device;
            no.duration_s = o.duration_s;
            no.burst = burst;
            drivers::print_i915_exec_nop_report(drivers::run_i915_exec_nop(no), stdout);
        }
    } catch (const drivers::DrmWorkloadError& e) {
        std::fprintf(stderr, "%s: %s\n", prog.c_str(), escape_message(e.what()).c_str());
        return e.exit_code();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", prog.c_str(), escape_message(e.what()).c_str());
        return 1;
    }
    return 0;
}

}  // namespace gfxstat::cli
