// SPDX-License-Identifier: MIT
// `--metric NAME=REGEX` (run_parsers.h): the user's regexes, matched by
// RE2 in time linear in the line. std::regex backtracks: `fps=(.*) fps` on
// one line of 64 KiB took over 20 s, and it recursed once per character,
// so lines had to be capped. RE2 has neither problem, so lines of any
// length are matched; what it cannot do in linear time (backreferences,
// lookaround) is refused when the option is read, by name.
//
// Matching is bytewise (RE2's Latin-1 mode), as std::regex on char was: a
// program's output need not be UTF-8, and `.` then matches any byte but
// '\n' (lines never hold one).
//
// A spec is NAME=REGEX (one capture group, the number), or a REGEX with
// the named groups `name` and `value`, whose metric names come from the
// output: `(?<name>\w+): \d+ cycles: (?<value>[\d.]+)us` makes one metric
// per engine. RE2 of Debian 12 knows only Python's spelling (?P<name>), so
// the Perl/.NET spelling (?<name>) is rewritten to it first.
#include "drivers/run_parsers.h"

#include <re2/re2.h>

#include <map>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "data/input_error.h"
#include "formats/line_reader.h"

namespace gfxstat::drivers {

namespace {

using data::NumberToken;
using data::TokenStatus;
using formats::LineReader;

struct RegexSpec {
    // `name` empty: the names come from the output, in group `name_group`,
    // the number in `value_group` (1-based, as RE2 numbers them).
    std::string name, pattern;
    std::unique_ptr<RE2> re;
    int name_group = 0, value_group = 1;
    bool named() const { return name.empty(); }
    std::string label() const { return named() ? data::quote_token(pattern) : name; }
};

std::string_view trim(std::string_view s) {
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; };
    while (!s.empty() && blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && blank(s.back())) s.remove_suffix(1);
    return s;
}

ParseResult failure(std::string error) {
    ParseResult r;
    r.error = std::move(error);
    return r;
}

// What RE2 does not have, named in the user's words before RE2 says
// "invalid escape sequence": a backreference (\1 ... \9) or a lookahead or
// lookbehind group. Escapes and bracket expressions are skipped so that
// `[(?=]` and `\(?=` are not mistaken for one. Empty when neither is there.
std::string unsupported_construct(std::string_view re) {
    bool in_class = false;
    for (size_t i = 0; i < re.size(); ++i) {
        const char c = re[i];
        if (c == '\\') {
            if (i + 1 < re.size() && re[i + 1] >= '1' && re[i + 1] <= '9' && !in_class)
                return "a backreference (\\" + std::string(1, re[i + 1]) + ")";
            ++i;
            continue;
        }
        if (in_class) {
            if (c == ']') in_class = false;
            continue;
        }
        if (c == '[') {
            in_class = true;
            // A ']' first in the class (or after '^') is a member, not the end.
            if (i + 1 < re.size() && re[i + 1] == '^') ++i;
            if (i + 1 < re.size() && re[i + 1] == ']') ++i;
            continue;
        }
        if (c == '(' && re.substr(i).starts_with("(?")) {
            const std::string_view rest = re.substr(i);
            if (rest.starts_with("(?=") || rest.starts_with("(?!"))
                return "a lookahead (" + std::string(rest.substr(0, 3)) + "...)";
            if (rest.starts_with("(?<=") || rest.starts_with("(?<!"))
                return "a lookbehind (" + std::string(rest.substr(0, 4)) + "...)";
        }
    }
    return "";
}

// `(?<word>` written as RE2 of Debian 12 reads it, `(?P<word>`: only where
// it opens a group, so not after a backslash (`\(?<a>` is a literal
// parenthesis), not inside a bracket expression (`[(?<]`) or a \Q...\E
// quotation, and never a lookbehind (`(?<=`, `(?<!`, refused before).
std::string rewrite_named_groups(std::string_view re) {
    std::string out;
    out.reserve(re.size() + 8);
    bool in_class = false;
    for (size_t i = 0; i < re.size(); ++i) {
        const char c = re[i];
        if (c == '\\') {
            if (i + 1 < re.size() && re[i + 1] == 'Q') {
                // Everything up to \E (or the end) is literal.
                const size_t end = re.find("\\E", i + 2);
                const size_t stop = end == std::string_view::npos ? re.size() : end + 2;
                out.append(re.substr(i, stop - i));
                i = stop - 1;
                continue;
            }
            out += c;
            if (i + 1 < re.size()) out += re[++i];
            continue;
        }
        if (in_class) {
            if (c == ']') in_class = false;
            out += c;
            continue;
        }
        if (c == '[') {
            in_class = true;
            out += c;
            if (i + 1 < re.size() && re[i + 1] == '^') out += re[++i];
            if (i + 1 < re.size() && re[i + 1] == ']') out += re[++i];
            continue;
        }
        if (c == '(' && re.substr(i).starts_with("(?<") && i + 3 < re.size() && re[i + 3] != '=' &&
            re[i + 3] != '!') {
            out += "(?P<";
            i += 2;
            continue;
        }
        out += c;
    }
    return out;
}

// How often the deadline is looked at: a clock read per line would cost
// more than matching the short lines most programs print.
constexpr size_t kCheckEveryBytes = 1 << 16;
constexpr size_t kCheckEveryLines = 1024;

class RegexParser : public OutputParser {
public:
    explicit RegexParser(std::vector<RegexSpec> specs) : specs_(std::move(specs)) {}

    std::vector<data::MetricInfo> metrics() const override {
        std::vector<data::MetricInfo> out;
        for (const RegexSpec& s : specs_) {
            if (s.named()) continue;  // declared when the output names them
            data::MetricInfo m;
            m.name = s.name;
            m.primary = true;  // the user named it: it is what the run is for
            out.push_back(std::move(m));
        }
        return out;
    }

    ParseResult parse(const RunOutput& o) const override {
        // Metrics in order of first match; a name from the output that is
        // also a NAME= spec's is the same metric.
        std::vector<ParsedMetric> found;
        std::unordered_map<std::string, size_t> index;
        const auto add = [&](const std::string& name, const NumberToken& t) {
            auto [it, fresh] = index.try_emplace(name, found.size());
            if (fresh) {
                ParsedMetric m;
                m.name = name;
                m.primary = true;  // the user asked for it: it is what the run is for
                found.push_back(std::move(m));
            }
            found[it->second].values.push_back(t);
        };
        LineReader lines(o.out);
        std::string_view line;
        size_t bytes_since = 0, lines_since = 0;
        re2::StringPiece groups[3];
        while (lines.next(line)) {
            bytes_since += line.size();
            if (o.deadline && (bytes_since >= kCheckEveryBytes || ++lines_since >= kCheckEveryLines)) {
                bytes_since = lines_since = 0;
                if (std::chrono::steady_clock::now() > *o.deadline) {
                    ParseResult r = failure("the --timeout ran out while matching --metric regexes, at line " +
                                            std::to_string(lines.number()));
                    r.timed_out = true;
                    return r;
                }
            }
            const re2::StringPiece text(line.data(), line.size());
            for (const RegexSpec& s : specs_) {
                const int ngroups = s.named() ? 3 : 2;
                // Every match, left to right; after an empty match the next
                // search starts one byte on, as std::regex_iterator's did.
                size_t pos = 0;
                while (pos <= line.size() && s.re->Match(text, pos, line.size(), RE2::UNANCHORED, groups, ngroups)) {
                    const std::string where = "line " + std::to_string(lines.number()) + ": ";
                    const re2::StringPiece& value = groups[s.value_group];
                    if (value.data() == nullptr)
                        return failure(where + "the " + std::string(s.named() ? "value group" : "capture group") +
                                       " of --metric " + s.label() + " took no part in the match");
                    const std::string_view captured = trim(std::string_view(value.data(), value.size()));
                    const NumberToken t = data::parse_number_token(captured);
                    if (t.status != TokenStatus::decimal && t.status != TokenStatus::binary)
                        return failure(where + "--metric " + s.label() + " captured " + data::quote_token(captured) +
                                       ", " + data::describe(t.status));
                    std::string name = s.name;
                    if (s.named()) {
                        const re2::StringPiece& n = groups[s.name_group];
                        name = n.data() == nullptr ? std::string() : std::string(n.data(), n.size());
                        if (!valid_metric_name(name))
                            return failure(where + "--metric " + s.label() + " captured the name " +
                                           data::quote_token(name) +
                                           ", which is not a metric name (letters, digits, '_', '.' and '-')");
                    }
                    add(name, t);
                    const size_t end = static_cast<size_t>(groups[0].data() - line.data()) + groups[0].size();
                    pos = groups[0].empty() ? end + 1 : end;
                }
            }
        }
        if (found.empty()) {
            std::string list;
            for (const RegexSpec& s : specs_)
                list += (list.empty() ? "" : ", ") + (s.named() ? s.pattern : s.name + "=" + s.pattern);
            return failure("no line of the output matches a --metric regex (" + list + ")");
        }
        ParseResult r;
        r.metrics = std::move(found);
        return r;
    }

private:
    std::vector<RegexSpec> specs_;
};

}  // namespace

std::unique_ptr<OutputParser> make_regex_parser(const std::vector<std::string>& specs) {
    if (specs.empty()) throw std::invalid_argument("no --metric NAME=REGEX given");
    std::vector<RegexSpec> out;
    for (const std::string& spec : specs) {
        RegexSpec s;
        // NAME=REGEX when what comes before the first '=' is a metric name;
        // otherwise the whole spec is a regex that names its metrics.
        const size_t eq = spec.find('=');
        if (eq != std::string::npos && valid_metric_name(spec.substr(0, eq))) {
            s.name = spec.substr(0, eq);
            s.pattern = spec.substr(eq + 1);
        } else {
            s.pattern = spec;
        }
        // Messages name a spec by its metric, or quote a naming regex whole.
        const std::string what_spec = s.named() ? "--metric " + data::quote_token(spec) : "--metric " + s.name;
        // No group that could be `name`: the spec meant NAME=REGEX.
        if (s.named() && spec.find("<name>") == std::string::npos) {
            if (eq == std::string::npos)
                throw std::invalid_argument(what_spec + ": expected NAME=REGEX, or a regex with the groups "
                                            "(?<name>...) and (?<value>...)");
            throw std::invalid_argument(what_spec + ": invalid metric name " + data::quote_token(spec.substr(0, eq)) +
                                        " (use letters, digits, '_', '.' and '-')");
        }
        // The same spec twice would count every value twice.
        for (const RegexSpec& other : out)
            if (other.name == s.name && (!s.named() || other.pattern == s.pattern))
                throw std::invalid_argument("--metric " + (s.named() ? data::quote_token(spec) : s.name) +
                                            " is given twice");
        if (const std::string what = unsupported_construct(s.pattern); !what.empty())
            throw std::invalid_argument(what_spec + ": the regex " + data::quote_token(s.pattern) + " uses " + what +
                                        ", which RE2 syntax does not have: --metric regexes "
                                        "are matched in linear time (docs/run.md)");
        RE2::Options options;
        options.set_encoding(RE2::Options::EncodingLatin1);
        options.set_log_errors(false);
        s.re = std::make_unique<RE2>(rewrite_named_groups(s.pattern), options);
        if (!s.re->ok())
            throw std::invalid_argument(what_spec + ": bad regex " + data::quote_token(s.pattern) + " (" +
                                        s.re->error() + ")");
        const std::map<std::string, int>& named = s.re->NamedCapturingGroups();
        const auto group = [&](const char* n) {
            const auto it = named.find(n);
            return it == named.end() ? 0 : it->second;
        };
        const int groups = s.re->NumberOfCapturingGroups();
        if (s.named()) {
            if (group("name") == 0 || group("value") == 0)
                throw std::invalid_argument(what_spec + ": a regex that names its metrics needs both groups, "
                                            "(?<name>...) and (?<value>...)");
            if (groups != 2)
                throw std::invalid_argument(what_spec + ": a regex that names its metrics has exactly two capture "
                                            "groups, (?<name>...) and (?<value>...); it has " +
                                            std::to_string(groups) + " (write other groups as (?:...))");
            s.name_group = group("name");
            s.value_group = group("value");
        } else {
            if (group("name") != 0)
                throw std::invalid_argument(what_spec + ": the regex has a (?<name>...) group, so its metric names "
                                            "come from the output: give it without '" + s.name + "='");
            if (groups != 1)
                throw std::invalid_argument(what_spec + ": the regex " + data::quote_token(s.pattern) +
                                            " must have exactly one capture group, the number; it has " +
                                            std::to_string(groups) + " (write other groups as (?:...))");
        }
        out.push_back(std::move(s));
    }
    return std::make_unique<RegexParser>(std::move(out));
}

}  // namespace gfxstat::drivers
