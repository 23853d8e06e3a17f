// SPDX-License-Identifier: MIT
// NIST StRD univariate summary statistics: all nine data sets, mean and
// standard deviation to a log relative error of at least 13 (R reaches 8.3
// on NumAcc4, where 10000000.2 is not a double; exact decimal centring is
// what lets gfxstat go further).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "analysis/moments.h"
#include "data/column_file.h"
#include "tests/unit/test_support.h"

namespace gfxstat {
namespace {

struct Certified {
    std::string name;
    size_t n;
    double mean, sd;
};

std::vector<Certified> certified() {
    std::ifstream in(test::source_path("tests/data/nist/certified_values.tsv"));
    std::string line;
    std::getline(in, line);  // header
    std::vector<Certified> out;
    while (std::getline(in, line)) {
        std::istringstream f(line);
        Certified c;
        std::string n, mean, sd;
        std::getline(f, c.name, '\t');
        std::getline(f, n, '\t');
        std::getline(f, mean, '\t');
        std::getline(f, sd, '\t');
        c.n = std::stoul(n);
        c.mean = std::stod(mean);
        c.sd = std::stod(sd);
        out.push_back(c);
    }
    return out;
}

TEST(Nist, AllNineDataSetsReachLre13) {
    const auto sets = certified();
    ASSERT_EQ(sets.size(), 9u);
    for (const auto& c : sets) {
        const auto file = data::read_column_path(
            test::source_path("tests/data/nist/" + c.name + ".txt"), c.name, {});
        ASSERT_EQ(file.sample.size(), c.n) << c.name;
        EXPECT_TRUE(file.sample.exact()) << c.name;
        const auto m = analysis::moments(file.sample.view());
        const double lre_mean = test::lre(m.mean, c.mean), lre_sd = test::lre(m.stddev, c.sd);
        std::printf("%-9s mean LRE %4.1f  sd LRE %4.1f\n", c.name.c_str(), lre_mean, lre_sd);
        EXPECT_GE(lre_mean, 13) << c.name << " mean " << m.mean;
        EXPECT_GE(lre_sd, 13) << c.name << " sd " << m.stddev;
    }
}

}  // namespace
}  // namespace gfxstat
