// SPDX-License-Identifier: MIT
#include "formats/recognise.h"

#include <string>
#include <vector>

#include "formats/registry.h"

namespace gfxstat::formats {

namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string_view trim(std::string_view s) {
    while (!s.empty() && blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && blank(s.back())) s.remove_suffix(1);
    return s;
}

// A decimal number as these tools print them: 1234, 0.657, 1.5e-3, -2.
bool number(std::string_view s) {
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
    bool seen = false;
    size_t i = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, seen = true;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, seen = true;
    }
    if (seen && i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
        if (i == s.size()) return false;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    }
    return seen && i == s.size();
}

// The whole lines of `text`: a last line cut by the sniff limit is left
// out, unless the text is all there is.
std::vector<std::string_view> lines_of(std::string_view text, bool cut) {
    std::vector<std::string_view> lines;
    size_t start = 0;
    while (start < text.size()) {
        const size_t nl = text.find('\n', start);
        if (nl == std::string_view::npos) {
            if (!cut) lines.push_back(text.substr(start));
            break;
        }
        lines.push_back(text.substr(start, nl - start));
        start = nl + 1;
    }
    return lines;
}

// ------------------------------------------------------------------ JSON

// The object keys of a JSON text, with the depth of the object holding
// each (1: the top-level object's), as far as the text goes. Not a
// validator: broken JSON (the reason a command refused the file) still
// shows its keys.
struct JsonKeys {
    std::vector<std::string> top, all;
};

JsonKeys json_keys(std::string_view t) {
    JsonKeys keys;
    int depth = 0;
    size_t i = 0;
    while (i < t.size()) {
        const char c = t[i];
        if (c == '{' || c == '[') {
            ++depth;
            ++i;
        } else if (c == '}' || c == ']') {
            --depth;
            ++i;
        } else if (c == '"') {
            std::string s;
            ++i;
            while (i < t.size() && t[i] != '"') {
                if (t[i] == '\\') ++i;
                if (i < t.size()) s.push_back(t[i]);
                ++i;
            }
            ++i;
            size_t j = i;
            while (j < t.size() && blank(t[j])) ++j;
            if (j < t.size() && t[j] == ':') {
                if (depth == 1) keys.top.push_back(s);
                keys.all.push_back(std::move(s));
            }
        } else {
            ++i;
        }
    }
    return keys;
}

bool has(const std::vector<std::string>& v, std::string_view k) {
    for (const auto& s : v)
        if (s == k) return true;
    return false;
}

std::optional<RecognisedFormat> recognise_json(std::string_view t) {
    const JsonKeys k = json_keys(t);
    // A results file's header names its format first: never anything else.
    if (has(k.top, "format") && t.find("\"gfxstat-results\"") != std::string_view::npos) return std::nullopt;
    // hyperfine --export-json: {"results": [{"command": ..., "mean": ..., "times": [...]}]}
    if (has(k.top, "results") && has(k.all, "command") && (has(k.all, "mean") || has(k.all, "times")))
        return RecognisedFormat{"hyperfine", "a hyperfine export"};
    // --benchmark_format=json: {"context": {"num_cpus": ...}, "benchmarks": [...]}
    if (has(k.top, "benchmarks") ||
        (has(k.top, "context") && (has(k.all, "num_cpus") || has(k.all, "library_build_type"))))
        return RecognisedFormat{"gbench", "a Google Benchmark JSON output"};
    return std::nullopt;
}

// ----------------------------------------------------------------- text

// `go test -bench`: "BenchmarkName-8   1000   1234 ns/op ...". Go's rule
// for a benchmark's name: "Benchmark" then the end or a character that is
// not a lower-case letter.
bool gotest_line(std::string_view line) {
    constexpr std::string_view kPrefix = "Benchmark";
    if (line.substr(0, kPrefix.size()) != kPrefix) return false;
    if (line.size() > kPrefix.size() && line[kPrefix.size()] >= 'a' && line[kPrefix.size()] <= 'z') return false;
    std::vector<std::string_view> fields;
    size_t i = 0;
    while (i < line.size() && fields.size() < 4) {
        while (i < line.size() && blank(line[i])) ++i;
        const size_t start = i;
        while (i < line.size() && !blank(line[i])) ++i;
        if (i > start) fields.push_back(line.substr(start, i - start));
    }
    // "N ns/op" with N of any shape: a line gone wrong ("many") is still one.
    return fields.size() == 4 && fields[3].find('/') != std::string_view::npos;
}

// EzBench: "SubTest: float(0.09) s", "Draw calls: int(1200)", ": str(completed)":
// NAME: TYPE(VALUE) UNIT.
bool ezbench_line(std::string_view line) {
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) return false;
    const std::string_view rest = trim(line.substr(colon + 1));
    const size_t open = rest.find('(');
    const size_t close = rest.find(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) return false;
    // float(0.09), int(3), str(completed), img(shot.png), and lines gone
    // wrong: float(abc), double(1).
    const std::string_view type = rest.substr(0, open);
    if (type.empty()) return false;
    for (char c : type)
        if (c < 'a' || c > 'z') return false;
    return true;
}

// The cells of one CSV line (RFC 4180 quotes), or nothing when a quote is
// open at its end (a cell spanning lines: not judged).
std::optional<std::vector<std::string_view>> csv_cells(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::vector<std::string_view> cells;
    size_t start = 0;
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '"') quoted = !quoted;
        else if (line[i] == ',' && !quoted) {
            cells.push_back(line.substr(start, i - start));
            start = i + 1;
        }
    }
    if (quoted) return std::nullopt;
    cells.push_back(line.substr(start));
    return cells;
}

// A table: a header of two or more cells, not all numbers, and rows of as
// many cells, of which some are numbers.
bool csv_table(const std::vector<std::string_view>& lines) {
    size_t first = 0;
    while (first < lines.size() && trim(lines[first]).empty()) ++first;
    if (first == lines.size()) return false;
    const auto header = csv_cells(lines[first]);
    if (!header || header->size() < 2) return false;
    bool named = false;
    for (std::string_view c : *header) named |= !trim(c).empty() && !number(trim(c));
    if (!named) return false;
    size_t rows = 0;
    bool numbers = false;
    for (size_t i = first + 1; i < lines.size(); ++i) {
        if (trim(lines[i]).empty()) continue;
        const auto cells = csv_cells(lines[i]);
        if (!cells) return rows > 0 && numbers;  // a multi-line cell: judge what came before
        if (cells->size() != header->size()) return false;
        for (std::string_view c : *cells) numbers |= number(trim(c));
        ++rows;
    }
    return rows > 0 && numbers;
}

// ------------------------------------------------------- program outputs

// The words for each format whose files are a program's output, read by
// that format's own parser: the hint names what `import --from` reads.
// `marker`, where set, must be in the text too: glmark2's and vkmark's
// scene lines are alike enough for either parser, their banners are not.
constexpr struct {
    std::string_view format, what, marker = {};
} kOutputWords[] = {
    {"igt-syslatency", "IGT gem_syslatency output"},
    {"igt-latency", "IGT gem_latency output"},
    {"igt-wsim", "IGT gem_wsim output"},
    {"igt-exec-nop", "IGT gem_exec_nop output"},
    {"igt-fence-upload", "IGT gem_fence_upload output"},
    {"glmark2", "glmark2 output", "glmark2"},
    {"apitrace", "apitrace replay (glretrace, eglretrace) output"},
    {"gfxrecon", "gfxrecon-replay output"},
    {"glxgears", "glxgears output"},
    {"vkmark", "vkmark output", "vkmark"},
    {"piglit-replay", "a piglit replay profile"},
    {"mangohud", "a MangoHud log"},
    {"presentmon", "a PresentMon capture"},
};

// The first of those formats whose parser (the one `import --from` reads
// the saved output with) reads measurements from `whole` (the sniffed
// text's whole lines) without an error. The parsers ignore lines they do
// not know and fail without their own, so a match is the format's shape;
// each is linear in the text.
std::optional<RecognisedFormat> recognise_output(std::string_view whole) {
    for (const auto& w : kOutputWords) {
        const Format* f = find_format(w.format);
        if (!f || !f->parser || (!w.marker.empty() && whole.find(w.marker) == std::string_view::npos)) continue;
        const ParseResult r = f->parser({})->parse(RunOutput{whole, {}, nullptr, std::nullopt});
        if (r.error.empty() && !r.metrics.empty()) return RecognisedFormat{f->name, w.what};
    }
    return std::nullopt;
}

std::optional<RecognisedFormat> recognise_text(std::string_view t, bool cut) {
    const std::vector<std::string_view> lines = lines_of(t, cut);
    // The whole lines only: a line cut by the limit is not the parser's.
    const std::string_view whole =
        lines.empty() ? std::string_view{} : t.substr(0, static_cast<size_t>(lines.back().data() + lines.back().size() - t.data()));
    if (const auto f = recognise_output(whole)) return f;
    size_t gotest = 0, ezbench = 0, other = 0;
    for (std::string_view raw : lines) {
        const std::string_view line = trim(raw);
        if (line.empty()) continue;
        if (gotest_line(line)) ++gotest;
        else if (ezbench_line(line)) ++ezbench;
        else ++other;
    }
    // go test prints goos:, pkg:, PASS and ok lines around its results;
    // EzBench output is EzBench lines, but for one gone wrong.
    if (gotest > 0) return RecognisedFormat{"gotest", "go test -bench output"};
    if (ezbench > other) return RecognisedFormat{"ezbench", "EzBench output"};
    if (csv_table(lines)) return RecognisedFormat{"csv", "a CSV table"};
    return std::nullopt;
}

}  // namespace

std::optional<RecognisedFormat> recognise_import(std::string_view head) {
    const bool cut = head.size() > kSniffBytes;
    if (cut) head = head.substr(0, kSniffBytes);
    size_t i = 0;
    while (i < head.size() && blank(head[i])) ++i;
    if (i == head.size()) return std::nullopt;
    const std::string_view t = head.substr(i);
    if (t[0] == '{') return recognise_json(t);
    if (t[0] == '<') {
        // A PTS result file: <?xml ...?> then <PhoronixTestSuite>.
        if (t.find("<PhoronixTestSuite") != std::string_view::npos)
            return RecognisedFormat{"pts", "a Phoronix Test Suite result file"};
        return std::nullopt;
    }
    return recognise_text(t, cut);
}

}  // namespace gfxstat::formats
