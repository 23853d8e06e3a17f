// SPDX-License-Identifier: MIT
#include "findings/compare_images.h"

#include <string>

#include "data/image_check.h"

namespace gfxstat::findings {

namespace {

// "its frames differ from the baseline's: 3 of 120 (first: 42)"
std::string differ_reason(const ImageComparison& c) {
    return "its frames differ from the baseline's: " + std::to_string(c.differing.size()) + " of " +
           std::to_string(c.compared) + " (first: " + std::to_string(c.first_differing()) + ")";
}

// An improvement by timing alone, of a candidate whose images differ:
// `changed`, and the reason says both.
bool overrule(analysis::Verdict& v, const ImageComparison& c) {
    if (v.outcome != analysis::Outcome::improvement) return false;
    v.outcome = analysis::Outcome::changed;
    v.reason = differ_reason(c) + "; by its timing alone an improvement: " + v.reason;
    return true;
}

}  // namespace

std::vector<std::vector<data::ImageCheck>> input_image_checks(const std::vector<data::ResultsFile>& files) {
    std::vector<std::vector<data::ImageCheck>> out;
    for (const data::ResultsFile& f : files) out.push_back(f.image_checks());
    return out;
}

void apply_image_checks(cli::CompareReport& report, const std::vector<std::vector<data::ImageCheck>>& checks) {
    if (report.metrics.empty()) return;
    const cli::MetricReport& first = report.metrics.front();
    std::vector<std::string> labels = {first.baseline.label};
    for (const auto& c : first.candidates) labels.push_back(c.label);
    std::vector<VariantChecks> sides;
    for (const std::string& l : labels) sides.push_back({l, {}});
    bool any = false;
    if (checks.size() > 1 && checks.size() == labels.size()) {
        // One variant a file: the file's checking runs are its variant's.
        for (size_t i = 0; i < checks.size(); ++i) {
            sides[i].checks = checks[i];
            any |= !checks[i].empty();
        }
    } else if (checks.size() == 1) {
        for (const data::ImageCheck& c : checks[0])
            for (VariantChecks& side : sides)
                if (side.variant == c.variant) {
                    side.checks.push_back(c);
                    any = true;
                }
    }
    if (!any) return;
    const VariantChecks baseline = sides.front();
    sides.erase(sides.begin());
    report.images = check_images(baseline, sides);
    overrule_improvements(report);
}

void overrule_improvements(cli::CompareReport& report) {
    if (!report.images) return;
    for (cli::MetricReport& m : report.metrics)
        for (size_t k = 0; k < m.candidates.size() && k < m.verdicts.size(); ++k) {
            const ImageComparison* c = report.image_comparison(m.candidates[k].label);
            if (!c || !image_rules_out_improvement(*c)) continue;
            if (m.image_overruled.empty()) m.image_overruled.assign(m.candidates.size(), false);
            m.image_overruled[k] = overrule(m.verdicts[k], *c);
        }
    for (cli::PairedSuiteReport& p : report.paired)
        if (const ImageComparison* c = report.image_comparison(p.candidate); c && image_rules_out_improvement(*c))
            p.image_overruled = overrule(p.verdict, *c);
}

}  // namespace gfxstat::findings
