// SPDX-License-Identifier: MIT
#include "cli/command_table.h"

#include "cli/ab_command.h"
#include "cli/bisect_command.h"
#include "cli/campaign_command.h"
#include "cli/compare_command.h"
#include "cli/devices_command.h"
#include "cli/history_command.h"
#include "cli/import_command.h"
#include "cli/lava_command.h"
#include "cli/merge_command.h"
#include "cli/report_command.h"
#include "cli/ministat_command.h"
#include "cli/run_command.h"
#include "cli/show_command.h"
#include "cli/store_command.h"
#include "cli/summary_command.h"
#include "cli/tune_command.h"
#include "cli/version_command.h"

namespace gfxstat::cli {
namespace {

// ministat_main takes the name it prints in messages; as a subcommand it is
// "gfxstat ministat", as main() calls it.
int ministat_entry(int argc, char** argv) {
    static char name[] = "gfxstat ministat";
    argv[0] = name;
    return ministat_main(argc, argv, name);
}

constexpr CommandEntry kCommands[] = {
    {"ministat",
     "ministat's report (histogram, summary, Student's t), numerically\n"
     "correct; also runs as a symlink named 'ministat'",
     ministat_entry},
    {"summary", "N, min, quartiles, max, mean, stddev per file (--json)", summary_main},
    {"compare",
     "a verdict per metric: t and rank tests, effect sizes,\n"
     "equivalence, runs needed; --gate for CI (text/markdown/json)",
     compare_main},
    {"import",
     "other tools' output (lines, csv, hyperfine, gbench, gotest,\n"
     "ezbench, pts, lava) into a results file",
     import_main},
    {"show",
     "what a results file holds: variants, metrics, runs per boot,\n"
     "excluded runs, environment differences (--json)",
     show_main},
    {"merge", "combine results files, keeping provenance", merge_main},
    {"store",
     "a results store (SQLite) that CI jobs push to: init, push, ls,\n"
     "get (a selection back as a results file), check, upgrade",
     store_main},
    {"run",
     "run a command or built-in workload repeatedly, recording every\n"
     "run (exit class, metrics, boot, environment, logs)",
     run_main},
    {"workload",
     "gfxstat's built-in workloads (wakeup-latency, drm-ioctl, drm-gem,\n"
     "i915-exec-nop), for run --workload",
     workload_main},
    {"ab",
     "two or more builds interleaved in blocks until a sequential\n"
     "test settles the verdict, then compare's report (--gate)",
     ab_main},
    {"campaign",
     "A/B campaigns over many boots that survive reboots and crashes:\n"
     "init, resume (at every boot), status, stop, install-service, analyze",
     campaign_main},
    {"bisect",
     "which commit changed performance: check, step (for git bisect\n"
     "run: exit 0 good, 1 bad, 125 skip) and report, with an error budget",
     bisect_main},
    {"history",
     "change points along a series of builds: segments, each change's\n"
     "builds, size and p, and its git bisect command (exit 1: changed)",
     history_main},
    {"report",
     "compare's analysis drawn into one self-contained HTML page:\n"
     "distributions, run order, boot means, forest plot, environment",
     report_main},
    {"lava",
     "LAVA test definitions and jobs that run gfxstat run, ab or\n"
     "campaign inside a LAVA test shell (testdef)",
     lava_main},
    {"devices",
     "the DRM devices (libdrm): nodes, driver, bus, runnable workloads\n"
     "(--json)",
     devices_main},
    {"tune",
     "show what could add noise before measuring; apply steady CPU and GPU\n"
     "settings (governor, turbo, GPU frequency) and reset them exactly",
     tune_main},
    {"version", "gfxstat's version (also: gfxstat --version; --json)", version_main},
};

}  // namespace

std::span<const CommandEntry> command_table() { return kCommands; }

const CommandEntry* find_command(std::string_view name) {
    for (const auto& c : kCommands)
        if (name == c.name) return &c;
    return nullptr;
}

std::string one_line_summary(const CommandEntry& c) {
    std::string s = c.summary;
    for (char& ch : s)
        if (ch == '\n') ch = ' ';
    return s;
}

std::string command_list_text() {
    std::string out = "commands:\n";
    for (const auto& c : kCommands) {
        std::string line = std::string("  ") + c.name;
        line.resize(13, ' ');
        for (const char* p = c.summary; *p; ++p) {
            line += *p;
            if (*p == '\n') line += "             ";
        }
        out += line + "\n";
    }
    return out;
}

}  // namespace gfxstat::cli
