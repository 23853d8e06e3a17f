// SPDX-License-Identifier: MIT
#include "report/headline_words.h"

#include <algorithm>
#include <cmath>

#include "report/diagnostic_words.h"
#include "text/number_format.h"

namespace gfxstat::cli {

std::string change_percent(double relative) { return text::signed_percent(relative); }

std::string bound_percent(double x) {
    // Past +-100% a tenth of a percent is noise in the width of a line.
    if (std::fabs(x) >= 1) return fmt("%+.0f%%", x * 100);
    return std::fabs(x) >= 0.01 ? fmt("%+.1f%%", x * 100) : fmt("%+.2f%%", x * 100);
}

std::string difference_value(double v, const text::DisplayUnit& row, double magnitude, bool sign) {
    return text::scaled_value(v, text::difference_unit(row, std::fabs(magnitude)), 3, sign);
}

std::string headline_change(const analysis::TwoSampleComparison& c, const analysis::Verdict& v, double confidence,
                            const text::DisplayUnit* unit) {
    // The change and its interval in one unit, readable for the change's
    // own magnitude (the interval's widest end when the change is 0).
    double magnitude = std::fabs(c.change);
    if (!(magnitude > 0) && c.change_ci_defined)
        magnitude = std::max(std::fabs(c.change_ci[0]), std::fabs(c.change_ci[1]));
    const auto num = [&](double x, bool sign) {
        return unit ? difference_value(x, *unit, magnitude, sign) : fmt(sign ? "%+.4g" : "%.4g", x);
    };
    const bool relative = std::isfinite(c.relative_change);
    std::string t = relative ? change_percent(c.relative_change) + " (" + num(c.change, true) + ")" : num(c.change, true);
    t += std::string(": ") + analysis::change_estimate_words(v.primary);
    if (v.primary == analysis::PrimaryTest::exact) return t + ", exact (a deterministic metric)";
    t += std::string(" (") + analysis::primary_test_words(v.primary) + ")";
    if (!c.change_ci_withheld.empty()) return t + ", no interval (" + c.change_ci_withheld + ")";
    if (!c.change_ci_defined) return t + ", no interval (no variability)";
    // A blocked design's interval is at its own level (Bonferroni over a
    // sequential design's candidates), and is a confidence sequence there.
    if (c.blocks) confidence = c.blocks->design.confidence;
    // A group design's interval holds at all its planned looks at once:
    // a repeated confidence interval.
    const char* kind = !(c.blocks && c.blocks->look)       ? "CI"
                       : c.blocks->design.looks.empty() ? "confidence sequence"
                                                         : "repeated CI";
    t += fmt(", %g%% %s ", confidence * 100, kind);
    if (relative && std::isfinite(c.relative_change_ci[0]) && std::isfinite(c.relative_change_ci[1]))
        t += bound_percent(c.relative_change_ci[0]) + " to " + bound_percent(c.relative_change_ci[1]) + " (" +
             num(c.change_ci[0], false) + " to " + num(c.change_ci[1], false) + ")";
    else
        t += num(c.change_ci[0], false) + " to " + num(c.change_ci[1], false);
    return t;
}

std::string exact_variation(const analysis::TwoSampleComparison& c, const std::string& baseline,
                            const std::string& candidate) {
    std::string who;
    if (c.baseline_distinct > 1) who = fmt("%s holds %zu distinct values", baseline.c_str(), c.baseline_distinct);
    if (c.candidate_distinct > 1)
        who += (who.empty() ? "" : " and ") + fmt("%s %zu", candidate.c_str(), c.candidate_distinct) +
               (who.empty() ? " distinct values" : "");
    if (who.empty()) return "";
    return "this metric is declared exact, but " + who +
           ": a deterministic metric should not vary, so something is not deterministic; the comparison uses the "
           "means";
}

}  // namespace gfxstat::cli
