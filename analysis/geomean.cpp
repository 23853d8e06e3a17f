// SPDX-License-Identifier: MIT
#include "analysis/geomean.h"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <initializer_list>
#include <stdexcept>
#include <tuple>

namespace gfxstat::analysis {

Geomean oriented_geomean(std::span<const RatioInput> in, double confidence) {
    if (!(confidence > 0 && confidence < 1)) throw std::invalid_argument("confidence must lie in (0, 1)");
    Geomean g;
    if (in.empty()) return g;
    const double k = static_cast<double>(in.size());
    long double log_sum = 0, var_sum = 0, df_den = 0;
    bool spread_known = true;
    for (const RatioInput& r : in) {
        if (!(r.baseline_mean > 0) || !(r.candidate_mean > 0) || r.better == Better::unknown) return g;
        const long double l = std::log(static_cast<long double>(r.candidate_mean)) -
                              std::log(static_cast<long double>(r.baseline_mean));
        log_sum += r.better == Better::higher ? l : -l;
        // Each side's share of the variance of the mean log ratio.
        for (const auto& [sd, mean, n] : {std::tuple{r.baseline_sd, r.baseline_mean, r.baseline_n},
                                         std::tuple{r.candidate_sd, r.candidate_mean, r.candidate_n}}) {
            if (n < 2 || !std::isfinite(sd)) {
                spread_known = false;
                continue;
            }
            const long double cv = static_cast<long double>(sd) / mean;
            const long double v = cv * cv / static_cast<long double>(n) / (k * k);
            var_sum += v;
            df_den += v * v / static_cast<long double>(n - 1);
        }
    }
    g.defined = true;
    g.metrics = in.size();
    const long double mean_log = log_sum / k;
    g.ratio = static_cast<double>(std::exp(mean_log));
    if (!spread_known || !(var_sum > 0)) return g;
    g.df = static_cast<double>(var_sum * var_sum / df_den);
    const boost::math::students_t t(g.df);
    const double q = boost::math::quantile(boost::math::complement(t, (1 - confidence) / 2));
    const long double half = q * std::sqrt(var_sum);
    g.ci = {static_cast<double>(std::exp(mean_log - half)), static_cast<double>(std::exp(mean_log + half))};
    g.ci_defined = true;
    return g;
}

}  // namespace gfxstat::analysis
