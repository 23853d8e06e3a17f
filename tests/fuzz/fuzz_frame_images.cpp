// SPDX-License-Identifier: MIT
// libFuzzer target for the frame images gfxstat report reads from kept
// directories (formats/frame_images.h): PNM, BMP and PNG (with its zlib
// stream, formats/png_read.h and formats/zlib_inflate.h) from files
// anyone could have written. InputError is the expected way to refuse input.
// Invariants, besides no crash and no sanitizer report: an image read has
// sides within the cap and 3 bytes a pixel; it differs from itself in no
// pixel; its PNG (report/png_image.h) starts with PNG's signature and ends
// with IEND's CRC; that PNG reads back as the image written.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "data/input_error.h"
#include "findings/frame_pictures.h"
#include "formats/frame_images.h"
#include "report/png_image.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace gfxstat;
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    formats::RgbImage img;
    try {
        img = formats::parse_frame_image(bytes, "fuzz");
    } catch (const data::InputError&) {
        return 0;
    }
    if (img.width == 0 || img.height == 0 || img.width > formats::kMaxFrameImageSide ||
        img.height > formats::kMaxFrameImageSide || img.rgb.size() != size_t(img.width) * img.height * 3)
        std::abort();
    if (size_t(img.width) * img.height > (1u << 16)) return 0;  // keep each run fast
    if (findings::image_difference(img, img).differing_pixels != 0) std::abort();
    const formats::RgbImage small = report::shrink_to_width(img, 64);
    const std::string png = report::encode_png(small);
    if (png.compare(0, 8, std::string("\x89PNG\r\n\x1a\n", 8)) != 0) std::abort();
    if (png.size() < 12 || png.compare(png.size() - 8, 4, "IEND") != 0) std::abort();
    if (formats::parse_frame_image(png, "written") != small) std::abort();
    return 0;
}
