// SPDX-License-Identifier: MIT
// build_suite_table: compare's results laid out as the suite table's rows
// (suite_table.h). The statistics are compare's own; this file only picks,
// orders and words them.
#include "report/suite_table.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "report/diagnostic_words.h"
#include "report/settling_advice_words.h"

namespace gfxstat::cli {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The mean and the relative half-width of its t interval, as findings/
// computed them (NaN with one value, or a mean of 0).
std::pair<double, double> centre_of(const ReportSample& s) {
    if (s.sample.size() == 0) return {kNaN, kNaN};
    return {s.intervals.mean, s.intervals.mean_spread};
}

// Footnotes: each distinct text once, numbered in order of first use.
struct Notes {
    std::vector<std::string>& texts;
    size_t add(const std::string& text) {
        const auto it = std::find(texts.begin(), texts.end(), text);
        if (it != texts.end()) return static_cast<size_t>(it - texts.begin()) + 1;
        texts.push_back(text);
        return texts.size();
    }
};

// Oriented so that above 0 is better (NaN changes last).
double goodness(const SuiteRow& row, size_t k) {
    if (k >= row.cells.size() || !row.cells[k] || std::isnan(row.cells[k]->change)) return kNaN;
    const double c = row.cells[k]->change;
    return row.better == analysis::Better::lower ? -c : c;
}

// The first candidate the row was measured for: what sorting reads.
size_t first_cell(const SuiteRow& row) {
    for (size_t k = 0; k < row.cells.size(); ++k)
        if (row.cells[k]) return k;
    return 0;
}

void sort_rows(std::vector<SuiteRow>& rows, const std::string& how) {
    const auto nan_last = [](double a, double b) {
        if (std::isnan(a)) return false;
        if (std::isnan(b)) return true;
        return a < b;
    };
    if (how == "name")
        std::stable_sort(rows.begin(), rows.end(), [](const SuiteRow& a, const SuiteRow& b) { return a.name < b.name; });
    else if (how == "change")  // the worst change first
        std::stable_sort(rows.begin(), rows.end(), [&](const SuiteRow& a, const SuiteRow& b) {
            return nan_last(goodness(a, first_cell(a)), goodness(b, first_cell(b)));
        });
    else if (how == "p")
        std::stable_sort(rows.begin(), rows.end(), [&](const SuiteRow& a, const SuiteRow& b) {
            const auto p = [](const SuiteRow& r) {
                const size_t k = first_cell(r);
                return k < r.cells.size() && r.cells[k] ? r.cells[k]->p : kNaN;
            };
            return nan_last(p(a), p(b));
        });
}

bool changed_row(const SuiteRow& row, double threshold) {
    for (const auto& c : row.cells) {
        if (!c) continue;
        if (c->mark == '+' || c->mark == '-' || c->mark == '!') return true;
        // Untested rows (a suite measured once a side): a move beyond the threshold.
        if (c->outcome.empty() && std::fabs(c->change) > threshold) return true;
    }
    return false;
}

// The geomean row, from compare's geomeans (independent benchmarks) or the
// paired analysis (a suite measured once a side).
void add_geomean(const CompareReport& r, SuiteTable& t) {
    SuiteRow g;
    g.name = "geomean";
    g.unit = t.unit;
    g.cells.resize(t.candidates.size());
    // Directions: one for every primary row, or mixed.
    std::optional<analysis::Better> one;
    bool mixed = false;
    for (const SuiteRow& row : t.rows) {
        if (!row.primary) continue;
        if (!one) one = row.better;
        else mixed |= *one != row.better;
    }
    const bool lower = one && !mixed && *one == analysis::Better::lower;
    // Shown in the data's direction when every row shares one; turned so
    // that above 0 is better when directions are mixed.
    t.geomean_turned = mixed;
    g.better = mixed ? analysis::Better::higher : one.value_or(analysis::Better::unknown);
    // Geometric means of each column's centres over the primary rows.
    const auto geo = [&](auto value_of) {
        double s = 0;
        size_t n = 0;
        for (const SuiteRow& row : t.rows) {
            if (!row.primary) continue;
            const double v = value_of(row);
            if (!(v > 0)) return kNaN;
            s += std::log(v);
            ++n;
        }
        return n ? std::exp(s / static_cast<double>(n)) : kNaN;
    };
    g.baseline = geo([](const SuiteRow& row) { return row.baseline; });
    g.baseline_spread = kNaN;
    bool any = false;
    const double alpha = 1 - r.confidence;
    for (size_t k = 0; k < t.candidates.size(); ++k) {
        SuiteCell c;
        c.centre = geo([&](const SuiteRow& row) { return row.cells[k] ? row.cells[k]->centre : kNaN; });
        c.spread = kNaN;
        double ratio = kNaN, lo = kNaN, hi = kNaN;
        bool oriented = true;  // the ratio is turned so that above 1 is better
        c.p = kNaN;
        c.mark = '?';
        if (r.paired_by_benchmark) {
            const auto it = std::find_if(r.paired.begin(), r.paired.end(),
                                         [&](const PairedSuiteReport& s) { return s.candidate == t.candidates[k]; });
            if (it == r.paired.end()) continue;
            // The suite's change is its primary test's estimate: the geomean
            // of the ratios (paired t), or their Hodges-Lehmann estimate
            // (signed-rank test), with that test's interval.
            // Plain differences (a value not positive) have no ratio: the
            // row then carries the suite's p and mark only.
            const bool hl = it->verdict.primary == analysis::PrimaryTest::signed_rank_benchmarks;
            ratio = hl ? it->suite.hl_ratio : it->suite.geomean_ratio;
            lo = hl ? it->suite.hl_ratio_ci[0] : it->suite.geomean_ci[0];
            hi = hl ? it->suite.hl_ratio_ci[1] : it->suite.geomean_ci[1];
            oriented = it->suite.oriented;
            g.name = "suite";
            c.p = it->verdict.p_adjusted;
            c.mark = verdict_mark(it->verdict, alpha);
            c.outcome = analysis::outcome_name(it->verdict.outcome);
            c.reason = report::verdict_reason(it->verdict);
        } else {
            const auto it = std::find_if(r.geomeans.begin(), r.geomeans.end(),
                                         [&](const GeomeanReport& s) { return s.candidate == t.candidates[k]; });
            if (it == r.geomeans.end()) continue;
            ratio = it->geomean.ratio;
            if (it->geomean.ci_defined) {
                lo = it->geomean.ci[0];
                hi = it->geomean.ci[1];
                const double up = 1 + r.threshold, down = 1 / (1 + r.threshold);
                c.mark = lo > 1 ? '+' : hi < 1 ? '-' : (lo >= down && hi <= up) ? '=' : '~';
                // A candidate that renders differently is never better.
                if (const findings::ImageComparison* ic = r.image_comparison(t.candidates[k]);
                    c.mark == '+' && ic && findings::image_rules_out_improvement(*ic)) {
                    c.mark = '!';
                    c.renders_differently = true;
                }
            }
        }
        if (!oriented) {
            g.better = analysis::Better::unknown;
            t.geomean_turned = false;
        } else if (lower) {  // back into the data's direction: lower is better
            ratio = 1 / ratio;
            const double l = lo;
            lo = 1 / hi;
            hi = 1 / l;
        }
        c.change = ratio - 1;
        c.change_lo = lo - 1;
        c.change_hi = hi - 1;
        g.cells[k] = c;
        any = true;
    }
    if (any) t.geomean = std::move(g);
}

}  // namespace

char verdict_mark(const analysis::Verdict& v, double alpha) {
    switch (v.outcome) {
        case analysis::Outcome::improvement: return '+';
        case analysis::Outcome::regression: return '-';
        case analysis::Outcome::changed: return '!';
        case analysis::Outcome::no_change: return '=';
        case analysis::Outcome::inconclusive:
            // Tested, and nothing significant: benchstat's "~". Untestable,
            // or significant but withheld (boots confounded): "?".
            return std::isfinite(v.p_adjusted) && v.p_adjusted >= alpha ? '~' : '?';
    }
    return '?';
}

bool suite_shape(const CompareReport& r) {
    if (r.paired_by_benchmark || r.suite.table) return true;
    std::vector<const MetricReport*> primary;
    for (const MetricReport& m : r.metrics)
        if (m.primary) primary.push_back(&m);
    // One named unit: a metric without one may be anything (fps beside a
    // frame time in a bare CSV), and a table would set them side by side.
    if (primary.size() < 2 || primary[0]->unit.empty()) return false;
    return std::all_of(primary.begin(), primary.end(),
                       [&](const MetricReport* m) { return m->unit == primary[0]->unit; });
}

SuiteTable build_suite_table(const CompareReport& r) {
    SuiteTable t;
    Notes notes{t.notes};
    const double alpha = 1 - r.confidence;
    for (const MetricReport& m : r.metrics) {
        if (t.baseline.empty()) t.baseline = m.baseline.label;
        for (const ReportSample& c : m.candidates)
            if (std::find(t.candidates.begin(), t.candidates.end(), c.label) == t.candidates.end())
                t.candidates.push_back(c.label);
    }
    bool first = true;
    for (size_t i = 0; i < r.metrics.size(); ++i) {
        const MetricReport& m = r.metrics[i];
        SuiteRow row;
        row.name = metric_title(m);
        row.unit = m.unit;
        row.better = m.better;
        row.primary = m.primary;
        row.order = i;
        std::tie(row.baseline, row.baseline_spread) = centre_of(m.baseline);
        row.cells.resize(t.candidates.size());
        if (first) t.unit = m.unit;
        else if (t.unit != m.unit) t.unit.clear();
        first = false;
        if (!m.primary) notes.add(row.name + ": secondary (" + m.secondary_why + "): reported, never gates");
        bool baseline_noted = false;
        for (size_t j = 0; j < m.candidates.size(); ++j) {
            const size_t k = static_cast<size_t>(
                std::find(t.candidates.begin(), t.candidates.end(), m.candidates[j].label) - t.candidates.begin());
            SuiteCell c;
            std::tie(c.centre, c.spread) = centre_of(m.candidates[j]);
            if (j < m.comparisons.size()) {
                const analysis::TwoSampleComparison& cmp = m.comparisons[j];
                const analysis::Verdict& v = m.verdicts[j];
                c.change = cmp.relative_change;
                c.change_lo = cmp.change_ci_defined && cmp.change_ci_withheld.empty() ? cmp.relative_change_ci[0] : kNaN;
                c.change_hi = cmp.change_ci_defined && cmp.change_ci_withheld.empty() ? cmp.relative_change_ci[1] : kNaN;
                c.p = v.p_adjusted;
                c.mark = verdict_mark(v, alpha);
                c.outcome = analysis::outcome_name(v.outcome);
                c.reason = report::verdict_reason(v);
                // Better by timing alone, but its images differ: the "!"
                // says why in a note.
                c.renders_differently = m.overruled(j);
                if (m.overruled(j))
                    c.notes.push_back(notes.add(row.name + ", " + m.candidates[j].label + ": renders differently; " +
                                                c.reason));
                // A "?" says why it cannot tell; a "~" whose --max-runs cannot
                // likely settle the threshold says what would.
                if (c.mark == '?') c.notes.push_back(notes.add(row.name + ", " + m.candidates[j].label + ": " + c.reason));
                else if (v.settling)
                    c.notes.push_back(notes.add(row.name + ", " + m.candidates[j].label + ": " +
                                                report::settling_advice_words(*v.settling)));
                const std::string unit = m.unit;
                if (cmp.baseline_diagnostics && !baseline_noted) {
                    for (const std::string& f : sample_findings(m.baseline.label, *cmp.baseline_diagnostics, unit, r.confidence, 5,
                                                                nullptr, r.advice, &m.baseline.recorded))
                        c.notes.push_back(notes.add(row.name + ": " + f));
                    baseline_noted = true;
                }
                if (cmp.candidate_diagnostics)
                    for (const std::string& f :
                         sample_findings(m.candidates[j].label, *cmp.candidate_diagnostics, unit, r.confidence, 5,
                                         nullptr, r.advice, &m.candidates[j].recorded))
                        c.notes.push_back(notes.add(row.name + ": " + f));
                for (const std::string& f :
                     comparison_findings(m.baseline.label, m.candidates[j].label, cmp, unit, r.confidence))
                    c.notes.push_back(notes.add(row.name + ": " + f));
            } else {
                // Not tested on its own (a suite measured once a side).
                // Relative to the baseline's magnitude, as every change is:
                // -10 to -9 (lower is better) is +10%, a step up.
                c.change = row.baseline != 0 ? (c.centre - row.baseline) / std::fabs(row.baseline) : kNaN;
                c.change_lo = c.change_hi = c.p = kNaN;
                c.mark = ' ';
            }
            std::sort(c.notes.begin(), c.notes.end());
            c.notes.erase(std::unique(c.notes.begin(), c.notes.end()), c.notes.end());
            row.cells[k] = std::move(c);
        }
        t.rows.push_back(std::move(row));
    }
    t.benchmarks = t.rows.size();
    for (const SuiteRow& row : t.rows) {
        if (row.order == 0) t.direction = row.better;
        else if (t.direction != row.better) t.mixed_directions = true;
    }
    // Counts per candidate, over the primary rows tested on their own.
    if (!r.paired_by_benchmark)
        for (size_t k = 0; k < t.candidates.size(); ++k) {
            SuiteCounts n;
            n.candidate = t.candidates[k];
            for (const SuiteRow& row : t.rows) {
                if (!row.primary || !row.cells[k]) continue;
                switch (row.cells[k]->mark) {
                    case '+': ++n.better; break;
                    case '-': ++n.worse; break;
                    case '!': ++(row.cells[k]->renders_differently ? n.renders_differently : n.changed); break;
                    case '=': ++n.equivalent; break;
                    case '~': ++n.unchanged; break;
                    default: ++n.untold; break;
                }
            }
            t.counts.push_back(n);
        }
    add_geomean(r, t);
    sort_rows(t.rows, r.suite.sort);
    if (r.suite.only_changed) {
        const auto keep_end = std::stable_partition(t.rows.begin(), t.rows.end(),
                                                    [&](const SuiteRow& row) { return changed_row(row, r.threshold); });
        t.hidden = static_cast<size_t>(t.rows.end() - keep_end);
        t.rows.erase(keep_end, t.rows.end());
        // The notes of hidden rows go with them; the rest are renumbered.
        std::vector<size_t> renumber(t.notes.size() + 1, 0);
        std::vector<std::string> kept;
        const auto keep = [&](std::optional<SuiteCell>& c) {
            if (!c) return;
            for (size_t& n : c->notes) {
                if (!renumber[n]) {
                    kept.push_back(t.notes[n - 1]);
                    renumber[n] = kept.size();
                }
                n = renumber[n];
            }
        };
        for (SuiteRow& row : t.rows)
            for (auto& c : row.cells) keep(c);
        if (t.geomean)
            for (auto& c : t.geomean->cells) keep(c);
        t.notes = std::move(kept);
    }
    return t;
}

}  // namespace gfxstat::cli
