// SPDX-License-Identifier: MIT
// What the output parsers share (each format's file in formats/, and
// drivers/builtin_parsers.cpp for gfxstat's own workloads): a cursor over
// one line, the collector of parsed metrics, the failure messages, and a
// parser made of declarations and a function. Include it only from parser
// sources.
#pragma once

#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "data/input_error.h"
#include "data/number_token.h"
#include "formats/format.h"
#include "formats/line_reader.h"
#include "formats/output_parser.h"

namespace gfxstat::formats::parsing {

using data::Direction;
using data::MetricInfo;
using data::NumberToken;
using data::TokenStatus;

constexpr Direction kLower = Direction::lower_is_better;
constexpr Direction kHigher = Direction::higher_is_better;
constexpr Direction kUnknown = Direction::unknown;
// Whether a metric is what its workload is run for (data::MetricInfo::primary).
constexpr bool kPrimary = true;
constexpr bool kSecondary = false;

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool is_name_char(char c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '.' || c == '-'; }

inline std::string_view trim(std::string_view s) {
    while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    return s;
}

inline bool usable(const NumberToken& t) {
    return t.status == TokenStatus::decimal || t.status == TokenStatus::binary;
}

// -------------------------------------------------------------- scanning

// A cursor over one line. Every method either consumes what it names and
// returns true, or leaves the position alone and returns false.
class Cursor {
public:
    explicit Cursor(std::string_view s) : s_(s) {}
    size_t pos() const { return i_; }
    void seek(size_t p) { i_ = p; }
    std::string_view rest() const { return s_.substr(i_); }
    bool at_end() const { return i_ == s_.size(); }
    bool peek_digit() const { return i_ < s_.size() && is_digit(s_[i_]); }

    bool lit(std::string_view w) {
        if (s_.substr(i_).starts_with(w)) {
            i_ += w.size();
            return true;
        }
        return false;
    }
    bool lit(char c) {
        if (i_ < s_.size() && s_[i_] == c) {
            ++i_;
            return true;
        }
        return false;
    }
    void blanks() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
    }
    bool blanks1() {
        const size_t start = i_;
        blanks();
        return i_ > start;
    }
    // Trailing blanks, then the end of the line.
    bool end() {
        const size_t start = i_;
        blanks();
        if (at_end()) return true;
        i_ = start;
        return false;
    }
    bool digits(std::string_view& out) { return run_of(is_digit, out); }
    bool digits() {
        std::string_view ignored;
        return digits(ignored);
    }
    // printf's %'lu: digits, grouped by ',', '.', '\'', ' ' or a UTF-8
    // no-break space (U+00A0, U+202F) in some locales.
    bool grouped_count() {
        const size_t start = i_;
        if (!digits()) return false;
        for (;;) {
            size_t sep = 0;
            const std::string_view r = rest();
            if (!r.empty() && (r[0] == ',' || r[0] == '.' || r[0] == '\'' || r[0] == ' '))
                sep = 1;
            else if (r.starts_with("\xC2\xA0"))
                sep = 2;
            else if (r.starts_with("\xE2\x80\xAF"))
                sep = 3;
            if (sep == 0 || sep >= r.size() || !is_digit(r[sep])) break;
            i_ += sep;
            digits();
        }
        return i_ > start;
    }
    // A decimal as printf's %f / %u writes it (optional sign, digits,
    // optional fraction, optional exponent), as an exact token.
    bool number(NumberToken& out) {
        const size_t start = i_;
        size_t j = i_;
        if (j < s_.size() && (s_[j] == '-' || s_[j] == '+')) ++j;
        const size_t int_start = j;
        while (j < s_.size() && is_digit(s_[j])) ++j;
        bool any = j > int_start;
        if (j < s_.size() && s_[j] == '.') {
            size_t k = j + 1;
            while (k < s_.size() && is_digit(s_[k])) ++k;
            if (k > j + 1 || any) {
                any = any || k > j + 1;
                j = k;
            }
        }
        if (!any) return false;
        j = data::exponent_end(s_, j, 'e');
        const NumberToken t = data::parse_number_token(s_.substr(start, j - start));
        if (!usable(t)) return false;  // e.g. 1e999
        out = t;
        i_ = j;
        return true;
    }
    // Letters only.
    bool word(std::string_view& out) { return run_of(is_alpha, out); }
    // A metric-name-like word: letters, digits, '_', '.', '-'.
    bool name(std::string_view& out) { return run_of(is_name_char, out); }

private:
    // The longest run from here of characters `in` accepts; false when empty.
    bool run_of(bool (*in)(char), std::string_view& out) {
        const size_t start = i_;
        while (i_ < s_.size() && in(s_[i_])) ++i_;
        out = s_.substr(start, i_ - start);
        return i_ > start;
    }

    std::string_view s_;
    size_t i_ = 0;
};

// "line 12: ", the start of an error about one line.
inline std::string at_line(size_t n) { return "line " + std::to_string(n) + ": "; }

// A number in an error message, to 6 significant digits.
inline std::string short_number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

// The word of s at pos, after the separators there (is_separator); pos moves
// past it. Empty only at the end of s.
inline std::string_view next_field(std::string_view s, size_t& pos, bool (*is_separator)(char)) {
    while (pos < s.size() && is_separator(s[pos])) ++pos;
    const size_t start = pos;
    while (pos < s.size() && !is_separator(s[pos])) ++pos;
    return s.substr(start, pos - start);
}

// The words of s between runs of separators.
inline std::vector<std::string_view> split_fields(std::string_view s, bool (*is_separator)(char)) {
    std::vector<std::string_view> out;
    size_t pos = 0;
    for (std::string_view w = next_field(s, pos, is_separator); !w.empty(); w = next_field(s, pos, is_separator))
        out.push_back(w);
    return out;
}

// The cells of a comma-separated line without quoting (MangoHud's and
// PresentMon's logs), trimmed. Owned copies: a LineReader's line lives only
// until its next line (a line with ANSI escapes is rebuilt in one buffer),
// and column names are used for every row after.
inline std::vector<std::string> split_commas(std::string_view line) {
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        const size_t comma = line.find(',', start);
        out.emplace_back(trim(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
        if (comma == std::string_view::npos) return out;
        start = comma + 1;
    }
}

// "line 3: expected 'FORMAT', found "..." at column 24"
inline std::string line_error(size_t line_no, std::string_view format, const Cursor& c) {
    return "line " + std::to_string(line_no) + ": expected '" + std::string(format) + "', found " +
           data::quote_token(c.rest()) + " at column " + std::to_string(c.pos() + 1);
}

// ------------------------------------------------------------- metrics

class Collector {
public:
    void add(const std::string& name, std::string_view unit, Direction dir, bool primary, const NumberToken& t) {
        auto [it, fresh] = index_.try_emplace(name, list_.size());
        if (fresh) {
            ParsedMetric m;
            m.name = name;
            m.unit = std::string(unit);
            m.direction = dir;
            m.primary = primary;
            list_.push_back(std::move(m));
        }
        list_[it->second].values.push_back(t);
    }
    bool empty() const { return list_.empty(); }
    std::vector<ParsedMetric> take() { return std::move(list_); }

private:
    std::vector<ParsedMetric> list_;
    std::unordered_map<std::string, size_t> index_;
};

inline ParseResult failure(std::string error) {
    ParseResult r;
    r.error = std::move(error);
    return r;
}

// A parse of a JSON or text report on stdout that failed with `error`,
// noting an empty stdout (the program wrote its report elsewhere, or died).
inline ParseResult stdout_failure(const std::string& error, std::string_view out) {
    const bool empty = out.find_first_not_of(" \t\r\n") == std::string_view::npos;
    return failure(empty ? error + " (stdout is empty)" : error);
}

// A metric of a run read from the program's own report: its values and how
// the report declares it.
inline ParsedMetric parsed_metric(std::string name, std::string unit, Direction d,
                                  std::optional<bool> primary, std::vector<data::NumberToken> values) {
    ParsedMetric m;
    m.name = std::move(name);
    m.unit = std::move(unit);
    m.direction = d;
    m.primary = primary;
    m.values = std::move(values);
    return m;
}

inline ParseResult success(Collector& c) {
    ParseResult r;
    r.metrics = c.take();
    return r;
}

// A program's own message (a replayer's FATAL line) quoted whole, as
// data::quote_token escapes it, up to `max` bytes: quote_token's 40 cut
// the reason a reader needs.
inline std::string quote_message(std::string_view text, size_t max = 200) {
    std::string out = "\"";
    const std::string_view head = text.substr(0, max);
    // quote_token escapes and caps at 40 bytes: fed 40 at a time, it never
    // cuts, and its quotes come off.
    for (size_t i = 0; i < head.size(); i += 40) {
        const std::string q = data::quote_token(head.substr(i, 40));
        out += q.substr(1, q.size() - 2);
    }
    return out + (text.size() > max ? "...\"" : "\"");
}

inline std::string first_nonblank_line(std::string_view text) {
    LineReader lines(text);
    std::string_view line;
    while (lines.next(line))
        if (!trim(line).empty()) return std::string(trim(line));
    return "";
}

// "no line of the form ... in the output" plus what the output holds
// instead: an IGT skip block's reason, or stderr when stdout is empty.
inline ParseResult nothing_found(const RunOutput& o, const std::string& expected) {
    std::string e = "no line of the form " + expected + " in the output";
    const std::string reason = igt_skip_reason(o.out);
    if (!reason.empty()) {
        e += " (the program skipped: " + data::quote_token(reason) + ")";
    } else if (first_nonblank_line(o.out).empty()) {
        const std::string err = first_nonblank_line(o.err);
        e += err.empty() ? " (stdout is empty)" : " (stdout is empty; stderr: " + data::quote_token(err) + ")";
    }
    return failure(e);
}

// A parser made of its declarations and a function.
class FunctionParser : public OutputParser {
public:
    using Fn = std::function<ParseResult(const RunOutput&)>;
    using ReasonFn = std::string (*)(const RunOutput&);
    FunctionParser(std::vector<MetricInfo> metrics, Fn fn, ReasonFn reason = nullptr)
        : metrics_(std::move(metrics)), fn_(std::move(fn)), reason_(reason) {}
    std::vector<MetricInfo> metrics() const override { return metrics_; }
    ParseResult parse(const RunOutput& output) const override { return fn_(output); }
    std::string failure_reason(const RunOutput& output) const override { return reason_ ? reason_(output) : ""; }

private:
    std::vector<MetricInfo> metrics_;
    Fn fn_;
    ReasonFn reason_;
};

inline MetricInfo info(std::string name, std::string unit, Direction d, bool primary) {
    MetricInfo m;
    m.name = std::move(name);
    m.unit = std::move(unit);
    m.direction = d;
    m.primary = primary;
    return m;
}

// For the formats that take no options: a --metric-name meant for `lines`
// is refused rather than ignored.
inline void refuse_options(const ParserOptions& o, std::string_view format) {
    if (!o.metric_name.empty())
        throw std::invalid_argument("a metric name (" + o.metric_name + ") applies only to the lines parser, not " +
                                    std::string(format));
}

// The parser of a format that takes no options (refuse_options first): its
// declarations, its function, and what explains a failed run.
inline std::unique_ptr<OutputParser> parser_without_options(const ParserOptions& o, std::string_view format,
                                                            std::vector<MetricInfo> metrics, FunctionParser::Fn fn,
                                                            FunctionParser::ReasonFn reason = nullptr) {
    refuse_options(o, format);
    return std::make_unique<FunctionParser>(std::move(metrics), std::move(fn), reason);
}

}  // namespace gfxstat::formats::parsing
