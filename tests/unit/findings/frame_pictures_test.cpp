// SPDX-License-Identifier: MIT
// findings/frame_pictures: the difference of two frames, and the kept
// images of differing frames found beside a results file, in scratch
// directories: the first ok checking run holding a frame gives its image;
// missing, unreadable and linked files become gaps, never errors.
#include "findings/frame_pictures.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace gfxstat::findings {
namespace {

namespace fs = std::filesystem;
using formats::RgbImage;

RgbImage flat(uint32_t w, uint32_t h, uint8_t r, uint8_t g, uint8_t b) {
    RgbImage img;
    img.width = w;
    img.height = h;
    for (uint32_t i = 0; i < w * h; ++i) img.rgb.insert(img.rgb.end(), {r, g, b});
    return img;
}

TEST(FramePictures, DifferenceCountsPixelsAndTheLargestChannelDifference) {
    const RgbImage a = flat(4, 3, 100, 150, 200);
    RgbImage b = a;
    b.rgb[3 * 5 + 1] = 150 + 40;  // pixel (1, 1), green
    b.rgb[3 * 11 + 2] = 200 - 90;  // pixel (3, 2), blue
    const ImageDifference d = image_difference(a, b);
    EXPECT_EQ(d.pixels, 12u);
    EXPECT_EQ(d.differing_pixels, 2u);
    EXPECT_EQ(d.largest_channel_difference, 90);
    ASSERT_EQ(d.image.width, 4u);
    ASSERT_EQ(d.image.height, 3u);
    const uint8_t grey = dimmed_grey(a.pixel(0, 0));
    // luma of (100, 150, 200) is 141 (BT.601, in 8 bits): 16 + 141 * 3 / 8
    EXPECT_EQ(grey, 16 + 141 * 3 / 8);
    for (uint32_t i = 0; i < 12; ++i) {
        const uint8_t* p = d.image.rgb.data() + 3 * i;
        if (i == 5 || i == 11)
            EXPECT_EQ(std::vector<uint8_t>(p, p + 3), std::vector<uint8_t>(kDifferenceColour, kDifferenceColour + 3));
        else
            EXPECT_EQ(std::vector<uint8_t>(p, p + 3), std::vector<uint8_t>(3, grey)) << i;
    }
    EXPECT_EQ(image_difference(a, a).differing_pixels, 0u);
}

TEST(FramePictures, DimmedGreyStaysDark) {
    const uint8_t white[3] = {255, 255, 255}, black[3] = {0, 0, 0};
    EXPECT_EQ(dimmed_grey(black), 16);
    EXPECT_EQ(dimmed_grey(white), 16 + 255 * 3 / 8);
}

class KeptImages : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/gfxstat-frame-pictures-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        root = tmpl;
    }
    void TearDown() override { fs::remove_all(root); }
    void write(const std::string& rel, const std::string& bytes) {
        fs::create_directories(fs::path(root + "/" + rel).parent_path());
        std::ofstream(root + "/" + rel, std::ios::binary) << bytes;
    }
    static std::string pnm(uint8_t r, uint8_t g, uint8_t b, uint32_t w = 2, uint32_t h = 2) {
        std::string s = "P6\n" + std::to_string(w) + " " + std::to_string(h) + "\n255\n";
        for (uint32_t i = 0; i < w * h; ++i) s += {char(r), char(g), char(b)};
        return s;
    }
    // A checking run of `variant` with frames 1..4: frames 2 and 3 differ
    // in `patched`.
    static data::ImageCheck check(const std::string& variant, uint64_t index, const std::string& kept,
                                  data::ExitClass exit = data::ExitClass::ok) {
        data::ImageCheck c;
        c.variant = variant;
        c.check = index;
        c.tool = "glretrace";
        c.method = "md5";
        c.exit_class = exit;
        c.kept = kept;
        if (exit == data::ExitClass::ok)
            for (uint64_t f = 1; f <= 4; ++f)
                c.frames[f] = std::string(32, variant == "patched" && (f == 2 || f == 3) ? 'b' : 'a');
        return c;
    }
    data::ResultsFile file(const std::vector<data::ImageCheck>& checks) {
        data::ResultsFile f;
        for (const auto& c : checks) EXPECT_EQ(f.add_image_check(c), "");
        return f;
    }
    std::string root;
};

TEST_F(KeptImages, FirstOkRunHoldingTheFrameGivesItsImage) {
    write("keep/main-0/frame-2.pnm", pnm(10, 10, 10));
    write("keep/main-0/frame-3.pnm", pnm(10, 10, 10));
    write("keep/patched-1/frame-2.pnm", pnm(10, 10, 250));
    write("keep/patched-1/frame-3.pnm", pnm(10, 10, 10, 3, 2));  // another size
    const auto f = file({check("main", 0, "keep/main-0"), check("main", 1, "keep/main-1"),
                         check("patched", 0, "keep/patched-0"), check("patched", 1, "keep/patched-1"),
                         check("patched", 2, "keep/patched-2", data::ExitClass::crash)});
    const auto p = image_check_pictures({f}, {root}, "main", {"patched"});
    ASSERT_TRUE(p);
    ASSERT_EQ(p->checks.comparisons.size(), 1u);
    EXPECT_EQ(p->checks.comparisons[0].outcome, ImageOutcome::differ);
    ASSERT_EQ(p->candidates.size(), 1u);
    const CandidatePictures& c = p->candidates[0];
    ASSERT_EQ(c.frames.size(), 2u);
    EXPECT_TRUE(c.gaps.empty());
    EXPECT_EQ(c.frames[0].frame, 2u);
    EXPECT_EQ(c.frames[0].baseline_file, root + "/keep/main-0/frame-2.pnm");
    EXPECT_EQ(c.frames[0].candidate_file, root + "/keep/patched-1/frame-2.pnm");
    ASSERT_TRUE(c.frames[0].difference);
    EXPECT_EQ(c.frames[0].difference->differing_pixels, 4u);
    EXPECT_EQ(c.frames[0].difference->largest_channel_difference, 240);
    EXPECT_EQ(c.frames[1].frame, 3u);
    EXPECT_FALSE(c.frames[1].difference);  // 2x2 against 3x2
    EXPECT_EQ(c.frames[1].candidate.width, 3u);
    ASSERT_EQ(p->kept_dirs.size(), 2u);
    EXPECT_EQ(p->kept_dirs[1], (std::vector<std::string>{root + "/keep/patched-0", root + "/keep/patched-1"}));
}

TEST_F(KeptImages, GapsForMissingUnreadableAndLinkedFiles) {
    write("keep/main/frame-2.pnm", pnm(1, 2, 3));
    write("keep/main/frame-3.bmp", "BM not really");
    write("keep/patched/frame-3.pnm", pnm(1, 2, 3));
    write("elsewhere/frame-2.pnm", pnm(9, 9, 9));
    fs::create_symlink(root + "/elsewhere/frame-2.pnm", root + "/keep/patched/frame-2.pnm");
    const auto f = file({check("main", 0, "keep/main"), check("main", 1, "keep/main"),
                         check("patched", 0, "keep/patched"), check("patched", 1, "keep/patched")});
    const auto p = image_check_pictures({f}, {root}, "main", {"patched"});
    ASSERT_TRUE(p);
    const CandidatePictures& c = p->candidates[0];
    EXPECT_TRUE(c.frames.empty());
    ASSERT_EQ(c.gaps.size(), 2u);
    EXPECT_EQ(c.gaps[0].frame, 2u);
    EXPECT_EQ(c.gaps[0].variant, "patched");
    EXPECT_EQ(c.gaps[0].why, PictureGap::Why::unreadable);
    EXPECT_NE(c.gaps[0].error.find("frame-2.pnm: is a symbolic link"), std::string::npos) << c.gaps[0].error;
    EXPECT_EQ(c.gaps[1].frame, 3u);
    EXPECT_EQ(c.gaps[1].variant, "main");
    EXPECT_EQ(c.gaps[1].why, PictureGap::Why::unreadable);
    EXPECT_NE(c.gaps[1].error.find("keep/main/frame-3.bmp: the BMP image is cut short"), std::string::npos)
        << c.gaps[1].error;
}

TEST_F(KeptImages, LinkedDirectoryOnTheWayIsRefusedAndNoFileIsAGap) {
    write("real/frame-2.pnm", pnm(1, 2, 3));
    fs::create_directories(root + "/keep");
    fs::create_directory_symlink(root + "/real", root + "/keep/main");
    write("keep/patched/frame-9.pnm", pnm(1, 2, 3));
    const auto f = file({check("main", 0, "keep/main"), check("main", 1, "keep/main"),
                         check("patched", 0, root + "/keep/patched"), check("patched", 1, "")});
    const auto p = image_check_pictures({f}, {root}, "main", {"patched"}, 1);
    ASSERT_TRUE(p);
    const CandidatePictures& c = p->candidates[0];
    ASSERT_EQ(c.gaps.size(), 1u);  // at most 1 frame looked at
    EXPECT_EQ(c.gaps[0].why, PictureGap::Why::unreadable);
    EXPECT_NE(c.gaps[0].error.find("'main' on the way is a symbolic link"), std::string::npos) << c.gaps[0].error;

    fs::remove(root + "/keep/main");
    write("keep/main/frame-2.pnm", pnm(1, 2, 3));
    const auto q = image_check_pictures({f}, {root}, "main", {"patched"});
    ASSERT_EQ(q->candidates[0].gaps.size(), 2u);
    EXPECT_EQ(q->candidates[0].gaps[0].why, PictureGap::Why::no_file);
    EXPECT_EQ(q->candidates[0].gaps[0].variant, "patched");
    EXPECT_EQ(q->candidates[0].gaps[0].looked_in, std::vector<std::string>{root + "/keep/patched"});
}

TEST_F(KeptImages, NothingKeptIsOneGapAndNoChecksIsNoModel) {
    const auto f = file({check("main", 0, ""), check("main", 1, ""), check("patched", 0, "keep/p"),
                         check("patched", 1, "")});
    const auto p = image_check_pictures({f}, {root}, "main", {"patched"});
    ASSERT_TRUE(p);
    ASSERT_EQ(p->candidates[0].gaps.size(), 1u);
    EXPECT_EQ(p->candidates[0].gaps[0].why, PictureGap::Why::not_kept);
    EXPECT_EQ(p->candidates[0].gaps[0].variant, "main");
    EXPECT_FALSE(image_check_pictures({data::ResultsFile()}, {root}, "main", {"patched"}));
}

TEST_F(KeptImages, OneFileAVariantTakesTheLabelsGiven) {
    // Each file's checks belong to its label, whatever variant they recorded.
    write("a/keep/frame-2.pnm", pnm(0, 0, 0));
    write("a/keep/frame-3.pnm", pnm(0, 0, 0));
    write("b/keep/frame-2.pnm", pnm(0, 5, 0));
    write("b/keep/frame-3.pnm", pnm(0, 0, 0));
    auto one = check("main", 0, "keep"), two = check("main", 1, "keep");
    const auto fa = file({one, two});
    for (auto* c : {&one, &two})
        for (auto& [frame, sum] : c->frames) sum = std::string(32, frame == 2 || frame == 3 ? 'b' : 'a');
    const auto fb = file({one, two});
    const auto p = image_check_pictures({fa, fb}, {root + "/a", root + "/b"}, "old", {"new"});
    ASSERT_TRUE(p);
    EXPECT_EQ(p->checks.comparisons[0].baseline, "old");
    EXPECT_EQ(p->checks.comparisons[0].outcome, ImageOutcome::differ);
    ASSERT_EQ(p->candidates[0].frames.size(), 2u);
    EXPECT_EQ(p->candidates[0].frames[0].difference->differing_pixels, 4u);
    EXPECT_EQ(p->candidates[0].frames[1].difference->differing_pixels, 0u);
}

}  // namespace
}  // namespace gfxstat::findings
