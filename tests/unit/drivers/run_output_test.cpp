// SPDX-License-Identifier: MIT
// drivers/run_output.h: a variant label as the file name of its logs and of
// its kept images (DIR/ID-VARIANT-check-NNNN).
#include <gtest/gtest.h>

#include <climits>
#include <set>
#include <string>

#include "drivers/run_output.h"

namespace gfxstat::drivers {
namespace {

TEST(FileSafe, PlainLabelsStayAsTheyAre) {
    EXPECT_EQ(file_safe("mesa-main_2.1"), "mesa-main_2.1");
}

TEST(FileSafe, NothingLeavesTheDirectory) {
    for (const std::string label : {"..", ".", "../../etc", "a/b", "/abs", "", "\n", "x\x1b[31m"}) {
        const std::string name = file_safe(label);
        EXPECT_EQ(name.find('/'), std::string::npos) << name;
        EXPECT_FALSE(name.empty());
        EXPECT_NE(name.front(), '.') << name;
    }
}

TEST(FileSafe, LabelsAlikeOnceReplacedGetNamesOfTheirOwn) {
    std::set<std::string> names;
    for (const std::string label : {"mesa/main", "mesa_main", "mesa main", "mesa<main", "mesa\nmain"})
        names.insert(file_safe(label));
    EXPECT_EQ(names.size(), 5u);
}

TEST(FileSafe, LongLabelsFitAFileNameAndStayApart) {
    // Logs ("ID-VARIANT-check-NNNN.prepare.stderr") and kept image
    // directories must stay under NAME_MAX whatever the label's length.
    const std::string a(300, 'v'), b = a + "w", c(5000, 'v');
    const std::string prefix = "0123456789abcdef-", suffix = "-check-0000.prepare.stderr";
    std::set<std::string> names;
    for (const std::string& label : {a, b, c}) {
        const std::string name = file_safe(label);
        EXPECT_LE(prefix.size() + name.size() + suffix.size(), size_t(NAME_MAX)) << name.size();
        EXPECT_EQ(name.compare(0, 10, "vvvvvvvvvv"), 0) << name;
        names.insert(name);
    }
    EXPECT_EQ(names.size(), 3u);
    // The longest label kept whole, and one past it, cut and hashed.
    EXPECT_EQ(file_safe(std::string(kFileSafeMax, 'x')), std::string(kFileSafeMax, 'x'));
    EXPECT_NE(file_safe(std::string(kFileSafeMax + 1, 'x')), std::string(kFileSafeMax + 1, 'x'));
}

}  // namespace
}  // namespace gfxstat::drivers
