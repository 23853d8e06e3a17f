// SPDX-License-Identifier: MIT
// Frame checksums read from replayers' output, for checking runs: apitrace's
// MD5 snapshots on stdout and GFXReconstruct's screenshot files, on real
// recorded outputs (tests/data/images/).
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "data/digest.h"
#include "formats/apitrace_snapshots.h"
#include "formats/gfxrecon_screenshots.h"

namespace gfxstat::formats {
namespace {

const std::string kImages = std::string(GFXSTAT_SOURCE_DIR) + "/tests/data/images/";

std::string slurp(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    EXPECT_TRUE(f) << path;
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

TEST(ApitraceSnapshots, EveryFrameOfARealReplayNumberedFromZero) {
    const std::string text = slurp(kImages + "apitrace/glretrace-md5-gears.stdout");
    const FrameChecksums r = parse_apitrace_md5_snapshots(text);
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.frames.size(), 16u);
    EXPECT_EQ(r.frames.begin()->first, 0u);
    EXPECT_EQ(r.frames.rbegin()->first, 15u);
    EXPECT_EQ(r.frames.at(0), "83e8c5c65a2413e1d91701fb6b1ca881");  // line 1, lower-cased
    EXPECT_EQ(r.frames.at(2), "db11ec5373008d5c36beada96a5c24fb");
    const std::vector<std::string> lines = lines_of(text);
    for (const auto& [frame, sum] : r.frames) {
        std::string upper = sum;
        for (char& c : upper)
            if (c >= 'a' && c <= 'f') c = static_cast<char>(c - 'a' + 'A');
        EXPECT_EQ(upper, lines[frame]) << "frame " << frame;
    }
    // stderr holds no checksum: only the traced program's path.
    EXPECT_NE(parse_apitrace_md5_snapshots(slurp(kImages + "apitrace/glretrace-md5-gears.stderr")).error, "");
}

TEST(ApitraceSnapshots, ChosenCallsAreNumberedByTheCaller) {
    const std::string text = slurp(kImages + "apitrace/glretrace-md5-calls-1370-1392-1414.stdout");
    const std::vector<uint64_t> calls = {1370, 1392, 1414};
    const FrameChecksums r = parse_apitrace_md5_snapshots(text, calls);
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.frames.size(), 3u);
    // The second and third chosen calls end frames 1 and 2 of the replay.
    const FrameChecksums all = parse_apitrace_md5_snapshots(slurp(kImages + "apitrace/glretrace-md5-gears.stdout"));
    EXPECT_EQ(r.frames.at(1392), all.frames.at(1));
    EXPECT_EQ(r.frames.at(1414), all.frames.at(2));
    const std::vector<uint64_t> two = {1370, 1392};
    EXPECT_NE(parse_apitrace_md5_snapshots(text, two).error.find("3 snapshot checksums for 2 chosen calls"),
              std::string::npos);
    const std::vector<uint64_t> unordered = {1392, 1370, 1414};
    EXPECT_NE(parse_apitrace_md5_snapshots(text, unordered).error.find("must increase"), std::string::npos);
}

TEST(ApitraceSnapshots, OtherLinesAreErrorsOrPassedOver) {
    const std::string md5 = "83E8C5C65A2413E1D91701FB6B1CA881";
    const FrameChecksums r = parse_apitrace_md5_snapshots(md5 + "\r\n\n" + md5 + "\nRendered 2 frames in 0.1 secs, average of 20 fps\n");
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.frames.size(), 2u);
    const FrameChecksums bad = parse_apitrace_md5_snapshots(md5 + "\nP6\n");
    EXPECT_EQ(bad.error.rfind("line 2: expected a snapshot's MD5", 0), 0u) << bad.error;
    EXPECT_NE(parse_apitrace_md5_snapshots(md5.substr(1) + "\n").error, "");
    EXPECT_NE(parse_apitrace_md5_snapshots("").error.find("no snapshot checksums"), std::string::npos);
}

TEST(GfxreconScreenshots, NamesOfARealReplay) {
    const std::vector<std::string> names = lines_of(slurp(kImages + "gfxrecon/screenshot-dir-vkcube.ls"));
    ASSERT_EQ(names.size(), 5u);
    for (size_t i = 0; i < names.size(); ++i)
        EXPECT_EQ(gfxrecon_screenshot_frame(names[i]), std::optional<uint64_t>(i + 1)) << names[i];
    EXPECT_EQ(gfxrecon_screenshot_frame("shot_frame_7.bmp", "shot"), std::optional<uint64_t>(7));
    for (const char* other : {"screenshot_frame_.bmp", "screenshot_frame_7", "screenshot_frame_07.bmp",
                              "screenshot_frame_7.bmp.tmp", "screenshot_frame_-7.bmp", "shot_frame_7.bmp",
                              "screenshot_7.bmp", "screenshot_frame_x.bmp"})
        EXPECT_FALSE(gfxrecon_screenshot_frame(other)) << other;
}

TEST(GfxreconScreenshots, EachFileHashedWithSha256ByFrame) {
    std::string dir = testing::TempDir() + "gfxstat_shots_XXXXXX";
    ASSERT_NE(::mkdtemp(dir.data()), nullptr);
    EXPECT_NE(gfxrecon_screenshot_checksums(dir).error.find("no screenshots"), std::string::npos);
    const auto put = [&](const std::string& name, const std::string& bytes) {
        std::ofstream(dir + "/" + name, std::ios::binary) << bytes;
    };
    put("screenshot_frame_1.bmp", "abc");  // FIPS 180-4's one-block example
    put("screenshot_frame_10.bmp", "");
    put("notes.txt", "not a screenshot");
    const FrameChecksums r = gfxrecon_screenshot_checksums(dir);
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.frames.size(), 2u);
    EXPECT_EQ(r.frames.at(1), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(r.frames.at(10), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    for (const char* name : {"screenshot_frame_1.bmp", "screenshot_frame_10.bmp", "notes.txt"})
        ::unlink((dir + "/" + name).c_str());
    ::rmdir(dir.c_str());
    EXPECT_NE(gfxrecon_screenshot_checksums(dir).error.find("cannot read the screenshot directory"), std::string::npos);
}

TEST(GfxreconScreenshots, RecordedDigestsAreWhatGfxstatRecords) {
    // sha256sum's lines for the real replay's five images: each a 64-digit
    // lower-case digest, the form an image check's "sha256-file" holds.
    for (const std::string& line : lines_of(slurp(kImages + "gfxrecon/screenshot-dir-vkcube.sha256"))) {
        ASSERT_GT(line.size(), 66u);
        EXPECT_EQ(line.find_first_not_of("0123456789abcdef"), 64u) << line;
        EXPECT_TRUE(gfxrecon_screenshot_frame(line.substr(66))) << line;
    }
}

// The names glretrace gives its snapshot files with `-s PREFIX`: PNG
// (--snapshot-format is for stdout only), ten digits (apitrace 11, seen in
// a replay of the gears trace: "Wrote shots/p0000000000.png").
TEST(ApitraceSnapshotFiles, NumberFromTheName) {
    EXPECT_EQ(apitrace_snapshot_file_number("s0000000000.png", "s"), std::optional<uint64_t>(0));
    EXPECT_EQ(apitrace_snapshot_file_number("s0000001370.png", "s"), std::optional<uint64_t>(1370));
    EXPECT_EQ(apitrace_snapshot_file_number("s12345678901.png", "s"), std::optional<uint64_t>(12345678901u));
    for (const char* other : {"s000000001.png", "s0000000001.pnm", "p0000000001.png", "s000000000x.png",
                              "s0000000001.png.tmp", "s.png", "s"})
        EXPECT_FALSE(apitrace_snapshot_file_number(other, "s")) << other;
}

}  // namespace
}  // namespace gfxstat::formats
