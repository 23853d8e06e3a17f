// SPDX-License-Identifier: MIT
#include "report/bisect_words.h"

#include <cmath>
#include <cstdio>

#include "report/metric_direction_words.h"
#include "report/signed_percent.h"
#include "text/number_format.h"
#include "text/text_escape.h"

namespace gfxstat::report {

using text::escape_text;

std::string bisect_interval(double lo, double hi) { return "[" + signed_percent(lo) + ", " + signed_percent(hi) + "]"; }

std::string bisect_look_interval(const analysis::BisectLook& l) {
    // A ratio's interval reaching -100% or beyond is no interval to show.
    if (std::isfinite(l.lower) && std::isfinite(l.upper) && l.lower > -1) return " " + bisect_interval(l.lower, l.upper);
    return "";
}

std::vector<std::string> bisect_reference_lines(const data::BisectPlanRecord& plan,
                                                const analysis::BisectReferences& r) {
    std::vector<std::string> out;
    const std::string unit = plan.unit.empty() ? "" : " " + escape_text(plan.unit);
    out.push_back("metric " + escape_text(plan.metric) + " (" + (plan.unit.empty() ? "" : escape_text(plan.unit) + ", ") +
                  direction_words(plan.direction) + "), per run the mean of its values" +
                  (r.log_scale ? ", compared as ratios" : ""));
    const auto side = [&](const char* name, const data::BisectReferenceRecord& ref, double center, double sd) {
        std::string line = std::string("  ") + name + "  " + escape_text(ref.file);
        if (!ref.variant.empty()) line += " (" + escape_text(ref.variant) + ")";
        line += ": " + std::to_string(ref.values.size()) + " runs, " + (r.log_scale ? "geometric mean " : "mean ") +
                text::number_g(center, 6) + unit;
        if (ref.values.size() >= 2)
            line += r.log_scale ? ", spread " + signed_percent(std::expm1(sd)).substr(1) : ", sd " + text::number_g(sd, 6);
        out.push_back(line);
    };
    side("good", plan.good, r.good_center, r.good_sd);
    side("bad ", plan.bad, r.bad_center, r.bad_sd);
    char buf[160];
    std::snprintf(buf, sizeof buf, "  bad vs good: %s %s (%.4g%% interval), p = %.3g", signed_percent(r.change).c_str(),
                  bisect_interval(r.change_lower, r.change_upper).c_str(), 100 * (1 - r.reference_alpha), r.p);
    out.push_back(buf);
    std::snprintf(buf, sizeof buf,
                  "error budget %g%%: %zu steps and the references, %.3g%% each; a call needs evidence +-%.2f",
                  100 * (1 - plan.confidence), plan.expected_steps, 100 * r.step_alpha, r.evidence_needed);
    out.push_back(buf);
    return out;
}

}  // namespace gfxstat::report
