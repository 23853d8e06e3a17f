// SPDX-License-Identifier: MIT
// formats/png_read and formats/zlib_inflate: PNG files written by an
// independent encoder (tests/data/images/png/make_pngs.py, Python's zlib)
// in every colour type and filter, a real glretrace snapshot, and every
// malformed file refused with an error naming it.
#include "formats/png_read.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "data/digest.h"
#include "data/input_error.h"
#include "formats/frame_images.h"
#include "formats/zlib_inflate.h"

namespace gfxstat::formats {
namespace {

std::string slurp(const std::string& rel) {
    std::ifstream f(std::string(GFXSTAT_SOURCE_DIR) + "/tests/data/images/" + rel, std::ios::binary);
    EXPECT_TRUE(f) << rel;
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

// make_pngs.py's pixel formula.
struct Rgba {
    unsigned r, g, b, a;
};
Rgba expected(unsigned x, unsigned y) {
    return {(x * 37 + y * 11) & 255, (x * y * 5 + 3) & 255, (255 - x * 13 + y * 7) & 255, (x + y * 29) & 255};
}

void expect_formula(const RgbImage& img, int colour_type, uint32_t w, uint32_t h, const std::string& name) {
    ASSERT_EQ(img.width, w) << name;
    ASSERT_EQ(img.height, h) << name;
    ASSERT_EQ(img.rgb.size(), size_t(w) * h * 3) << name;
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
            const Rgba e = expected(x, y);
            unsigned r = e.r, g = e.g, b = e.b;
            if (colour_type == 0 || colour_type == 4) g = b = r;
            if (colour_type == 3) {
                const unsigned i = (x + 3 * y) % 11;
                r = (i * 23) & 255;
                g = (255 - i * 17) & 255;
                b = (i * i) & 255;
            }
            const uint8_t* p = img.pixel(x, y);
            ASSERT_EQ(p[0], r) << name << " at " << x << "," << y;
            ASSERT_EQ(p[1], g) << name << " at " << x << "," << y;
            ASSERT_EQ(p[2], b) << name << " at " << x << "," << y;
        }
}

std::string be32(uint32_t v) {
    std::string s;
    for (int i = 3; i >= 0; --i) s += char((v >> (8 * i)) & 0xff);
    return s;
}
std::string chunk(const std::string& type, const std::string& data) {
    return be32(uint32_t(data.size())) + type + data + be32(data::crc32(type + data));
}
const std::string kSignature("\x89PNG\r\n\x1a\n", 8);
std::string ihdr(uint32_t w, uint32_t h, int depth, int colour_type, int interlace = 0) {
    return chunk("IHDR", be32(w) + be32(h) + char(depth) + char(colour_type) + '\0' + '\0' + char(interlace));
}
// A zlib stream of `raw` in one stored block, Adler-32 `adler`.
std::string stored_zlib(const std::string& raw, uint32_t adler) {
    std::string z("\x78\x01\x01", 3);
    z += char(raw.size() & 0xff);
    z += char(raw.size() >> 8);
    z += char(~raw.size() & 0xff);
    z += char((~raw.size() >> 8) & 0xff);
    return z + raw + be32(adler);
}
std::string stored_zlib(const std::string& raw) { return stored_zlib(raw, data::adler32(raw)); }

// The error parse_png gives, or "" when it reads the file.
std::string png_error(const std::string& bytes) {
    try {
        parse_png(bytes, "kept/frame-3.png");
    } catch (const data::InputError& e) {
        return e.what();
    }
    return "";
}
std::string inflate_error(const std::string& z, size_t cap = 1 << 20) {
    try {
        zlib_inflate(z, cap, "z");
    } catch (const data::InputError& e) {
        return e.what();
    }
    return "";
}

TEST(PngRead, EveryColourTypeAndFilterFromAnIndependentEncoder) {
    for (const int ct : {0, 2, 3, 4, 6}) {
        const std::string name = "png/type" + std::to_string(ct) + "-8.png";
        expect_formula(parse_png(slurp(name), name), ct, 7, 10, name);
    }
    for (const int ct : {0, 2}) {
        const std::string name = "png/type" + std::to_string(ct) + "-16.png";
        expect_formula(parse_png(slurp(name), name), ct, 7, 10, name);
    }
    for (const int ct : {4, 6}) {
        const std::string name = "png/type" + std::to_string(ct) + "-16.png";
        expect_formula(parse_png(slurp(name), name), ct, 5, 5, name);
    }
}

TEST(PngRead, StoredFixedAndDynamicBlocksSplitIdatAndAncillaryChunks) {
    // stored.png: level 0 (stored blocks), three IDAT chunks, a tEXt chunk;
    // dynamic.png: dynamic Huffman codes, four IDAT chunks.
    expect_formula(parse_png(slurp("png/stored.png"), "stored"), 2, 9, 6, "stored");
    expect_formula(parse_png(slurp("png/dynamic.png"), "dynamic"), 6, 61, 47, "dynamic");
    // parse_frame_image knows PNG by its signature.
    expect_formula(parse_frame_image(slurp("png/type2-8.png"), "t"), 2, 7, 10, "by signature");
}

TEST(PngRead, ARealGlretraceSnapshot) {
    // Pixels from Python's own decode: make_pngs.py --pixels FILE X,Y...
    const RgbImage img = parse_frame_image(slurp("apitrace/glretrace-gears-call-1370.png"), "glretrace");
    ASSERT_EQ(img.width, 64u);
    ASSERT_EQ(img.height, 64u);
    const struct {
        uint32_t x, y;
        uint8_t r, g, b;
    } want[] = {{0, 0, 15, 0, 0}, {32, 32, 240, 137, 63}, {10, 50, 193, 24, 0}, {50, 10, 0, 0, 136}, {63, 63, 107, 2, 224}};
    for (const auto& w : want) {
        const uint8_t* p = img.pixel(w.x, w.y);
        EXPECT_EQ(p[0], w.r) << w.x << "," << w.y;
        EXPECT_EQ(p[1], w.g) << w.x << "," << w.y;
        EXPECT_EQ(p[2], w.b) << w.x << "," << w.y;
    }
}

TEST(PngRead, CorruptFilesAreRefusedNamingTheFile) {
    const std::string good = slurp("png/type2-8.png");
    ASSERT_EQ(png_error(good), "");
    // A CRC byte of IHDR flipped (IHDR's CRC: bytes 29..32).
    std::string bad_crc = good;
    bad_crc[30] = char(bad_crc[30] ^ 1);
    EXPECT_EQ(png_error(bad_crc), "kept/frame-3.png: the PNG image's \"IHDR\" chunk fails its CRC-32");
    // Cut within the IDAT chunk.
    EXPECT_EQ(png_error(good.substr(0, 33 + 20)), "kept/frame-3.png: the PNG image is cut short within its \"IDAT\" chunk");
    EXPECT_EQ(png_error(good.substr(0, good.size() - 12)), "kept/frame-3.png: the PNG image is cut short: no IEND chunk");
    EXPECT_NE(png_error("GIF89a"), "");
    EXPECT_NE(png_error(kSignature.substr(0, 7)).find("not a PNG image"), std::string::npos);

    // 2x1 RGB: filter byte and 6 bytes a row.
    const std::string raw("\0\1\2\3\4\5\6", 7);
    const std::string end = chunk("IEND", "");
    ASSERT_EQ(png_error(kSignature + ihdr(2, 1, 8, 2) + chunk("IDAT", stored_zlib(raw)) + end), "");
    // IDAT whose zlib stream is cut short (CRC right, the stream not).
    const std::string z = stored_zlib(raw);
    EXPECT_EQ(png_error(kSignature + ihdr(2, 1, 8, 2) + chunk("IDAT", z.substr(0, z.size() - 6)) + end),
              "kept/frame-3.png: the deflate stream is cut short in a stored block");
    // The image data one byte short.
    EXPECT_NE(png_error(kSignature + ihdr(2, 1, 8, 2) + chunk("IDAT", stored_zlib(raw.substr(0, 6))) + end)
                  .find("the PNG image's data is cut short: 2x1 pixels need 7 bytes inflated, 6 are there"),
              std::string::npos);
    // Wrong Adler-32.
    EXPECT_EQ(png_error(kSignature + ihdr(2, 1, 8, 2) + chunk("IDAT", stored_zlib(raw, data::adler32(raw) + 1)) + end),
              "kept/frame-3.png: the zlib stream's Adler-32 does not match its data");
    // More data than the IHDR implies: the inflate stops at the cap.
    EXPECT_EQ(png_error(kSignature + ihdr(2, 1, 8, 2) + chunk("IDAT", stored_zlib(raw + "x")) + end),
              "kept/frame-3.png: the image data inflates to more than the 7 bytes the image can hold");
    // Oversized and empty sides.
    EXPECT_EQ(png_error(kSignature + ihdr(16385, 1, 8, 2) + end),
              "kept/frame-3.png: a PNG image of 16385x1 pixels: larger than gfxstat reads (at most 16384 a side)");
    EXPECT_NE(png_error(kSignature + ihdr(0, 1, 8, 2) + end).find("holds nothing"), std::string::npos);
    // Refused by name: interlaced, other depths, palettes of 16 bits.
    EXPECT_EQ(png_error(kSignature + ihdr(2, 1, 8, 2, 1) + end),
              "kept/frame-3.png: an interlaced (Adam7) PNG image: gfxstat reads non-interlaced ones");
    EXPECT_NE(png_error(kSignature + ihdr(2, 1, 4, 0) + end).find("bit depth 4"), std::string::npos);
    EXPECT_NE(png_error(kSignature + ihdr(2, 1, 16, 3) + end).find("bit depth 16 (colour type 3)"), std::string::npos);
    EXPECT_NE(png_error(kSignature + ihdr(2, 1, 8, 5) + end).find("colour type 5"), std::string::npos);
    // A filter PNG does not have; a palette entry past the palette; no palette.
    EXPECT_NE(png_error(kSignature + ihdr(2, 1, 8, 2) + chunk("IDAT", stored_zlib("\5" + raw.substr(1))) + end)
                  .find("names filter 5"),
              std::string::npos);
    const std::string pal_raw("\0\0\2", 3);
    EXPECT_NE(png_error(kSignature + ihdr(2, 1, 8, 3) + chunk("PLTE", std::string(6, 'a')) +
                        chunk("IDAT", stored_zlib(pal_raw)) + end)
                  .find("names palette entry 2 of 2"),
              std::string::npos);
    EXPECT_NE(png_error(kSignature + ihdr(2, 1, 8, 3) + chunk("IDAT", stored_zlib(pal_raw)) + end).find("without a PLTE"),
              std::string::npos);
    // An unknown critical chunk, a chunk length past 2^31.
    EXPECT_NE(png_error(kSignature + ihdr(2, 1, 8, 2) + chunk("ABCD", "") + end).find("critical chunk \"ABCD\""),
              std::string::npos);
    EXPECT_NE(png_error(kSignature + ihdr(2, 1, 8, 2) + be32(0x80000000u) + "IDAT").find("length over 2^31"),
              std::string::npos);
}

// Bits into bytes, least significant first, as deflate packs them.
class Bits {
public:
    void put(uint32_t v, int n) {
        for (int i = 0; i < n; ++i) {
            if (count_ % 8 == 0) s_ += '\0';
            s_.back() = char(uint8_t(s_.back()) | (((v >> i) & 1u) << (count_ % 8)));
            ++count_;
        }
    }
    // A Huffman code: most significant bit first.
    void put_code(uint32_t code, int n) {
        for (int i = n - 1; i >= 0; --i) put((code >> i) & 1u, 1);
    }
    std::string zlib() const { return std::string("\x78\x01", 2) + s_ + be32(1); }

private:
    std::string s_;
    int count_ = 0;
};

TEST(ZlibInflate, BadHuffmanTablesAreRefused) {
    {  // Code-length code: four codes of one bit (over-subscribed).
        Bits b;
        b.put(1, 1), b.put(2, 2), b.put(0, 5), b.put(0, 5), b.put(0, 4);
        for (int i = 0; i < 4; ++i) b.put(1, 3);
        EXPECT_EQ(inflate_error(b.zlib()), "z: a dynamic deflate block's code-length code is over-subscribed");
    }
    {  // Code-length code: one code of one bit (incomplete).
        Bits b;
        b.put(1, 1), b.put(2, 2), b.put(0, 5), b.put(0, 5), b.put(0, 4);
        b.put(1, 3), b.put(0, 3), b.put(0, 3), b.put(0, 3);
        EXPECT_EQ(inflate_error(b.zlib()), "z: a dynamic deflate block's code-length code is incomplete");
    }
    // Code-length code: symbols 0 and 8 of one bit each (HCLEN 1: 16, 17,
    // 18, 0, 8), so each literal/length code length costs one bit: '0'
    // length 0, '1' length 8.
    auto header = [](Bits& b) {
        b.put(1, 1), b.put(2, 2), b.put(0, 5), b.put(0, 5), b.put(1, 4);
        b.put(0, 3), b.put(0, 3), b.put(0, 3), b.put(1, 3), b.put(1, 3);
    };
    {  // 257 literal/length codes of 8 bits: over-subscribed.
        Bits b;
        header(b);
        for (int i = 0; i < 257; ++i) b.put(1, 1);
        b.put(0, 1);  // the one distance code: unused
        EXPECT_EQ(inflate_error(b.zlib()), "z: a dynamic deflate block's literal/length code is over-subscribed");
    }
    {  // Three literal/length codes of 8 bits: incomplete.
        Bits b;
        header(b);
        for (int i = 0; i < 257; ++i) b.put(i == 65 || i == 66 || i == 256 ? 1 : 0, 1);
        b.put(0, 1);
        EXPECT_EQ(inflate_error(b.zlib()), "z: a dynamic deflate block's literal/length code is incomplete");
    }
    {  // No end-of-block code.
        Bits b;
        header(b);
        for (int i = 0; i < 257; ++i) b.put(i < 256 ? 1 : 0, 1);
        b.put(0, 1);
        EXPECT_EQ(inflate_error(b.zlib()), "z: a dynamic deflate block has no end-of-block code");
    }
}

TEST(ZlibInflate, HeadersBlocksAndTheCap) {
    EXPECT_EQ(zlib_inflate(stored_zlib("hello"), 5, "z"), "hello");
    EXPECT_EQ(inflate_error(stored_zlib("hello"), 4), "z: the image data inflates to more than the 4 bytes the image can hold");
    EXPECT_NE(inflate_error(std::string("\x78\x02", 2)).find("fails its check"), std::string::npos);
    EXPECT_NE(inflate_error(std::string("\x79\x01", 2)).find("names no deflate stream"), std::string::npos);
    EXPECT_NE(inflate_error(std::string("\x78\x20", 2)).find("preset dictionary"), std::string::npos);
    std::string nlen = stored_zlib("hello");
    nlen[5] = char(nlen[5] ^ 1);
    EXPECT_EQ(inflate_error(nlen), "z: a stored deflate block's length fails its check");
    Bits reserved;
    reserved.put(1, 1), reserved.put(3, 2);
    EXPECT_EQ(inflate_error(reserved.zlib()), "z: the deflate stream has a block of the reserved type 3");
    // Fixed codes: literal 'a', then length 3 at distance 2, one byte
    // after the start: refused. Then the same at distance 1: "aaaa".
    auto back = [](uint32_t dist_code) {
        Bits b;
        b.put(1, 1), b.put(1, 2);
        b.put_code(0x30 + 'a', 8);
        b.put_code(1, 7);  // symbol 257: length 3
        b.put_code(dist_code, 5);
        b.put_code(0, 7);  // symbol 256: the end
        return b;
    };
    EXPECT_EQ(inflate_error(back(1).zlib()), "z: the deflate stream refers back before its first byte");
    const std::string aaaa = back(0).zlib();
    EXPECT_EQ(inflate_error(aaaa), "z: the zlib stream's Adler-32 does not match its data");  // Bits writes 1
    EXPECT_EQ(zlib_inflate(aaaa.substr(0, aaaa.size() - 4) + be32(data::adler32("aaaa")), 4, "z"), "aaaa");
}

}  // namespace
}  // namespace gfxstat::formats
