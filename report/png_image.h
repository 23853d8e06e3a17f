// SPDX-License-Identifier: MIT
// PNG for pictures embedded in gfxstat report's page (data URIs): an 8-bit
// RGB image written as a PNG file, made small enough for a page (a box
// filter), and base64 for the URI. No library: zlib and libpng are not
// among gfxstat's dependencies, and a writer needs little of either: each
// row filtered by the PNG filter that suits it best, one deflate block
// with the fixed Huffman codes and LZ77 matches found through a hash
// chain, CRC-32 over each chunk and Adler-32 over the zlib stream.
//
// Why report/: the page is the only thing that writes PNG, and a PNG here
// is a rendering of data for people, as plot/'s SVG is; the decoders of
// the replayers' images are formats/frame_images.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "data/digest.h"
#include "formats/frame_images.h"

namespace gfxstat::report {

// CRC-32 and Adler-32, shared with the PNG reader (data/digest.h).
using data::adler32;
using data::crc32;

// A zlib stream (RFC 1950) of `bytes`: fixed-Huffman deflate (RFC 1951)
// with LZ77 matches.
std::string zlib_compress(std::string_view bytes);

// `image` as a PNG file (colour type 2, 8 bits, not interlaced).
std::string encode_png(const formats::RgbImage& image);

// `image` made at most `max_width` pixels wide by averaging boxes of
// k x k pixels (k the smallest whole number that fits); as it is when it
// already fits. `marker` (3 bytes, or nullptr): a box holding a pixel of
// exactly that colour becomes that colour, so that one marked pixel of a
// difference image stays seen.
formats::RgbImage shrink_to_width(const formats::RgbImage& image, uint32_t max_width,
                                  const uint8_t* marker = nullptr);

// Base64 (RFC 4648, with padding).
std::string base64(std::string_view bytes);

}  // namespace gfxstat::report
