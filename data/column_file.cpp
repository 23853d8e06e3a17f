// SPDX-License-Identifier: MIT
#include "data/column_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>

#include "data/file_read.h"
#include "data/input_error.h"

namespace gfxstat::data {

namespace {

constexpr uint64_t kPow10[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};

bool is_space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// How many of the 8 characters in w (the first in the lowest byte) are
// digits before the first that is not: 0 to 8. A byte that is not a digit
// sets its high bit in x or in x + 0x76; the borrows and carries this
// spills only reach the bytes after it, which are not looked at.
int leading_digits(uint64_t w) {
    const uint64_t x = w - 0x3030303030303030u;
    const uint64_t not_digit = (x | (x + 0x7676767676767676u)) & 0x8080808080808080u;
    return not_digit ? __builtin_ctzll(not_digit) / 8 : 8;
}

// The value of the first n (1 to 7) digits of w: shifted to the top, the
// bytes below become leading zeros; then pairs, quadruples and the eight
// are combined by three multiplications (Lemire's eight-digit parse).
uint64_t digits_value(uint64_t w, int n) {
    uint64_t v = (w << (64 - 8 * n)) & 0x0F0F0F0F0F0F0F0Fu;
    v = (v * 2561) >> 8;
    v = ((v & 0x00FF00FF00FF00FFu) * 6553601) >> 16;
    return ((v & 0x0000FFFF0000FFFFu) * 42949672960001u) >> 32;
}

uint64_t load8(const char* p) {
    uint64_t w;
    std::memcpy(&w, p, sizeof w);
    return w;  // little-endian: the first character in the lowest byte
}

// [digits][.digits] at p with fewer than 8 digits on each side, read 8
// bytes at a time, no branch per digit (the mispredicted end of a digit
// loop was most of a line's cost). Needs 16 readable bytes; false, p
// unmoved, for anything else (the digit loops then read it).
bool eight_at_a_time(const char*& p, const char* end, uint64_t& sig, int& digits, int& fraction) {
    static_assert(std::endian::native == std::endian::little);
    if (end - p < 16) return false;
    const uint64_t w = load8(p);
    const int n = leading_digits(w);
    if (n == 8) return false;
    const char* q = p + n;
    uint64_t value = n ? digits_value(w, n) : 0;
    int f = 0;
    if (*q == '.') {
        const uint64_t w2 = load8(q + 1);
        f = leading_digits(w2);
        if (f == 8) return false;
        if (f) value = value * kPow10[f] + digits_value(w2, f);
        q += 1 + f;
    }
    p = q;
    sig = value;
    digits = n + f;
    fraction = f;
    return true;
}

class LineParser {
public:
    LineParser(const std::string& name, const ColumnFormat& format)
        : name_(name), column_(format.column) {
        std::memset(delim_, 0, sizeof delim_);
        for (unsigned char c : format.delimiters) delim_[c] = true;
        // The one-pass shape below reads a number's characters as the
        // number's: none of them may split fields.
        one_pass_ = column_ == 1 && format.delimiters.find_first_of("0123456789.-") == std::string::npos;
    }

    // Reads every whole line of [p, end) and returns the start of the
    // unfinished one (end when there is none). No newline lies in
    // [p, scan): the unfinished line of the last call, which is not
    // scanned again.
    const char* lines(const char* p, const char* scan, const char* end) {
        for (;;) {
            if (one_pass_ && p >= scan) {
                if (const char* next = one_pass_line(p, end)) {
                    p = next;
                    continue;
                }
            }
            const char* from = p < scan ? scan : p;
            const char* nl = static_cast<const char*>(std::memchr(from, '\n', static_cast<size_t>(end - from)));
            if (!nl) return p;
            line(p, nl);
            p = nl + 1;
        }
    }

    void line(const char* p, const char* end) {
        ++result_.lines;
        while (end > p && is_space(static_cast<unsigned char>(end[-1]))) --end;
        int field = 0;
        for (;;) {
            while (p < end && delim_[static_cast<unsigned char>(*p)]) ++p;
            if (p == end) {  // fewer fields than the column asked for
                if (field > 0) {
                    if (result_.lines_without_column++ == 0)
                        result_.first_line_without_column = result_.lines;
                }
                return;
            }
            const char* start = p;
            while (p < end && !delim_[static_cast<unsigned char>(*p)]) ++p;
            if (*start == '#') return;  // comment: rest of the line ignored
            if (++field == column_) {
                token({start, static_cast<size_t>(p - start)});
                return;
            }
        }
    }

    ColumnFile finish() && {
        result_.sample = std::move(builder_).finish(name_);
        return std::move(result_);
    }

private:
    // The common line in one pass over its bytes: column 1 holding
    // [-]digits[.digits] (at most 18 digits), then the newline, or a
    // delimiter and the rest of the line, unread but for its newline. The
    // value is the one token()'s fast path takes from the same field.
    // Returns the start of the next line, or nullptr for any other line
    // (or one not whole in the buffer): line() reads it as ever.
    const char* one_pass_line(const char* p, const char* end) {
        while (p < end && delim_[static_cast<unsigned char>(*p)]) ++p;
        const bool negative = p < end && *p == '-';
        p += negative;
        uint64_t sig = 0;
        int digits = 0, fraction = 0;
        if (!eight_at_a_time(p, end, sig, digits, fraction)) {
            const char* first = p;
            while (p < end && static_cast<unsigned char>(*p - '0') < 10)
                sig = sig * 10 + static_cast<unsigned>(*p++ - '0');
            digits = static_cast<int>(p - first);
            if (p < end && *p == '.') {
                const char* point = ++p;
                while (p < end && static_cast<unsigned char>(*p - '0') < 10)
                    sig = sig * 10 + static_cast<unsigned>(*p++ - '0');
                fraction = static_cast<int>(p - point);
                digits += fraction;
            }
        }
        if (p == end || digits == 0 || digits > 18) return nullptr;
        const char* next;
        if (*p == '\n') {
            next = p + 1;
        } else if (delim_[static_cast<unsigned char>(*p)]) {
            const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
            if (!nl) return nullptr;
            next = nl + 1;
        } else {
            return nullptr;
        }
        ++result_.lines;
        builder_.add_decimal(negative, sig, -fraction);
        return next;
    }

    void token(std::string_view text) {
        // Fast path for the common shape, [-]digits[.digits] with at most 18
        // digits; anything else goes through the full parser.
        const char* p = text.data();
        const char* end = p + text.size();
        const bool negative = p < end && *p == '-';
        p += negative;
        uint64_t sig = 0;
        int digits = 0, fraction = 0;
        while (p < end && static_cast<unsigned char>(*p - '0') < 10) {
            sig = sig * 10 + static_cast<unsigned>(*p++ - '0');
            ++digits;
        }
        if (p < end && *p == '.') {
            ++p;
            while (p < end && static_cast<unsigned char>(*p - '0') < 10) {
                sig = sig * 10 + static_cast<unsigned>(*p++ - '0');
                ++digits;
                ++fraction;
            }
        }
        if (p == end && digits > 0 && digits <= 18) {
            builder_.add_decimal(negative, sig, -fraction);
            return;
        }
        slow_token(text);
    }

    void slow_token(std::string_view text) {
        const NumberToken t = parse_number_token(text);
        if (t.status == TokenStatus::decimal || t.status == TokenStatus::binary) {
            builder_.add(t);
            return;
        }
        const std::string col = "column " + std::to_string(column_);
        if (t.status == TokenStatus::malformed)
            throw input_error(name_, result_.lines,
                              "expected a number in " + col + ", found " + quote_token(text));
        throw input_error(name_, result_.lines,
                          quote_token(text) + " in " + col + " is " + describe(t.status));
    }

    std::string name_;
    int column_;
    bool delim_[256];
    bool one_pass_ = false;
    SampleBuilder builder_;
    ColumnFile result_;
};

}  // namespace

ColumnFile read_column(int fd, const std::string& name, const ColumnFormat& format,
                       std::string_view prefix) {
    LineParser parser(name, format);
    // 64 KiB reads cost nothing measurable on large files. The buffer is
    // not zeroed: of a small input (a start-up's 100 values, tests,
    // fuzzing) only the pages read() fills are ever touched, where zeroing
    // would fault in all sixteen.
    size_t cap = std::max(size_t{64} << 10, prefix.size() * 2);
    std::unique_ptr<char[]> buf(new char[cap]);
    if (!prefix.empty()) std::memcpy(buf.get(), prefix.data(), prefix.size());
    size_t have = 0;  // bytes of an unfinished line at the start of buf
    size_t pending = prefix.size();  // bytes in buf that no read() returned
    for (;;) {
        if (have == cap) {  // a line longer than buf
            std::unique_ptr<char[]> bigger(new char[cap * 2]);
            std::memcpy(bigger.get(), buf.get(), have);
            buf = std::move(bigger);
            cap *= 2;
        }
        ssize_t got = static_cast<ssize_t>(pending);
        if (pending == 0) got = ::read(fd, buf.get() + have, cap - have);
        pending = 0;
        if (got < 0) {
            if (errno == EINTR) continue;
            throw input_error(name, 0, std::string("read error: ") + std::strerror(errno));
        }
        if (got == 0) break;
        const char* end = buf.get() + have + static_cast<size_t>(got);
        const char* p = parser.lines(buf.get(), buf.get() + have, end);
        have = static_cast<size_t>(end - p);
        std::memmove(buf.get(), p, have);
    }
    if (have > 0) parser.line(buf.get(), buf.get() + have);
    return std::move(parser).finish();
}

ColumnFile read_column_path(const std::string& path, const std::string& name,
                            const ColumnFormat& format) {
    const InputFile in(path);
    return read_column(in.fd(), name, format);
}

}  // namespace gfxstat::data
