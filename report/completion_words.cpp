// SPDX-License-Identifier: MIT
#include "report/completion_words.h"

#include <set>
#include <string_view>

namespace gfxstat::report {

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

// Whether `word` is one of `list`'s words, separated by '|' ("": every
// command).
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

// The choices of `o`, or the words kWordRules gives it for `command`.
std::vector<std::string> value_words(const std::string& command, const OptionDescription& o) {
    if (!o.choices.empty()) return o.choices;
    for (const auto& r : kWordRules) {
        if (!listed(r.commands, command)) continue;
        for (const auto& n : o.names)
            if (n == r.name) return r.words;
    }
    return {};
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

}  // namespace

std::vector<std::string> completion_options(const DescribedCommand& d) {
    std::vector<std::string> names;
    for (const auto& desc : d.descriptions)
        for (const auto& o : desc.options)
            if (!o.positional) names.insert(names.end(), o.names.begin(), o.names.end());
    return names;
}

const OptionDescription* find_option(const DescribedCommand& d, const std::string& name) {
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

std::vector<std::string> completion_values(const DescribedCommand& d, const OptionDescription& o) {
    return value_words(joined(d.words), o);
}

std::string completion_kind(const DescribedCommand& d, const OptionDescription& o) {
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

void print_completion_words(const std::vector<std::string>& words, FILE* out) {
    std::set<std::string> seen;
    for (const auto& w : words)
        if (printable(w) && seen.insert(w).second) std::fprintf(out, "%s\n", w.c_str());
}

}  // namespace gfxstat::report
