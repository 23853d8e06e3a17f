// gfxstat: run GPU tests and benchmarks, keep every sample, and decide with
// honest statistics whether a patch changed performance.
#include <cstdio>
#include <cstring>
#include <string>

#include "cli/ab_command.h"
#include "cli/campaign_command.h"
#include "cli/command_describe.h"
#include "cli/command_table.h"
#include "cli/compare_command.h"
#include "cli/complete_command.h"
#include "cli/devices_command.h"
#include "cli/import_command.h"
#include "cli/merge_command.h"
#include "cli/ministat_command.h"
#include "cli/run_command.h"
#include "cli/show_command.h"
#include "cli/summary_command.h"
#include "cli/tune_command.h"
#include "report/text_escape.h"

namespace {

void usage(FILE* out) {
    std::fprintf(out,
                 "usage: gfxstat COMMAND [ARGS...]\n"
                 "\n"
                 "%s"
                 "\n"
                 "'gfxstat COMMAND --help' for a command's options.\n",
                 gfxstat::cli::command_list_text().c_str());
}

std::string base_name(const char* path) {
    const char* slash = std::strrchr(path, '/');
    return slash ? slash + 1 : path;
}

}  // namespace

int main(int argc, char** argv) {
    if (base_name(argv[0]) == "ministat")
        return gfxstat::cli::ministat_main(argc, argv, "ministat");
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const std::string cmd = argv[1];
    if (cmd == "ministat") {
        static char name[] = "gfxstat ministat";
        argv[1] = name;
        return gfxstat::cli::ministat_main(argc - 1, argv + 1, name);
    }
    // Hidden: what the man pages and the shell completion are made from.
    if (cmd == "__describe") return gfxstat::cli::describe_main(argc - 1, argv + 1);
    if (cmd == "__complete") return gfxstat::cli::complete_main(argc - 1, argv + 1);
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
    if (cmd == "-h" || cmd == "--help" || cmd == "help") {
        usage(stdout);
        return 0;
    }
    std::fprintf(stderr, "gfxstat: unknown command '%s'\n", gfxstat::report::escape_text(cmd).c_str());
    usage(stderr);
    return 2;
}
