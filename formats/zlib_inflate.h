// SPDX-License-Identifier: MIT
// A zlib stream (RFC 1950) inflated: deflate's stored, fixed-Huffman and
// dynamic-Huffman blocks (RFC 1951), the Adler-32 at its end checked. The
// PNG frames gfxstat report reads (formats/png_read.h) hold one; the
// bytes come from files anyone could have written, so every read is
// bounds-checked, the output is capped by the caller (a PNG's IHDR says
// how many bytes its image inflates to), Huffman tables that are
// over-subscribed or incomplete are refused as zlib refuses them, and an
// error names the file.
//
// Why here: zlib is not among gfxstat's dependencies (DESIGN.md), and
// inflating is the one concern of this file; the PNG grammar around it is
// formats/png_read.cpp's.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gfxstat::formats {

// The bytes `stream` inflates to. Throws InputError naming `shown` when
// the stream is malformed, cut short, fails its Adler-32, or would
// inflate to more than `max_bytes`.
std::string zlib_inflate(std::string_view stream, size_t max_bytes, const std::string& shown);

}  // namespace gfxstat::formats
