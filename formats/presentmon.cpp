// SPDX-License-Identifier: MIT
// `presentmon`: PresentMon's CSV (one file is one run of the capture),
// from its documented columns (tests/fixtures/frames/README.md):
//
//   Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,...,
//       TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,...
//   game.exe,4242,0x000001C5A1E2B0A0,DXGI,1,...,0.016,16.667,16.667,...
//
// A capture holds every process that presented (the game, dwm.exe, a
// launcher), and their frames are different experiments, so each process
// name gets its own set of metrics, named "<process>.frame_time",
// "<process>.fps_mean", ... (the name made a metric name: bytes outside
// letters, digits, '_', '.', '-' become '_'). The name is the prefix even
// when the capture holds one process, so that captures with and without
// dwm.exe name the game's metrics alike. `import --metric
// game.exe.fps_mean` keeps one.
//
// A process's frame times are its rows' MsBetweenPresents, in file order,
// every swap chain and process id of that name together. The first
// present of a swap chain has no previous one: PresentMon writes 0 there,
// and that row is left out; a 0 or a negative elsewhere is an error.
// Columns are found by name, without regard to case (PresentMon's own
// CSV writer went from "MsBetweenPresents" to "msBetweenPresents" within
// 1.x), so their order and the other columns (PresentMon 1.x's and the v1
// metrics of 2.x) do not matter. Versions that write no row for a swap
// chain's first present simply have no such row to leave out.
#include <algorithm>
#include <map>
#include <set>

#include "formats/format_list.h"
#include "formats/frame_time_metrics.h"
#include "formats/parser_support.h"

namespace gfxstat::formats {

using namespace parsing;

namespace {

ParseResult parse_presentmon(const RunOutput& o) {
    LineReader lines(o.out);
    std::string_view line;
    std::vector<std::string> names;
    std::string header;
    while (lines.next(line)) {
        // A UTF-8 byte order mark before the first column name (PresentMon
        // 2.x writes one) is not part of "Application".
        if (line.starts_with("\xEF\xBB\xBF")) line.remove_prefix(3);
        if (trim(line).empty()) continue;
        names = split_commas(line);
        header = std::string(trim(line));
        break;
    }
    // Names are matched without regard to case: PresentMon 1.0 to 1.5 write
    // "MsBetweenPresents", later versions "msBetweenPresents".
    const auto same = [](std::string_view a, std::string_view b) {
        if (a.size() != b.size()) return false;
        for (size_t i = 0; i < a.size(); ++i) {
            const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
            if (lower(a[i]) != lower(b[i])) return false;
        }
        return true;
    };
    const auto column = [&](std::string_view n) -> long {
        const auto it = std::find_if(names.begin(), names.end(), [&](const std::string& x) { return same(x, n); });
        return it == names.end() ? -1 : it - names.begin();
    };
    const long app_col = column("Application"), ms_col = column("MsBetweenPresents");
    const long chain_col = column("SwapChainAddress"), pid_col = column("ProcessID");
    if (names.empty()) return failure("the file is empty, not a PresentMon CSV");
    // Some PresentMon 2.x releases write other default columns (CPU and
    // display frame times) and keep MsBetweenPresents for --v1_metrics.
    if (app_col < 0 || ms_col < 0)
        return failure(at_line(lines.number()) + "expected PresentMon's column names with 'Application' and "
                       "'MsBetweenPresents', found " + data::quote_token(header) +
                       (app_col >= 0 ? " (PresentMon 2.x writes MsBetweenPresents with --v1_metrics)" : ""));

    std::vector<std::string> order;                 // process names, first seen first
    std::map<std::string, FrameTimes> by_process;
    std::set<std::string> chains_seen;              // process id + swap chain
    while (lines.next(line)) {
        if (trim(line).empty()) continue;
        const std::vector<std::string> f = split_commas(line);
        if (f.size() != names.size())
            return failure(at_line(lines.number()) + "a PresentMon row of " + std::to_string(f.size()) +
                           " fields under " + std::to_string(names.size()) + " column names");
        const std::string app(f[static_cast<size_t>(app_col)]);
        const std::string& ms_text = f[static_cast<size_t>(ms_col)];
        const NumberToken t = data::parse_number_token(ms_text);
        if (!usable(t))
            return failure(at_line(lines.number()) + "expected a number for MsBetweenPresents, found " +
                           data::quote_token(ms_text));
        std::string chain = app;
        if (pid_col >= 0) chain += "\n" + std::string(f[static_cast<size_t>(pid_col)]);
        if (chain_col >= 0) chain += "\n" + std::string(f[static_cast<size_t>(chain_col)]);
        const bool first_of_chain = chains_seen.insert(chain).second;
        if (first_of_chain && !t.negative && data::decimal_significand(t) == 0) continue;  // no previous present
        auto [it, fresh] = by_process.try_emplace(app);
        if (fresh) order.push_back(app);
        it->second.ms.push_back(t);
        it->second.lines.push_back(lines.number());
    }
    if (order.empty()) return failure(at_line(lines.number()) + "a PresentMon CSV without a present");
    ParseResult r;
    std::map<std::string, std::string> prefixes;  // metric prefix -> process, for collisions
    for (const std::string& app : order) {
        const std::string prefix = metric_name_part(app) + ".";
        const auto [it, fresh] = prefixes.emplace(prefix, app);
        if (!fresh)
            return failure("processes " + data::quote_token(it->second) + " and " + data::quote_token(app) +
                           " would both be named " + data::quote_token(prefix) + " in metric names");
        if (const std::string e = add_frame_time_metrics(by_process[app], r.metrics, prefix); !e.empty())
            return failure(e + " (process " + data::quote_token(app) + ")");
    }
    return r;
}

std::unique_ptr<OutputParser> make_presentmon(const ParserOptions& o) {
    // Names come from the capture: declared as they are seen.
    return parser_without_options(o, "presentmon", {}, parse_presentmon);
}

}  // namespace

const Format& presentmon_format() {
    static const Format f{"presentmon",
                          "PresentMon CSV: MsBetweenPresents per process, metrics <process>.fps_mean, ...; one file, one run",
                          make_presentmon};
    return f;
}

}  // namespace gfxstat::formats
