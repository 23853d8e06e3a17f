// SPDX-License-Identifier: MIT
// report/name_cutter.h: names cut to a column stay unique, the same name
// always cut the same way, and the legend gives every cut whole.
#include "report/name_cutter.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "report/text_width.h"

namespace gfxstat::report {
namespace {

const std::vector<std::string> kGlmark2 = {
    "shading.duration_1.shading_gouraud.fps", "shading.duration_1.shading_gouraud.frame_time",
    "shading.duration_1.shading_blinn-phong-inf.fps", "shading.duration_1.shading_blinn-phong-inf.frame_time",
    "shading.duration_1.shading_phong.fps", "shading.duration_1.shading_phong.frame_time"};

TEST(NameCutter, CutNamesStayUniqueWithinTheirColumns) {
    for (auto keep : {NameCutter::Keep::start, NameCutter::Keep::both_ends})
        for (size_t columns : {5u, 8u, 12u, 20u, 25u}) {
            NameCutter cutter(keep);
            std::set<std::string> shown;
            for (const std::string& name : kGlmark2) {
                const std::string c = cutter.cut(name, columns);
                EXPECT_LE(display_width(c), columns) << c;
                EXPECT_TRUE(shown.insert(c).second) << "two names shown as " << c << " at " << columns;
            }
            EXPECT_EQ(cutter.legend().size(), kGlmark2.size());
            for (const auto& [cut, whole] : cutter.legend()) EXPECT_EQ(cutter.cut(whole, columns), cut);
        }
}

TEST(NameCutter, NamesThatFitAreNotCut) {
    NameCutter cutter;
    EXPECT_EQ(cutter.cut("gl_4", 8), "gl_4");
    EXPECT_TRUE(cutter.legend().empty());
}

TEST(NameCutter, FirstCutKeepsItsPlainForm) {
    NameCutter start;
    EXPECT_EQ(start.cut(kGlmark2[0], 20), "shading.duration_1.~");
    EXPECT_EQ(start.cut(kGlmark2[1], 20), "shading.duration_1~2");
    NameCutter ends(NameCutter::Keep::both_ends);
    EXPECT_EQ(ends.cut(kGlmark2[0], 16), "shadin~uraud.fps");
    EXPECT_EQ(ends.cut(kGlmark2[4], 16), "shadin~phong.fps");
    // A name cut like an earlier one: the number after the mark.
    EXPECT_EQ(ends.cut("shading.duration_2.shading_phong.fps", 16), "shadi~2phong.fps");
}

}  // namespace
}  // namespace gfxstat::report
