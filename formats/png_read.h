// SPDX-License-Identifier: MIT
// PNG frames read back for gfxstat report's page: glretrace writes its
// snapshots as PNG files (`-s PREFIX`, 8-bit RGB or RGBA, not
// interlaced), kept by `--keep-images DIR` as frame-N.png. The chunks
// (signature, IHDR, PLTE, IDAT concatenated, IEND; CRC-32 checked, unknown
// ancillary chunks skipped), the zlib stream (formats/zlib_inflate.h),
// the five row filters, and colour types 0 (grey), 2 (RGB), 3 (palette),
// 4 (grey and alpha) and 6 (RGBA) at bit depth 8, and 16 for all but
// palettes (the high byte kept). Alpha is ignored, as BMP's is.
// Interlaced images and other bit depths are refused by name.
//
// Why here: a PNG frame is another program's file, read as formats/ reads
// every foreign file; parse_frame_image (formats/frame_images.h) picks
// this reader by PNG's signature.
#pragma once

#include <string>
#include <string_view>

#include "formats/frame_images.h"

namespace gfxstat::formats {

// A PNG image as 8-bit RGB. Throws InputError naming `shown` for a
// malformed, cut short or unsupported file, and for sides over
// kMaxFrameImageSide; the image data may inflate to no more bytes than
// its IHDR implies.
RgbImage parse_png(std::string_view bytes, const std::string& shown);

}  // namespace gfxstat::formats
