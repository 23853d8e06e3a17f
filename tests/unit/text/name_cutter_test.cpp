// SPDX-License-Identifier: MIT
// text/name_cutter.h: names cut to a column stay unique, the same name
// always cut the same way, and the legend gives every cut whole.
#include "text/name_cutter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "text/text_width.h"

namespace gfxstat::text {
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

// The cutter as it was, a linear search over every name returned: the
// reference the hashed one must agree with, name for name.
class ReferenceCutter {
public:
    explicit ReferenceCutter(NameCutter::Keep keep) : keep_(keep) {}

    std::string cut(const std::string& name, size_t columns) {
        if (columns == 0) columns = 1;
        for (const auto& [shown, whole] : legend_)
            if (whole == name) return shown;
        if (display_width(name) <= columns) {
            if (std::find(whole_.begin(), whole_.end(), name) == whole_.end()) whole_.push_back(name);
            return name;
        }
        std::string c = clip(name, columns, "");
        for (size_t k = 2; taken(c); ++k) {
            const std::string tag = std::to_string(k);
            c = clip(name, columns > tag.size() + 1 ? columns - tag.size() : 1, tag);
        }
        legend_.emplace_back(c, name);
        return c;
    }
    const std::vector<std::pair<std::string, std::string>>& legend() const { return legend_; }

private:
    bool taken(const std::string& shown) const {
        return std::any_of(legend_.begin(), legend_.end(), [&](const auto& e) { return e.first == shown; }) ||
               std::find(whole_.begin(), whole_.end(), shown) != whole_.end();
    }
    std::string clip(const std::string& name, size_t columns, const std::string& tag) const {
        if (keep_ == NameCutter::Keep::start || columns < 5) return clip_columns(name, columns) + tag;
        const std::vector<std::string> chars = split_columns(name, 1);
        const size_t head = (columns - 1) * 2 / 5, tail = columns - 1 - head;
        std::string out;
        for (size_t i = 0; i < head; ++i) out += chars[i];
        out += "~" + tag;
        for (size_t i = chars.size() - tail; i < chars.size(); ++i) out += chars[i];
        return out;
    }

    NameCutter::Keep keep_;
    std::vector<std::pair<std::string, std::string>> legend_;
    std::vector<std::string> whole_;
};

std::string variant_name(size_t i) {
    char name[32];
    std::snprintf(name, sizeof name, "mesa-main-%06zu", i);
    return name;
}

// Names cut alike by the hundred (a suite's variants), names that fit,
// names again, names whose cut is another's whole name, wide characters
// and narrow columns where the cut that keeps both ends falls back to
// the start: every cut as the linear search made it.
TEST(NameCutter, CutsAsTheLinearSearchDid) {
    std::vector<std::string> names;
    for (size_t i = 0; i < 200; ++i) names.push_back(variant_name(i * 7 % 200));
    for (const std::string& n : kGlmark2) names.push_back(n);
    for (size_t i = 0; i < 40; ++i) names.push_back("caf\xc3\xa9-\xe2\x82\xac-" + std::to_string(i % 25) + "-x");
    names.insert(names.end(), {"mesa-main-0~", "mesa-main~2", "mesa-main-0~", "gl", "mesa~11", variant_name(3)});
    // Cut alike at 5 columns keeping both ends ("v~fps"), but numbered from
    // their starts alone ("vka~2", "vkb~2"): what the first took is no
    // guide to the third.
    names.insert(names.end(), {"vka-1.fps", "vkb-2.fps", "vka-3.fps", "vkb-4.fps", "vkc-5.fps"});
    for (size_t i = 0; i < 80; ++i) names.push_back(variant_name(1000 + i) + ".fps");
    for (auto keep : {NameCutter::Keep::start, NameCutter::Keep::both_ends})
        for (size_t columns : {0u, 1u, 2u, 4u, 5u, 6u, 7u, 8u, 12u, 16u}) {
            NameCutter cutter(keep);
            ReferenceCutter reference(keep);
            for (const std::string& name : names)
                ASSERT_EQ(cutter.cut(name, columns), reference.cut(name, columns))
                    << name << " at " << columns << (keep == NameCutter::Keep::start ? " (start)" : " (both ends)");
            EXPECT_EQ(cutter.legend(), reference.legend());
            // Columns that change from name to name, as tables of different
            // widths share a cutter.
            NameCutter mixed(keep);
            ReferenceCutter mixed_reference(keep);
            for (size_t i = 0; i < names.size(); ++i)
                ASSERT_EQ(mixed.cut(names[i], columns + i % 3), mixed_reference.cut(names[i], columns + i % 3))
                    << names[i];
        }
}

// A test of shape: 20,000 names cut alike cost a few look-ups each, as
// 2,000 do (the linear search made it quadratic, the numbering cubic).
TEST(NameCutter, NamesCutAlikeCostLookupsInProportion) {
    for (auto keep : {NameCutter::Keep::start, NameCutter::Keep::both_ends}) {
        double per_name[2] = {0, 0};
        size_t sizes[2] = {2000, 20000};
        for (size_t s = 0; s < 2; ++s) {
            NameCutter cutter(keep);
            std::set<std::string> shown;
            for (size_t i = 0; i < sizes[s]; ++i) {
                const std::string c = cutter.cut(variant_name(i), 12);
                EXPECT_LE(display_width(c), 12u);
                ASSERT_TRUE(shown.insert(c).second) << c;
            }
            per_name[s] = static_cast<double>(cutter.lookups()) / static_cast<double>(sizes[s]);
        }
        EXPECT_LE(per_name[0], 3.0);
        EXPECT_LE(per_name[1], 3.0);
        EXPECT_LE(per_name[1], per_name[0] * 1.5);
    }
}

}  // namespace
}  // namespace gfxstat::text
