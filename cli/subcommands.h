// SPDX-License-Identifier: MIT
// Commands made of subcommands (`gfxstat campaign init ...`,
// `gfxstat lava testdef ...`): one table per command names each
// subcommand, its summary and its entry point, and one dispatcher answers
// what every such command answers alike: __describe, a missing or unknown
// subcommand (with the nearest name), -h/--help/help.
#pragma once

#include <cstdio>
#include <span>

namespace gfxstat::cli {

struct Subcommand {
    const char* name;
    const char* summary;                  // for gfxstat __describe (man page, completion)
    int (*main)(int argc, char** argv);   // argv[0] is the subcommand's name
};

struct SubcommandTable {
    const char* prog;         // "gfxstat campaign"
    const char* description;  // the command's, for gfxstat __describe
    const char* footer;       // "See docs/campaign.md."
    std::span<const Subcommand> subcommands;
    void (*usage)(FILE* out);
    // The exit status of an unknown subcommand: 2, the usage error,
    // unless the command runs where 2 means something else.
    int unknown_status = 2;
};

// Runs the subcommand argv[1] names with argv shifted by one, and returns
// its exit status; prints the usage (on stdout for help, 0; on stderr
// after the error for a missing one, 2, or an unknown one,
// unknown_status).
int run_subcommand(const SubcommandTable& table, int argc, char** argv);

}  // namespace gfxstat::cli
