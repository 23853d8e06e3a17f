// SPDX-License-Identifier: MIT
#include "cli/complete_command.h"

#include <sys/stat.h>

#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command_describe.h"
#include "cli/command_table.h"
#include "data/results_reader.h"

namespace gfxstat::cli {
namespace {

// What the value of an option (or a positional argument) is, where its
// description cannot say: CLI11 only knows TEXT. `commands` is a list of
// command words separated by '|' ("" for every command); `name` is any of
// the option's names, or a positional's. Variant and metric names only for
// the commands that read them from existing results files: elsewhere
// --variant and --metric make new ones.
struct KindRule {
    const char* commands;
    const char* name;
    const char* kind;
};

const KindRule kKindRules[] = {
    {"compare|summary|ministat|campaign analyze", "--baseline", "variant"},
    {"compare|summary|ministat|campaign analyze", "--variant", "variant"},
    {"compare|summary|ministat|campaign analyze", "--metric", "metric"},
    {"compare|campaign analyze", "--geomean", "metric"},
    {"run|ab", "--target-metric", "metric"},  // -o may hold earlier runs
    {"report", "--baseline", "variant"},
    {"report", "--variant", "variant"},
    {"report", "--metric", "metric"},
    {"report", "--geomean", "metric"},
    {"compare", "--plot", "file"},
    {"bisect check|bisect step", "--good", "file"},
    {"bisect check|bisect step", "--bad", "file"},
    {"bisect step", "--results", "file"},
    {"bisect check|bisect step", "-C", "dir"},
    {"bisect report", "steps", "file"},
    {"", "--output", "file"},
    {"", "--device", "file"},
    {"", "--dir", "dir"},
    {"", "--log-dir", "dir"},
    {"", "--unit-dir", "dir"},
    {"", "--root", "dir"},
    {"", "files", "file"},
    {"", "file", "file"},
    {"", "plan", "file"},
    {"", "dir", "dir"},
    {"", "command", "command"},
};

// Words an option takes besides a number, which its parser cannot list as
// choices (CLI11 sees TEXT): offered as its values.
struct WordRule {
    const char* commands;
    const char* name;
    std::vector<std::string> words;
};

const WordRule kWordRules[] = {
    {"tune apply", "--gpu-freq", {"rp0", "rp1"}},  // drivers::parse_gpu_frequency's words
};

bool listed(std::string_view list, std::string_view word);

// The choices of `o`, or the words kWordRules gives it.
std::vector<std::string> value_words(const std::string& command, const OptionDescription& o) {
    if (!o.choices.empty()) return o.choices;
    for (const auto& r : kWordRules) {
        if (!listed(r.commands, command)) continue;
        for (const auto& n : o.names)
            if (n == r.name) return r.words;
    }
    return {};
}

bool listed(std::string_view list, std::string_view word) {
    if (list.empty()) return true;
    size_t start = 0;
    while (start <= list.size()) {
        size_t end = list.find('|', start);
        if (end == std::string_view::npos) end = list.size();
        if (list.substr(start, end - start) == word) return true;
        start = end + 1;
    }
    return false;
}

std::string joined(const std::vector<std::string>& words) {
    std::string s;
    for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
    return s;
}

// A word the shell can take as one completion: no control characters (a
// label holding a newline would become two words, an escape sequence would
// reach the terminal).
bool printable(const std::string& w) {
    if (w.empty()) return false;
    for (unsigned char c : w)
        if (c < 0x20 || c == 0x7f) return false;
    return true;
}

void print_words(const std::vector<std::string>& words) {
    std::set<std::string> seen;
    for (const auto& w : words)
        if (printable(w) && seen.insert(w).second) std::printf("%s\n", w.c_str());
}

// The command words at the start of `args` ({COMMAND} or {COMMAND, SUB})
// and their descriptions: the command's own first, then those whose
// options it takes too. `used` is how many of `args` were command words.
struct Described {
    std::vector<std::string> words;
    std::vector<CommandDescription> descriptions;
    size_t used = 0;
};

std::optional<Described> describe_words(const std::vector<std::string>& args) {
    if (args.empty() || !find_command(args[0])) return std::nullopt;
    Described d;
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

const OptionDescription* find_option(const Described& d, const std::string& name) {
    if (name == "@") {
        for (const auto& o : d.descriptions.front().options)
            if (o.positional) return &o;
        return nullptr;
    }
    for (const auto& desc : d.descriptions)
        for (const auto& o : desc.options)
            if (!o.positional)
                for (const auto& n : o.names)
                    if (n == name) return &o;
    return nullptr;
}

std::string kind_of(const Described& d, const OptionDescription& o) {
    const std::string command = joined(d.words);
    if (!value_words(command, o).empty()) return "choice";
    if (o.expected_max == 0) return "flag";
    for (const auto& r : kKindRules) {
        if (!listed(r.commands, command)) continue;
        for (const auto& n : o.names)
            if (n == r.name) return r.kind;
    }
    return "text";
}

// Regular files only: a FIFO or a device named on the line must not hang
// or feed the completion.
std::optional<data::ResultsFile> read_results(const std::string& path) {
    struct stat st {};
    if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    return data::read_results_path(path, path);
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
        const auto d = describe_words(rest);
        if (!d) return 0;
        std::vector<std::string> names;
        for (const auto& desc : d->descriptions)
            for (const auto& o : desc.options)
                if (!o.positional) names.insert(names.end(), o.names.begin(), o.names.end());
        print_words(names);
    } else if (kind == "values" || kind == "kind") {
        const auto d = describe_words(rest);
        if (!d || rest.size() <= d->used) return 0;
        const OptionDescription* o = find_option(*d, rest[d->used]);
        if (!o) return 0;
        if (kind == "values") print_words(value_words(joined(d->words), *o));
        else std::printf("%s\n", kind_of(*d, *o).c_str());
    } else if (kind == "variants" || kind == "metrics") {
        std::vector<std::string> words;
        for (const auto& path : rest) {
            // The script passes every file on the line: column files and
            // plans are passed over, and so is a results file that cannot
            // be read (its error is the command's to tell, not the shell's).
            std::optional<data::ResultsFile> file;
            try {
                file = read_results(path);
            } catch (...) {
            }
            if (!file) continue;
            if (kind == "variants") {
                const auto v = file->variants();
                words.insert(words.end(), v.begin(), v.end());
            } else {
                // Within-run metrics (per-frame times) are refused when
                // named: offer what compare and summary accept.
                for (const auto& m : file->metrics())
                    if (!m.within_run()) words.push_back(m.name);
            }
        }
        print_words(words);
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
