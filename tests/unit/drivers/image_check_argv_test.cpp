// SPDX-License-Identifier: MIT
// The command of a checking run (drivers/image_check_argv.h): glretrace's
// timing options dropped and its MD5 snapshot options added, gfxrecon-
// replay's screenshots into the given directory, the refusals; and
// --check-frames' CALLSET read into call numbers, or refused.
#include "drivers/image_check_argv.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "drivers/image_check_pass.h"

namespace gfxstat::drivers {
namespace {

using Argv = std::vector<std::string>;

TEST(ImageCheckArgv, ParserFamilies) {
    EXPECT_EQ(image_check_family("apitrace"), ImageCheckFamily::apitrace);
    EXPECT_EQ(image_check_family("gfxrecon"), ImageCheckFamily::gfxrecon);
    EXPECT_EQ(image_check_family("glmark2"), ImageCheckFamily::none);
    EXPECT_EQ(image_check_family("lines"), ImageCheckFamily::none);
    EXPECT_EQ(image_check_refusal("glmark2"),
              "--check-images reads frames from apitrace's and GFXReconstruct's replayers: --parser apitrace or "
              "gfxrecon (this command's parser: glmark2)");
}

TEST(ImageCheckArgv, GlretraceDropsTimingAndAddsMd5) {
    const CheckCommand c = image_check_command(
        {"/usr/bin/glretrace", "-b", "--pgpu", "--pcpu", "--pframe-times", "--ppd", "--pmem", "--min-cpu-time=500",
         "--pcalls", "x", "--headless", "-bv", "gears.trace"},
        ImageCheckFamily::apitrace, {});
    EXPECT_EQ(c.argv, (Argv{"/usr/bin/glretrace", "--snapshot-format=MD5", "-s", "-", "--headless", "-v",
                            "gears.trace"}));
    EXPECT_EQ(c.tool, "glretrace");
    EXPECT_EQ(c.method, "md5");
    EXPECT_FALSE(c.files);
}

TEST(ImageCheckArgv, EglretraceAndApitraceReplayWithCallset) {
    CheckArgvOptions o;
    o.callset = "1370,1392-1414/22";
    const CheckCommand egl = image_check_command({"eglretrace", "--benchmark", "t.trace"}, ImageCheckFamily::apitrace, o);
    EXPECT_EQ(egl.argv, (Argv{"eglretrace", "--snapshot-format=MD5", "-s", "-", "-S", "1370,1392-1414/22", "t.trace"}));
    EXPECT_EQ(egl.tool, "eglretrace");
    const CheckCommand rep = image_check_command({"apitrace", "replay", "-b", "t.trace"}, ImageCheckFamily::apitrace, {});
    EXPECT_EQ(rep.argv, (Argv{"apitrace", "replay", "--snapshot-format=MD5", "-s", "-", "t.trace"}));
    EXPECT_EQ(rep.tool, "apitrace");
}

TEST(ImageCheckArgv, KeptApitraceImagesAreFilesNamedByIndex) {
    CheckArgvOptions o;
    o.snapshot_prefix = "/tmp/d/s";
    const CheckCommand c = image_check_command({"glretrace", "-b", "t.trace"}, ImageCheckFamily::apitrace, o);
    EXPECT_EQ(c.argv, (Argv{"glretrace", "-s", "/tmp/d/s", "--call-nos=no", "t.trace"}));
    EXPECT_EQ(c.method, "sha256-file");
    EXPECT_TRUE(c.files);
    o.callset = "5,9";
    EXPECT_EQ(image_check_command({"glretrace", "t.trace"}, ImageCheckFamily::apitrace, o).argv,
              (Argv{"glretrace", "-s", "/tmp/d/s", "--call-nos=yes", "-S", "5,9", "t.trace"}));
}

TEST(ImageCheckArgv, GfxreconScreenshotsIntoTheDirectory) {
    CheckArgvOptions o;
    o.screenshot_dir = "/tmp/gfxstat-check-x";
    const CheckCommand c = image_check_command({"gfxrecon-replay", "--remove-unsupported", "cube.gfxr"},
                                               ImageCheckFamily::gfxrecon, o);
    EXPECT_EQ(c.argv, (Argv{"gfxrecon-replay", "--screenshot-all", "--screenshot-dir", "/tmp/gfxstat-check-x",
                            "--remove-unsupported", "cube.gfxr"}));
    EXPECT_EQ(c.method, "sha256-file");
    EXPECT_TRUE(c.files);
}

TEST(ImageCheckArgv, Refusals) {
    // Not the replayer itself.
    EXPECT_THROW(image_check_command({"sh", "-c", "glretrace t"}, ImageCheckFamily::apitrace, {}), std::invalid_argument);
    EXPECT_THROW(image_check_command({"apitrace", "trace", "glxgears"}, ImageCheckFamily::apitrace, {}),
                 std::invalid_argument);
    EXPECT_THROW(image_check_command({"vkcube"}, ImageCheckFamily::gfxrecon, {}), std::invalid_argument);
    // Snapshots of its own.
    EXPECT_THROW(image_check_command({"glretrace", "-s", "/tmp/x", "t"}, ImageCheckFamily::apitrace, {}),
                 std::invalid_argument);
    EXPECT_THROW(image_check_command({"glretrace", "--snapshot=5", "t"}, ImageCheckFamily::apitrace, {}),
                 std::invalid_argument);
    EXPECT_THROW(image_check_command({"gfxrecon-replay", "--screenshots", "1-3", "c"}, ImageCheckFamily::gfxrecon, {}),
                 std::invalid_argument);
    // Calls chosen for gfxrecon.
    CheckArgvOptions o;
    o.callset = "1";
    EXPECT_THROW(image_check_command({"gfxrecon-replay", "c"}, ImageCheckFamily::gfxrecon, o), std::invalid_argument);
    EXPECT_THROW(image_check_command({"glmark2"}, ImageCheckFamily::none, {}), std::invalid_argument);
}

TEST(CheckFrames, NumbersAndRanges) {
    EXPECT_EQ(parse_check_frames("1370"), (std::vector<uint64_t>{1370}));
    EXPECT_EQ(parse_check_frames("1,5-7,10-20/5"), (std::vector<uint64_t>{1, 5, 6, 7, 10, 15, 20}));
    EXPECT_EQ(parse_check_frames("10-19/5"), (std::vector<uint64_t>{10, 15}));
    EXPECT_EQ(parse_check_frames("0-0"), (std::vector<uint64_t>{0}));
}

TEST(CheckFrames, OtherFormsAreRefused) {
    for (const char* bad : {"", "*", "frame", "@calls.txt", "1,,2", "5-3", "1-", "-4", "3,2", "1-5,5", "1-10/0",
                            "0x10", "1 ,2", "1-1000000000"}) {
        EXPECT_THROW(parse_check_frames(bad), std::invalid_argument) << bad;
    }
    try {
        parse_check_frames("1,frame");
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("'frame' is not a call number"), std::string::npos) << e.what();
    }
}

TEST(CheckImagesValue, EveryK) {
    EXPECT_EQ(parse_check_images_every(""), 0u);
    EXPECT_EQ(parse_check_images_every("every:1"), 1u);
    EXPECT_EQ(parse_check_images_every("every:12"), 12u);
    for (const char* bad : {"every:0", "every:", "every:x", "3", "always", "every:-1", "every:99999999"})
        EXPECT_THROW(parse_check_images_every(bad), std::invalid_argument) << bad;
    EXPECT_EQ(image_checks_to_top_up(0), 2u);
    EXPECT_EQ(image_checks_to_top_up(1), 1u);
    EXPECT_EQ(image_checks_to_top_up(5), 0u);
}

}  // namespace
}  // namespace gfxstat::drivers
