// SPDX-License-Identifier: MIT
// PNM's grammar (netpbm's pnm(5)) and BMP's (the Windows bitmap file and
// info headers), each size checked before it is used.
#include "formats/frame_images.h"

#include <cstring>

#include "data/input_error.h"
#include "formats/png_read.h"

namespace gfxstat::formats {

namespace {

[[noreturn]] void refuse(const std::string& shown, const std::string& what) {
    throw data::InputError(shown + ": " + what);
}

std::string sides(uint64_t w, uint64_t h) { return std::to_string(w) + "x" + std::to_string(h); }

void check_sides(uint64_t w, uint64_t h, const std::string& shown) {
    if (w == 0 || h == 0) refuse(shown, "an image of " + sides(w, h) + " pixels holds nothing");
    if (w > kMaxFrameImageSide || h > kMaxFrameImageSide)
        refuse(shown, "an image of " + sides(w, h) + " pixels: larger than gfxstat reads (at most " +
                          std::to_string(kMaxFrameImageSide) + " a side)");
}

// PNM's header: whitespace and "#" comments between decimal fields.
class PnmHeader {
public:
    PnmHeader(std::string_view b, const std::string& shown) : b_(b), shown_(shown) {}

    uint64_t number(const char* what) {
        skip_space_and_comments();
        if (at_ >= b_.size() || b_[at_] < '0' || b_[at_] > '9')
            refuse(shown_, std::string("not a PNM header: expected the ") + what);
        uint64_t v = 0;
        while (at_ < b_.size() && b_[at_] >= '0' && b_[at_] <= '9') {
            v = v * 10 + uint64_t(b_[at_++] - '0');
            if (v > 1u << 30) refuse(shown_, std::string("the PNM header's ") + what + " is too large");
        }
        return v;
    }
    // The one whitespace byte that ends the header.
    size_t raster_start() {
        if (at_ >= b_.size() || !space(b_[at_])) refuse(shown_, "the PNM header does not end in whitespace");
        return at_ + 1;
    }

private:
    static bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
    void skip_space_and_comments() {
        while (at_ < b_.size()) {
            if (space(b_[at_])) ++at_;
            else if (b_[at_] == '#')
                while (at_ < b_.size() && b_[at_] != '\n' && b_[at_] != '\r') ++at_;
            else break;
        }
    }
    std::string_view b_;
    const std::string& shown_;
    size_t at_ = 2;  // after the magic number
};

uint32_t le16(std::string_view b, size_t at) {
    return uint32_t(uint8_t(b[at])) | uint32_t(uint8_t(b[at + 1])) << 8;
}
uint32_t le32(std::string_view b, size_t at) { return le16(b, at) | le16(b, at + 2) << 16; }

}  // namespace

RgbImage parse_pnm(std::string_view b, const std::string& shown) {
    if (b.size() < 2 || b[0] != 'P') refuse(shown, "not a PNM image (no \"P\" magic number)");
    const char kind = b[1];
    if (kind != '5' && kind != '6')
        refuse(shown, std::string("a PNM image of kind P") + (kind >= '!' && kind <= '~' ? std::string(1, kind) : "?") +
                          ": gfxstat reads binary P6 (RGB) and P5 (grey) only");
    PnmHeader h(b, shown);
    const uint64_t w = h.number("width"), ht = h.number("height"), maxval = h.number("maximum value");
    check_sides(w, ht, shown);
    if (maxval != 255)
        refuse(shown, "a PNM image with maximum value " + std::to_string(maxval) + ": gfxstat reads 8-bit ones (255)");
    const size_t start = h.raster_start();
    const size_t channels = kind == '6' ? 3 : 1;
    const uint64_t need = w * ht * channels;
    if (b.size() - start < need)
        refuse(shown, "the PNM image is cut short: " + sides(w, ht) + " pixels need " + std::to_string(need) +
                          " bytes, " + std::to_string(b.size() - start) + " are there");
    RgbImage img;
    img.width = uint32_t(w);
    img.height = uint32_t(ht);
    img.rgb.resize(size_t(w * ht * 3));
    const auto* src = reinterpret_cast<const uint8_t*>(b.data() + start);
    if (channels == 3) std::memcpy(img.rgb.data(), src, img.rgb.size());
    else
        for (size_t i = 0; i < size_t(w * ht); ++i) img.rgb[3 * i] = img.rgb[3 * i + 1] = img.rgb[3 * i + 2] = src[i];
    return img;
}

RgbImage parse_bmp(std::string_view b, const std::string& shown) {
    if (b.size() < 2 || b[0] != 'B' || b[1] != 'M') refuse(shown, "not a BMP image (no \"BM\" magic number)");
    if (b.size() < 14 + 40) refuse(shown, "the BMP image is cut short within its headers");
    const uint32_t offset = le32(b, 10), info = le32(b, 14);
    if (info < 40)
        refuse(shown, "a BMP image with a " + std::to_string(info) +
                          "-byte info header (OS/2 or older): gfxstat reads BITMAPINFOHEADER and later");
    const int32_t w = int32_t(le32(b, 18)), hraw = int32_t(le32(b, 22));
    const uint32_t planes = le16(b, 26), bits = le16(b, 28), compression = le32(b, 30);
    if (planes != 1) refuse(shown, "a BMP image with " + std::to_string(planes) + " planes (expected 1)");
    if (bits != 24 && bits != 32)
        refuse(shown, "a BMP image of " + std::to_string(bits) +
                          " bits a pixel: gfxstat reads uncompressed 24- and 32-bit ones");
    if (compression == 3) {  // BI_BITFIELDS: only the masks of plain BGR(A)
        const size_t masks = 14 + 40;
        if (bits != 32 || b.size() < masks + 12) refuse(shown, "a BMP image with bit fields it cannot hold");
        if (le32(b, masks) != 0x00ff0000u || le32(b, masks + 4) != 0x0000ff00u || le32(b, masks + 8) != 0x000000ffu)
            refuse(shown, "a BMP image whose bit fields are not 8-bit BGR(A): gfxstat reads those only");
    } else if (compression != 0)
        refuse(shown, "a compressed BMP image (compression " + std::to_string(compression) +
                          "): gfxstat reads uncompressed ones");
    if (w <= 0) refuse(shown, "a BMP image " + std::to_string(w) + " pixels wide");
    const bool top_down = hraw < 0;
    const uint64_t h = top_down ? uint64_t(-int64_t(hraw)) : uint64_t(hraw);
    check_sides(uint64_t(w), h, shown);
    const uint64_t bpp = bits / 8, stride = (uint64_t(w) * bpp + 3) / 4 * 4;
    if (offset < 14 + uint64_t(info) || offset > b.size() || b.size() - offset < stride * h)
        refuse(shown, "the BMP image is cut short: " + sides(uint64_t(w), h) + " pixels need " +
                          std::to_string(stride * h) + " bytes from offset " + std::to_string(offset) + ", the file has " +
                          std::to_string(b.size()) + " bytes");
    RgbImage img;
    img.width = uint32_t(w);
    img.height = uint32_t(h);
    img.rgb.resize(size_t(img.width) * img.height * 3);
    for (uint32_t y = 0; y < img.height; ++y) {
        const uint32_t row = top_down ? y : img.height - 1 - y;
        const auto* src = reinterpret_cast<const uint8_t*>(b.data() + offset + stride * row);
        uint8_t* dst = img.rgb.data() + size_t(y) * img.width * 3;
        for (uint32_t x = 0; x < img.width; ++x, src += bpp, dst += 3) {
            dst[0] = src[2];
            dst[1] = src[1];
            dst[2] = src[0];
        }
    }
    return img;
}

RgbImage parse_frame_image(std::string_view bytes, const std::string& shown) {
    if (bytes.size() >= 2 && bytes[0] == 'B' && bytes[1] == 'M') return parse_bmp(bytes, shown);
    if (bytes.size() >= 2 && bytes[0] == 'P') return parse_pnm(bytes, shown);
    if (bytes.size() >= 4 && bytes.substr(0, 4) == "\x89PNG") return parse_png(bytes, shown);
    refuse(shown, "neither a PNM, a BMP nor a PNG image");
}

}  // namespace gfxstat::formats
