// SPDX-License-Identifier: MIT
// The exact bootstrap of small samples (analysis/bootstrap_exact.h and the
// exact path of bootstrap_medians) against
// tests/data/bootstrap_exact_reference.json, written by
// tests/data/make_bootstrap_exact_reference.py (every distinct resample
// listed with its multinomial weight in exact fractions, nothing shared
// with the C++'s binomial formulas); and the random bootstrap, with many
// resamples, converging on the same intervals.
#include "analysis/bootstrap_exact.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/bootstrap.h"

namespace gfxstat::analysis {
namespace {

using nlohmann::json;

// A missing file fails as a JSON parse error at its first character.
const json& reference() {
    static const json doc =
        json::parse(std::ifstream(std::string(GFXSTAT_SOURCE_DIR) + "/tests/data/bootstrap_exact_reference.json"));
    return doc;
}

std::vector<double> sorted(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v;
}

void expect_near(double want, double got, const std::string& what) {
    EXPECT_NEAR(got, want, 1e-12 * std::max(1.0, std::fabs(want))) << what;
}

void expect_interval(const json& want, const BootstrapInterval& got, const std::string& what) {
    expect_near(want["estimate"].get<double>(), got.estimate, what + " estimate");
    expect_near(want["bias"].get<double>(), got.bias, what + " bias");
    expect_near(want["std_error"].get<double>(), got.std_error, what + " std_error");
    for (int s = 0; s < 2; ++s) expect_near(want["percentile"][s].get<double>(), got.percentile[s], what + " percentile");
    EXPECT_EQ(want["bca_defined"].get<bool>(), got.bca_defined) << what;
    for (int s = 0; s < 2; ++s) expect_near(want["bca"][s].get<double>(), got.bca[s], what + " bca");
    if (!want["z0"].is_null()) {
        EXPECT_NEAR(got.z0, want["z0"].get<double>(), 1e-9) << what;
    }
    if (!want["acceleration"].is_null()) {
        EXPECT_NEAR(got.acceleration, want["acceleration"].get<double>(), 1e-9) << what;
    }
}

TEST(BootstrapExact, MedianDistributionsMatchTheEnumeratedResamples) {
    for (const json& c : reference()["cases"]) {
        for (const char* side : {"baseline", "candidate"}) {
            const auto got = exact_resampled_medians(sorted(c[side].get<std::vector<double>>()));
            const json& want = c[std::string(side) + "_medians"];
            ASSERT_EQ(got.size(), want.size()) << c["name"] << " " << side;
            double total = 0;
            for (size_t i = 0; i < got.size(); ++i) {
                expect_near(want[i][0].get<double>(), got[i].value, c["name"].get<std::string>() + " value");
                EXPECT_NEAR(got[i].weight, want[i][1].get<double>(), 1e-13) << c["name"] << " " << side << " " << i;
                total += got[i].weight;
            }
            EXPECT_NEAR(total, 1, 1e-13);
        }
    }
}

TEST(BootstrapExact, IntervalsMatchTheEnumeratedResamples) {
    for (const json& c : reference()["cases"]) {
        const auto a = c["baseline"].get<std::vector<double>>(), b = c["candidate"].get<std::vector<double>>();
        BootstrapOptions o;
        o.confidence = c["confidence"].get<double>();
        const BootstrapResult r = bootstrap_medians(a, b, o);
        const std::string name = c["name"];
        ASSERT_TRUE(r.exact) << name;  // 10 v 10: 55 x 55 points, fewer than 9999
        expect_interval(c["median_difference"], r.median_difference, name + " difference");
        ASSERT_TRUE(r.ratio_defined) << name;
        expect_interval(c["median_ratio"], r.median_ratio, name + " ratio");
    }
}

TEST(BootstrapExact, TheRandomBootstrapEstimatesTheSameIntervals) {
    // 3 v 3, 4 v 5 and 10 v 10 with 200,000 random resamples: the random
    // intervals, bias and standard error estimate the exact ones (seeded:
    // the same draws every time; the bounds within a quarter of a standard
    // error, the moments within 2%).
    for (const json& c : reference()["cases"]) {
        const std::string name = c["name"];
        if (name != "three_v_three" && name != "four_v_five" && name != "ten_v_ten") continue;
        const auto a = c["baseline"].get<std::vector<double>>(), b = c["candidate"].get<std::vector<double>>();
        BootstrapOptions o;
        o.confidence = c["confidence"].get<double>();
        o.resamples = 200000;
        o.method = ResampleMethod::literal;
        const BootstrapResult r = bootstrap_medians(a, b, o);
        EXPECT_FALSE(r.exact);
        const json& want = c["median_difference"];
        const double scale = want["std_error"].get<double>();
        for (int s = 0; s < 2; ++s)
            EXPECT_NEAR(r.median_difference.percentile[s], want["percentile"][s].get<double>(), 0.25 * scale) << name;
        EXPECT_NEAR(r.median_difference.std_error, scale, 0.02 * scale) << name;
        EXPECT_NEAR(r.median_difference.bias, want["bias"].get<double>(), 0.02 * scale) << name;
    }
}

TEST(BootstrapExact, OnlyWhereTheDistributionIsSmallerThanTheResamples) {
    const std::vector<double> three = {1, 2, 3}, twenty(20, 1.5);
    BootstrapOptions o;
    EXPECT_TRUE(bootstrap_medians(three, three, o).exact);
    o.resamples = 8;  // 3 x 3 points
    EXPECT_FALSE(bootstrap_medians(three, three, o).exact);
    o.resamples = 9;
    EXPECT_TRUE(bootstrap_medians(three, three, o).exact);
    o.method = ResampleMethod::literal;
    EXPECT_FALSE(bootstrap_medians(three, three, o).exact);
    o = BootstrapOptions{};
    EXPECT_FALSE(bootstrap_medians(twenty, twenty, o).exact);  // 210 x 210 points
    EXPECT_EQ(exact_median_points(1), 1u);
    EXPECT_EQ(exact_median_points(3), 3u);
    EXPECT_EQ(exact_median_points(10), 55u);
}

}  // namespace
}  // namespace gfxstat::analysis
