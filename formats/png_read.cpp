// SPDX-License-Identifier: MIT
// PNG's grammar (ISO/IEC 15948): chunks, IHDR, PLTE, the row filters and
// the colour types, each size checked before it is used.
#include "formats/png_read.h"

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "data/digest.h"
#include "data/input_error.h"
#include "formats/zlib_inflate.h"

namespace gfxstat::formats {

namespace {

[[noreturn]] void refuse(const std::string& shown, const std::string& what) {
    throw data::InputError(shown + ": " + what);
}

uint32_t be32(std::string_view b, size_t at) {
    return uint32_t(uint8_t(b[at])) << 24 | uint32_t(uint8_t(b[at + 1])) << 16 | uint32_t(uint8_t(b[at + 2])) << 8 |
           uint32_t(uint8_t(b[at + 3]));
}

// A chunk type as it may be printed: four ASCII letters, or "?".
std::string type_name(std::string_view t) {
    for (const char c : t)
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) return "?";
    return "\"" + std::string(t) + "\"";
}

std::string sides(uint64_t w, uint64_t h) { return std::to_string(w) + "x" + std::to_string(h); }

// Channels of each colour type; 0 for a type PNG does not have.
unsigned channels_of(unsigned colour_type) {
    switch (colour_type) {
    case 0: return 1;
    case 2: return 3;
    case 3: return 1;
    case 4: return 2;
    case 6: return 4;
    default: return 0;
    }
}

uint8_t paeth(int a, int b, int c) {
    const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
    if (pa <= pb && pa <= pc) return uint8_t(a);
    return uint8_t(pb <= pc ? b : c);
}

struct Header {
    uint32_t width = 0, height = 0;
    unsigned depth = 0, colour_type = 0;
};

Header read_ihdr(std::string_view d, const std::string& shown) {
    if (d.size() != 13) refuse(shown, "the PNG image's IHDR chunk holds " + std::to_string(d.size()) + " bytes, not 13");
    Header h;
    const uint64_t w = be32(d, 0), ht = be32(d, 4);
    h.depth = uint8_t(d[8]);
    h.colour_type = uint8_t(d[9]);
    const unsigned compression = uint8_t(d[10]), filter = uint8_t(d[11]), interlace = uint8_t(d[12]);
    if (w == 0 || ht == 0) refuse(shown, "a PNG image of " + sides(w, ht) + " pixels holds nothing");
    if (w > kMaxFrameImageSide || ht > kMaxFrameImageSide)
        refuse(shown, "a PNG image of " + sides(w, ht) + " pixels: larger than gfxstat reads (at most " +
                          std::to_string(kMaxFrameImageSide) + " a side)");
    if (channels_of(h.colour_type) == 0)
        refuse(shown, "a PNG image of colour type " + std::to_string(h.colour_type) + ", which PNG does not have");
    const bool sixteen_ok = h.colour_type != 3;
    if (h.depth != 8 && !(h.depth == 16 && sixteen_ok))
        refuse(shown, "a PNG image of bit depth " + std::to_string(h.depth) + " (colour type " +
                          std::to_string(h.colour_type) + "): gfxstat reads 8-bit ones, and 16-bit ones but for palettes");
    if (compression != 0 || filter != 0)
        refuse(shown, "a PNG image with compression method " + std::to_string(compression) + " and filter method " +
                          std::to_string(filter) + " (PNG has 0 and 0 only)");
    if (interlace == 1) refuse(shown, "an interlaced (Adam7) PNG image: gfxstat reads non-interlaced ones");
    if (interlace != 0) refuse(shown, "a PNG image of interlace method " + std::to_string(interlace) + ", which PNG does not have");
    h.width = uint32_t(w);
    h.height = uint32_t(ht);
    return h;
}

}  // namespace

RgbImage parse_png(std::string_view b, const std::string& shown) {
    static constexpr std::string_view kSignature("\x89PNG\r\n\x1a\n", 8);
    if (b.substr(0, 8) != kSignature) refuse(shown, "not a PNG image (no PNG signature)");
    size_t at = 8;
    Header h;
    bool have_header = false, have_end = false;
    std::string palette, idat;
    while (!have_end) {
        if (b.size() - at < 8) refuse(shown, "the PNG image is cut short: no IEND chunk");
        const uint32_t len = be32(b, at);
        const std::string_view type = b.substr(at + 4, 4);
        if (len > 0x7fffffffu) refuse(shown, "the PNG image's " + type_name(type) + " chunk claims a length over 2^31");
        if (b.size() - at - 8 < uint64_t(len) + 4)
            refuse(shown, "the PNG image is cut short within its " + type_name(type) + " chunk");
        const std::string_view data = b.substr(at + 8, len);
        if (data::crc32(b.substr(at + 4, 4 + size_t(len))) != be32(b, at + 8 + len))
            refuse(shown, "the PNG image's " + type_name(type) + " chunk fails its CRC-32");
        at += 12 + size_t(len);
        if (!have_header) {
            if (type != "IHDR") refuse(shown, "the PNG image does not start with an IHDR chunk");
            h = read_ihdr(data, shown);
            have_header = true;
        } else if (type == "IHDR") {
            refuse(shown, "the PNG image has a second IHDR chunk");
        } else if (type == "PLTE") {
            if (len == 0 || len % 3 != 0 || len > 256 * 3)
                refuse(shown, "the PNG image's palette holds " + std::to_string(len) + " bytes (1 to 256 entries of 3)");
            palette.assign(data);
        } else if (type == "IDAT") {
            idat.append(data);
        } else if (type == "IEND") {
            have_end = true;
        } else if (type[0] >= 'A' && type[0] <= 'Z') {
            refuse(shown, "the PNG image has a critical chunk " + type_name(type) + " that gfxstat does not know");
        }
    }
    if (h.colour_type == 3 && palette.empty()) refuse(shown, "a palette PNG image without a PLTE chunk");
    if (idat.empty()) refuse(shown, "the PNG image has no IDAT chunk");

    const size_t channels = channels_of(h.colour_type), bytes_per_sample = h.depth / 8;
    const size_t bpp = channels * bytes_per_sample;  // bytes a pixel, the filters' step
    const size_t stride = size_t(h.width) * bpp;
    const size_t expected = (stride + 1) * h.height;
    const std::string raw = zlib_inflate(idat, expected, shown);
    if (raw.size() != expected)
        refuse(shown, "the PNG image's data is cut short: " + sides(h.width, h.height) + " pixels need " +
                          std::to_string(expected) + " bytes inflated, " + std::to_string(raw.size()) + " are there");

    std::vector<uint8_t> prev(stride, 0), row(stride);
    RgbImage img;
    img.width = h.width;
    img.height = h.height;
    img.rgb.resize(size_t(h.width) * h.height * 3);
    const size_t entries = palette.size() / 3;
    for (uint32_t y = 0; y < h.height; ++y) {
        const auto* src = reinterpret_cast<const uint8_t*>(raw.data()) + size_t(y) * (stride + 1);
        const unsigned filter = src[0];
        ++src;
        for (size_t i = 0; i < stride; ++i) {
            const int a = i >= bpp ? row[i - bpp] : 0, up = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
            switch (filter) {
            case 0: row[i] = src[i]; break;
            case 1: row[i] = uint8_t(src[i] + a); break;
            case 2: row[i] = uint8_t(src[i] + up); break;
            case 3: row[i] = uint8_t(src[i] + (a + up) / 2); break;
            case 4: row[i] = uint8_t(src[i] + paeth(a, up, c)); break;
            default:
                refuse(shown, "the PNG image's row " + std::to_string(y) + " names filter " + std::to_string(filter) +
                                  " (PNG has 0 to 4)");
            }
        }
        uint8_t* dst = img.rgb.data() + size_t(y) * h.width * 3;
        for (uint32_t x = 0; x < h.width; ++x, dst += 3) {
            const uint8_t* p = row.data() + size_t(x) * bpp;
            auto sample = [&](size_t k) { return p[k * bytes_per_sample]; };  // 16 bits: the high byte
            switch (h.colour_type) {
            case 0:
            case 4: dst[0] = dst[1] = dst[2] = sample(0); break;
            case 2:
            case 6:
                dst[0] = sample(0);
                dst[1] = sample(1);
                dst[2] = sample(2);
                break;
            case 3: {
                const size_t idx = p[0];
                if (idx >= entries)
                    refuse(shown, "the PNG image's pixel " + std::to_string(x) + "," + std::to_string(y) +
                                      " names palette entry " + std::to_string(idx) + " of " + std::to_string(entries));
                dst[0] = uint8_t(palette[3 * idx]);
                dst[1] = uint8_t(palette[3 * idx + 1]);
                dst[2] = uint8_t(palette[3 * idx + 2]);
                break;
            }
            }
        }
        std::swap(prev, row);
    }
    return img;
}

}  // namespace gfxstat::formats
