// SPDX-License-Identifier: MIT
#include "analysis/machine_changes.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <map>

#include "analysis/boot_clustering.h"
#include "analysis/ratio_interval.h"

namespace gfxstat::analysis {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The values of each machine (by machine index), and their boot indices.
struct MachineValues {
    std::vector<double> values;
    std::vector<uint32_t> boots;
};

std::map<uint32_t, MachineValues> by_machine(std::span<const double> values, const SampleLayout& l) {
    std::map<uint32_t, MachineValues> out;
    if (l.machine_of_value.size() != values.size()) return out;
    const bool boots = l.boot_of_value.size() == values.size();
    for (size_t i = 0; i < values.size(); ++i) {
        MachineValues& m = out[l.machine_of_value[i]];
        m.values.push_back(values[i]);
        if (boots) m.boots.push_back(l.boot_of_value[i]);
    }
    return out;
}

// The interval of a machine's relative change. Where the baseline's mean
// is positive it is Fieller's for the ratio of means, with the Welch
// test's degrees of freedom (a difference divided by the baseline is no
// interval for a ratio: a latency that fell a lot on a noisy machine got a
// bound below -100%); raised to no lower than -100% where every value is
// positive, and none (NaN) where the baseline's mean cannot be told from 0.
// A negative baseline keeps the difference over |baseline|.
std::array<double, 2> relative_interval(const std::vector<double>& ua, const std::vector<double>& ub,
                                        const MachineChange& r, double confidence) {
    const std::array<double, 2> none{kNaN, kNaN};
    if (!r.welch.defined) return none;
    if (r.baseline_mean > 0) {
        const RatioInterval f = fieller_of_samples(ua, ub, r.welch.df, confidence);
        if (!f.bounded) return none;
        const auto positive = [](const std::vector<double>& v) {
            return std::all_of(v.begin(), v.end(), [](double x) { return x > 0; });
        };
        const double low = positive(ua) && positive(ub) ? std::max(f.low, 0.0) : f.low;
        return {low - 1, f.high - 1};
    }
    const double base_abs = std::fabs(r.baseline_mean);
    if (!(base_abs > 0)) return none;
    return {r.welch.ci[0] / base_abs, r.welch.ci[1] / base_abs};
}

double mean_of(const std::vector<double>& v) {
    long double s = 0;
    for (double x : v) s += x;
    return v.empty() ? kNaN : static_cast<double>(s / static_cast<long double>(v.size()));
}

// The units of one machine: its boot means, or its runs.
std::vector<double> units(const MachineValues& m, bool by_boots) {
    if (!by_boots || m.boots.size() != m.values.size()) return m.values;
    return boot_means(m.values, m.boots);
}

size_t boot_count(const MachineValues& m) {
    std::vector<uint32_t> b = m.boots;
    std::sort(b.begin(), b.end());
    return static_cast<size_t>(std::unique(b.begin(), b.end()) - b.begin());
}

double two_sided_t(double t, double df) {
    if (!std::isfinite(t)) return std::isnan(t) ? 1 : 0;
    const boost::math::students_t dist(df);
    return std::min(1.0, 2 * boost::math::cdf(boost::math::complement(dist, std::fabs(t))));
}

// Satterthwaite's degrees of freedom of a sum of independent variance
// estimates v_j with df_j.
double satterthwaite(const std::vector<std::pair<double, double>>& parts) {
    double num = 0, den = 0;
    for (const auto& [v, df] : parts) {
        num += v;
        den += v * v / df;
    }
    return den > 0 ? num * num / den : kNaN;
}

}  // namespace

MachineMeans machine_means(std::span<const double> values, const SampleLayout& layout, bool by_boots) {
    MachineMeans out;
    for (const auto& [index, m] : by_machine(values, layout)) {
        out.ids.push_back(index < layout.machine_ids.size() ? layout.machine_ids[index] : std::to_string(index));
        out.means.push_back(mean_of(units(m, by_boots)));
        out.runs.push_back(m.values.size());
        out.boots.push_back(m.boots.empty() ? 0 : boot_count(m));
    }
    return out;
}

MachineChanges machine_changes(std::span<const double> a, std::span<const double> b, const SampleLayout& la,
                               const SampleLayout& lb, bool boots_matter, double confidence, double threshold) {
    MachineChanges out;
    const auto ma = by_machine(a, la), mb = by_machine(b, lb);
    std::map<std::string, const MachineValues*> cand;
    for (const auto& [index, m] : mb)
        if (index < lb.machine_ids.size()) cand[lb.machine_ids[index]] = &m;
    for (const auto& [index, m] : ma) {
        if (index >= la.machine_ids.size()) continue;
        const auto it = cand.find(la.machine_ids[index]);
        if (it == cand.end()) continue;
        const MachineValues& base = m;
        const MachineValues& other = *it->second;
        MachineChange r;
        r.machine = la.machine_ids[index];
        r.baseline_runs = base.values.size();
        r.candidate_runs = other.values.size();
        r.by_boots = boots_matter && !base.boots.empty() && !other.boots.empty() && boot_count(base) >= 2 &&
                     boot_count(other) >= 2;
        const std::vector<double> ua = units(base, r.by_boots), ub = units(other, r.by_boots);
        r.baseline_units = ua.size();
        r.candidate_units = ub.size();
        r.baseline_mean = mean_of(ua);
        r.candidate_mean = mean_of(ub);
        r.change = r.candidate_mean - r.baseline_mean;
        const double base_abs = std::fabs(r.baseline_mean);
        r.relative_change = base_abs > 0 ? r.change / base_abs : kNaN;
        if (ua.size() >= 2 && ub.size() >= 2) {
            r.welch = welch_t_test(two_sample_moments(ScaledValues{std::span<const double>(ua), 0},
                                                      ScaledValues{std::span<const double>(ub), 0}),
                                   confidence);
        } else {
            r.welch.defined = false;
            r.welch.t = r.welch.df = kNaN;
            r.welch.difference = r.change;
            r.welch.ci = {kNaN, kNaN};
        }
        r.relative_ci = relative_interval(ua, ub, r, confidence);
        out.rows.push_back(std::move(r));
    }

    const size_t k = out.rows.size();
    if (k < 3) return out;
    for (const MachineChange& r : out.rows)
        if (!r.welch.defined || !(r.welch.stderr_ > 0) || !std::isfinite(r.welch.df) ||
            !std::isfinite(r.relative_change))
            return out;
    const double alpha = 1 - confidence;
    const double kd = static_cast<double>(k), others = kd - 1;
    double best = 2;
    for (size_t i = 0; i < k; ++i) {
        MachineChange& r = out.rows[i];
        double sum = 0, sum_rel = 0, v_meas = 0;
        std::vector<std::pair<double, double>> meas_parts;
        for (size_t j = 0; j < k; ++j) {
            if (j == i) continue;
            const MachineChange& o = out.rows[j];
            sum += o.change;
            sum_rel += o.relative_change;
            const double vj = o.welch.stderr_ * o.welch.stderr_ / (others * others);
            v_meas += vj;
            meas_parts.emplace_back(vj, o.welch.df);
        }
        const double mean_o = sum / others;
        double v_obs = 0;
        if (others >= 2) {
            double ss = 0;
            for (size_t j = 0; j < k; ++j)
                if (j != i) ss += (out.rows[j].change - mean_o) * (out.rows[j].change - mean_o);
            v_obs = ss / (others - 1) / others;
        }
        const double v_o = std::max(v_obs, v_meas);
        const double df_o = v_obs > v_meas ? others - 1 : satterthwaite(meas_parts);
        const double se_i2 = r.welch.stderr_ * r.welch.stderr_;
        r.others_change = mean_o;
        r.others_relative_change = sum_rel / others;
        r.loo_t = (r.change - mean_o) / std::sqrt(se_i2 + v_o);
        r.loo_df = satterthwaite({{se_i2, r.welch.df}, {v_o, df_o}});
        r.loo_p = two_sided_t(r.loo_t, r.loo_df);
        r.loo_p_adjusted = std::min(1.0, r.loo_p * kd);
        r.loo_defined = std::isfinite(r.loo_df);
        r.stands_out = r.loo_defined && r.loo_p_adjusted < alpha &&
                       std::fabs(r.relative_change - r.others_relative_change) > threshold;
        if (r.stands_out && r.loo_p_adjusted < best) {
            best = r.loo_p_adjusted;
            out.odd = i;
        }
    }
    return out;
}

}  // namespace gfxstat::analysis
