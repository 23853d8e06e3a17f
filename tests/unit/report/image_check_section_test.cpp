// SPDX-License-Identifier: MIT
// report/image_check_section: the "Image checks" section of gfxstat
// report's page: verdict lines and notes, three pictures a differing frame
// (two when the sizes differ), wide pictures shrunk, and past the byte cap
// a note naming the frame and its files instead of its pictures.
#include "report/image_check_section.h"

#include <gtest/gtest.h>

#include <string>

#include "report/html_report.h"

namespace gfxstat::report {
namespace {

using findings::FramePicture;
using formats::RgbImage;

RgbImage noise(uint32_t w, uint32_t h, uint32_t seed) {
    RgbImage img;
    img.width = w;
    img.height = h;
    uint32_t x = seed;
    for (uint32_t i = 0; i < w * h * 3; ++i) {
        x = x * 1664525u + 1013904223u;  // noise compresses badly: bytes are what the cap counts
        img.rgb.push_back(uint8_t(x >> 24));
    }
    return img;
}

data::ImageCheck check(const std::string& variant, uint64_t index, char sum) {
    data::ImageCheck c;
    c.variant = variant;
    c.check = index;
    c.method = "md5";
    for (uint64_t f = 1; f <= 3; ++f) c.frames[f] = std::string(32, f == 1 ? 'a' : sum);
    return c;
}

findings::ImageCheckPictures pictures(uint32_t width) {
    findings::ImageCheckPictures p;
    p.checks = findings::check_images({"main", {check("main", 0, 'a'), check("main", 1, 'a')}},
                                      {{"pat<ch>", {check("pat<ch>", 0, 'b'), check("pat<ch>", 1, 'b')}}});
    findings::CandidatePictures c;
    for (uint64_t f : {2, 3}) {
        FramePicture fp;
        fp.frame = f;
        fp.baseline_file = "keep/main/frame-" + std::to_string(f) + ".pnm";
        fp.candidate_file = "keep/pat<ch>/frame-" + std::to_string(f) + ".pnm";
        fp.baseline = noise(width, 8, uint32_t(f));
        fp.candidate = noise(f == 3 ? width + 1 : width, 8, uint32_t(f) + 7);
        if (f == 2) fp.difference = findings::image_difference(fp.baseline, fp.candidate);
        c.frames.push_back(std::move(fp));
    }
    findings::PictureGap gap;
    gap.why = findings::PictureGap::Why::no_file;
    gap.frame = 9;
    gap.variant = "main";
    gap.looked_in = {"keep/main"};
    c.gaps.push_back(gap);
    p.candidates.push_back(std::move(c));
    return p;
}

size_t count(const std::string& hay, const std::string& needle) {
    size_t n = 0;
    for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
    return n;
}

TEST(ImageCheckSection, VerdictNotesAndThreePicturesADifferingFrame) {
    const HtmlSection s = image_check_section(pictures(16));
    EXPECT_EQ(s.id, "images");
    EXPECT_EQ(s.title, "Image checks");
    ASSERT_EQ(s.picture_groups.size(), 1u);
    const HtmlPictureGroup& g = s.picture_groups[0];
    EXPECT_EQ(g.heading, "pat<ch> against main");
    EXPECT_EQ(g.paragraphs.at(0), "pat<ch> vs main: renders differently: 2 of 3 frames (first: 2)");
    ASSERT_EQ(g.rows.size(), 2u);
    ASSERT_EQ(g.rows[0].pictures.size(), 3u);
    EXPECT_EQ(g.rows[0].pictures[2].caption, "difference");
    EXPECT_EQ(g.rows[0].pictures[0].caption, "main: keep/main/frame-2.pnm");
    EXPECT_EQ(g.rows[0].pictures[0].width, 16u);
    EXPECT_NE(g.rows[0].caption.find("Frame 2: "), std::string::npos);
    EXPECT_NE(g.rows[0].caption.find(" of 128 pixels differ"), std::string::npos) << g.rows[0].caption;
    ASSERT_EQ(g.rows[1].pictures.size(), 2u);  // sizes differ: no difference image
    EXPECT_EQ(g.rows[1].caption,
              "Frame 3: the images differ in size (16x8 in main, 17x8 in pat<ch>): no difference image.");
    EXPECT_EQ(g.notes, std::vector<std::string>{"Frame 9: no kept image of main (looked in keep/main)."});

    // The page escapes every name and embeds PNG data URIs.
    HtmlPage page;
    page.title = "t";
    page.sections.push_back(s);
    const std::string html = render_html(page);
    EXPECT_EQ(count(html, "src=\"data:image/png;base64,iVBORw0KGgo"), 5u);
    EXPECT_EQ(count(html, "pat<ch>"), 0u);
    EXPECT_GT(count(html, "pat&lt;ch&gt;"), 3u);
    EXPECT_NE(html.find(".gs-pictures"), std::string::npos);
    // A page without pictures keeps its styles as they were.
    HtmlPage plain;
    plain.title = "t";
    EXPECT_EQ(render_html(plain).find(".gs-pictures"), std::string::npos);
}

TEST(ImageCheckSection, WidePicturesAreShrunk) {
    const HtmlSection s = image_check_section(pictures(40), {16, 6'000'000});
    const auto& row = s.picture_groups.at(0).rows.at(0);
    EXPECT_EQ(row.pictures[0].width, 14u);  // boxes of 3: 40 -> 14
    EXPECT_EQ(row.pictures[0].height, 3u);
    EXPECT_NE(row.caption.find("Shown shrunk to fit the page"), std::string::npos);
}

TEST(ImageCheckSection, FramesPastTheCapAreNamedNotShown) {
    // Each picture of noise is about 16*8*3 = 384 bytes of PNG data, 512 in base64:
    // the first frame's three fit in 2000 bytes, the second's two do not.
    const HtmlSection s = image_check_section(pictures(16), {512, 2000});
    const HtmlPictureGroup& g = s.picture_groups.at(0);
    ASSERT_EQ(g.rows.size(), 1u);
    ASSERT_EQ(g.notes.size(), 2u);
    EXPECT_EQ(g.notes[0],
              "Frame 3 is not shown: the page holds at most 2 kB of pictures. Its images are "
              "keep/main/frame-3.pnm (main) and keep/pat<ch>/frame-3.pnm (pat<ch>).");
    const HtmlSection none = image_check_section(pictures(16), {512, 100});
    EXPECT_TRUE(none.picture_groups.at(0).rows.empty());
    EXPECT_EQ(none.picture_groups.at(0).notes.size(), 3u);
}

}  // namespace
}  // namespace gfxstat::report
