// `--metric NAME=REGEX` (output_parsers.h): the user's regexes, matched by
// RE2 in time linear in the line. std::regex backtracks: `fps=(.*) fps` on
// one line of 64 KiB took over 20 s, and it recursed once per character,
// so lines had to be capped. RE2 has neither problem, so lines of any
// length are matched; what it cannot do in linear time (backreferences,
// lookaround) is refused when the option is read, by name.
//
// Matching is bytewise (RE2's Latin-1 mode), as std::regex on char was: a
// program's output need not be UTF-8, and `.` then matches any byte but
// '\n' (lines never hold one).
#include "drivers/run_parsers.h"

#include <re2/re2.h>

#include <stdexcept>
#include <utility>

#include "data/input_error.h"
#include "formats/line_reader.h"

namespace gfxstat::drivers {

namespace {

using data::NumberToken;
using data::TokenStatus;
using formats::LineReader;

struct RegexSpec {
    std::string name, pattern;
    std::unique_ptr<RE2> re;
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
            data::MetricInfo m;
            m.name = s.name;
            m.primary = true;  // the user named it: it is what the run is for
            out.push_back(std::move(m));
        }
        return out;
    }

    ParseResult parse(const RunOutput& o) const override {
        std::vector<std::vector<NumberToken>> values(specs_.size());
        LineReader lines(o.out);
        std::string_view line;
        size_t bytes_since = 0, lines_since = 0;
        re2::StringPiece groups[2];
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
            for (size_t k = 0; k < specs_.size(); ++k) {
                const RegexSpec& s = specs_[k];
                // Every match, left to right; after an empty match the next
                // search starts one byte on, as std::regex_iterator's did.
                size_t pos = 0;
                while (pos <= line.size() && s.re->Match(text, pos, line.size(), RE2::UNANCHORED, groups, 2)) {
                    const std::string where = "line " + std::to_string(lines.number()) + ": ";
                    if (groups[1].data() == nullptr)
                        return failure(where + "the capture group of --metric " + s.name +
                                       " took no part in the match");
                    const std::string_view captured = trim(std::string_view(groups[1].data(), groups[1].size()));
                    const NumberToken t = data::parse_number_token(captured);
                    if (t.status != TokenStatus::decimal && t.status != TokenStatus::binary)
                        return failure(where + "--metric " + s.name + " captured " + data::quote_token(captured) +
                                       ", " + data::describe(t.status));
                    values[k].push_back(t);
                    const size_t end = static_cast<size_t>(groups[0].data() - line.data()) + groups[0].size();
                    pos = groups[0].empty() ? end + 1 : end;
                }
            }
        }
        ParseResult r;
        for (size_t k = 0; k < specs_.size(); ++k) {
            if (values[k].empty()) continue;
            ParsedMetric m;
            m.name = specs_[k].name;
            m.primary = true;
            m.values = std::move(values[k]);
            r.metrics.push_back(std::move(m));
        }
        if (r.metrics.empty()) {
            std::string list;
            for (const RegexSpec& s : specs_) list += (list.empty() ? "" : ", ") + s.name + "=" + s.pattern;
            return failure("no line of the output matches a --metric regex (" + list + ")");
        }
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
        const size_t eq = spec.find('=');
        if (eq == std::string::npos)
            throw std::invalid_argument("--metric " + data::quote_token(spec) + ": expected NAME=REGEX");
        RegexSpec s;
        s.name = spec.substr(0, eq);
        s.pattern = spec.substr(eq + 1);
        if (!valid_metric_name(s.name))
            throw std::invalid_argument("--metric " + data::quote_token(spec) + ": invalid metric name " +
                                        data::quote_token(s.name) + " (use letters, digits, '_', '.' and '-')");
        for (const RegexSpec& other : out)
            if (other.name == s.name) throw std::invalid_argument("--metric " + s.name + " is given twice");
        if (const std::string what = unsupported_construct(s.pattern); !what.empty())
            throw std::invalid_argument("--metric " + s.name + ": the regex " + data::quote_token(s.pattern) +
                                        " uses " + what + ", which RE2 syntax does not have: --metric regexes "
                                        "are matched in linear time (docs/run.md)");
        RE2::Options options;
        options.set_encoding(RE2::Options::EncodingLatin1);
        options.set_log_errors(false);
        s.re = std::make_unique<RE2>(s.pattern, options);
        if (!s.re->ok())
            throw std::invalid_argument("--metric " + s.name + ": bad regex " + data::quote_token(s.pattern) + " (" +
                                        s.re->error() + ")");
        if (s.re->NumberOfCapturingGroups() != 1)
            throw std::invalid_argument("--metric " + s.name + ": the regex " + data::quote_token(s.pattern) +
                                        " must have exactly one capture group, the number; it has " +
                                        std::to_string(s.re->NumberOfCapturingGroups()) +
                                        " (write other groups as (?:...))");
        out.push_back(std::move(s));
    }
    return std::make_unique<RegexParser>(std::move(out));
}

}  // namespace gfxstat::drivers
