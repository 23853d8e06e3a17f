// SPDX-License-Identifier: MIT
// libFuzzer target for results files (data/results_reader.h and below: the
// JSON cursor, the record parsers, the model's rules, the serialisers).
//
// The input is the file's bytes. InputError is the expected way to reject
// input; any other exception escapes and libFuzzer reports it. Besides
// crashes and sanitizer reports, the target traps on broken invariants:
//   - the ReadReport is consistent: one line number per run, increasing; a
//     torn tail is exactly the bytes after good_bytes, which otherwise are
//     blank;
//   - round trip: a file that reads serialises (serialize_results) to text
//     that reads again, without a torn tail, to the same header, metrics,
//     environments and runs (numbers: the same exact decimal, or for binary
//     tokens the same double); serialising that again is a fixed point;
//   - every prefix of the serialised text that keeps the header reads, to a
//     prefix of the runs (what a writer killed mid-append leaves);
//   - read_and_select (one pass) and select_metric (after parse_results)
//     give the same samples, counts and errors;
//   - rendered for people (show's text, summary's table and notes,
//     compare's text and markdown on the first metrics), no control byte
//     reaches the output but the renderers' own newlines (and no DEL, no C1
//     control), the output is valid UTF-8, and no markdown table row has
//     more or fewer cells than its header: text from data is escaped
//     (text/text_escape.h);
//   - JsonCursor accepts the first line exactly when nlohmann::json::accept
//     does, apart from the documented differences (nesting deeper than 64,
//     numbers beyond the double range, a byte order mark; and nlohmann
//     takes a NUL byte for the end of the text, so the line is compared up
//     to the first one).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

#include "cli/compare_command.h"
#include "findings/compare_inputs.h"
#include "findings/comparison_analysis.h"
#include "findings/sample_intervals.h"
#include "findings/compare_findings.h"
#include "report/compare_renderers.h"
#include "cli/sample_inputs.h"
#include "cli/show_command.h"
#include "cli/summary_command.h"

#include "data/input_error.h"
#include "data/json_cursor.h"
#include "data/number_token.h"
#include "data/results_json.h"
#include "data/results_reader.h"
#include "data/results_select.h"
#include "data/results_writer.h"

namespace {

using namespace gfxstat::data;

std::string_view g_input;

void print_escaped(std::string_view s) {
    std::fputc('"', stderr);
    for (unsigned char c : s.substr(0, 600)) {
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            std::fputc(c, stderr);
        else
            std::fprintf(stderr, "\\x%02x", c);
    }
    std::fputc('"', stderr);
    if (s.size() > 600) std::fprintf(stderr, "... (%zu bytes)", s.size());
}

[[noreturn]] void fail(const char* what, int line, const std::string& detail = {}) {
    std::fprintf(stderr, "\nfuzz_results_reader.cpp:%d: invariant violated: %s\n", line, what);
    if (!detail.empty()) std::fprintf(stderr, "  %s\n", detail.c_str());
    std::fprintf(stderr, "  input ");
    print_escaped(g_input);
    std::fputc('\n', stderr);
    __builtin_trap();
}

#define check(cond) ((cond) ? (void)0 : fail(#cond, __LINE__))
#define check_msg(cond, msg) ((cond) ? (void)0 : fail(#cond, __LINE__, (msg)))

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

double value_of(const NumberToken& t) {
    if (t.status == TokenStatus::binary) return t.value;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%llue%d", t.negative ? "-" : "",
                  static_cast<unsigned long long>(t.significand), t.exponent);
    return std::strtod(buf, nullptr);
}

bool same_number(const NumberToken& a, const NumberToken& b) {
    if (a.status == TokenStatus::decimal) {
        if (b.status != TokenStatus::decimal || a.negative != b.negative) return false;
        uint64_t x = a.significand, y = b.significand;
        int64_t ex = a.exponent, ey = b.exponent;
        if (x == 0 || y == 0) return x == y;
        while (x % 10 == 0) x /= 10, ++ex;
        while (y % 10 == 0) y /= 10, ++ey;
        return x == y && ex == ey;
    }
    if (a.status != TokenStatus::binary) return false;
    if (b.status != TokenStatus::decimal && b.status != TokenStatus::binary) return false;
    return same_bits(value_of(a), value_of(b));
}

void check_same_run(const RunRecord& a, const RunRecord& b) {
    check(a.variant == b.variant);
    check(a.run == b.run);
    check(a.boot == b.boot);
    check(a.start == b.start);
    check(a.duration_s.has_value() == b.duration_s.has_value());
    if (a.duration_s) check(same_bits(*a.duration_s, *b.duration_s));
    check(a.exit_class == b.exit_class);
    check(a.exit_code == b.exit_code);
    check(a.signal == b.signal);
    check(a.warmup == b.warmup);
    check(a.environment == b.environment);
    check(a.origin == b.origin);
    check(a.source == b.source);
    check(a.design == b.design && a.block == b.block && a.position == b.position);
    check(a.unknown == b.unknown);
    check(a.metrics.size() == b.metrics.size());
    for (size_t i = 0; i < a.metrics.size(); ++i) {
        const MetricValues &x = a.metrics[i], &y = b.metrics[i];
        check(x.name == y.name);
        check(y.array == (x.array || x.values.size() != 1));
        check(x.values.size() == y.values.size());
        for (size_t j = 0; j < x.values.size(); ++j) check(same_number(x.values[j], y.values[j]));
    }
}

void check_same_file(const ResultsFile& a, const ResultsFile& b) {
    check(a.header.version == b.header.version);
    check(a.header.id == b.header.id);
    check(a.header.created == b.header.created);
    check(a.header.generator == b.header.generator);
    check(a.header.unknown == b.header.unknown);
    check(a.header.merged_from.size() == b.header.merged_from.size());
    for (size_t i = 0; i < a.header.merged_from.size(); ++i) {
        check(a.header.merged_from[i].id == b.header.merged_from[i].id);
        check(a.header.merged_from[i].path == b.header.merged_from[i].path);
        check(a.header.merged_from[i].created == b.header.merged_from[i].created);
    }
    check(a.metrics().size() == b.metrics().size());
    for (const MetricInfo& m : a.metrics()) {
        const MetricInfo* o = b.find_metric(m.name);
        check(o != nullptr);
        check(o->unit == m.unit && o->direction == m.direction && o->unknown == m.unknown);
    }
    check(a.environments().size() == b.environments().size());
    for (const Environment& e : a.environments()) {
        const Environment* o = b.find_environment(e.id);
        check(o != nullptr);
        check(o->fields == e.fields && o->tags == e.tags);
    }
    check(a.designs().size() == b.designs().size());
    for (const DesignRecord& d : a.designs()) {
        const DesignRecord* o = b.find_design(d.id);
        check(o != nullptr && *o == d);
    }
    check(a.runs().size() == b.runs().size());
    for (size_t i = 0; i < a.runs().size(); ++i) check_same_run(a.runs()[i], b.runs()[i]);
    check(a.variants() == b.variants());
}

// Parses text that must read; anything thrown is a broken invariant.
ResultsFile must_parse(std::string_view text, ReadReport* report, int line) {
    try {
        return parse_results(text, "fuzz", report);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "\nwhile reading: ");
        print_escaped(text);
        fail("text gfxstat wrote (or a prefix of it) does not read", line, e.what());
    }
}

bool blank(std::string_view s) {
    for (char c : s)
        if (c != ' ' && c != '\t' && c != '\r') return false;
    return true;
}

void check_report(std::string_view text, const ResultsFile& f, const ReadReport& rep) {
    check(rep.run_lines.size() == f.runs().size());
    for (size_t i = 1; i < rep.run_lines.size(); ++i) check(rep.run_lines[i - 1] < rep.run_lines[i]);
    check(rep.good_bytes <= text.size());
    check(rep.records >= 1 + f.runs().size());
    if (rep.torn_tail) {
        check(rep.good_bytes + rep.torn_bytes == text.size());
        check(rep.torn_bytes > 0);
        check(text.substr(rep.good_bytes).find('\n') == std::string_view::npos);
        check(rep.torn_line >= 2);
    } else {
        check(blank(text.substr(rep.good_bytes)));
    }
}

std::string selection_outcome(const MetricSelection& s) {
    std::string out = s.metric.name + "\n";
    for (const VariantSample& v : s.variants) {
        out += v.variant + ":" + std::to_string(v.counts.runs_used) + "," +
               std::to_string(v.counts.values) + "," + std::to_string(v.counts.warmup) + "," +
               std::to_string(v.counts.without_metric);
        for (size_t c : v.counts.excluded_by_class) out += "," + std::to_string(c);
        out += ";" + std::to_string(v.sample.exponent) + ";" + std::to_string(v.sample.binary_tokens) +
               ";" + std::to_string(v.sample.values.index()) + ":";
        std::visit([&](const auto& vec) {
            for (const auto& x : vec) {
                char buf[40];
                std::snprintf(buf, sizeof buf, "%a,", static_cast<double>(x));
                out += buf;
            }
        }, v.sample.values);
        out += "\n";
    }
    return out;
}

void check_selection(std::string_view text, const ResultsFile& f) {
    // The only metric (or the error), then the first metric for all variants.
    std::vector<std::string> metrics{""};
    if (!f.metrics().empty()) metrics.push_back(f.metrics()[0].name);
    for (const std::string& metric : metrics) {
        std::string a, b;
        try {
            a = selection_outcome(select_metric(f, "fuzz", metric, {}));
        } catch (const InputError& e) {
            a = std::string("error ") + e.what();
        }
        try {
            b = selection_outcome(read_and_select(text, "fuzz", metric, {}));
        } catch (const InputError& e) {
            b = std::string("error ") + e.what();
        }
        check_msg(a == b, "select_metric:\n" + a + "\nread_and_select:\n" + b);
    }
}

// What a renderer writes to a FILE*, as a string (open_memstream); the
// stream is released when the renderer throws too.
std::string rendered(const std::function<void(FILE*)>& render) {
    struct Stream {
        char* buf = nullptr;
        size_t size = 0;
        FILE* file = nullptr;
        ~Stream() {
            if (file) std::fclose(file);
            std::free(buf);
        }
    } s;
    s.file = open_memstream(&s.buf, &s.size);
    if (!s.file) std::abort();
    render(s.file);
    std::fclose(s.file);
    s.file = nullptr;
    return std::string(s.buf, s.size);
}

// Nothing in `text` could drive a terminal: valid UTF-8 (so no stray byte
// 0x80-0x9F a Latin-1 terminal takes for a C1 control), no C0 control but
// newline, no DEL, no C1 control (U+0080-U+009F).
void check_printable(const char* what, const std::string& text) {
    const auto bad = [&](size_t at, const char* why) {
        fail("text from data reached the output unescaped", __LINE__,
             std::string(what) + ": " + why + " at byte " + std::to_string(at) + " of:\n" + text);
    };
    for (size_t i = 0; i < text.size();) {
        const auto c = static_cast<uint8_t>(text[i]);
        if (c < 0x80) {
            if ((c < 0x20 && c != '\n') || c == 0x7f) bad(i, "control byte");
            ++i;
            continue;
        }
        const size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
        if (len == 0 || i + len > text.size()) bad(i, "not UTF-8");
        for (size_t k = 1; k < len; ++k)
            if ((static_cast<uint8_t>(text[i + k]) & 0xc0) != 0x80) bad(i, "not UTF-8");
        const uint8_t c1 = static_cast<uint8_t>(text[i + 1]);
        if ((c == 0xe0 && c1 < 0xa0) || (c == 0xed && c1 > 0x9f) || (c == 0xf0 && c1 < 0x90) ||
            (c == 0xf4 && c1 > 0x8f) || c > 0xf4)
            bad(i, "not UTF-8 (overlong, surrogate or beyond U+10FFFF)");
        if (c == 0xc2 && c1 <= 0x9f) bad(i, "C1 control");
        i += len;
    }
}

// Cell separators of a markdown table row: '|' not escaped by a backslash.
size_t cell_separators(std::string_view line) {
    size_t n = 0, backslashes = 0;
    for (char c : line) {
        if (c == '|' && backslashes % 2 == 0) ++n;
        backslashes = c == '\\' ? backslashes + 1 : 0;
    }
    return n;
}

void check_markdown_tables(const std::string& text) {
    size_t header = 0;  // separators of the current table's header; 0: none
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string_view line(text.data() + start, end - start);
        if (line.empty() || line[0] != '|') header = 0;
        else if (header == 0) header = cell_separators(line);
        else if (cell_separators(line) != header)
            fail("a markdown table row has more or fewer cells than its header", __LINE__,
                 std::string(line) + "\nin:\n" + text);
        start = end + 1;
    }
}

// The text renderers on a file that reads. Refusals (InputError, a
// statistic's invalid_argument) are how the commands end too; whatever is
// rendered before or without them must be printable.
void check_rendering(const ResultsFile& f) {
    try {
        check_printable("show", rendered([&](FILE* out) { gfxstat::cli::render_show_text("fuzz", f, out); }));
    } catch (const InputError&) {  // show refuses a file without runs
    }

    if (f.metrics().empty()) return;
    // The first metric for summary, as `gfxstat summary --metric NAME`.
    try {
        gfxstat::cli::InputOutcome outcome;
        outcome.samples = gfxstat::cli::loaded_samples(select_metric(f, "fuzz", f.metrics()[0].name, {}), "fuzz",
                                                       false);
        check_printable("summary notes", rendered([&](FILE* out) {
                            gfxstat::cli::warn_left_out("gfxstat summary", outcome, ColumnFormat{}, out);
                        }));
        std::vector<gfxstat::cli::LoadedSample> samples;
        for (auto& s : outcome.samples)
            if (s.sample.size() > 0) samples.push_back(std::move(s));
        check_printable("summary", rendered([&](FILE* out) { gfxstat::cli::render_summary_text(samples, true, out); }));
    } catch (const InputError&) {
    }

    // compare within the file, on at most three metrics (a fuzzed file can
    // declare hundreds), without the bootstrap (its resamples cost time and
    // print no text from data), on one thread.
    gfxstat::cli::CompareChoices choices;
    for (size_t i = 0; i < f.metrics().size() && i < 3; ++i) choices.metrics.push_back(f.metrics()[i].name);
    gfxstat::cli::CompareReport report;
    report.resamples = 0;
    try {
        report.metrics = gfxstat::cli::within_one_file("fuzz", f, choices);
        gfxstat::cli::analyse_comparisons(report, false, true, 1);
        gfxstat::findings::describe_samples(report);
    } catch (const InputError&) {
        return;
    } catch (const std::invalid_argument&) {
        return;
    }
    check_printable("compare text", rendered([&](FILE* out) { gfxstat::cli::render_text(report, out); }));
    const std::string md = rendered([&](FILE* out) { gfxstat::cli::render_markdown(report, out); });
    check_printable("compare markdown", md);
    check_markdown_tables(md);
}

// JsonCursor against nlohmann on one line of the input.
void check_cursor(std::string_view line) {
    if (line.size() >= 3 && line.substr(0, 3) == "\xef\xbb\xbf") return;  // nlohmann skips a BOM
    line = line.substr(0, line.find('\0'));  // nlohmann stops at a NUL byte as at the end
    bool ours = true;
    std::string why;
    try {
        JsonCursor c(line);
        c.skip_value();
        c.expect_end();
    } catch (const JsonSyntaxError& e) {
        ours = false;
        why = e.what();
    }
    const bool theirs = nlohmann::json::accept(line);
    if (ours == theirs) return;
    if (!ours && why == "nested too deeply") return;  // documented limit
    if (ours) {
        // nlohmann rejects numbers beyond the double range (out_of_range.406).
        try {
            (void)nlohmann::json::parse(line);
        } catch (const nlohmann::json::out_of_range& e) {
            if (e.id == 406) return;
        } catch (const nlohmann::json::exception&) {
        }
    }
    fail("JsonCursor and nlohmann::json::accept disagree", __LINE__,
         std::string("cursor ") + (ours ? "accepts" : "rejects: " + why));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    g_input = text;
    check_cursor(text.substr(0, text.find('\n')));

    ReadReport rep;
    ResultsFile f;
    try {
        f = parse_results(text, "fuzz", &rep);
    } catch (const InputError&) {
        return 0;  // bad input, reported properly
    }
    check_report(text, f, rep);
    check_selection(text, f);
    check_rendering(f);

    // Round trip.
    const std::string s1 = serialize_results(f);
    ReadReport rep1;
    const ResultsFile f1 = must_parse(s1, &rep1, __LINE__);
    check(!rep1.torn_tail);
    check(rep1.good_bytes == s1.size());
    check_same_file(f, f1);
    const std::string s2 = serialize_results(f1);
    const ResultsFile f2 = must_parse(s2, nullptr, __LINE__);
    check_same_file(f1, f2);
    check(serialize_results(f2) == s2);

    // A prefix of what gfxstat wrote, as a killed appender leaves it.
    const size_t header_end = s1.find('\n') + 1;
    uint64_t h = 1469598103934665603ull;
    for (uint8_t c : std::string_view(text).substr(0, 64)) h = (h ^ c) * 1099511628211ull;
    const size_t cut = header_end + h % (s1.size() - header_end + 1);
    ReadReport rep_cut;
    const ResultsFile fc = must_parse(std::string_view(s1).substr(0, cut), &rep_cut, __LINE__);
    check_report(std::string_view(s1).substr(0, cut), fc, rep_cut);
    check(fc.runs().size() <= f1.runs().size());
    for (size_t i = 0; i < fc.runs().size(); ++i) check_same_run(f1.runs()[i], fc.runs()[i]);
    return 0;
}
