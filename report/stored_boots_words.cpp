// SPDX-License-Identifier: MIT
#include "report/stored_boots_words.h"

#include <cmath>
#include <cstdio>

namespace gfxstat::report {

namespace {

// A spread relative to the baseline's mean, in percent; in the metric's
// own numbers when that mean is 0.
std::string spread(double sd, double mean) {
    char buf[48];
    if (!std::isfinite(sd)) return "unknown";
    if (mean != 0 && std::isfinite(mean)) std::snprintf(buf, sizeof buf, "%.2g%%", sd / std::fabs(mean) * 100);
    else std::snprintf(buf, sizeof buf, "%.3g", sd);
    return buf;
}

}  // namespace

std::string stored_boots_design_words(const analysis::StoredBootsDesign& d) {
    const analysis::StoredBoots& t = d.test;
    char buf[160];
    std::snprintf(buf, sizeof buf, "%zu new boot%s against %zu stored boot%s, none shared", t.candidate_boots,
                  t.candidate_boots == 1 ? "" : "s", t.baseline_boots, t.baseline_boots == 1 ? "" : "s");
    std::string w = buf;
    if (d.not_judged == "other_machine") return w + " (not judged: another machine's boots)";
    if (d.not_judged == "too_few_baseline_boots") return w + " (not judged: too few baseline boots)";
    std::snprintf(buf, sizeof buf, " (prediction t on boot means, %.0f df; ", t.df);
    w += buf;
    w += "boots spread " + spread(t.s_between, t.baseline_mean) + ", runs within a boot " +
         spread(t.s_within, t.baseline_mean) + ")";
    return w;
}

}  // namespace gfxstat::report
