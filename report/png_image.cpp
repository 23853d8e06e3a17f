// SPDX-License-Identifier: MIT
// PNG (ISO/IEC 15948), zlib (RFC 1950) and deflate (RFC 1951), the parts a
// writer needs.
#include "report/png_image.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <vector>

#include "data/deflate_tables.h"

namespace gfxstat::report {

namespace {

// Bits into bytes, least significant first, as deflate packs them.
class BitWriter {
public:
    explicit BitWriter(std::string& out) : out_(out) {}
    void put(uint32_t bits, int n) {
        acc_ |= uint64_t(bits) << count_;
        count_ += n;
        while (count_ >= 8) {
            out_ += char(acc_ & 0xff);
            acc_ >>= 8;
            count_ -= 8;
        }
    }
    // A Huffman code: its bits go most significant first.
    void put_code(uint32_t code, int n) {
        uint32_t rev = 0;
        for (int i = 0; i < n; ++i) rev |= ((code >> i) & 1u) << (n - 1 - i);
        put(rev, n);
    }
    void flush() {
        if (count_ > 0) out_ += char(acc_ & 0xff);
        acc_ = 0;
        count_ = 0;
    }

private:
    std::string& out_;
    uint64_t acc_ = 0;
    int count_ = 0;
};

// The fixed literal/length code (RFC 1951, 3.2.6).
void put_literal_length(BitWriter& w, unsigned symbol) {
    if (symbol <= 143) w.put_code(0x30 + symbol, 8);
    else if (symbol <= 255) w.put_code(0x190 + (symbol - 144), 9);
    else if (symbol <= 279) w.put_code(symbol - 256, 7);
    else w.put_code(0xc0 + (symbol - 280), 8);
}

using data::kDeflateDistBase;
using data::kDeflateDistExtra;
using data::kDeflateLengthBase;
using data::kDeflateLengthExtra;

void put_match(BitWriter& w, unsigned length, unsigned distance) {
    size_t l = kDeflateLengthBase.size() - 1;
    while (kDeflateLengthBase[l] > length) --l;
    put_literal_length(w, 257 + unsigned(l));
    if (kDeflateLengthExtra[l]) w.put(length - kDeflateLengthBase[l], kDeflateLengthExtra[l]);
    size_t d = kDeflateDistBase.size() - 1;
    while (kDeflateDistBase[d] > distance) --d;
    w.put_code(unsigned(d), 5);
    if (kDeflateDistExtra[d]) w.put(distance - kDeflateDistBase[d], kDeflateDistExtra[d]);
}

constexpr size_t kWindow = 32768;
constexpr unsigned kMinMatch = 3, kMaxMatch = 258;
constexpr int kHashBits = 15;
constexpr int kMaxChain = 48;

uint32_t hash3(const uint8_t* p) {
    return ((uint32_t(p[0]) << 16 | uint32_t(p[1]) << 8 | p[2]) * 2654435761u) >> (32 - kHashBits);
}

// One final block with the fixed codes (BTYPE 01).
void deflate_fixed(std::string_view in, std::string& out) {
    BitWriter w(out);
    w.put(1, 1);  // BFINAL
    w.put(1, 2);  // BTYPE = fixed Huffman
    const auto* d = reinterpret_cast<const uint8_t*>(in.data());
    const size_t n = in.size();
    std::vector<int32_t> head(size_t(1) << kHashBits, -1), prev(n, -1);
    auto insert = [&](size_t i) {
        if (i + kMinMatch > n) return;
        const uint32_t h = hash3(d + i);
        prev[i] = head[h];
        head[h] = int32_t(i);
    };
    size_t i = 0;
    while (i < n) {
        unsigned best = 0;
        size_t best_dist = 0;
        if (i + kMinMatch <= n) {
            const size_t limit = std::min<size_t>(kMaxMatch, n - i);
            int32_t cand = head[hash3(d + i)];
            for (int chain = 0; cand >= 0 && chain < kMaxChain; ++chain, cand = prev[size_t(cand)]) {
                const size_t dist = i - size_t(cand);
                if (dist > kWindow) break;
                unsigned len = 0;
                while (len < limit && d[size_t(cand) + len] == d[i + len]) ++len;
                if (len > best) {
                    best = len;
                    best_dist = dist;
                    if (len == limit) break;
                }
            }
        }
        if (best >= kMinMatch) {
            put_match(w, best, unsigned(best_dist));
            for (size_t k = 0; k < best; ++k) insert(i + k);
            i += best;
        } else {
            put_literal_length(w, d[i]);
            insert(i);
            ++i;
        }
    }
    put_literal_length(w, 256);  // end of block
    w.flush();
}

void put_be32(std::string& out, uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) out += char((v >> s) & 0xff);
}

void put_chunk(std::string& out, const char* type, std::string_view data) {
    put_be32(out, uint32_t(data.size()));
    std::string typed(type, 4);
    typed.append(data);
    out += typed;
    put_be32(out, crc32(typed));
}

uint8_t paeth(int a, int b, int c) {
    const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
    return uint8_t(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

// The image's rows, each after its filter byte: of the five filters, the
// one whose output bytes, read as signed, sum smallest in magnitude (the
// heuristic the PNG specification suggests).
std::string filtered_rows(const formats::RgbImage& img) {
    const size_t stride = size_t(img.width) * 3;
    std::string out;
    out.reserve((stride + 1) * img.height);
    std::vector<uint8_t> zero(stride, 0), trial(stride), best_row(stride);
    for (uint32_t y = 0; y < img.height; ++y) {
        const uint8_t* row = img.rgb.data() + stride * y;
        const uint8_t* up = y ? row - stride : zero.data();
        uint64_t best_sum = UINT64_MAX;
        uint8_t best_filter = 0;
        for (uint8_t f = 0; f < 5; ++f) {
            uint64_t sum = 0;
            for (size_t x = 0; x < stride; ++x) {
                const int a = x >= 3 ? row[x - 3] : 0, b = up[x], c = x >= 3 ? up[x - 3] : 0;
                const int pred = f == 0 ? 0 : f == 1 ? a : f == 2 ? b : f == 3 ? (a + b) / 2 : paeth(a, b, c);
                trial[x] = uint8_t(row[x] - pred);
                sum += uint64_t(std::abs(int(int8_t(trial[x]))));
            }
            if (sum < best_sum) {
                best_sum = sum;
                best_filter = f;
                best_row.swap(trial);
            }
        }
        out += char(best_filter);
        out.append(reinterpret_cast<const char*>(best_row.data()), stride);
    }
    return out;
}

}  // namespace

std::string zlib_compress(std::string_view bytes) {
    std::string out;
    out += char(0x78);  // deflate, 32 KiB window
    out += char(0x01);  // no dictionary, fastest level; 0x7801 is a multiple of 31
    deflate_fixed(bytes, out);
    put_be32(out, adler32(bytes));
    return out;
}

std::string encode_png(const formats::RgbImage& img) {
    std::string out("\x89PNG\r\n\x1a\n", 8);
    std::string ihdr;
    put_be32(ihdr, img.width);
    put_be32(ihdr, img.height);
    ihdr += char(8);  // bit depth
    ihdr += char(2);  // colour type: RGB
    ihdr += std::string(3, '\0');  // compression, filter method, interlace
    put_chunk(out, "IHDR", ihdr);
    put_chunk(out, "IDAT", zlib_compress(filtered_rows(img)));
    put_chunk(out, "IEND", "");
    return out;
}

formats::RgbImage shrink_to_width(const formats::RgbImage& img, uint32_t max_width, const uint8_t* marker) {
    if (max_width == 0 || img.width <= max_width) return img;
    const uint32_t k = (img.width + max_width - 1) / max_width;
    formats::RgbImage out;
    out.width = (img.width + k - 1) / k;
    out.height = (img.height + k - 1) / k;
    out.rgb.resize(size_t(out.width) * out.height * 3);
    for (uint32_t y = 0; y < out.height; ++y)
        for (uint32_t x = 0; x < out.width; ++x) {
            uint64_t sum[3] = {0, 0, 0}, n = 0;
            bool marked = false;
            for (uint32_t yy = y * k; yy < std::min(img.height, (y + 1) * k); ++yy)
                for (uint32_t xx = x * k; xx < std::min(img.width, (x + 1) * k); ++xx, ++n) {
                    const uint8_t* p = img.pixel(xx, yy);
                    for (int c = 0; c < 3; ++c) sum[c] += p[c];
                    marked |= marker && p[0] == marker[0] && p[1] == marker[1] && p[2] == marker[2];
                }
            uint8_t* o = out.rgb.data() + (size_t(y) * out.width + x) * 3;
            for (int c = 0; c < 3; ++c) o[c] = marked ? marker[c] : uint8_t((sum[c] + n / 2) / n);
        }
    return out;
}

std::string base64(std::string_view bytes) {
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const uint32_t v = uint32_t(uint8_t(bytes[i])) << 16 | uint32_t(uint8_t(bytes[i + 1])) << 8 | uint8_t(bytes[i + 2]);
        for (int s = 18; s >= 0; s -= 6) out += kAlphabet[(v >> s) & 63];
    }
    if (i < bytes.size()) {
        uint32_t v = uint32_t(uint8_t(bytes[i])) << 16;
        if (i + 1 < bytes.size()) v |= uint32_t(uint8_t(bytes[i + 1])) << 8;
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

}  // namespace gfxstat::report
