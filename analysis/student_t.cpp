// SPDX-License-Identifier: MIT
#include "analysis/student_t.h"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>

namespace gfxstat::analysis {

double t_quantile(double p, double df) {
    boost::math::students_t dist(df);
    return boost::math::quantile(dist, p);
}

double t_critical(double level_percent, double df) {
    const double alpha = 1.0 - level_percent / 100.0;
    // Upper tail by complement keeps digits for levels close to 100%.
    boost::math::students_t dist(df);
    return boost::math::quantile(boost::math::complement(dist, alpha / 2.0));
}

bool ministat_tabulated_level(double level_percent) {
    return level_percent == 80 || level_percent == 90 || level_percent == 95 ||
           level_percent == 98 || level_percent == 99;
}

double ministat_t_critical(double level_percent, int df) {
    const double exact = t_critical(level_percent, df);
    if (!ministat_tabulated_level(level_percent) || df > 100) return exact;
    // round(q * 1000) / 1000 is the double nearest the three-decimal literal
    // that ministat's table holds (one correctly rounded division).
    return std::round(exact * 1000.0) / 1000.0;
}

}  // namespace gfxstat::analysis
