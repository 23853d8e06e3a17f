// The output parsers. Line formats (printf format strings of the programs,
// see ../shared/IGT_FORMATS.md and tests/data/run_outputs/README.md):
//
// igt-syslatency (benchmarks/gem_syslatency)
//   "gem_syslatency: cycles=%.0f, latency mean=%.3fus max=%.0fus\n"
// igt-latency (benchmarks/gem_latency, default -f 0)
//   "%d/%d: %7.3fus %7.3fus %7.3fus %7.3fus\n" = completed/runs, dispatch,
//   latency, producer latency, CPU time per completion
// igt-wsim (benchmarks/gem_wsim)
//   per client (with -v, or the -W master):
//   "%c%u: %.3fs elapsed (%d cycles, %.3f workloads/s)." ('*' or ' ', id)
//   then optionally " Time avg/min/max=%lu/%lu/%luus; %u missed." (older
//   versions print " N (A + B) total VCS batches." and queue depths there
//   instead: ignored); total: "%.3fs elapsed (%.3f workloads/s)\n"
// igt-exec-nop (tests/i915/gem_exec_nop)
//   "%s: %'lu cycles: %.3fus" with "/batch" or " per cycle" after "us" in
//   mailing-list copies, and "%s: %ld cycles, %.3fus" (parallel,
//   independent and multiple subtests) -> <engine>
//   "Signal %s: %'lu cycles (%'lu signals): %.3fus" -> signal_<engine>
//   "All (%d engines): %'lu cycles, average %.3fus per cycle [expected %.3fus]"
//   (older: without [expected]) -> all, all_expected
//   "All %d engines (parallel/%d): %'lu cycles, average %.3fus/batch,
//   overlap %.1f%" (the seed thread's patch) -> all_parallel_<B>,
//   all_parallel_<B>_overlap
//   "Sequential (%d engines, %d processes): average %.3fus per cycle
//   [expected %.3fus]" -> sequential, sequential_expected
//   Summary lines derived from the engine lines ("Slowest engine was",
//   "Total for all N engines is", "Maximum execution latency on",
//   "Total (individual) execution latency", "average (individually)") are
//   not recorded. %'lu is grouped by the locale on a terminal ("594,944";
//   '.', '\'', ' ' and the UTF-8 no-break spaces are accepted too).
// igt-fence-upload (tests/i915/gem_fence_upload)
//   "Upload rate for %d linear surfaces:\t%7.3fMiB/s" -> linear_<N>,
//   same with tiled -> tiled_<N>
//   "%s rate for %d linear surfaces, %d threads:\t%7.3fMiB/s" (%s:
//   Upload, Download, Combined) -> linear_<N>_threads_<T> for Upload,
//   download_linear_<N>_threads_<T>, combined_...
//   "Contended upload rate for %d threads:\t%7.3fMiB/s", printed twice per
//   thread count (linear, then tiled) -> contended_linear_threads_<T>,
//   contended_tiled_threads_<T>
//   a "BYTES/SIZE: " prefix (the seed thread's patched test) appends
//   _bytes_<B>_size_<S>
// ezbench: "SubTest: float(value) unit", "SubTest: int(N) unit",
//   ": str(status)" -- as data/import_ezbench.cpp reads it (that file
//   keeps its line splitter private, so the few lines are repeated here).
//   Lines of another shape are ignored (a test's own chatter), and so is
//   everything after the status line; a status other than "completed" is
//   an error.
// wakeup-latency: "latency_mean_us=%.3f", "latency_median_us=",
//   "latency_p99_us=", "latency_max_us=", "wakeups=%u"
// drm-ioctl, drm-gem, i915-exec-nop (drivers/drm_workloads.h): "KEY=NUMBER"
//   lines; the metric is the key without its unit ("ioctl_ns_mean" ->
//   ioctl_mean in ns, "engine_rcs0_us" -> rcs0 in us). Lines with other
//   keys ("node=", "driver=") are not metrics.
#include "drivers/output_parsers.h"

#include "data/ezbench_line.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <exception>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "data/input_error.h"
#include "drivers/line_reader.h"

namespace gfxstat::drivers {

namespace {

using data::Direction;
using data::MetricInfo;
using data::NumberToken;
using data::TokenStatus;

constexpr Direction kLower = Direction::lower_is_better;
constexpr Direction kHigher = Direction::higher_is_better;
constexpr Direction kUnknown = Direction::unknown;

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_name_char(char c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '.' || c == '-'; }

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    return s;
}

bool usable(const NumberToken& t) {
    return t.status == TokenStatus::decimal || t.status == TokenStatus::binary;
}

// ------------------------------------------------------------------ lines

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
    bool digits(std::string_view& out) {
        const size_t start = i_;
        while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
        out = s_.substr(start, i_ - start);
        return i_ > start;
    }
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
        if (j < s_.size() && (s_[j] == 'e' || s_[j] == 'E')) {
            size_t k = j + 1;
            if (k < s_.size() && (s_[k] == '-' || s_[k] == '+')) ++k;
            if (k < s_.size() && is_digit(s_[k])) {
                while (k < s_.size() && is_digit(s_[k])) ++k;
                j = k;
            }
        }
        const NumberToken t = data::parse_number_token(s_.substr(start, j - start));
        if (!usable(t)) return false;  // e.g. 1e999
        out = t;
        i_ = j;
        return true;
    }
    // Letters only.
    bool word(std::string_view& out) {
        const size_t start = i_;
        while (i_ < s_.size() && is_alpha(s_[i_])) ++i_;
        out = s_.substr(start, i_ - start);
        return i_ > start;
    }
    // A metric-name-like word: letters, digits, '_', '.', '-'.
    bool name(std::string_view& out) {
        const size_t start = i_;
        while (i_ < s_.size() && is_name_char(s_[i_])) ++i_;
        out = s_.substr(start, i_ - start);
        return i_ > start;
    }

private:
    std::string_view s_;
    size_t i_ = 0;
};

// "line 3: expected 'FORMAT', found "..." at column 24"
std::string line_error(size_t line_no, std::string_view format, const Cursor& c) {
    return "line " + std::to_string(line_no) + ": expected '" + std::string(format) + "', found " +
           data::quote_token(c.rest()) + " at column " + std::to_string(c.pos() + 1);
}

// ------------------------------------------------------------- metrics

class Collector {
public:
    void add(const std::string& name, std::string_view unit, Direction dir, const NumberToken& t) {
        auto [it, fresh] = index_.try_emplace(name, list_.size());
        if (fresh) {
            ParsedMetric m;
            m.name = name;
            m.unit = std::string(unit);
            m.direction = dir;
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

ParseResult failure(std::string error) {
    ParseResult r;
    r.error = std::move(error);
    return r;
}

ParseResult success(Collector& c) {
    ParseResult r;
    r.metrics = c.take();
    return r;
}

std::string first_nonblank_line(std::string_view text) {
    LineReader lines(text);
    std::string_view line;
    while (lines.next(line))
        if (!trim(line).empty()) return std::string(trim(line));
    return "";
}

// "no line of the form ... in the output" plus what the output holds
// instead: an IGT skip block's reason, or stderr when stdout is empty.
ParseResult nothing_found(const RunOutput& o, const std::string& expected) {
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
    FunctionParser(std::vector<MetricInfo> metrics, Fn fn) : metrics_(std::move(metrics)), fn_(std::move(fn)) {}
    std::vector<MetricInfo> metrics() const override { return metrics_; }
    ParseResult parse(const RunOutput& output) const override { return fn_(output); }

private:
    std::vector<MetricInfo> metrics_;
    Fn fn_;
};

MetricInfo info(std::string name, std::string unit, Direction d) {
    MetricInfo m;
    m.name = std::move(name);
    m.unit = std::move(unit);
    m.direction = d;
    return m;
}

// ------------------------------------------------------------------ lines

bool igt_harness_line(std::string_view t) {
    return t.starts_with("IGT-Version:") || t.starts_with("Starting subtest:") ||
           t.starts_with("Starting dynamic subtest:") || t.starts_with("Subtest ") ||
           t.starts_with("Dynamic subtest ");
}

ParseResult parse_lines(const RunOutput& o, const std::string& metric) {
    ParsedMetric m;
    m.name = metric;
    m.direction = kUnknown;
    // One value per line at most, reserved once: ten million values are
    // not copied through growing buffers (a 1.5x to 3x peak), and the
    // pages reserved for blank or harness lines are never touched.
    m.values.reserve(static_cast<size_t>(std::count(o.out.begin(), o.out.end(), '\n')) + 1);
    LineReader lines(o.out);
    std::string_view line;
    while (lines.next(line)) {
        const std::string_view t = trim(line);
        if (t.empty() || igt_harness_line(t)) continue;
        const NumberToken tok = data::parse_number_token(t);
        if (!usable(tok)) {
            const std::string where = "line " + std::to_string(lines.number()) + ": ";
            if (tok.status == TokenStatus::malformed) {
                const std::string reason = igt_skip_reason(o.out);
                return failure(where + "expected one number, found " + data::quote_token(t) +
                               (reason.empty() ? "" : " (the program skipped: " + data::quote_token(reason) + ")"));
            }
            return failure(where + data::quote_token(t) + " is " + data::describe(tok.status));
        }
        m.values.push_back(tok);
    }
    if (m.values.empty()) {
        std::string e = "no numbers in the output: expected one number per line";
        if (first_nonblank_line(o.out).empty()) {
            const std::string err = first_nonblank_line(o.err);
            e += err.empty() ? " (stdout is empty)" : " (stdout is empty; stderr: " + data::quote_token(err) + ")";
        }
        return failure(e);
    }
    ParseResult r;
    r.metrics.push_back(std::move(m));
    return r;
}

// --------------------------------------------------------- igt-syslatency

constexpr std::string_view kSyslatencyFormat = "gem_syslatency: cycles=N, latency mean=Xus max=Yus";

ParseResult parse_syslatency(const RunOutput& o) {
    Collector c;
    LineReader lines(o.out);
    std::string_view line;
    while (lines.next(line)) {
        Cursor cur(trim(line));
        if (!cur.lit("gem_syslatency: cycles=")) continue;
        NumberToken cycles, mean, max;
        if (!(cur.number(cycles) && cur.lit(", latency mean=") && cur.number(mean) && cur.lit("us max=") &&
              cur.number(max) && cur.lit("us") && cur.end()))
            return failure(line_error(lines.number(), kSyslatencyFormat, cur));
        c.add("cycles", "", kHigher, cycles);
        c.add("latency_mean", "us", kLower, mean);
        c.add("latency_max", "us", kLower, max);
    }
    if (c.empty()) return nothing_found(o, "'" + std::string(kSyslatencyFormat) + "'");
    return success(c);
}

// ------------------------------------------------------------ igt-latency

constexpr std::string_view kLatencyFormat = "C/R: Xus Xus Xus Xus";

ParseResult parse_latency(const RunOutput& o) {
    static const char* const kNames[4] = {"dispatch", "latency", "producer_latency", "cpu_time"};
    Collector c;
    LineReader lines(o.out);
    std::string_view line;
    while (lines.next(line)) {
        Cursor cur(trim(line));
        if (!(cur.digits() && cur.lit('/') && cur.digits() && cur.lit(':'))) continue;
        const size_t after_colon = cur.pos();
        cur.blanks();
        if (!cur.peek_digit() && !cur.rest().starts_with("-")) continue;  // "4/4096: Upload rate ..."
        cur.seek(after_colon);
        NumberToken v[4];
        for (NumberToken& t : v)
            if (!(cur.blanks1() && cur.number(t) && cur.lit("us")))
                return failure(line_error(lines.number(), kLatencyFormat, cur));
        if (!cur.end()) return failure(line_error(lines.number(), kLatencyFormat, cur));
        for (int k = 0; k < 4; ++k) c.add(kNames[k], "us", kLower, v[k]);
    }
    if (c.empty())
        return nothing_found(o, "'" + std::string(kLatencyFormat) +
                                    "' (gem_latency: dispatch, latency, producer latency, CPU time)");
    return success(c);
}

// --------------------------------------------------------------- igt-wsim

constexpr std::string_view kWsimTotal = "Xs elapsed (Y workloads/s)";
constexpr std::string_view kWsimClient =
    "*N: Xs elapsed (C cycles, Y workloads/s). Time avg/min/max=A/B/Cus; M missed.";

ParseResult parse_wsim(const RunOutput& o) {
    Collector c;
    LineReader lines(o.out);
    std::string_view line;
    while (lines.next(line)) {
        Cursor cur(trim(line));
        NumberToken elapsed, rate;
        // A client line: '*' or ' ' (trimmed), the id, ": ".
        cur.lit('*');
        if (cur.digits() && cur.lit(": ")) {
            if (!(cur.number(elapsed) && cur.lit("s elapsed ("))) continue;
            if (!(cur.digits() && cur.lit(" cycles, ") && cur.number(rate) && cur.lit(" workloads/s).")))
                return failure(line_error(lines.number(), kWsimClient, cur));
            c.add("client_elapsed", "s", kLower, elapsed);
            c.add("client_workloads_per_s", "workloads/s", kHigher, rate);
            const size_t stats = cur.rest().find(" Time avg/min/max=");
            if (stats == std::string_view::npos) continue;
            cur.seek(cur.pos() + stats);
            cur.lit(" Time avg/min/max=");
            NumberToken avg, min, max, missed;
            if (!(cur.number(avg) && cur.lit('/') && cur.number(min) && cur.lit('/') && cur.number(max) &&
                  cur.lit("us; ") && cur.number(missed) && cur.lit(" missed.")))
                return failure(line_error(lines.number(), kWsimClient, cur));
            c.add("time_avg", "us", kLower, avg);
            c.add("time_min", "us", kLower, min);
            c.add("time_max", "us", kLower, max);
            c.add("missed", "", kLower, missed);
            continue;
        }
        cur.seek(0);
        if (!(cur.number(elapsed) && cur.lit("s elapsed ("))) continue;
        if (!(cur.number(rate) && cur.lit(" workloads/s)") && cur.end()))
            return failure(line_error(lines.number(), kWsimTotal, cur));
        c.add("elapsed", "s", kLower, elapsed);
        c.add("workloads_per_s", "workloads/s", kHigher, rate);
    }
    if (c.empty())
        return nothing_found(o, "'" + std::string(kWsimTotal) + "' (gem_wsim prints it unless -q)");
    return success(c);
}

// ----------------------------------------------------------- igt-exec-nop

constexpr std::string_view kNopEngine = "ENGINE: N cycles: Xus";
constexpr std::string_view kNopAll = "All (E engines): N cycles, average Xus per cycle [expected Yus]";
constexpr std::string_view kNopParallel =
    "All E engines (parallel/B): N cycles, average Xus/batch, overlap Y%";
constexpr std::string_view kNopSequential =
    "Sequential (E engines, P processes): average Xus per cycle [expected Yus]";
constexpr std::string_view kNopSignal = "Signal ENGINE: N cycles (S signals): Xus";

// "Xus" with the suffixes seen in IGT's history and mail copies.
bool nop_time(Cursor& cur, NumberToken& t) {
    if (!(cur.number(t) && cur.lit("us"))) return false;
    if (!cur.lit("/batch")) cur.lit(" per cycle");
    return true;
}

// " [expected Yus]", optional.
bool nop_expected(Cursor& cur, std::optional<NumberToken>& t) {
    cur.blanks();
    if (!cur.lit("[expected ")) return true;
    NumberToken v;
    if (!(cur.number(v) && cur.lit("us]"))) return false;
    t = v;
    return true;
}

ParseResult parse_exec_nop(const RunOutput& o) {
    Collector c;
    LineReader lines(o.out);
    std::string_view line;
    while (lines.next(line)) {
        Cursor cur(trim(line));
        const auto bad = [&](std::string_view format) { return failure(line_error(lines.number(), format, cur)); };
        NumberToken t;
        std::optional<NumberToken> expected;
        std::string_view digits;
        if (cur.lit("All (")) {
            if (!(cur.digits() && cur.lit(" engines): ") && cur.grouped_count() && cur.lit(" cycles, average ") &&
                  nop_time(cur, t) && nop_expected(cur, expected) && cur.end()))
                return bad(kNopAll);
            c.add("all", "us", kLower, t);
            if (expected) c.add("all_expected", "us", kLower, *expected);
            continue;
        }
        if (cur.lit("All ") && cur.peek_digit()) {
            NumberToken overlap;
            bool has_overlap = false;
            if (!(cur.digits() && cur.lit(" engines (parallel/") && cur.digits(digits) && cur.lit("): ") &&
                  cur.grouped_count() && cur.lit(" cycles, average ") && nop_time(cur, t)))
                return bad(kNopParallel);
            // ", overlap Y%" -- a mail copy wraps the line after the comma.
            if (cur.lit(',')) {
                cur.blanks();
                if (cur.lit("overlap ")) {
                    if (!(cur.number(overlap) && cur.lit('%'))) return bad(kNopParallel);
                    has_overlap = true;
                }
            }
            if (!cur.end()) return bad(kNopParallel);
            const std::string name = "all_parallel_" + std::string(digits);
            c.add(name, "us", kLower, t);
            if (has_overlap) c.add(name + "_overlap", "%", kHigher, overlap);
            continue;
        }
        cur.seek(0);
        if (cur.lit("Sequential (")) {
            if (!(cur.digits() && cur.lit(" engines, ") && cur.digits() && cur.lit(" processes): average ") &&
                  nop_time(cur, t) && nop_expected(cur, expected) && cur.end()))
                return bad(kNopSequential);
            c.add("sequential", "us", kLower, t);
            if (expected) c.add("sequential_expected", "us", kLower, *expected);
            continue;
        }
        std::string_view engine;
        if (cur.lit("Signal ")) {
            if (!(cur.name(engine) && cur.lit(": ") && cur.grouped_count() && cur.lit(" cycles")))
                continue;  // not the format: some other "Signal ..." text
            if (!(cur.lit(" (") && cur.grouped_count() && cur.lit(" signals): ") && nop_time(cur, t) && cur.end()))
                return bad(kNopSignal);
            c.add("signal_" + std::string(engine), "us", kLower, t);
            continue;
        }
        // ENGINE: N cycles[:,] Xus
        if (!(cur.name(engine) && cur.lit(": ") && cur.grouped_count() && cur.lit(" cycles"))) continue;
        const bool separator = cur.lit(": ") || cur.lit(", ");
        cur.blanks();
        if (!(separator && nop_time(cur, t) && cur.end())) return bad(kNopEngine);
        c.add(std::string(engine), "us", kLower, t);
    }
    if (c.empty())
        return nothing_found(o, "'" + std::string(kNopEngine) + "', '" + std::string(kNopAll) + "' or '" +
                                    std::string(kNopSequential) + "'");
    return success(c);
}

// -------------------------------------------------------- igt-fence-upload

constexpr std::string_view kFenceFormat = "Upload rate for N linear|tiled surfaces[, T threads]:\tX MiB/s";

std::string lower_word(std::string_view w) {
    std::string s(w);
    for (char& ch : s)
        if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
    return s;
}

ParseResult parse_fence_upload(const RunOutput& o) {
    Collector c;
    std::unordered_map<std::string, int> contended_seen;  // per name stem: linear, then tiled
    LineReader lines(o.out);
    std::string_view line;
    while (lines.next(line)) {
        Cursor cur(trim(line));
        // Optional "BYTES/SIZE: " prefix.
        std::string suffix;
        std::string_view bytes, size;
        if (cur.digits(bytes) && cur.lit('/') && cur.digits(size) && cur.lit(": "))
            suffix = "_bytes_" + std::string(bytes) + "_size_" + std::string(size);
        else
            cur.seek(0);
        std::string name;
        std::string_view word, n, threads, layout;
        if (cur.lit("Contended upload rate for ")) {
            if (!(cur.digits(threads) && cur.lit(" threads:")))
                return failure(line_error(lines.number(), "Contended upload rate for T threads:\tX MiB/s", cur));
            const std::string stem = "threads_" + std::string(threads) + suffix;
            const int k = contended_seen[stem]++;
            name = std::string(k % 2 == 0 ? "contended_linear_" : "contended_tiled_") + stem;
        } else {
            if (!(cur.word(word) && cur.lit(" rate for "))) continue;
            if (!(cur.digits(n) && cur.lit(' ') && cur.name(layout) && (layout == "linear" || layout == "tiled") &&
                  cur.lit(" surfaces")))
                return failure(line_error(lines.number(), kFenceFormat, cur));
            name = std::string(layout) + "_" + std::string(n);
            if (cur.lit(", ")) {
                if (!(cur.digits(threads) && cur.lit(" threads")))
                    return failure(line_error(lines.number(), kFenceFormat, cur));
                name += "_threads_" + std::string(threads);
                if (word != "Upload") name = lower_word(word) + "_" + name;
            } else if (word != "Upload") {
                return failure(line_error(lines.number(), kFenceFormat, cur));
            }
            name += suffix;
            if (!cur.lit(':')) return failure(line_error(lines.number(), kFenceFormat, cur));
        }
        NumberToken rate;
        cur.blanks();
        if (!(cur.number(rate) && cur.lit("MiB/s") && cur.end()))
            return failure(line_error(lines.number(), kFenceFormat, cur));
        c.add(name, "MiB/s", kHigher, rate);
    }
    if (c.empty()) return nothing_found(o, "'" + std::string(kFenceFormat) + "'");
    return success(c);
}

// ----------------------------------------------------------------- ezbench


ParseResult parse_ezbench(const RunOutput& o) {
    Collector c;
    std::unordered_map<std::string, std::pair<std::string, size_t>> units;  // name -> unit, first line
    LineReader lines(o.out);
    std::string_view line;
    while (lines.next(line)) {
        const std::optional<data::EzbenchLine> l = data::split_ezbench_line(line);
        if (!l) continue;
        const std::string where = "line " + std::to_string(lines.number()) + ": ";
        if (l->type == "str" || l->type == "img") {
            if (!l->name.empty()) continue;  // a named non-numeric result
            const std::string_view status = trim(l->value);
            if (status != "completed")
                return failure(where + "the test reports status " + data::quote_token(status));
            break;  // the status line closes the run
        }
        if (l->type != "float" && l->type != "int") continue;
        std::string_view v = l->value;
        if (l->type == "int") {
            std::string_view d = v;
            if (!d.empty() && (d[0] == '-' || d[0] == '+')) d.remove_prefix(1);
            if (d.empty() || !std::all_of(d.begin(), d.end(), is_digit))
                return failure(where + "expected an integer in int(), found " + data::quote_token(v));
        }
        const NumberToken t = data::parse_number_token(v);
        if (t.status == TokenStatus::malformed)
            return failure(where + "expected a number in " + std::string(l->type) + "(), found " +
                           data::quote_token(v));
        if (!usable(t)) return failure(where + data::quote_token(v) + " is " + data::describe(t.status));
        const std::string name = l->name.empty() ? "value" : std::string(l->name);
        auto [it, fresh] = units.try_emplace(name, std::string(l->unit), lines.number());
        if (!fresh && it->second.first != l->unit)
            return failure(where + "subtest '" + name + "' has unit " + data::quote_token(l->unit) + " here but " +
                           data::quote_token(it->second.first) + " on line " + std::to_string(it->second.second));
        c.add(name, l->unit, data::ezbench_unit_direction(l->unit), t);
    }
    if (c.empty()) return nothing_found(o, "'SubTest: float(value) unit'");
    return success(c);
}

// ---------------------------------------------------------- wakeup-latency


// ------------------------------------------------- native DRM workloads

struct KeyMetric {
    std::string_view key;  // "ioctl_ns_mean="
    const char* name;
    const char* unit;
    Direction dir;
};

// Lines "KEY=NUMBER" for the keys in `keys`; other lines are ignored. A
// known key whose value is not a number is an error naming the line.
ParseResult parse_keys(const RunOutput& o, std::span<const KeyMetric> keys, const std::string& expected) {
    Collector c;
    LineReader lines(o.out);
    std::string_view line;
    while (lines.next(line)) {
        Cursor cur(trim(line));
        for (const KeyMetric& k : keys) {
            if (!cur.lit(k.key)) continue;
            NumberToken t;
            if (!(cur.number(t) && cur.end()))
                return failure(line_error(lines.number(), std::string(k.key) + "X", cur));
            c.add(k.name, k.unit, k.dir, t);
            break;
        }
    }
    if (c.empty()) return nothing_found(o, expected);
    return success(c);
}

// wakeup-latency: gfxstat's own CPU workload (drivers/wakeup_latency.h).
const KeyMetric kWakeupKeys[] = {
    {"latency_mean_us=", "latency_mean", "us", kLower},
    {"latency_median_us=", "latency_median", "us", kLower},
    {"latency_p99_us=", "latency_p99", "us", kLower},
    {"latency_max_us=", "latency_max", "us", kLower},
    {"wakeups=", "wakeups", "", kUnknown},
};

ParseResult parse_wakeup(const RunOutput& o) {
    return parse_keys(o, kWakeupKeys, "'latency_mean_us=X' (gfxstat workload wakeup-latency)");
}

const KeyMetric kDrmIoctlKeys[] = {
    {"ioctl_ns_median=", "ioctl_median", "ns", kLower},
    {"ioctl_ns_mean=", "ioctl_mean", "ns", kLower},
    {"ioctl_ns_p99=", "ioctl_p99", "ns", kLower},
    {"ioctl_ns_min=", "ioctl_min", "ns", kLower},
    {"get_cap_ns_median=", "get_cap_median", "ns", kLower},
    {"get_cap_ns_mean=", "get_cap_mean", "ns", kLower},
    {"get_cap_ns_p99=", "get_cap_p99", "ns", kLower},
    {"get_cap_ns_min=", "get_cap_min", "ns", kLower},
    {"loop_overhead_ns=", "loop_overhead", "ns", kLower},
    {"iterations=", "iterations", "", kUnknown},
};

const KeyMetric kDrmGemKeys[] = {
    {"allocs_per_s=", "allocs_per_s", "allocs/s", kHigher},
    {"upload_mib_per_s=", "upload", "MiB/s", kHigher},
    {"create_us_median=", "create_median", "us", kLower},
    {"create_us_p99=", "create_p99", "us", kLower},
    {"map_us_median=", "map_median", "us", kLower},
    {"write_us_median=", "write_median", "us", kLower},
    {"requested_bytes=", "requested", "bytes", kUnknown},
    {"allocated_bytes=", "allocated", "bytes", kLower},
    {"rounding_pct=", "rounding", "%", kLower},
    {"loop_overhead_ns=", "loop_overhead", "ns", kLower},
    {"iterations=", "iterations", "", kUnknown},
};

std::vector<MetricInfo> key_infos(std::span<const KeyMetric> keys) {
    std::vector<MetricInfo> out;
    for (const KeyMetric& k : keys) out.push_back(info(k.name, k.unit, k.dir));
    return out;
}

ParseResult parse_drm_ioctl(const RunOutput& o) {
    return parse_keys(o, kDrmIoctlKeys, "'ioctl_ns_mean=X' (gfxstat workload drm-ioctl)");
}

ParseResult parse_drm_gem(const RunOutput& o) {
    return parse_keys(o, kDrmGemKeys, "'allocs_per_s=X' (gfxstat workload drm-gem)");
}

// i915-exec-nop: per engine "engine_NAME_us=", "engine_NAME_batches=",
// "engine_NAME_submit_us_median="; then "all_expected_us=", "slowest_us=",
// "burst=", "rounds=", "all_parallel_us=", "all_parallel_overlap_pct=",
// "loop_overhead_ns=". Per-engine metrics are named as igt-exec-nop names
// gem_exec_nop's (NAME, in us/batch); the round-robin ones are not the same
// quantities as IGT's per-batch "expected" and "parallel" figures (these
// are per round, one batch on every engine), so they have their own names:
// all_serial, all_round_<burst>, all_round_<burst>_overlap.
ParseResult parse_i915_exec_nop(const RunOutput& o) {
    Collector c;
    LineReader lines(o.out);
    std::string_view line;
    std::string burst;  // digits of the last "burst=" line
    while (lines.next(line)) {
        const std::string_view text = trim(line);
        const size_t eq = text.find('=');
        if (eq == std::string_view::npos) continue;
        const std::string_view key = text.substr(0, eq);
        std::string name, unit;
        Direction dir = kLower;
        if (key.starts_with("engine_") && key.size() > 7) {
            const std::string_view rest = key.substr(7);
            const auto engine = [&](std::string_view suffix) {
                return rest.size() > suffix.size() && rest.ends_with(suffix)
                           ? std::string(rest.substr(0, rest.size() - suffix.size()))
                           : std::string();
            };
            if (std::string e = engine("_submit_us_median"); !e.empty()) name = e + "_submit", unit = "us";
            else if (std::string e2 = engine("_batches"); !e2.empty()) name = e2 + "_batches", dir = kUnknown;
            else if (std::string e3 = engine("_us"); !e3.empty()) name = e3, unit = "us";
            if (!name.empty() && !valid_metric_name(name)) name.clear();
        } else if (key == "all_expected_us") {
            name = "all_serial", unit = "us";
        } else if (key == "slowest_us") {
            name = "slowest", unit = "us";
        } else if (key == "rounds") {
            name = "rounds", dir = kUnknown;
        } else if (key == "loop_overhead_ns") {
            name = "loop_overhead", unit = "ns";
        } else if (key == "burst") {
            Cursor cur(text.substr(eq + 1));
            std::string_view digits;
            if (!(cur.digits(digits) && cur.end()))
                return failure(line_error(lines.number(), "burst=N", cur));
            burst = std::string(digits);
            continue;
        } else if (key == "all_parallel_us" || key == "all_parallel_overlap_pct") {
            if (burst.empty())
                return failure("line " + std::to_string(lines.number()) + ": " + std::string(key) +
                               " before a burst=N line");
            name = "all_round_" + burst;
            if (key == "all_parallel_us") unit = "us";
            else name += "_overlap", unit = "%", dir = kHigher;
        }
        if (name.empty()) continue;
        Cursor cur(text);
        cur.seek(eq + 1);
        NumberToken t;
        if (!(cur.number(t) && cur.end()))
            return failure(line_error(lines.number(), std::string(key) + "=X", cur));
        c.add(name, unit, dir, t);
    }
    if (c.empty()) return nothing_found(o, "'engine_NAME_us=X' (gfxstat workload i915-exec-nop)");
    return success(c);
}

// -------------------------------------------------------------------- time

ParseResult parse_time(const RunOutput& o) {
    if (!o.process) return failure("the time parser needs the run's process result; none was given");
    const ProcessResult& p = *o.process;
    if (p.ended == ProcessResult::Ended::not_started)
        return failure("the command did not start" + (p.error.empty() ? std::string() : ": " + p.error));
    Collector c;
    const auto add = [&](const char* name, const char* unit, double v) {
        char buf[64];
        const auto res = std::to_chars(buf, buf + sizeof buf, v);  // shortest round trip
        const NumberToken t = data::parse_number_token(std::string_view(buf, static_cast<size_t>(res.ptr - buf)));
        if (!usable(t)) return false;
        c.add(name, unit, kLower, t);
        return true;
    };
    if (!(add("wall", "s", p.wall_s) && add("user", "s", p.user_s) && add("sys", "s", p.sys_s)))
        return failure("the process result holds a time that is not a finite number");
    NumberToken rss;
    rss.status = TokenStatus::decimal;
    rss.negative = p.max_rss_kib < 0;
    rss.significand = p.max_rss_kib < 0 ? uint64_t{0} - static_cast<uint64_t>(p.max_rss_kib)
                                        : static_cast<uint64_t>(p.max_rss_kib);
    rss.value = static_cast<double>(p.max_rss_kib);
    if (rss.significand > 999999999999999999ULL) {  // more than 18 digits: keep the double
        rss.status = TokenStatus::binary;
        rss.significand = 0;
    }
    c.add("max_rss", "KiB", kLower, rss);
    return success(c);
}

std::string names_list() {
    std::string s;
    for (const std::string& n : parser_names()) s += (s.empty() ? "" : ", ") + n;
    return s;
}

}  // namespace

bool valid_metric_name(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), is_name_char);
}

std::string igt_skip_reason(std::string_view out) {
    LineReader lines(out);
    std::string_view line;
    bool in_block = false;
    std::string requirement;
    while (lines.next(line)) {
        const std::string_view t = trim(line);
        if (t.starts_with("Test requirement not met")) {
            in_block = true;
            continue;
        }
        if (!in_block) continue;
        if (t.starts_with("Test requirement:")) {
            requirement = std::string(t);
            continue;
        }
        if (t.empty() || t.starts_with("Last errno:") || t.starts_with("SKIP")) break;
        return std::string(t);
    }
    return in_block ? (requirement.empty() ? "Test requirement not met" : requirement) : "";
}

std::vector<std::string> parser_names() {
    return {"lines",           "igt-syslatency", "igt-latency",    "igt-wsim", "igt-exec-nop",
            "igt-fence-upload", "ezbench",        "wakeup-latency", "drm-ioctl", "drm-gem",
            "i915-exec-nop",    "time"};
}

std::unique_ptr<OutputParser> make_parser(const std::string& name, const std::string& metric_name) {
    if (!metric_name.empty() && name != "lines")
        throw std::invalid_argument("a metric name (" + metric_name + ") applies only to the lines parser, not " +
                                    name);
    if (name == "lines") {
        const std::string metric = metric_name.empty() ? "value" : metric_name;
        if (!valid_metric_name(metric))
            throw std::invalid_argument("invalid metric name " + data::quote_token(metric) +
                                        ": use letters, digits, '_', '.' and '-'");
        return std::make_unique<FunctionParser>(std::vector<MetricInfo>{info(metric, "", kUnknown)},
                                                [metric](const RunOutput& o) { return parse_lines(o, metric); });
    }
    if (name == "igt-syslatency")
        return std::make_unique<FunctionParser>(
            std::vector<MetricInfo>{info("cycles", "", kHigher), info("latency_mean", "us", kLower),
                                    info("latency_max", "us", kLower)},
            parse_syslatency);
    if (name == "igt-latency")
        return std::make_unique<FunctionParser>(
            std::vector<MetricInfo>{info("dispatch", "us", kLower), info("latency", "us", kLower),
                                    info("producer_latency", "us", kLower), info("cpu_time", "us", kLower)},
            parse_latency);
    if (name == "igt-wsim")
        return std::make_unique<FunctionParser>(
            std::vector<MetricInfo>{info("elapsed", "s", kLower), info("workloads_per_s", "workloads/s", kHigher),
                                    info("client_elapsed", "s", kLower),
                                    info("client_workloads_per_s", "workloads/s", kHigher),
                                    info("time_avg", "us", kLower), info("time_min", "us", kLower),
                                    info("time_max", "us", kLower), info("missed", "", kLower)},
            parse_wsim);
    if (name == "igt-exec-nop") return std::make_unique<FunctionParser>(std::vector<MetricInfo>{}, parse_exec_nop);
    if (name == "igt-fence-upload")
        return std::make_unique<FunctionParser>(std::vector<MetricInfo>{}, parse_fence_upload);
    if (name == "ezbench") return std::make_unique<FunctionParser>(std::vector<MetricInfo>{}, parse_ezbench);
    if (name == "wakeup-latency")
        return std::make_unique<FunctionParser>(
            std::vector<MetricInfo>{info("latency_mean", "us", kLower), info("latency_median", "us", kLower),
                                    info("latency_p99", "us", kLower), info("latency_max", "us", kLower),
                                    info("wakeups", "", kUnknown)},
            parse_wakeup);
    if (name == "drm-ioctl") return std::make_unique<FunctionParser>(key_infos(kDrmIoctlKeys), parse_drm_ioctl);
    if (name == "drm-gem") return std::make_unique<FunctionParser>(key_infos(kDrmGemKeys), parse_drm_gem);
    if (name == "i915-exec-nop")
        return std::make_unique<FunctionParser>(std::vector<MetricInfo>{}, parse_i915_exec_nop);
    if (name == "time")
        return std::make_unique<FunctionParser>(
            std::vector<MetricInfo>{info("wall", "s", kLower), info("user", "s", kLower), info("sys", "s", kLower),
                                    info("max_rss", "KiB", kLower)},
            parse_time);
    throw std::invalid_argument("unknown parser " + data::quote_token(name) + "; known parsers: " + names_list());
}

}  // namespace gfxstat::drivers
