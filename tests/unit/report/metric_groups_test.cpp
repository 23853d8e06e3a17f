// SPDX-License-Identifier: MIT
// The short report's tables: metrics that end alike (and share a unit and
// direction) form one, labelled by what tells them apart; the rest form
// one table of whole names.
#include "report/metric_groups.h"

#include <gtest/gtest.h>

namespace gfxstat::cli {
namespace {

TEST(MetricGroups, Glmark2ScenesFormATablePerEndingLessTheSharedParts) {
    const std::vector<GroupedMetric> m = {
        {"score", "", "higher"},
        {"build.duration_0.4.fps", "fps", "higher"},
        {"build.duration_0.4.frame_time", "ms", "lower"},
        {"shading.duration_0.4.shading_phong.fps", "fps", "higher"},
        {"shading.duration_0.4.shading_phong.frame_time", "ms", "lower"},
        {"texture.duration_0.4.fps", "fps", "higher"},
        {"texture.duration_0.4.frame_time", "ms", "lower"},
    };
    const auto g = metric_groups(m);
    ASSERT_EQ(g.size(), 3u);
    EXPECT_EQ(g[0].title, "");
    EXPECT_EQ(g[0].members, (std::vector<size_t>{0}));
    EXPECT_EQ(g[0].labels, (std::vector<std::string>{"score"}));
    EXPECT_EQ(g[1].title, "fps");
    EXPECT_EQ(g[1].common, "duration_0.4");
    EXPECT_EQ(g[1].members, (std::vector<size_t>{1, 3, 5}));
    EXPECT_EQ(g[1].labels, (std::vector<std::string>{"build", "shading.shading_phong", "texture"}));
    EXPECT_EQ(g[2].title, "frame_time");
    EXPECT_EQ(g[2].members, (std::vector<size_t>{2, 4, 6}));
}

TEST(MetricGroups, AnEndingOfOneMetricOrOfOtherUnitsGroupsNothing) {
    // "a.fps" is alone in its unit: whole names; "x.t" and "y.t" differ in
    // direction: apart too.
    const std::vector<GroupedMetric> m = {
        {"a.fps", "fps", "higher"}, {"b.fps", "ms", "higher"}, {"x.t", "s", "lower"}, {"y.t", "s", "higher"}};
    const auto g = metric_groups(m);
    ASSERT_EQ(g.size(), 1u);
    EXPECT_EQ(g[0].title, "");
    EXPECT_EQ(g[0].labels, (std::vector<std::string>{"a.fps", "b.fps", "x.t", "y.t"}));
}

TEST(MetricGroups, LabelsStayApartAndNeverEmpty) {
    // Dropping the shared "gl" would leave nothing of the first label.
    const std::vector<GroupedMetric> m = {{"gl.fps", "fps", "higher"}, {"gl.off.fps", "fps", "higher"}};
    const auto g = metric_groups(m);
    ASSERT_EQ(g.size(), 1u);
    EXPECT_EQ(g[0].title, "fps");
    EXPECT_EQ(g[0].common, "");
    EXPECT_EQ(g[0].labels, (std::vector<std::string>{"gl", "gl.off"}));
    // Names without a dot, and a dot at either end, have no ending.
    const auto h = metric_groups({{"fps", "fps", "higher"}, {".fps", "fps", "higher"}, {"fps.", "fps", "higher"}});
    ASSERT_EQ(h.size(), 1u);
    EXPECT_EQ(h[0].labels, (std::vector<std::string>{"fps", ".fps", "fps."}));
}

TEST(MetricGroups, TheWholeNamesTableStandsWhereItsFirstMetricCame) {
    const std::vector<GroupedMetric> m = {
        {"a.fps", "fps", "higher"}, {"b.fps", "fps", "higher"}, {"score", "", "higher"}, {"c.fps", "fps", "higher"}};
    const auto g = metric_groups(m);
    ASSERT_EQ(g.size(), 2u);
    EXPECT_EQ(g[0].title, "fps");
    EXPECT_EQ(g[0].labels, (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(g[1].title, "");
    EXPECT_EQ(g[1].members, (std::vector<size_t>{2}));
}

}  // namespace
}  // namespace gfxstat::cli
