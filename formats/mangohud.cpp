// SPDX-License-Identifier: MIT
// `mangohud`: MangoHud's CSV logs (one file is one run) and its summary
// file. Learnt from the files the Debian 12 package (0.6.8) writes on
// Xvfb + llvmpipe (tests/fixtures/frames/README.md):
//
//   v1                                              with log_versioning=1:
//   0.7.0                                           MangoHud's version and
//   ---------------------SYSTEM INFO---------------------   a rule
//   os,cpu,gpu,ram,kernel,driver,cpuscheduler      the preamble: the machine
//   Debian GNU/Linux 12 (bookworm),Intel Xeon ...   (kept as environment)
//   [--------------------FRAME METRICS--------------------]   newer versions
//   fps,frametime,cpu_load,...,elapsed             the column names
//   229.2,4363,100,0,...,1550833218                one row per logged frame
//
// `frametime` is in µs in 0.6.x (229.2 fps and 4363: 229.2 x 4363 = 1e6),
// in ms in later versions; the unit is told from the rows themselves, by
// the median of fps x frametime (about 1e6: µs; about 1e3: ms). `elapsed`
// is ns since MangoHud started.
//
// A row whose frame time is longer than its `elapsed` belongs to a frame
// that began before MangoHud's clock did (0.6.8 logs such a first frame of
// 23486 s): it is no frame of the run and is left out.
//
// MangoHud logs every frame only with log_interval=0; by default it logs
// the frame that ends each 100 ms. Frames sampled at fixed times are not the
// run's frames (a long frame is more likely to be the one sampled), so a
// log whose frame times cover less than half of its elapsed time is refused
// with that advice.
//
// The summary file ("0.1% Min FPS,1% Min FPS,97% Percentile FPS,Average
// FPS,GPU Load,CPU Load" and one row) holds MangoHud's own figures, kept
// under their own names (mangohud_fps_1pct_min, ...) since MangoHud's
// lows are not gfxstat's (docs/frame-times.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <map>

#include "formats/format_list.h"
#include "formats/frame_time_metrics.h"
#include "formats/parser_support.h"

namespace gfxstat::formats {

using namespace parsing;

namespace {

// --------------------------------------------------------------- summary

struct SummaryColumn {
    std::string_view header;
    const char* name;
    const char* unit;
    Direction direction;
    bool primary;
};

constexpr SummaryColumn kSummaryColumns[] = {
    {"0.1% Min FPS", "mangohud_fps_0.1pct_min", "frames/s", kHigher, kSecondary},
    {"1% Min FPS", "mangohud_fps_1pct_min", "frames/s", kHigher, kSecondary},
    {"97% Percentile FPS", "mangohud_fps_p97", "frames/s", kHigher, kSecondary},
    {"Average FPS", "mangohud_fps_mean", "frames/s", kHigher, kPrimary},
    {"GPU Load", "mangohud_gpu_load", "%", kUnknown, kSecondary},
    {"CPU Load", "mangohud_cpu_load", "%", kUnknown, kSecondary},
    {"Average Frame Time", "mangohud_frame_time_mean", "ms", kLower, kSecondary},
};

ParseResult parse_summary(LineReader& lines, const std::string& header) {
    const std::vector<std::string> names = split_commas(header);
    std::vector<const SummaryColumn*> columns;
    for (const std::string& n : names) {
        const SummaryColumn* found = nullptr;
        for (const SummaryColumn& c : kSummaryColumns)
            if (c.header == n) found = &c;
        // A column this version of gfxstat does not know is not guessed at.
        columns.push_back(found);
    }
    Collector c;
    std::string_view line;
    size_t rows = 0;
    while (lines.next(line)) {
        if (trim(line).empty()) continue;
        const std::vector<std::string> fields = split_commas(line);
        if (fields.size() != names.size())
            return failure(at_line(lines.number()) + "a MangoHud summary row of " + std::to_string(fields.size()) +
                           " fields under " + std::to_string(names.size()) + " column names");
        for (size_t i = 0; i < fields.size(); ++i) {
            if (!columns[i]) continue;
            const NumberToken t = data::parse_number_token(fields[i]);
            if (!usable(t))
                return failure(at_line(lines.number()) + "expected a number for " + data::quote_token(names[i]) +
                               ", found " + data::quote_token(fields[i]));
            c.add(columns[i]->name, columns[i]->unit, columns[i]->direction, columns[i]->primary, t);
        }
        ++rows;
    }
    if (rows == 0) return failure("line 1: a MangoHud summary header without a row of values");
    if (c.empty()) return failure("line 1: no column of this MangoHud summary is known (" + data::quote_token(header) + ")");
    return success(c);
}

// ------------------------------------------------------------------- log

const char* const kPreamble[] = {"os", "cpu", "gpu", "ram", "kernel", "driver"};

ParseResult parse_mangohud(const RunOutput& o) {
    LineReader lines(o.out);
    std::string_view line;
    if (!lines.next(line)) return failure("the file is empty, not a MangoHud log");
    std::string first(trim(line));
    if (first.starts_with("0.1% Min FPS") || first.find("Average FPS") != std::string_view::npos)
        return parse_summary(lines, first);
    ParseResult r;
    // With log_versioning=1 MangoHud writes "v1", its version and a
    // "---SYSTEM INFO---" rule above the preamble: read past them, keeping
    // the version with the run.
    if (first == "v1") {
        if (lines.next(line) && !trim(line).empty() && !trim(line).starts_with("---"))
            r.environment["mangohud_version"] = std::string(trim(line));
        while (lines.next(line)) {
            first = std::string(trim(line));
            if (!first.empty() && !first.starts_with("---")) break;
        }
    }
    const std::vector<std::string> pre = split_commas(first);
    bool is_preamble = pre.size() >= 3;
    for (size_t i = 0; is_preamble && i < std::min<size_t>(pre.size(), 6); ++i) is_preamble = pre[i] == kPreamble[i];
    if (!is_preamble)
        return failure(at_line(lines.number()) + "expected MangoHud's log preamble 'os,cpu,gpu,...' or its summary "
                       "'0.1% Min FPS,...', found " + data::quote_token(first));
    // The machine as MangoHud saw it: its own words, kept with the run.
    // MangoHud writes the values unquoted, joined by ',', and a value may
    // hold one (llvmpipe's GL renderer is "llvmpipe (LLVM 15.0.6, 256
    // bits)"): then the fields cannot be told apart, and pairing them by
    // position would record the GPU's words as the RAM and the kernel. The
    // line is kept whole instead, as mangohud_system.
    if (lines.next(line)) {
        const std::vector<std::string> values = split_commas(line);
        if (values.size() == pre.size()) {
            for (size_t i = 0; i < pre.size(); ++i)
                if (!values[i].empty() && !pre[i].empty()) r.environment["mangohud_" + std::string(pre[i])] = values[i];
        } else if (!trim(line).empty()) {
            r.environment["mangohud_system"] = std::string(trim(line));
        }
    }
    // The column names, after an optional "---FRAME METRICS---" rule.
    std::vector<std::string> names;
    size_t header_line = 0;
    while (lines.next(line)) {
        const std::string_view t = trim(line);
        if (t.empty() || t.starts_with("---")) continue;
        names = split_commas(t);
        header_line = lines.number();
        break;
    }
    const auto column = [&](std::string_view n) -> long {
        const auto it = std::find(names.begin(), names.end(), n);
        return it == names.end() ? -1 : it - names.begin();
    };
    const long fps_col = column("fps"), ft_col = column("frametime"), elapsed_col = column("elapsed");
    if (fps_col < 0 || ft_col < 0)
        return failure(at_line(header_line ? header_line : lines.number()) +
                       "expected MangoHud's column names with 'fps' and 'frametime'");

    struct Row {
        NumberToken fps, frametime;
        std::optional<NumberToken> elapsed;
        size_t line;
    };
    std::vector<Row> rows;
    while (lines.next(line)) {
        if (trim(line).empty()) continue;
        const std::vector<std::string> f = split_commas(line);
        if (f.size() != names.size())
            return failure(at_line(lines.number()) + "a MangoHud row of " + std::to_string(f.size()) + " fields under " +
                           std::to_string(names.size()) + " column names");
        Row row;
        row.line = lines.number();
        const auto number = [&](long col, NumberToken& out) {
            out = data::parse_number_token(f[static_cast<size_t>(col)]);
            return usable(out);
        };
        if (!number(fps_col, row.fps) || !number(ft_col, row.frametime))
            return failure(at_line(row.line) + "expected numbers for fps and frametime, found " +
                           data::quote_token(f[static_cast<size_t>(fps_col)]) + " and " +
                           data::quote_token(f[static_cast<size_t>(ft_col)]));
        if (elapsed_col >= 0) {
            NumberToken e;
            if (!number(elapsed_col, e))
                return failure(at_line(row.line) + "expected a number for elapsed, found " +
                               data::quote_token(f[static_cast<size_t>(elapsed_col)]));
            row.elapsed = e;
        }
        rows.push_back(row);
    }
    if (rows.empty()) return failure(at_line(header_line) + "a MangoHud log without a frame");

    // frametime's unit, from fps x frametime.
    std::vector<double> products;
    for (const Row& row : rows) {
        const double p = token_double(row.fps) * token_double(row.frametime);
        if (p > 0 && std::isfinite(p)) products.push_back(p);
    }
    if (products.empty()) return failure(at_line(rows[0].line) + "no row with a positive fps and frametime");
    std::nth_element(products.begin(), products.begin() + static_cast<long>(products.size() / 2), products.end());
    const double typical = products[products.size() / 2];
    int shift = 0;  // to ms
    if (typical > 1e5 && typical < 1e7)
        shift = -3;  // µs
    else if (!(typical > 1e2 && typical < 1e4))
        return failure(at_line(rows[0].line) + "cannot tell frametime's unit: fps x frametime is about " +
                       short_number(typical) + ", neither 1e3 (ms) nor 1e6 (us)");

    FrameTimes frames;
    double first_elapsed_ms = 0, last_elapsed_ms = 0, covered_ms = 0;
    bool any_elapsed = false;
    for (const Row& row : rows) {
        const NumberToken ms = scale_token(row.frametime, shift);
        const double ms_value = token_double(ms);
        if (row.elapsed) {
            const double elapsed_ms = token_double(*row.elapsed) / 1e6;
            // Began before MangoHud's clock: not a frame of this run.
            if (ms_value > elapsed_ms) continue;
            if (!any_elapsed) first_elapsed_ms = elapsed_ms - ms_value;
            last_elapsed_ms = elapsed_ms;
            any_elapsed = true;
        }
        covered_ms += ms_value;
        frames.ms.push_back(ms);
        frames.lines.push_back(row.line);
    }
    if (frames.ms.empty()) return failure(at_line(rows[0].line) + "no frame of the log began after MangoHud started");
    const double span_ms = last_elapsed_ms - first_elapsed_ms;
    if (any_elapsed && frames.ms.size() > 2 && covered_ms < 0.5 * span_ms)
        return failure(at_line(frames.lines[0]) + "the log's " + std::to_string(frames.ms.size()) +
                       " frames cover " + short_number(covered_ms) + " ms of " + short_number(span_ms) +
                       " ms: MangoHud logged one frame per interval, not every frame (log it with log_interval=0)");
    if (const std::string e = add_frame_time_metrics(frames, r.metrics); !e.empty()) return failure(e);
    return r;
}

std::unique_ptr<OutputParser> make_mangohud(const ParserOptions& o) {
    return parser_without_options(o, "mangohud", frame_time_metric_infos(), parse_mangohud);
}

}  // namespace

const Format& mangohud_format() {
    static const Format f{"mangohud",
                          "MangoHud CSV log (log_interval=0: every frame) or its summary file; one file, one run",
                          make_mangohud};
    return f;
}

}  // namespace gfxstat::formats
