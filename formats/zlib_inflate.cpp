// SPDX-License-Identifier: MIT
// Inflate after RFC 1951's own description: canonical Huffman codes read
// a bit at a time (the code lengths counted per length, the symbols
// sorted by code), LZ77 copies from the output so far.
#include "formats/zlib_inflate.h"

#include <array>
#include <cstdint>

#include "data/deflate_tables.h"
#include "data/digest.h"
#include "data/input_error.h"

namespace gfxstat::formats {

namespace {

constexpr int kMaxBits = 15;
using data::kDeflateDistBase;
using data::kDeflateDistExtra;
using data::kDeflateLengthBase;
using data::kDeflateLengthExtra;

// A canonical Huffman code: how many codes of each length, and the
// symbols in code order.
struct Huffman {
    std::array<uint16_t, kMaxBits + 1> count{};
    std::array<uint16_t, 320> symbol{};
    bool empty = true;
};

// What building a code from lengths found.
enum class CodeShape { complete, incomplete, over_subscribed };

CodeShape build(Huffman& h, const uint8_t* lengths, size_t n) {
    h.count.fill(0);
    for (size_t s = 0; s < n; ++s) ++h.count[lengths[s]];
    h.empty = h.count[0] == n;
    int left = 1;
    for (int len = 1; len <= kMaxBits; ++len) {
        left <<= 1;
        left -= h.count[size_t(len)];
        if (left < 0) return CodeShape::over_subscribed;
    }
    std::array<uint16_t, kMaxBits + 1> offs{};
    for (int len = 1; len < kMaxBits; ++len) offs[size_t(len) + 1] = uint16_t(offs[size_t(len)] + h.count[size_t(len)]);
    for (size_t s = 0; s < n; ++s)
        if (lengths[s] != 0) h.symbol[offs[lengths[s]]++] = uint16_t(s);
    return left > 0 ? CodeShape::incomplete : CodeShape::complete;
}

class Inflater {
public:
    Inflater(std::string_view in, size_t max_bytes, const std::string& shown)
        : in_(in), max_(max_bytes), shown_(shown) {}

    std::string run() {
        if (in_.size() < 2) fail("the zlib stream is cut short in its header");
        const uint8_t cmf = uint8_t(in_[0]), flg = uint8_t(in_[1]);
        if ((cmf & 0x0f) != 8 || (cmf >> 4) > 7)
            fail("the zlib stream's header names no deflate stream (method " + std::to_string(cmf & 0x0f) +
                 ", window " + std::to_string(cmf >> 4) + ")");
        if ((uint32_t(cmf) << 8 | flg) % 31 != 0) fail("the zlib stream's header fails its check");
        if (flg & 0x20) fail("the zlib stream needs a preset dictionary");
        pos_ = 2;
        bool last = false;
        while (!last) {
            last = bits(1) == 1;
            switch (bits(2)) {
            case 0: stored(); break;
            case 1: fixed(); break;
            case 2: dynamic(); break;
            default: fail("the deflate stream has a block of the reserved type 3");
            }
        }
        // The Adler-32 starts at the next byte.
        if (in_.size() - pos_ < 4) fail("the zlib stream is cut short before its Adler-32");
        uint32_t want = 0;
        for (int i = 0; i < 4; ++i) want = want << 8 | uint8_t(in_[pos_ + size_t(i)]);
        if (data::adler32(out_) != want) fail("the zlib stream's Adler-32 does not match its data");
        return std::move(out_);
    }

private:
    [[noreturn]] void fail(const std::string& what) const { throw data::InputError(shown_ + ": " + what); }

    uint32_t bits(int need) {
        uint64_t val = buf_;
        while (count_ < need) {
            if (pos_ >= in_.size()) fail("the deflate stream is cut short");
            val |= uint64_t(uint8_t(in_[pos_++])) << count_;
            count_ += 8;
        }
        buf_ = uint32_t(val >> need);
        count_ -= need;
        return uint32_t(val & ((uint64_t(1) << need) - 1));
    }

    void room(size_t n) const {
        if (n > max_ - out_.size())
            fail("the image data inflates to more than the " + std::to_string(max_) + " bytes the image can hold");
    }

    void stored() {
        buf_ = 0;
        count_ = 0;
        if (in_.size() - pos_ < 4) fail("the deflate stream is cut short in a stored block's header");
        const uint32_t len = uint8_t(in_[pos_]) | uint32_t(uint8_t(in_[pos_ + 1])) << 8;
        const uint32_t nlen = uint8_t(in_[pos_ + 2]) | uint32_t(uint8_t(in_[pos_ + 3])) << 8;
        pos_ += 4;
        if (len != (~nlen & 0xffffu)) fail("a stored deflate block's length fails its check");
        if (in_.size() - pos_ < len) fail("the deflate stream is cut short in a stored block");
        room(len);
        out_.append(in_.data() + pos_, len);
        pos_ += len;
    }

    int decode(const Huffman& h) {
        if (h.empty) fail("the deflate stream uses a code that has no symbols");
        int code = 0, first = 0, index = 0;
        for (int len = 1; len <= kMaxBits; ++len) {
            code |= int(bits(1));
            const int count = h.count[size_t(len)];
            if (code - count < first) return h.symbol[size_t(index + (code - first))];
            index += count;
            first += count;
            first <<= 1;
            code <<= 1;
        }
        fail("the deflate stream holds a code its Huffman table does not have");
    }

    void codes(const Huffman& lencode, const Huffman& distcode) {
        for (;;) {
            const int sym = decode(lencode);
            if (sym < 256) {
                room(1);
                out_ += char(sym);
            } else if (sym == 256) {
                return;
            } else {
                const size_t li = size_t(sym - 257);
                if (li >= kDeflateLengthBase.size()) fail("the deflate stream holds the invalid length symbol " + std::to_string(sym));
                const size_t len = kDeflateLengthBase[li] + bits(kDeflateLengthExtra[li]);
                const int ds = decode(distcode);
                if (ds >= int(kDeflateDistBase.size()))
                    fail("the deflate stream holds the invalid distance symbol " + std::to_string(ds));
                const size_t dist = kDeflateDistBase[size_t(ds)] + bits(kDeflateDistExtra[size_t(ds)]);
                if (dist > out_.size()) fail("the deflate stream refers back before its first byte");
                room(len);
                const size_t from = out_.size() - dist;
                for (size_t k = 0; k < len; ++k) out_ += out_[from + k];
            }
        }
    }

    void fixed() {
        static const std::array<Huffman, 2> tables = [] {
            std::array<Huffman, 2> t;
            std::array<uint8_t, 288> l{};
            for (size_t s = 0; s < 288; ++s) l[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
            build(t[0], l.data(), 288);
            l.fill(5);
            build(t[1], l.data(), 30);
            return t;
        }();
        codes(tables[0], tables[1]);
    }

    // zlib's rule: a code may be incomplete only when it is one code of
    // one bit (a block with a single distance, say).
    void check(CodeShape shape, const Huffman& h, const char* which) const {
        if (shape == CodeShape::over_subscribed)
            fail(std::string("a dynamic deflate block's ") + which + " code is over-subscribed");
        if (shape == CodeShape::incomplete && !(h.count[1] == 1 && h.count[0] + 1u == total(h)))
            fail(std::string("a dynamic deflate block's ") + which + " code is incomplete");
    }
    static unsigned total(const Huffman& h) {
        unsigned n = 0;
        for (const auto c : h.count) n += c;
        return n;
    }

    void dynamic() {
        static constexpr std::array<uint8_t, 19> kOrder = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
        const size_t nlen = bits(5) + 257, ndist = bits(5) + 1, ncode = bits(4) + 4;
        if (nlen > 286 || ndist > 30) fail("a dynamic deflate block counts more codes than deflate has");
        std::array<uint8_t, 320> lengths{};
        for (size_t i = 0; i < ncode; ++i) lengths[kOrder[i]] = uint8_t(bits(3));
        Huffman lencode, distcode;
        {
            const CodeShape shape = build(lencode, lengths.data(), 19);
            if (shape != CodeShape::complete)
                fail(std::string("a dynamic deflate block's code-length code is ") +
                     (shape == CodeShape::over_subscribed ? "over-subscribed" : "incomplete"));
        }
        size_t i = 0;
        while (i < nlen + ndist) {
            int sym = decode(lencode);
            if (sym < 16) {
                lengths[i++] = uint8_t(sym);
                continue;
            }
            uint8_t value = 0;
            size_t repeat = 0;
            if (sym == 16) {
                if (i == 0) fail("a dynamic deflate block repeats a code length before the first");
                value = lengths[i - 1];
                repeat = 3 + bits(2);
            } else if (sym == 17) {
                repeat = 3 + bits(3);
            } else {
                repeat = 11 + bits(7);
            }
            if (i + repeat > nlen + ndist) fail("a dynamic deflate block repeats code lengths past its codes");
            while (repeat--) lengths[i++] = value;
        }
        if (lengths[256] == 0) fail("a dynamic deflate block has no end-of-block code");
        check(build(lencode, lengths.data(), nlen), lencode, "literal/length");
        const CodeShape dshape = build(distcode, lengths.data() + nlen, ndist);
        if (!distcode.empty) check(dshape, distcode, "distance");
        else if (dshape == CodeShape::over_subscribed) check(dshape, distcode, "distance");
        codes(lencode, distcode);
    }

    std::string_view in_;
    size_t max_;
    const std::string& shown_;
    size_t pos_ = 0;
    uint32_t buf_ = 0;
    int count_ = 0;
    std::string out_;
};

}  // namespace

std::string zlib_inflate(std::string_view stream, size_t max_bytes, const std::string& shown) {
    return Inflater(stream, max_bytes, shown).run();
}

}  // namespace gfxstat::formats
