// SPDX-License-Identifier: MIT
// compare's pipeline below the command line (findings/compare.h): inputs
// and options in, the analysed report out, nothing printed; and the
// intervals the renderers show, computed with it.
#include "findings/compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "data/input_error.h"
#include "findings/compare_gate.h"

namespace gfxstat::findings {
namespace {

data::Sample sample(std::vector<double> values) {
    data::Sample s;
    s.values = std::move(values);
    return s;
}

CompareInputs two_columns(std::vector<double> a, std::vector<double> b) {
    CompareInputs in;
    in.inputs = {{"a.txt", "a.txt"}, {"b.txt", "b.txt"}};
    in.columns.push_back(sample(std::move(a)));
    in.columns.push_back(sample(std::move(b)));
    return in;
}

TEST(FindingsCompare, ColumnFilesAreAnalysedWithoutNotes) {
    CompareOptions o;
    o.resamples = 0;
    o.lower = true;
    std::vector<std::string> notes;
    const CompareFindings f = compare(two_columns({10, 10.1, 9.9, 10.05, 9.95, 10, 10.02, 9.98},
                                                  {11, 11.1, 10.9, 11.05, 10.95, 11, 11.02, 10.98}),
                                      o, [&](const char*, const std::string& t) { notes.push_back(t); });
    EXPECT_TRUE(notes.empty());
    EXPECT_TRUE(f.files.empty());
    EXPECT_EQ(f.names, (std::vector<std::string>{"a.txt", "b.txt"}));
    ASSERT_EQ(f.report.metrics.size(), 1u);
    const cli::MetricReport& m = f.report.metrics[0];
    ASSERT_EQ(m.verdicts.size(), 1u);
    EXPECT_EQ(m.verdicts[0].outcome, analysis::Outcome::regression);
    EXPECT_EQ(f.report.adjustment, "holm");
    // The intervals the suite table and the pictures show.
    EXPECT_NEAR(m.baseline.intervals.mean, 10, 0.01);
    EXPECT_GT(m.baseline.intervals.mean_spread, 0);
    EXPECT_LT(m.baseline.intervals.mean_spread, 0.01);
    EXPECT_TRUE(m.candidates[0].intervals.median.defined);
    EXPECT_NEAR(m.candidates[0].intervals.median.estimate, 11, 0.03);
}

// The gate decides on the findings: a primary regression beyond the
// threshold trips it, a secondary metric never does, an inconclusive one
// only with --strict.
TEST(FindingsCompare, GateStatusIsDecidedOnTheFindings) {
    CompareOptions o;
    o.resamples = 0;
    o.lower = true;
    const CompareFindings f = compare(two_columns({10, 10.1, 9.9, 10.05, 9.95, 10, 10.02, 9.98},
                                                  {11, 11.1, 10.9, 11.05, 10.95, 11, 11.02, 10.98}),
                                      o, [](const char*, const std::string&) {});
    EXPECT_EQ(gate_status(f.report, false, false), 0);
    EXPECT_EQ(gate_status(f.report, true, false), 1);
    cli::CompareReport secondary = f.report;
    secondary.metrics[0].primary = false;
    EXPECT_EQ(gate_status(secondary, true, true), 0);
    cli::CompareReport unsure = f.report;
    unsure.metrics[0].verdicts[0].outcome = analysis::Outcome::inconclusive;
    EXPECT_EQ(gate_status(unsure, true, false), 0);
    EXPECT_EQ(gate_status(unsure, true, true), 3);
}

TEST(FindingsCompare, OneValueHasNoSpread) {
    CompareOptions o;
    o.resamples = 0;
    o.choices.exact = true;
    const CompareFindings f = compare(two_columns({5}, {6}), o, [](const char*, const std::string&) {});
    const cli::ReportSample& s = f.report.metrics[0].baseline;
    EXPECT_EQ(s.intervals.mean, 5);
    EXPECT_TRUE(std::isnan(s.intervals.mean_spread));
}

TEST(FindingsCompare, RefusesWhatCannotBeCompared) {
    const auto ignore = [](const char*, const std::string&) {};
    CompareInputs one;
    one.inputs = {{"a.txt", "a.txt"}};
    one.columns.push_back(sample({1, 2, 3}));
    EXPECT_THROW(compare(one, CompareOptions{}, ignore), data::InputError);
    CompareInputs mixed = two_columns({1, 2}, {3, 4});
    mixed.results.emplace_back();
    EXPECT_THROW(compare(mixed, CompareOptions{}, ignore), data::InputError);
}

}  // namespace
}  // namespace gfxstat::findings
