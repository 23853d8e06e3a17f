// SPDX-License-Identifier: MIT
#include "cli/complete_command.h"

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cli/command_describe.h"
#include "cli/command_table.h"
#include "findings/results_names.h"
#include "report/completion_words.h"

namespace gfxstat::cli {
namespace {

using report::DescribedCommand;

void print_words(const std::vector<std::string>& words) { report::print_completion_words(words, stdout); }

// The command words at the start of `args` and their descriptions
// (report/completion_words.h), or nothing when they name no command.
std::optional<DescribedCommand> describe_words(const std::vector<std::string>& args) {
    if (args.empty() || !find_command(args[0])) return std::nullopt;
    DescribedCommand d;
    d.words = {args[0]};
    auto top = describe_command(d.words);
    if (!top) return std::nullopt;
    if (!top->subcommands.empty()) {
        if (args.size() < 2) return std::nullopt;
        bool known = false;
        for (const auto& s : top->subcommands) known |= s.name == args[1];
        if (!known) return std::nullopt;
        d.words.push_back(args[1]);
        top = describe_command(d.words);
        if (!top) return std::nullopt;
    }
    d.used = d.words.size();
    const auto from = top->options_from;
    d.descriptions.push_back(std::move(*top));
    for (const auto& w : from)
        if (auto more = describe_command(w)) d.descriptions.push_back(std::move(*more));
    return d;
}

int complete(const std::vector<std::string>& args) {
    if (args.empty()) return 0;
    const std::string& kind = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (kind == "commands") {
        std::vector<std::string> names;
        for (const auto& c : command_table()) names.push_back(c.name);
        // The first word may also be gfxstat's own options.
        names.insert(names.end(), {"--help", "--version"});
        print_words(names);
    } else if (kind == "subcommands") {
        if (rest.empty() || !find_command(rest[0])) return 0;
        if (const auto d = describe_command({rest[0]})) {
            std::vector<std::string> names;
            for (const auto& s : d->subcommands) names.push_back(s.name);
            print_words(names);
        }
    } else if (kind == "options") {
        if (const auto d = describe_words(rest)) print_words(report::completion_options(*d));
    } else if (kind == "values" || kind == "kind") {
        const auto d = describe_words(rest);
        if (!d || rest.size() <= d->used) return 0;
        const OptionDescription* o = report::find_option(*d, rest[d->used]);
        if (!o) return 0;
        if (kind == "values") print_words(report::completion_values(*d, *o));
        else std::printf("%s\n", report::completion_kind(*d, *o).c_str());
    } else if (kind == "variants") {
        print_words(findings::results_variants(rest));
    } else if (kind == "metrics") {
        print_words(findings::results_metrics(rest));
    }
    return 0;
}

}  // namespace

int complete_main(int argc, char** argv) {
    // Nothing of a failure reaches the user's line: the words are printed
    // only once everything was read, and an error leaves them all out.
    try {
        std::vector<std::string> args(argv + 1, argv + argc);
        std::fflush(stdout);
        return complete(args);
    } catch (...) {
        return 0;
    }
}

}  // namespace gfxstat::cli
