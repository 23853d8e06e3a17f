// SPDX-License-Identifier: MIT
#include "analysis/student_t.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "tests/unit/test_support.h"

namespace gfxstat::analysis {
namespace {

// R's qt() at every level and df of the reference file (t_exact_same_level).
TEST(TQuantile, MatchesR) {
    EXPECT_NEAR(t_critical(95, 10), 2.228138851986274, 1e-12);
    EXPECT_NEAR(t_quantile(0.5, 7), 0.0, 1e-15);
    EXPECT_NEAR(t_quantile(0.975, 1), 12.706204736174707, 1e-9);  // tan(0.475 pi)
    for (const auto& c : test::reference_cases()["cases"]) {
        const auto& levels = c["two_sample"]["ministat_all_levels"];
        for (auto it = levels.begin(); it != levels.end(); ++it) {
            if (it.value().contains("error")) continue;
            const double level = std::stod(it.key().substr(1));
            const int df = it.value()["df"];
            if (df < 1) continue;
            const double want = it.value()["t_exact_same_level"];
            EXPECT_NEAR(t_critical(level, df), want, want * 1e-12) << it.key() << " df=" << df;
        }
    }
}

TEST(MinistatTCritical, TableLevelsUseThreeDecimals) {
    EXPECT_EQ(ministat_t_critical(95, 10), 2.228);
    EXPECT_EQ(ministat_t_critical(80, 1), 3.078);
    EXPECT_EQ(ministat_t_critical(99, 100), 2.626);
}

// Where ministat's table is wrong gfxstat uses the exact quantile.
TEST(MinistatTCritical, ExactBeyondTheTable) {
    EXPECT_EQ(ministat_t_critical(95, 101), t_critical(95, 101));  // ministat: 1.960
    EXPECT_NEAR(ministat_t_critical(95, 101), 1.98373, 1e-5);
    EXPECT_EQ(ministat_t_critical(99.5, 10), t_critical(99.5, 10));  // ministat: 4.143 (99.8%)
    EXPECT_EQ(ministat_t_critical(97.5, 10), t_critical(97.5, 10));
    EXPECT_NEAR(ministat_t_critical(99.5, 10), 3.5814, 1e-4);
}

// The table gfxstat reproduces is Debian ministat's own: read the doubles
// out of /usr/bin/ministat (its table is an array of 101 x 6 doubles
// starting with the infinity row 1.282, 1.645, 1.960).
TEST(MinistatTCritical, AgreesWithDebianBinaryTable) {
    std::ifstream in("/usr/bin/ministat", std::ios::binary);
    if (!in) GTEST_SKIP() << "/usr/bin/ministat not installed (Debian package ministat)";
    std::vector<char> bin((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const double key[3] = {1.282, 1.645, 1.960};
    size_t at = std::string::npos;
    for (size_t i = 0; i + sizeof key <= bin.size(); ++i)
        if (std::memcmp(&bin[i], key, sizeof key) == 0) {
            at = i;
            break;
        }
    ASSERT_NE(at, std::string::npos) << "t table not found in /usr/bin/ministat";
    ASSERT_LE(at + 101 * 6 * sizeof(double), bin.size());
    const double levels[5] = {80, 90, 95, 98, 99};
    for (int df = 1; df <= 100; ++df)
        for (int c = 0; c < 5; ++c) {
            double table;
            std::memcpy(&table, &bin[at + (df * 6 + c) * sizeof(double)], sizeof table);
            EXPECT_EQ(ministat_t_critical(levels[c], df), table) << "df=" << df << " level=" << levels[c];
        }
    // Its 99.5% column holds 99.8% quantiles: the reason gfxstat recomputes it.
    double col995;
    std::memcpy(&col995, &bin[at + (10 * 6 + 5) * sizeof(double)], sizeof col995);
    EXPECT_NEAR(col995, t_critical(99.8, 10), 1e-3);
    EXPECT_GT(std::abs(col995 - t_critical(99.5, 10)), 0.5);
}

}  // namespace
}  // namespace gfxstat::analysis
