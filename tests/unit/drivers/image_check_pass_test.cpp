// SPDX-License-Identifier: MIT
// drivers/image_check_pass.h: what a campaign's resume counts as the
// checking runs already made in a boot.
#include <gtest/gtest.h>

#include <string>

#include "data/image_check.h"
#include "data/results_model.h"
#include "drivers/image_check_pass.h"

namespace gfxstat::drivers {
namespace {

data::ImageCheck check_of(const std::string& variant, uint64_t n, const std::string& boot, data::ExitClass cls,
                          const std::string& reason) {
    data::ImageCheck c;
    c.variant = variant;
    c.check = n;
    c.boot = boot;
    c.exit_class = cls;
    c.exit_reason = reason;
    c.tool = "glretrace";
    c.method = "md5";
    if (cls == data::ExitClass::ok) c.frames = {{1, "a84e3ad90ba90bf4f4a69ae935ec53b6"}};
    return c;
}

TEST(ImageChecksInBoot, AnInterruptedCheckIsMadeAgainAFailedOneIsNot) {
    data::ResultsFile f;
    ASSERT_EQ(f.add_image_check(check_of("base", 0, "boot-1", data::ExitClass::ok, "")), "");
    // Ctrl-C during the pass: recorded, but not the replay's failure.
    ASSERT_EQ(f.add_image_check(check_of("base", 1, "boot-1", data::ExitClass::fail,
                                         "interrupted by the user (killed by SIGINT)")),
              "");
    ASSERT_EQ(f.add_image_check(check_of("base", 2, "boot-1", data::ExitClass::fail,
                                         "interrupted by the user (--prepare: killed by SIGTERM)")),
              "");
    EXPECT_EQ(image_checks_in_boot(f, "base", "boot-1"), 1u);
    // A replay that crashed is made: the resume does not try it again.
    ASSERT_EQ(f.add_image_check(check_of("base", 3, "boot-1", data::ExitClass::crash, "killed by SIGSEGV")), "");
    EXPECT_EQ(image_checks_in_boot(f, "base", "boot-1"), 2u);
    // Other boots, variants and merged-in checks do not count.
    ASSERT_EQ(f.add_image_check(check_of("base", 4, "boot-2", data::ExitClass::ok, "")), "");
    ASSERT_EQ(f.add_image_check(check_of("patch", 0, "boot-1", data::ExitClass::ok, "")), "");
    data::ImageCheck merged = check_of("base", 0, "boot-1", data::ExitClass::ok, "");
    merged.origin = "0123456789abcdef0123456789abcdef";
    ASSERT_EQ(f.add_image_check(merged), "");
    EXPECT_EQ(image_checks_in_boot(f, "base", "boot-1"), 2u);
    EXPECT_EQ(image_checks_in_boot(f, "base", "boot-2"), 1u);
    EXPECT_EQ(image_checks_in_boot(f, "patch", "boot-1"), 1u);
}

}  // namespace
}  // namespace gfxstat::drivers
