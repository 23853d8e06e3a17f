// SPDX-License-Identifier: MIT
#include "cli/ab_stored_baseline.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/ab_variant_options.h"
#include "cli/store_option.h"
#include "data/input_error.h"
#include "data/store_argument.h"
#include "text/shell_quote.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

namespace {

// Runs of the candidate when --runs is not given.
constexpr size_t kStoredBaselineRuns = 10;

}  // namespace

void add_stored_baseline_options(CLI::App& app, StoredBaseline& b) {
    app.add_option("--baseline", b.selection,
                   "a store selection (docs/store.md) as the baseline: only the one --variant runs, a fixed "
                   "number of runs (--runs, default 10), compared with the stored runs")
        ->type_name("SELECTION");
    add_store_option(app, b.store);
}

std::string start_stored_baseline(StoredBaseline& b, const CLI::App& app, const std::vector<std::string>& variants,
                                  size_t& runs, const char* prog) {
    const auto given = [&](const char* name) { return app.get_option(name)->count() > 0; };
    if (!b.given()) return given("--store") ? "--store goes with --baseline SELECTION" : check_variant_labels(variants);
    use_store_option(b.store);
    if (data::is_store_argument(b.selection)) b.selection.erase(0, data::kStoreArgumentPrefix.size());
    if (variants.size() != 1) return "with --baseline SELECTION give one --variant: the candidate that runs";
    if (variants[0].empty() || variants[0].find(':') != std::string::npos)
        return "--variant '" + variants[0] + "': a label is not empty and holds no ':'";
    // The stop rule watches interleaved blocks of baseline and candidate
    // runs, which stored runs are not.
    for (const char* o : {"--max-runs", "--min-runs", "--stop"})
        if (given(o)) return std::string(o) + " goes with the stop rule; with a stored baseline the runs are fixed (--runs)";
    if (runs == 0) runs = kStoredBaselineRuns;
    try {
        (void)data::read_store_argument("store:" + b.selection);
    } catch (const data::InputError& e) {
        return e.what();
    }
    std::fprintf(stderr,
                 "%s: the baseline is stored runs: the stop rule needs interleaved A/B blocks, so %s runs %zu "
                 "times (--runs)\n",
                 prog, text::escape_text(variants[0]).c_str(), runs);
    return "";
}

std::vector<std::string> stored_baseline_inputs(const StoredBaseline& b, const std::string& output,
                                                const std::vector<std::string>& variants, CompareSettings& report) {
    report.advice.full_report = "gfxstat compare --full " +
                                (b.given() ? text::shell_quote("store:" + b.selection) + " " : std::string()) +
                                text::shell_quote(output);
    if (b.given()) return {"store:" + b.selection, output};
    report.choices.baseline = variants[0];
    report.choices.variants.assign(variants.begin() + 1, variants.end());
    return {output};
}

}  // namespace gfxstat::cli
