// SPDX-License-Identifier: MIT
// compare's numbers as an OpenMetrics text exposition, GitLab's metrics
// report (artifacts:reports:metrics), which shows each series beside the
// target branch's. Gauges, one family each, every sample labelled by
// metric (the benchmark) and variant:
//   gfxstat_mean{metric,variant,unit}            each side's mean
//   gfxstat_values{metric,variant}               values (runs) it counts
//   gfxstat_change_ratio{metric,baseline,variant}        relative change
//   gfxstat_change_ratio_low / _high{...}        its confidence interval
//   gfxstat_p{metric,baseline,variant}           the primary p, adjusted
//   gfxstat_verdict{metric,baseline,variant,verdict}     1 for the verdict
//   gfxstat_gate_failed{metric,baseline,variant} 1 where --gate fails
// ending "# EOF". A value that is not defined is left out, never NaN.
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "report/ci/ci_exports.h"
#include "report/ci/ci_names.h"
#include "text/text_escape.h"
#include "text/number_format.h"

namespace gfxstat::cli {

namespace {


// The shortest text that reads back as the same double.
struct Family {
    std::string name, help;
    std::vector<std::string> samples;
    std::set<std::string> seen;  // label sets: a family holds each once
    void add(const std::vector<std::pair<std::string, std::string>>& labels, double value) {
        if (!std::isfinite(value)) return;
        std::string l;
        for (const auto& [k, v] : labels) l += (l.empty() ? "" : ",") + k + "=\"" + openmetrics_label_value(v) + "\"";
        if (!seen.insert(l).second) return;
        samples.push_back(name + "{" + l + "} " + text::shortest_number(value));
    }
};

}  // namespace

std::string render_openmetrics(const CompareReport& r, const ExportContext& ctx) {
    const std::vector<VerdictRow> rows = verdict_rows(r, ctx.gate);
    Family mean{"gfxstat_mean", "each side's mean (a suite's: the geometric mean of its benchmarks)", {}, {}};
    Family values{"gfxstat_values", "values each side's mean counts (a suite's: benchmarks)", {}, {}};
    Family change{"gfxstat_change_ratio", "the candidate's change relative to the baseline (0.05 is +5%)", {}, {}};
    Family low{"gfxstat_change_ratio_low", "the lower end of the change's confidence interval", {}, {}};
    Family high{"gfxstat_change_ratio_high", "the upper end of the change's confidence interval", {}, {}};
    Family p{"gfxstat_p", "the primary test's p-value, adjusted over the family", {}, {}};
    Family verdict{"gfxstat_verdict", "1 for the comparison's verdict", {}, {}};
    Family gate{"gfxstat_gate_failed", "1 where the comparison fails --gate (0 without --gate)", {}, {}};
    for (const VerdictRow& row : rows) {
        mean.add({{"metric", row.metric}, {"variant", row.baseline}, {"unit", row.unit}}, row.baseline_centre);
        mean.add({{"metric", row.metric}, {"variant", row.candidate}, {"unit", row.unit}}, row.candidate_centre);
        values.add({{"metric", row.metric}, {"variant", row.baseline}}, static_cast<double>(row.baseline_n));
        values.add({{"metric", row.metric}, {"variant", row.candidate}}, static_cast<double>(row.candidate_n));
        const std::vector<std::pair<std::string, std::string>> pair = {
            {"metric", row.metric}, {"baseline", row.baseline}, {"variant", row.candidate}};
        change.add(pair, row.relative_change);
        if (row.relative_ci) {
            low.add(pair, (*row.relative_ci)[0]);
            high.add(pair, (*row.relative_ci)[1]);
        }
        if (row.p) p.add(pair, *row.p);
        auto with_verdict = pair;
        with_verdict.emplace_back("verdict", analysis::outcome_name(row.verdict.outcome));
        verdict.add(with_verdict, 1);
        gate.add(pair, row.fails ? 1 : 0);
    }
    std::string out;
    for (const Family* f : {&mean, &values, &change, &low, &high, &p, &verdict, &gate}) {
        if (f->samples.empty()) continue;
        out += "# TYPE " + f->name + " gauge\n";
        out += "# HELP " + f->name + " " + f->help + "\n";
        for (const std::string& s : f->samples) out += s + "\n";
    }
    out += "# EOF\n";
    return out;
}

}  // namespace gfxstat::cli
