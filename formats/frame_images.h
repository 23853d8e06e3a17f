// SPDX-License-Identifier: MIT
// The frame images the replayers write, read back for gfxstat report's
// page (docs/image-checks.md, "In the report page"): binary PNM as
// `glretrace --snapshot-format=PNM` writes it (P6, maxval 255; P5 grey
// too), BMP as `gfxrecon-replay --screenshot-all` writes it
// (uncompressed, 24 or 32 bits a pixel, bottom-up or top-down rows) and
// PNG as glretrace writes it by default (formats/png_read.h).
// Kept images (`--keep-images DIR`) are files from elsewhere: every size
// is checked against the bytes there are, the sides are capped, and an
// error names the file and what was wrong. Other kinds (P7, PF, ASCII PNM,
// palettes, RLE or other compressed BMP) are refused, by name.
//
// Why here: these are other programs' file formats, read as formats/
// reads every foreign file; the PNG the page embeds is written by
// report/png_image.h, beside the page it is written for.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gfxstat::formats {

// The largest side an image may have: 16384 (a 16K frame).
inline constexpr uint32_t kMaxFrameImageSide = 16384;

// An 8-bit RGB image, rows top to bottom, 3 bytes a pixel.
struct RgbImage {
    uint32_t width = 0, height = 0;
    std::vector<uint8_t> rgb;  // width * height * 3

    const uint8_t* pixel(uint32_t x, uint32_t y) const { return rgb.data() + (size_t(y) * width + x) * 3; }
    bool operator==(const RgbImage&) const = default;
};

// A binary PNM image (P6 RGB or P5 grey, maxval 255, comments allowed in
// the header). Throws InputError naming `shown`.
RgbImage parse_pnm(std::string_view bytes, const std::string& shown);

// A BMP image (BITMAPINFOHEADER or a later header; BI_RGB, or BI_BITFIELDS
// with the usual BGR(A) masks; 24 or 32 bits a pixel; alpha ignored).
// Throws InputError naming `shown`.
RgbImage parse_bmp(std::string_view bytes, const std::string& shown);

// parse_pnm, parse_bmp or parse_png (formats/png_read.h) by the file's
// first bytes ("P5"/"P6", "BM", PNG's signature).
// Throws InputError naming `shown` for anything else.
RgbImage parse_frame_image(std::string_view bytes, const std::string& shown);

}  // namespace gfxstat::formats
