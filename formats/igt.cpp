// SPDX-License-Identifier: MIT
// IGT programs' output: the igt-* parsers. Line formats (printf format strings of the programs,
// IGT's sources; real outputs in tests/data/run_outputs/, listed in its README.md):
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
//   contended_tiled_threads_<T>; later versions name the layout,
//   "Contended upload rate for %d linear threads:\t..." (thread-contention,
//   the same names) and "... %d linear threads/wc:\t..." (wc-contention)
//   -> contended_wc_linear_threads_<T>, contended_wc_tiled_threads_<T>
//   Each subtest's lines have their own names, so a saved output of every
//   subtest gives one metric per measurement, none pooled with another's.
//   a "BYTES/SIZE: " prefix (the seed thread's patched test) appends
//   _bytes_<B>_size_<S>
// A saved output is one run per file; `lines` (formats/lines.cpp) reads
// the IGT benchmarks that print one number per line.
#include <algorithm>
#include <optional>
#include <utility>

#include "formats/format_list.h"
#include "formats/parser_support.h"

namespace gfxstat::formats {

using namespace parsing;

namespace {

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
        c.add("cycles", "", kHigher, kSecondary, cycles);
        c.add("latency_mean", "us", kLower, kPrimary, mean);
        c.add("latency_max", "us", kLower, kSecondary, max);
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
        for (int k = 0; k < 4; ++k) c.add(kNames[k], "us", kLower, k < 2, v[k]);  // dispatch, latency
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
            c.add("client_elapsed", "s", kLower, kSecondary, elapsed);
            c.add("client_workloads_per_s", "workloads/s", kHigher, kSecondary, rate);
            const size_t stats = cur.rest().find(" Time avg/min/max=");
            if (stats == std::string_view::npos) continue;
            cur.seek(cur.pos() + stats);
            cur.lit(" Time avg/min/max=");
            NumberToken avg, min, max, missed;
            if (!(cur.number(avg) && cur.lit('/') && cur.number(min) && cur.lit('/') && cur.number(max) &&
                  cur.lit("us; ") && cur.number(missed) && cur.lit(" missed.")))
                return failure(line_error(lines.number(), kWsimClient, cur));
            c.add("time_avg", "us", kLower, kSecondary, avg);
            c.add("time_min", "us", kLower, kSecondary, min);
            c.add("time_max", "us", kLower, kSecondary, max);
            c.add("missed", "", kLower, kSecondary, missed);
            continue;
        }
        cur.seek(0);
        if (!(cur.number(elapsed) && cur.lit("s elapsed ("))) continue;
        if (!(cur.number(rate) && cur.lit(" workloads/s)") && cur.end()))
            return failure(line_error(lines.number(), kWsimTotal, cur));
        c.add("elapsed", "s", kLower, kPrimary, elapsed);
        c.add("workloads_per_s", "workloads/s", kHigher, kPrimary, rate);
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
            c.add("all", "us", kLower, kPrimary, t);
            if (expected) c.add("all_expected", "us", kLower, kSecondary, *expected);
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
            c.add(name, "us", kLower, kPrimary, t);
            if (has_overlap) c.add(name + "_overlap", "%", kHigher, kSecondary, overlap);
            continue;
        }
        cur.seek(0);
        if (cur.lit("Sequential (")) {
            if (!(cur.digits() && cur.lit(" engines, ") && cur.digits() && cur.lit(" processes): average ") &&
                  nop_time(cur, t) && nop_expected(cur, expected) && cur.end()))
                return bad(kNopSequential);
            c.add("sequential", "us", kLower, kPrimary, t);
            if (expected) c.add("sequential_expected", "us", kLower, kSecondary, *expected);
            continue;
        }
        std::string_view engine;
        if (cur.lit("Signal ")) {
            if (!(cur.name(engine) && cur.lit(": ") && cur.grouped_count() && cur.lit(" cycles")))
                continue;  // not the format: some other "Signal ..." text
            if (!(cur.lit(" (") && cur.grouped_count() && cur.lit(" signals): ") && nop_time(cur, t) && cur.end()))
                return bad(kNopSignal);
            c.add("signal_" + std::string(engine), "us", kLower, kPrimary, t);
            continue;
        }
        // ENGINE: N cycles[:,] Xus
        if (!(cur.name(engine) && cur.lit(": ") && cur.grouped_count() && cur.lit(" cycles"))) continue;
        const bool separator = cur.lit(": ") || cur.lit(", ");
        cur.blanks();
        if (!(separator && nop_time(cur, t) && cur.end())) return bad(kNopEngine);
        c.add(std::string(engine), "us", kLower, kPrimary, t);
    }
    if (c.empty())
        return nothing_found(o, "'" + std::string(kNopEngine) + "', '" + std::string(kNopAll) + "' or '" +
                                    std::string(kNopSequential) + "'");
    return success(c);
}

// -------------------------------------------------------- igt-fence-upload

constexpr std::string_view kFenceFormat = "Upload rate for N linear|tiled surfaces[, T threads]:\tX MiB/s";
constexpr std::string_view kContendedFormat =
    "Contended upload rate for T [linear|tiled] threads[/wc]:\tX MiB/s";

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
            if (!cur.digits(threads)) return failure(line_error(lines.number(), kContendedFormat, cur));
            if (cur.lit(" threads:")) {
                // The first version: the same line for linear, then tiled.
                const std::string stem = "threads_" + std::string(threads) + suffix;
                const int k = contended_seen[stem]++;
                name = std::string(k % 2 == 0 ? "contended_linear_" : "contended_tiled_") + stem;
            } else {
                // Later versions: the layout named, wc-contention's lines apart by "/wc".
                if (!(cur.lit(' ') && cur.name(layout) && (layout == "linear" || layout == "tiled") &&
                      cur.lit(" threads")))
                    return failure(line_error(lines.number(), kContendedFormat, cur));
                const bool wc = cur.lit("/wc");
                if (!cur.lit(':')) return failure(line_error(lines.number(), kContendedFormat, cur));
                name = std::string("contended_") + (wc ? "wc_" : "") + std::string(layout) + "_threads_" +
                       std::string(threads) + suffix;
            }
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
        c.add(name, "MiB/s", kHigher, kPrimary, rate);
    }
    if (c.empty()) return nothing_found(o, "'" + std::string(kFenceFormat) + "'");
    return success(c);
}

std::unique_ptr<OutputParser> make_syslatency(const ParserOptions& o) {
    // Primary: what the program is run for (its own headline line); the
    // rest are by-products printed beside it (docs/run.md, *Parsers*).
    return parser_without_options(o, "igt-syslatency",
                                  {info("cycles", "", kHigher, kSecondary),
                                   info("latency_mean", "us", kLower, kPrimary),
                                   info("latency_max", "us", kLower, kSecondary)},
                                  parse_syslatency);
}

std::unique_ptr<OutputParser> make_latency(const ParserOptions& o) {
    // gem_latency measures two things: dispatch and wake-up latency.
    return parser_without_options(o, "igt-latency",
                                  {info("dispatch", "us", kLower, kPrimary), info("latency", "us", kLower, kPrimary),
                                   info("producer_latency", "us", kLower, kSecondary),
                                   info("cpu_time", "us", kLower, kSecondary)},
                                  parse_latency);
}

std::unique_ptr<OutputParser> make_wsim(const ParserOptions& o) {
    // The total line; the per-client lines detail it.
    return parser_without_options(o, "igt-wsim",
                                  {info("elapsed", "s", kLower, kPrimary),
                                   info("workloads_per_s", "workloads/s", kHigher, kPrimary),
                                   info("client_elapsed", "s", kLower, kSecondary),
                                   info("client_workloads_per_s", "workloads/s", kHigher, kSecondary),
                                   info("time_avg", "us", kLower, kSecondary),
                                   info("time_min", "us", kLower, kSecondary),
                                   info("time_max", "us", kLower, kSecondary), info("missed", "", kLower, kSecondary)},
                                  parse_wsim);
}

std::unique_ptr<OutputParser> make_exec_nop(const ParserOptions& o) {
    return parser_without_options(o, "igt-exec-nop", {}, parse_exec_nop);
}

std::unique_ptr<OutputParser> make_fence_upload(const ParserOptions& o) {
    return parser_without_options(o, "igt-fence-upload", {}, parse_fence_upload);
}

}  // namespace

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


// A saved IGT output is one run per file: IGT prints no banner that would
// tell two pasted runs apart reliably.
const Format& igt_syslatency_format() {
    static const Format f{"igt-syslatency", "IGT gem_syslatency: cycles, latency mean and max", make_syslatency};
    return f;
}
const Format& igt_latency_format() {
    static const Format f{"igt-latency", "IGT gem_latency: dispatch, wake-up and producer latency, CPU time",
                          make_latency};
    return f;
}
const Format& igt_wsim_format() {
    static const Format f{"igt-wsim", "IGT gem_wsim: elapsed time and workloads/s, total and per client", make_wsim};
    return f;
}
const Format& igt_exec_nop_format() {
    static const Format f{"igt-exec-nop", "IGT gem_exec_nop: time per nop batch, per engine and all engines",
                          make_exec_nop};
    return f;
}
const Format& igt_fence_upload_format() {
    static const Format f{"igt-fence-upload", "IGT gem_fence_upload: upload/download rates per surface count",
                          make_fence_upload};
    return f;
}

}  // namespace gfxstat::formats
