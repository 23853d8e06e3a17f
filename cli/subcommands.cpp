// SPDX-License-Identifier: MIT
#include "cli/subcommands.h"

#include <string>
#include <vector>

#include "cli/command_describe.h"
#include "text/nearest_word.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

int run_subcommand(const SubcommandTable& table, int argc, char** argv) {
    std::vector<SubcommandSummary> summaries;
    std::vector<std::string> names;
    for (const Subcommand& s : table.subcommands) {
        summaries.push_back({s.name, s.summary});
        names.push_back(s.name);
    }
    if (argc < 2 && describe_requested())
        return describe_fixed({table.prog, table.description, table.footer, {}, summaries, {}});
    if (argc < 2) {
        std::fprintf(stderr, "%s: missing SUBCOMMAND\n", table.prog);
        table.usage(stderr);
        return 2;
    }
    const std::string sub = argv[1];
    if (sub == "-h" || sub == "--help" || sub == "help") {
        table.usage(stdout);
        return 0;
    }
    for (const Subcommand& s : table.subcommands)
        if (sub == s.name) return s.main(argc - 1, argv + 1);
    std::fprintf(stderr, "%s: unknown subcommand '%s'%s\n", table.prog, text::escape_text(sub).c_str(),
                 text::did_you_mean(sub, names).c_str());
    table.usage(stderr);
    return table.unknown_status;
}

}  // namespace gfxstat::cli
