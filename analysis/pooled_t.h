// SPDX-License-Identifier: MIT
// The comparison ministat prints under its table: the difference of means
// with a Student t confidence interval from the pooled standard deviation.
#pragma once

#include "analysis/moments.h"

namespace gfxstat::analysis {

struct PooledTInterval {
    int df = 0;
    double t = 0;              // two-sided critical value used
    double difference = 0;     // mean(candidate) - mean(baseline)
    double halfwidth = 0;      // t * pooled_sd * sqrt(1/n1 + 1/n2), >= 0
    double pooled_sd = 0;
    double relative_difference_percent = 0;  // difference / mean(baseline) * 100
    double relative_halfwidth_percent = 0;   // halfwidth / |mean(baseline)| * 100, >= 0
    bool significant = false;                // |difference| > halfwidth
};

// `t_critical` is the two-sided critical value for df = n1 + n2 - 2.
// The arithmetic follows ministat's order of operations so that the printed
// digits agree with it wherever ministat is right; it stays finite for
// standard deviations beyond 1e154, whose squares overflow a double.
PooledTInterval pooled_t_interval(const Moments& baseline, const Moments& candidate,
                                  double t_critical);

}  // namespace gfxstat::analysis
