// SPDX-License-Identifier: MIT
// SHA-256 and base64 (RFC 4648, standard alphabet, '=' padding), for the
// results file gfxstat attaches to a LAVA job's log (formats/lava_block.h):
// base64 keeps the file's bytes out of the console's reach (no line of it
// can look like a LAVA signal or carry a control character), the digest
// proves that what a reader decoded is what was written. Written here
// because no library gfxstat already links has them (OpenSSL is not one
// of its dependencies); tests/unit/digest_test.cpp checks them against
// Python's hashlib and base64.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gfxstat::data {

// Incremental SHA-256 (FIPS 180-4): update() any number of times, then
// hex() once.
class Sha256 {
public:
    Sha256();
    void update(std::string_view bytes);
    // The digest as 64 lower-case hex digits; the object is spent.
    std::string hex();

private:
    void block(const unsigned char* p);
    std::array<uint32_t, 8> h_;
    unsigned char buf_[64];
    size_t used_ = 0;
    uint64_t total_ = 0;
};

std::string sha256_hex(std::string_view bytes);

// Base64 of `bytes`, without line breaks.
std::string base64_encode(std::string_view bytes);

// Decodes base64 text (no white space, '=' padding required to a multiple
// of 4 characters). nullopt for anything else: a character outside the
// alphabet, bad padding, non-zero bits after the last byte.
std::optional<std::string> base64_decode(std::string_view text);

// CRC-32 (ISO-HDLC, as PNG and zlib use it) and Adler-32 (RFC 1950) of
// `bytes`: the PNG the report page writes (report/png_image.h) and the
// PNG frames gfxstat reads (formats/png_read.h) check the same sums.
uint32_t crc32(std::string_view bytes);
uint32_t adler32(std::string_view bytes);

}  // namespace gfxstat::data
