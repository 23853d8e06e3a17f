// SPDX-License-Identifier: MIT
#include "cli/command_describe.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/command_table.h"
#include "formats/registry.h"

namespace gfxstat::cli {
namespace {

// The pending request and what the command gave for it. One at a time:
// gfxstat describes one command per process (completion asks a second one
// for campaign analyze's compare options only after the first is done).
struct DescribeRequest {
    bool active = false;
    std::optional<CommandDescription> result;
};

DescribeRequest& request() {
    static DescribeRequest r;
    return r;
}

// Options whose values are checked by the code they reach rather than by a
// CLI::IsMember (formats::make_parser names the parsers in its error): their
// lists come from the registry that code reads, so they cannot drift either.
struct ValueSource {
    const char* command;
    const char* option;
    std::vector<std::string> (*values)();
};

const ValueSource kValueSources[] = {
    {"gfxstat import", "--from", formats::import_names},
    {"gfxstat run", "--parser", formats::parser_names},
    {"gfxstat ab", "--parser", formats::parser_names},
};

// CLI::IsMember describes itself as "{a,b,c}" (CLI11 2.1 keeps the set
// inside a closure; its description is the one public view of it). Ranges
// are "[lo - hi]" and custom checks have no description, so a braced
// description is a member list.
std::vector<std::string> member_choices(CLI::Option& opt) {
    std::vector<std::string> out;
    for (int i = 0;; ++i) {
        CLI::Validator* v = nullptr;
        try {
            v = opt.get_validator(i);
        } catch (const CLI::OptionNotFound&) {
            break;
        }
        const std::string d = v->get_description();
        if (d.size() < 2 || d.front() != '{' || d.back() != '}' || d.find("->") != std::string::npos) continue;
        std::string item;
        for (size_t k = 1; k + 1 < d.size(); ++k) {
            if (d[k] == ',') {
                out.push_back(item);
                item.clear();
            } else {
                item += d[k];
            }
        }
        if (d.size() > 2) out.push_back(item);
        break;
    }
    return out;
}

OptionDescription describe_option(CLI::Option& opt, const std::string& command) {
    OptionDescription d;
    d.positional = !opt.nonpositional();
    if (d.positional) {
        d.names.push_back(opt.get_name(true));
    } else {
        for (const auto& s : opt.get_snames()) d.names.push_back("-" + s);
        for (const auto& l : opt.get_lnames()) d.names.push_back("--" + l);
    }
    d.type = opt.get_type_name();
    d.expected_min = opt.get_items_expected_min();
    const int max = opt.get_items_expected_max();
    d.expected_max = max >= CLI::detail::expected_max_vector_size ? -1 : max;
    d.required = opt.get_required();
    d.default_text = opt.get_default_str();
    d.group = opt.get_group();
    d.description = opt.get_description();
    d.choices = member_choices(opt);
    if (d.choices.empty())
        for (const auto& src : kValueSources)
            if (command == src.command)
                for (const auto& n : d.names)
                    if (n == src.option) d.choices = src.values();
    return d;
}

void set_result(CommandDescription d) {
    request().result = std::move(d);
}

}  // namespace

bool describe_requested() { return request().active; }

int describe_app(CLI::App& app) {
    CommandDescription d;
    d.name = app.get_name();
    d.description = app.get_description();
    d.footer = app.get_footer();
    for (CLI::Option* opt : app.get_options()) {
        if (opt->get_group().empty()) continue;  // hidden
        d.options.push_back(describe_option(*opt, d.name));
    }
    set_result(std::move(d));
    return 0;
}

int describe_fixed(const CommandDescription& description) {
    set_result(description);
    return 0;
}

std::optional<CommandDescription> describe_command(const std::vector<std::string>& words) {
    if (words.empty()) return std::nullopt;
    const CommandEntry* entry = find_command(words[0]);
    if (!entry) return std::nullopt;
    std::vector<std::string> args = words;
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    return describe_run([&] { entry->main(static_cast<int>(args.size()), argv.data()); });
}

std::optional<CommandDescription> describe_run(const std::function<void()>& command) {
    // The request ends with the call, an exception included: a later
    // command in this process parses its options again.
    struct Scope {
        Scope() { request() = DescribeRequest{true, std::nullopt}; }
        ~Scope() { request() = DescribeRequest{}; }
    } scope;
    command();
    return std::move(request().result);
}

int describe_main(int argc, char** argv) {
    if (argc < 2) {
        std::vector<SubcommandSummary> commands;
        for (const auto& c : command_table()) commands.push_back({c.name, one_line_summary(c)});
        std::printf("%s\n", report::command_list_json(commands).c_str());
        return 0;
    }
    if (!find_command(argv[1])) {
        std::fprintf(stderr, "gfxstat __describe: unknown command (see gfxstat --help)\n");
        return 2;
    }
    std::vector<std::string> words(argv + 1, argv + argc);
    const auto d = describe_command(words);
    if (!d) {
        std::fprintf(stderr, "gfxstat __describe: the command gave no description\n");
        return 2;
    }
    std::printf("%s\n", report::description_json(*d).c_str());
    return 0;
}

}  // namespace gfxstat::cli
