// SPDX-License-Identifier: MIT
// gfxstat: run GPU tests and benchmarks, keep every sample, and decide with
// honest statistics whether a patch changed performance.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "cli/ab_command.h"
#include "cli/campaign_command.h"
#include "cli/command_describe.h"
#include "cli/command_line.h"
#include "cli/command_table.h"
#include "cli/compare_command.h"
#include "cli/complete_command.h"
#include "cli/devices_command.h"
#include "cli/import_command.h"
#include "cli/merge_command.h"
#include "cli/ministat_command.h"
#include "text/nearest_word.h"
#include "cli/run_command.h"
#include "cli/show_command.h"
#include "cli/summary_command.h"
#include "cli/tune_command.h"
#include "cli/version_command.h"
#include "text/text_escape.h"

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

// The commands, for "did you mean" and for naming the command in errors.
std::vector<std::string> command_names() {
    std::vector<std::string> names;
    for (const auto& c : gfxstat::cli::command_table()) names.emplace_back(c.name);
    return names;
}

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
    // Hidden: what the man pages and the shell completion are made from.
    if (cmd == "__describe") return gfxstat::cli::describe_main(argc - 1, argv + 1);
    if (cmd == "__complete") return gfxstat::cli::complete_main(argc - 1, argv + 1);
    if (const auto* c = gfxstat::cli::find_command(cmd)) return c->main(argc - 1, argv + 1);
    if (cmd == "--version") return gfxstat::cli::version_main(argc - 1, argv + 1);
    if (cmd == "-h" || cmd == "--help" || cmd == "help") {
        usage(stdout);
        return 0;
    }
    const bool option = cmd.rfind('-', 0) == 0;
    std::fprintf(stderr, "gfxstat: unknown %s '%s'%s\n", option ? "option" : "command",
                 gfxstat::text::escape_text(cmd).c_str(),
                 gfxstat::text::did_you_mean(cmd, option ? std::vector<std::string>{"--help", "--version"} : command_names())
                     .c_str());
    std::fprintf(stderr, "gfxstat: see 'gfxstat --help'\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    // Named before the command runs (ministat's argv is rewritten).
    const std::string prog = gfxstat::cli::command_prefix(argc, argv, command_names());
    int status = 2;
    try {
        status = dispatch(argc, argv);
    } catch (const std::exception& e) {
        // What no command caught (out of memory, a failed thread): said as
        // an error of the command, after the stack unwound (a tuned
        // machine is restored on the way), never an abort.
        std::fprintf(stderr, "%s: %s\n", prog.c_str(), gfxstat::text::escape_message(e.what()).c_str());
    }
    return gfxstat::cli::check_output_written(prog, status);
}
