// SPDX-License-Identifier: MIT
// formats/frame_images: the replayers' frame images (PNM as glretrace
// writes it, BMP as gfxrecon-replay writes it) read into RGB, and every
// malformed or unsupported file refused with an error naming it.
#include "formats/frame_images.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "data/input_error.h"

namespace gfxstat::formats {
namespace {

std::string le32(uint32_t v) {
    std::string s;
    for (int i = 0; i < 4; ++i) s += char((v >> (8 * i)) & 0xff);
    return s;
}
std::string le16(uint32_t v) { return le32(v).substr(0, 2); }

// A BMP of `w` x `h` (negative: top-down) pixels of `bits` bits, pixel
// (x, y) of the picture (y from the top) = (r, g, b) = (x*10, y*20, 7).
std::string bmp(int32_t w, int32_t h, int bits, uint32_t compression = 0, bool masks = false) {
    const uint32_t bpp = uint32_t(bits) / 8, stride = (uint32_t(w) * bpp + 3) / 4 * 4;
    const uint32_t rows = uint32_t(h < 0 ? -h : h);
    const uint32_t offset = 14 + 40 + (masks ? 12 : 0);
    std::string s = "BM" + le32(offset + stride * rows) + le32(0) + le32(offset);
    s += le32(40) + le32(uint32_t(w)) + le32(uint32_t(h)) + le16(1) + le16(uint32_t(bits)) + le32(compression) +
         le32(stride * rows) + le32(2835) + le32(2835) + le32(0) + le32(0);
    if (masks) s += le32(0x00ff0000) + le32(0x0000ff00) + le32(0x000000ff);
    for (uint32_t r = 0; r < rows; ++r) {
        const uint32_t y = h < 0 ? r : rows - 1 - r;  // bottom-up: the last row first
        std::string row;
        for (int32_t x = 0; x < w; ++x) {
            row += char(7);
            row += char(y * 20);
            row += char(x * 10);
            if (bpp == 4) row += char(0xff);
        }
        row.resize(stride, '\0');
        s += row;
    }
    return s;
}

void expect_pattern(const RgbImage& img, uint32_t w, uint32_t h) {
    ASSERT_EQ(img.width, w);
    ASSERT_EQ(img.height, h);
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
            EXPECT_EQ(img.pixel(x, y)[0], uint8_t(x * 10)) << x << "," << y;
            EXPECT_EQ(img.pixel(x, y)[1], uint8_t(y * 20)) << x << "," << y;
            EXPECT_EQ(img.pixel(x, y)[2], 7) << x << "," << y;
        }
}

std::string error_of(const std::string& bytes) {
    try {
        parse_frame_image(bytes, "keep/frame-3.x");
    } catch (const data::InputError& e) {
        return e.what();
    }
    return "";
}

TEST(FrameImages, PnmP6WithComments) {
    std::string raster;
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 3; ++x) raster += {char(x * 10), char(y * 20), char(7)};
    const RgbImage img = parse_frame_image("P6\n# glretrace\n3 2\n255\n" + raster, "f.pnm");
    expect_pattern(img, 3, 2);
}

TEST(FrameImages, PnmP5IsGrey) {
    const RgbImage img = parse_pnm(std::string("P5 2 1 255\n") + char(9) + char(200), "g.pnm");
    ASSERT_EQ(img.rgb.size(), 6u);
    EXPECT_EQ(img.rgb, (std::vector<uint8_t>{9, 9, 9, 200, 200, 200}));
}

TEST(FrameImages, BmpBottomUpAndTopDown24And32) {
    expect_pattern(parse_frame_image(bmp(3, 2, 24), "a.bmp"), 3, 2);  // rows padded to 12 bytes
    expect_pattern(parse_frame_image(bmp(5, 3, 32), "b.bmp"), 5, 3);
    expect_pattern(parse_frame_image(bmp(5, -3, 24), "c.bmp"), 5, 3);
    expect_pattern(parse_frame_image(bmp(2, 2, 32, 3, true), "d.bmp"), 2, 2);  // BI_BITFIELDS, BGRA masks
}

TEST(FrameImages, RefusalsNameTheFileAndTheReason) {
    EXPECT_EQ(error_of("GIF89a"), "keep/frame-3.x: neither a PNM, a BMP nor a PNG image");
    EXPECT_NE(error_of("P3\n1 1\n255\n0 0 0\n").find("P3: gfxstat reads binary P6"), std::string::npos);
    EXPECT_NE(error_of("P6\n2 2\n65535\n").find("maximum value 65535"), std::string::npos);
    EXPECT_NE(error_of("P6\n2 2\n255\nabc").find("cut short"), std::string::npos);
    EXPECT_NE(error_of("P6\n2 2\n255").find("does not end in whitespace"), std::string::npos);
    EXPECT_NE(error_of("P6\n20000 2\n255\n").find("at most 16384 a side"), std::string::npos);
    EXPECT_NE(error_of("P6\n99999999999 2\n255\n").find("too large"), std::string::npos);
    EXPECT_NE(error_of("P6\n0 2\n255\n").find("holds nothing"), std::string::npos);
    EXPECT_NE(error_of("P6\n# only a comment").find("expected the width"), std::string::npos);
    EXPECT_NE(error_of(bmp(3, 2, 8)).find("8 bits a pixel"), std::string::npos);
    EXPECT_NE(error_of(bmp(3, 2, 24, 1)).find("compressed BMP image (compression 1)"), std::string::npos);
    EXPECT_NE(error_of(bmp(3, 20000, 24)).find("at most 16384"), std::string::npos);
    EXPECT_NE(error_of(bmp(3, 2, 24).substr(0, 60)).find("cut short"), std::string::npos);
    EXPECT_NE(error_of("BM" + std::string(20, '\0')).find("cut short within its headers"), std::string::npos);
    std::string odd_masks = bmp(2, 2, 32, 3, true);
    odd_masks[54] = char(0x0f);
    EXPECT_NE(error_of(odd_masks).find("not 8-bit BGR(A)"), std::string::npos);
    std::string far_offset = bmp(2, 2, 24);
    far_offset[10] = char(0xff);
    far_offset[13] = char(0x7f);
    EXPECT_NE(error_of(far_offset).find("cut short"), std::string::npos);
}

}  // namespace
}  // namespace gfxstat::formats
