// SPDX-License-Identifier: MIT
// report/png_image: the checksums against their published check values,
// base64 against RFC 4648's, the PNG's chunks and the box filter. The
// PNG's compressed data is decoded by Python's zlib in the report CLI
// test (tests/cli/report_images_cli_test.py), an independent decoder, and
// read back by formats/png_read.h here.
#include "report/png_image.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "formats/png_read.h"

namespace gfxstat::report {
namespace {

uint32_t be32(const std::string& s, size_t at) {
    return uint32_t(uint8_t(s[at])) << 24 | uint32_t(uint8_t(s[at + 1])) << 16 | uint32_t(uint8_t(s[at + 2])) << 8 |
           uint8_t(s[at + 3]);
}

TEST(PngImage, ChecksumsMatchTheirCheckValues) {
    EXPECT_EQ(crc32("123456789"), 0xcbf43926u);  // CRC-32/ISO-HDLC's check value
    EXPECT_EQ(crc32(""), 0u);
    EXPECT_EQ(adler32("Wikipedia"), 0x11e60398u);
    EXPECT_EQ(adler32(""), 1u);
    // Past zlib's NMAX, where the sums must be reduced: 65536 bytes of 0xff.
    // a = 1 + 65536*255 mod 65521, b = sum over i of (1 + i*255) mod 65521.
    uint64_t a = 1, b = 0;
    for (int i = 0; i < 65536; ++i) {
        a = (a + 255) % 65521;
        b = (b + a) % 65521;
    }
    EXPECT_EQ(adler32(std::string(65536, '\xff')), uint32_t(b << 16 | a));
}

TEST(PngImage, Base64OfRfc4648Vectors) {
    EXPECT_EQ(base64(""), "");
    EXPECT_EQ(base64("f"), "Zg==");
    EXPECT_EQ(base64("fo"), "Zm8=");
    EXPECT_EQ(base64("foo"), "Zm9v");
    EXPECT_EQ(base64("foob"), "Zm9vYg==");
    EXPECT_EQ(base64("fooba"), "Zm9vYmE=");
    EXPECT_EQ(base64("foobar"), "Zm9vYmFy");
    EXPECT_EQ(base64("\xff\xfe"), "//4=");
}

TEST(PngImage, ChunksAndTheirCrcs) {
    formats::RgbImage img;
    img.width = 3;
    img.height = 2;
    img.rgb = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18};
    const std::string png = encode_png(img);
    ASSERT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    size_t at = 8;
    std::vector<std::string> types;
    while (at + 12 <= png.size()) {
        const uint32_t len = be32(png, at);
        const std::string type = png.substr(at + 4, 4);
        types.push_back(type);
        ASSERT_LE(at + 12 + len, png.size());
        EXPECT_EQ(be32(png, at + 8 + len), crc32(png.substr(at + 4, 4 + len))) << type;
        if (type == "IHDR") {
            EXPECT_EQ(len, 13u);
            EXPECT_EQ(be32(png, at + 8), 3u);
            EXPECT_EQ(be32(png, at + 12), 2u);
            EXPECT_EQ(png.substr(at + 16, 5), std::string("\x08\x02\x00\x00\x00", 5));
        }
        if (type == "IDAT") {
            const std::string z = png.substr(at + 8, len);
            EXPECT_EQ(z.substr(0, 2), "\x78\x01");
            EXPECT_EQ((uint8_t(z[0]) * 256 + uint8_t(z[1])) % 31, 0);
        }
        at += 12 + len;
    }
    EXPECT_EQ(at, png.size());
    EXPECT_EQ(types, (std::vector<std::string>{"IHDR", "IDAT", "IEND"}));
}

TEST(PngImage, RunsCompressToMatches) {
    // 64 KiB of one byte: one literal, then matches of 258 at distance 1,
    // about 15 bits each: far below the input's size.
    const std::string z = zlib_compress(std::string(65536, 'x'));
    EXPECT_LT(z.size(), 600u);
    EXPECT_EQ(be32(z, z.size() - 4), adler32(std::string(65536, 'x')));
}

TEST(PngImage, ShrinkAveragesBoxes) {
    formats::RgbImage img;
    img.width = 5;
    img.height = 3;
    for (uint32_t y = 0; y < 3; ++y)
        for (uint32_t x = 0; x < 5; ++x) img.rgb.insert(img.rgb.end(), {uint8_t(x * 10), uint8_t(y * 10), 0});
    EXPECT_EQ(shrink_to_width(img, 5), img);
    EXPECT_EQ(shrink_to_width(img, 0), img);
    const formats::RgbImage s = shrink_to_width(img, 3);  // boxes of 2x2: 3x2
    ASSERT_EQ(s.width, 3u);
    ASSERT_EQ(s.height, 2u);
    // Box (0,0): x 0,10 y 0,10 -> (5, 5); box (2,1): x 40 alone, y 20 alone.
    EXPECT_EQ(s.pixel(0, 0)[0], 5);
    EXPECT_EQ(s.pixel(0, 0)[1], 5);
    EXPECT_EQ(s.pixel(2, 1)[0], 40);
    EXPECT_EQ(s.pixel(2, 1)[1], 20);
    EXPECT_EQ(shrink_to_width(img, 2).width, 2u);  // boxes of 3
    // A marked pixel marks its box.
    const uint8_t magenta[3] = {255, 0, 255};
    img.rgb[(1 * 5 + 4) * 3 + 0] = 255;  // pixel (4, 1)
    img.rgb[(1 * 5 + 4) * 3 + 1] = 0;
    img.rgb[(1 * 5 + 4) * 3 + 2] = 255;
    const formats::RgbImage m = shrink_to_width(img, 3, magenta);
    EXPECT_EQ(std::vector<uint8_t>(m.pixel(2, 0), m.pixel(2, 0) + 3), std::vector<uint8_t>(magenta, magenta + 3));
    EXPECT_EQ(m.pixel(0, 0)[0], 5);
    const formats::RgbImage averaged = shrink_to_width(img, 3);  // without the marker: (40+255)/2, 0, (0+255)/2
    EXPECT_EQ(std::vector<uint8_t>(averaged.pixel(2, 0), averaged.pixel(2, 0) + 3), (std::vector<uint8_t>{148, 0, 128}));
}

// The writer read back by formats/png_read.h: every filter the writer
// picks, LZ77 matches and literals, the same pixels out as in.
TEST(PngImage, ReadBackByThePngReader) {
    formats::RgbImage img;
    img.width = 97;
    img.height = 41;
    for (uint32_t y = 0; y < img.height; ++y)
        for (uint32_t x = 0; x < img.width; ++x)
            img.rgb.insert(img.rgb.end(), {uint8_t(x * 3 + y), uint8_t(y < 20 ? 7 : (x * x + y) & 255),
                                           uint8_t((x / 8 + y / 8) % 2 ? 255 : 0)});
    EXPECT_EQ(formats::parse_png(encode_png(img), "written"), img);
    formats::RgbImage one;
    one.width = one.height = 1;
    one.rgb = {1, 2, 3};
    EXPECT_EQ(formats::parse_frame_image(encode_png(one), "written"), one);
}

}  // namespace
}  // namespace gfxstat::report
