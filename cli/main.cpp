// gfxstat: run GPU tests and benchmarks, keep every sample, and decide with
// honest statistics whether a patch changed performance.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "cli/ab_command.h"
#include "cli/campaign_command.h"
#include "cli/command_line.h"
#include "cli/compare_command.h"
#include "cli/devices_command.h"
#include "cli/import_command.h"
#include "cli/merge_command.h"
#include "cli/ministat_command.h"
#include "cli/nearest_word.h"
#include "cli/run_command.h"
#include "cli/show_command.h"
#include "cli/summary_command.h"
#include "cli/tune_command.h"
#include "cli/version_command.h"
#include "report/text_escape.h"

namespace {

void usage(FILE* out) {
    std::fprintf(out,
                 "usage: gfxstat COMMAND [ARGS...]\n"
                 "\n"
                 "commands:\n"
                 "  ministat   ministat's report (histogram, summary, Student's t), numerically\n"
                 "             correct; also runs as a symlink named 'ministat'\n"
                 "  summary    N, min, quartiles, max, mean, stddev per file (--json)\n"
                 "  compare    a verdict per metric: t and rank tests, effect sizes,\n"
                 "             equivalence, runs needed; --gate for CI (text/markdown/json)\n"
                 "  import     other tools' output (lines, csv, hyperfine, gbench, gotest,\n"
                 "             ezbench, pts) into a results file\n"
                 "  show       what a results file holds: variants, metrics, runs per boot,\n"
                 "             excluded runs, environment differences (--json)\n"
                 "  merge      combine results files, keeping provenance\n"
                 "  run        run a command or built-in workload repeatedly, recording every\n"
                 "             run (exit class, metrics, boot, environment, logs)\n"
                 "  workload   gfxstat's built-in workloads (wakeup-latency, drm-ioctl, drm-gem,\n"
                 "             i915-exec-nop), for run --workload\n"
                 "  ab         two or more builds interleaved in blocks until a sequential\n"
                 "             test settles the verdict, then compare's report (--gate)\n"
                 "  campaign   A/B campaigns over many boots that survive reboots and crashes:\n"
                 "             init, resume (at every boot), status, stop, install-service, analyze\n"
                 "  devices    the DRM devices (libdrm): nodes, driver, bus, runnable workloads\n"
                 "             (--json)\n"
                 "  tune       show what could add noise before measuring; apply steady CPU and GPU\n"
                 "             settings (governor, turbo, GPU frequency) and reset them exactly\n"
                 "\n"
                 "  version    gfxstat's version (also: gfxstat --version)\n"
                 "\n"
                 "'gfxstat COMMAND --help' for a command's options.\n");
}

// The commands, for "did you mean" and for naming the command in errors.
const std::vector<std::string> kCommands{"ministat", "summary", "compare",  "import", "show",  "merge",   "run",
                                         "workload", "ab",      "campaign", "devices", "tune", "version"};

std::string base_name(const char* path) {
    const char* slash = std::strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int dispatch(int argc, char** argv) {
    if (base_name(argv[0]) == "ministat")
        return gfxstat::cli::ministat_main(argc, argv, "ministat");
    if (argc < 2) {
        std::fprintf(stderr, "gfxstat: missing COMMAND\n");
        usage(stderr);
        return 2;
    }
    const std::string cmd = argv[1];
    if (cmd == "ministat") {
        static char name[] = "gfxstat ministat";
        argv[1] = name;
        return gfxstat::cli::ministat_main(argc - 1, argv + 1, name);
    }
    if (cmd == "summary") return gfxstat::cli::summary_main(argc - 1, argv + 1);
    if (cmd == "import") return gfxstat::cli::import_main(argc - 1, argv + 1);
    if (cmd == "show") return gfxstat::cli::show_main(argc - 1, argv + 1);
    if (cmd == "merge") return gfxstat::cli::merge_main(argc - 1, argv + 1);
    if (cmd == "compare") return gfxstat::cli::compare_main(argc - 1, argv + 1);
    if (cmd == "run") return gfxstat::cli::run_main(argc - 1, argv + 1);
    if (cmd == "ab") return gfxstat::cli::ab_main(argc - 1, argv + 1);
    if (cmd == "campaign") return gfxstat::cli::campaign_main(argc - 1, argv + 1);
    if (cmd == "devices") return gfxstat::cli::devices_main(argc - 1, argv + 1);
    if (cmd == "tune") return gfxstat::cli::tune_main(argc - 1, argv + 1);
    if (cmd == "workload") return gfxstat::cli::workload_main(argc - 1, argv + 1);
    if (cmd == "version" || cmd == "--version") return gfxstat::cli::version_main(argc - 1, argv + 1);
    if (cmd == "-h" || cmd == "--help" || cmd == "help") {
        usage(stdout);
        return 0;
    }
    const bool option = cmd.rfind('-', 0) == 0;
    std::fprintf(stderr, "gfxstat: unknown %s '%s'%s\n", option ? "option" : "command",
                 gfxstat::report::escape_text(cmd).c_str(),
                 gfxstat::cli::did_you_mean(cmd, option ? std::vector<std::string>{"--help", "--version"} : kCommands)
                     .c_str());
    std::fprintf(stderr, "gfxstat: see 'gfxstat --help'\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    // Named before the command runs (ministat's argv is rewritten).
    const std::string prog = gfxstat::cli::command_prefix(argc, argv, kCommands);
    int status = 2;
    try {
        status = dispatch(argc, argv);
    } catch (const std::exception& e) {
        // What no command caught (out of memory, a failed thread): said as
        // an error of the command, after the stack unwound (a tuned
        // machine is restored on the way), never an abort.
        std::fprintf(stderr, "%s: %s\n", prog.c_str(), gfxstat::report::escape_message(e.what()).c_str());
    }
    return gfxstat::cli::check_output_written(prog, status);
}
