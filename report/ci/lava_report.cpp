// SPDX-License-Identifier: MIT
#include "report/ci/lava_report.h"

#include <cstdio>

#include "report/ci/ci_exports.h"
#include "data/results_reader.h"
#include "drivers/lava_signals.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

LavaReport::LavaReport(std::string prog, const std::string& mode) : prog_(std::move(prog)) {
    const auto m = drivers::parse_lava_mode(mode.empty() ? "auto" : mode);
    active_ = drivers::lava_active(m ? *m : drivers::LavaMode::automatic);
}

void LavaReport::warn(const std::string& what) const {
    std::fprintf(stderr, "%s: warning: LAVA: %s\n", prog_.c_str(), text::escape_message(what).c_str());
}

void LavaReport::collect_verdicts(std::vector<ExportRequest>& exports) {
    if (!active_) return;
    ExportRequest q;
    q.kind = "rows";
    q.rows = [this](const std::vector<VerdictRow>& rows) {
        compared_ = true;
        for (const VerdictRow& r : rows)
            verdicts_.push_back({r.candidate, r.baseline, r.metric, r.relative_change,
                                 r.fails || r.inconclusive_fails});
    };
    exports.push_back(std::move(q));
}

void LavaReport::results(const std::string& results_path, const std::vector<std::string>& variants) {
    if (!active_) return;
    std::fflush(stdout);
    drivers::LavaSignals signals(stdout, [this](const std::string& w) { warn(w); });
    drivers::LavaNames names;
    try {
        const data::ResultsFile file = data::read_results_path(results_path, results_path);
        signals.sets(drivers::lava_summary_sets(file, variants.empty() ? file.variants() : variants, names));
    } catch (const std::exception& e) {
        warn(std::string("no test cases: ") + e.what());
    }
    if (compared_) {
        drivers::LavaSet set;
        set.name = names.unique("gfxstat-verdicts");
        drivers::LavaNames case_names;
        for (const Verdict& v : verdicts_) {
            drivers::LavaCase c;
            c.name = case_names.unique(v.candidate + "." + v.metric);
            c.result = v.fails ? "fail" : "pass";
            c.measurement = drivers::lava_measurement(100 * v.relative_change);
            if (c.measurement) c.units = "%";
            set.cases.push_back(std::move(c));
        }
        signals.sets({set});
    }
    signals.attach(results_path);
}

void LavaReport::setup_failed(const std::string& message) {
    if (!active_) return;
    std::fflush(stdout);
    drivers::LavaSignals signals(stdout, [this](const std::string& w) { warn(w); });
    signals.raise(prog_ + ": " + text::escape_message(message));
}

}  // namespace gfxstat::cli
