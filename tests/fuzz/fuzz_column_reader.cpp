// SPDX-License-Identifier: MIT
// libFuzzer target for the input layer: the number parser
// (data/number_token.h) and the column reader (data/column_file.h).
//
// Input layout: byte 0 chooses the ColumnFormat (column 1..3 and one of a few
// delimiter sets) and how the reader gets the bytes (one read, or short reads
// of a few bytes each); the remaining bytes are the file contents.
//
// Besides crashes and sanitizer reports, the target traps on broken
// invariants:
//   parse_number_token, checked against strtod on the same NUL-terminated
//   text (the whole body, and every field of it):
//     - a token is accepted (any status but malformed) exactly when strtod
//       consumes all of it;
//     - decimal/binary: strtod gives a finite value, and the token's value is
//       that value bit for bit (zero may differ in sign);
//     - strtod consumes all and gives a finite value (underflow included):
//       the status is decimal or binary;
//     - strtod consumes all and gives inf/nan: not_finite when the text is an
//       inf/nan word, out_of_range when it is a number that overflows.
//   read_column, against a model of data/column_file.h's rules (trailing
//   white space dropped, fields split on runs of delimiters, '#' field ends
//   the line, lines without the column skipped):
//     - it throws InputError exactly when a token in the column is not a
//       finite number, naming the line of the first one;
//     - otherwise the counts and the values (as strtod reads the tokens)
//       are the model's;
//   read_column, when it does not throw InputError:
//     - lines counts the real lines of the input;
//     - sample.size() + lines_without_column <= lines;
//     - every value of the sample is finite;
//     - a sample with binary tokens is not held as exact decimals;
//   and whether or not it throws, reading the same bytes in short reads gives
//   the same result (or the same error message) as reading them at once.
// InputError is the expected way to reject input; any other exception
// escapes and libFuzzer reports it.
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/scaled_values.h"
#include "data/column_file.h"
#include "data/input_error.h"
#include "data/number_token.h"

namespace {

using gfxstat::data::NumberToken;
using gfxstat::data::TokenStatus;

// Tokens longer than this are still parsed (for crashes) but not compared
// with strtod.
constexpr size_t kMaxCompared = 2048;

// What is being checked, for the message printed before a trap.
std::string_view g_token;
const char* g_status = "";
double g_strtod = 0;

void print_escaped(std::string_view s) {
    std::fputc('"', stderr);
    for (unsigned char c : s.substr(0, 200)) {
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            std::fputc(c, stderr);
        else
            std::fprintf(stderr, "\\x%02x", c);
    }
    std::fputc('"', stderr);
    if (s.size() > 200) std::fprintf(stderr, "... (%zu bytes)", s.size());
}

void fail(const char* what, int line) {
    std::fprintf(stderr, "\nfuzz_column_reader.cpp:%d: invariant violated: %s\n", line, what);
    if (!g_token.empty() || *g_status) {
        std::fprintf(stderr, "  token ");
        print_escaped(g_token);
        std::fprintf(stderr, "\n  parse status %s, strtod %a (%.17g)\n", g_status, g_strtod,
                     g_strtod);
    }
    __builtin_trap();
}

#define check(cond) ((cond) ? (void)0 : fail(#cond, __LINE__))

bool c_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// After white space and an optional sign, does the text start with a letter
// other than the hex prefix (so strtod read "inf..." or "nan...")?
bool starts_with_word(std::string_view s) {
    size_t i = 0;
    while (i < s.size() && c_space(s[i])) ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (i >= s.size()) return false;
    const char c = lower(s[i]);
    return c == 'i' || c == 'n';
}

const char* status_name(TokenStatus s) {
    switch (s) {
        case TokenStatus::decimal: return "decimal";
        case TokenStatus::binary: return "binary";
        case TokenStatus::malformed: return "malformed";
        case TokenStatus::not_finite: return "not_finite";
        case TokenStatus::out_of_range: return "out_of_range";
        case TokenStatus::underflow: return "underflow";
    }
    return "?";
}

bool same_double(double a, double b) {
    if (a == 0 && b == 0) return true;  // -0.0 and 0.0
    uint64_t x, y;
    std::memcpy(&x, &a, sizeof x);
    std::memcpy(&y, &b, sizeof y);
    return x == y;
}

void check_token(std::string_view text) {
    const NumberToken t = gfxstat::data::parse_number_token(text);
    if (text.size() > kMaxCompared || text.find('\0') != std::string_view::npos) return;

    const std::string z(text);
    char* end = nullptr;
    errno = 0;
    const double r = std::strtod(z.c_str(), &end);
    const bool whole = end == z.c_str() + z.size() && end != z.c_str();
    const int strtod_errno = errno;
    g_token = text;
    g_status = status_name(t.status);
    g_strtod = r;

    // Accepted exactly when strtod consumes the whole token.
    check(whole == (t.status != TokenStatus::malformed));
    if (!whole) return;

    switch (t.status) {
        case TokenStatus::decimal: {
            check(std::isfinite(r));
            check(t.significand <= 999'999'999'999'999'999ull);
            const int64_t m = t.negative ? -static_cast<int64_t>(t.significand)
                                         : static_cast<int64_t>(t.significand);
            const double v = gfxstat::analysis::decimal_to_double(m, t.exponent);
            check(same_double(v, r));
            break;
        }
        case TokenStatus::binary:
            check(std::isfinite(r));
            check(same_double(t.value, r));
            break;
        case TokenStatus::not_finite:
            check(!std::isfinite(r));
            check(starts_with_word(text));
            break;
        case TokenStatus::out_of_range:
            check(std::isinf(r) && strtod_errno == ERANGE);
            check(!starts_with_word(text));
            break;
        case TokenStatus::underflow:
            // Not zero as written, but 0 as a double: strtod says ERANGE.
            check(r == 0 && strtod_errno == ERANGE);
            check(!starts_with_word(text));
            break;
        case TokenStatus::malformed:
            break;  // excluded above
    }
    // The converse: a finite strtod result (underflow to a subnormal
    // included) must be accepted as a number; a result of 0 that strtod
    // calls an underflow is refused as one.
    if (std::isfinite(r) && !(r == 0 && strtod_errno == ERANGE))
        check(t.status == TokenStatus::decimal || t.status == TokenStatus::binary);
    if (r == 0 && strtod_errno == ERANGE) check(t.status == TokenStatus::underflow);
}

// Every field of `body`, split on white space (as ministat's default
// delimiters and strtod see it), then on the chosen delimiters.
void check_fields(std::string_view body, std::string_view delimiters) {
    for (std::string_view delim : {std::string_view(" \t\r\n\v\f"), delimiters}) {
        if (delim.empty()) continue;
        size_t i = 0;
        while (i < body.size()) {
            const size_t start = body.find_first_not_of(delim, i);
            if (start == std::string_view::npos) break;
            size_t stop = body.find_first_of(delim, start);
            if (stop == std::string_view::npos) stop = body.size();
            check_token(body.substr(start, stop - start));
            i = stop;
        }
    }
}

const std::string kDelimiters[] = {
    " \t", ",", " \t,", ";", "\t", " ", ":|", "", ".", "e", "0", "#", std::string("\0 ", 2),
};
constexpr size_t kDelimiterSets = sizeof kDelimiters / sizeof kDelimiters[0];

int memfd() {
    static const int fd = [] {
        const int f = ::memfd_create("fuzz_column_reader", MFD_CLOEXEC);
        if (f < 0) std::abort();
        return f;
    }();
    return fd;
}

// A descriptor from which `body` reads back whole (a memfd), or, when
// `chunk` > 0, in short reads of about `chunk` bytes (each a message of a
// SOCK_SEQPACKET socket, so the split is deterministic) -- which makes lines
// straddle read() calls. Returns the descriptor to close, or -1 for the memfd.
int input_fd(std::string_view body, size_t chunk, int* fd_out) {
    if (chunk == 0) {
        const int fd = memfd();
        if (::ftruncate(fd, 0) != 0) std::abort();
        size_t done = 0;
        while (done < body.size()) {
            const ssize_t n = ::pwrite(fd, body.data() + done, body.size() - done,
                                       static_cast<off_t>(done));
            if (n <= 0) std::abort();
            done += static_cast<size_t>(n);
        }
        if (::lseek(fd, 0, SEEK_SET) != 0) std::abort();
        *fd_out = fd;
        return -1;
    }
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) std::abort();
    // At most 64 messages, so that they all fit in the socket buffer.
    chunk = std::max(chunk, (body.size() + 63) / 64);
    for (size_t done = 0; done < body.size();) {
        const size_t len = std::min(chunk, body.size() - done);
        const ssize_t n = ::send(sv[1], body.data() + done, len, MSG_DONTWAIT);
        if (n != static_cast<ssize_t>(len)) {
            std::perror("fuzz_column_reader: send");
            std::abort();
        }
        done += len;
    }
    ::close(sv[1]);  // end of file after the last message
    *fd_out = sv[0];
    return sv[0];
}

constexpr size_t kChunkSizes[] = {0, 1, 2, 3, 7, 16, 61};
constexpr size_t kReadModes = sizeof kChunkSizes / sizeof kChunkSizes[0];

// What read_column should make of `body`, worked out independently from the
// rules in data/column_file.h.
struct Expected {
    size_t lines = 0;
    size_t lines_without_column = 0;
    size_t first_line_without_column = 0;
    std::vector<double> values;  // of the tokens in the column, while accepted
    size_t bad_line = 0;         // line of the first rejected token; 0 if none
    bool comparable = true;      // false when a token is too long to check
};

Expected expected_column(std::string_view body, const gfxstat::data::ColumnFormat& format) {
    bool delim[256] = {};
    for (unsigned char c : format.delimiters) delim[c] = true;
    auto is_delim = [&](char c) { return delim[static_cast<unsigned char>(c)]; };
    Expected e;
    size_t pos = 0;
    while (pos < body.size() && e.bad_line == 0) {
        size_t nl = body.find('\n', pos);
        if (nl == std::string_view::npos) nl = body.size();
        std::string_view line = body.substr(pos, nl - pos);
        pos = nl + 1;
        ++e.lines;
        while (!line.empty() && c_space(line.back())) line.remove_suffix(1);
        int field = 0;
        size_t i = 0;
        for (;;) {
            while (i < line.size() && is_delim(line[i])) ++i;
            if (i == line.size()) {
                if (field > 0 && e.lines_without_column++ == 0)
                    e.first_line_without_column = e.lines;
                break;
            }
            const size_t start = i;
            while (i < line.size() && !is_delim(line[i])) ++i;
            const std::string_view text = line.substr(start, i - start);
            if (text[0] == '#') break;
            if (++field < format.column) continue;
            check_token(text);  // the parser agrees with strtod on it
            const NumberToken t = gfxstat::data::parse_number_token(text);
            if (text.size() > kMaxCompared) e.comparable = false;
            if (t.status == TokenStatus::decimal) {
                const int64_t m = t.negative ? -static_cast<int64_t>(t.significand)
                                             : static_cast<int64_t>(t.significand);
                e.values.push_back(gfxstat::analysis::decimal_to_double(m, t.exponent));
            } else if (t.status == TokenStatus::binary) {
                e.values.push_back(t.value);
            } else {
                e.bad_line = e.lines;
            }
            break;
        }
    }
    return e;
}

struct ReadResult {
    bool ok = false;
    std::string error;  // InputError::what() when !ok
    gfxstat::data::ColumnFile file;
};

ReadResult read_via(std::string_view body, const gfxstat::data::ColumnFormat& format,
                    size_t chunk) {
    int fd = -1;
    const int to_close = input_fd(body, chunk, &fd);
    struct Closer {
        int fd;
        ~Closer() {
            if (fd >= 0) ::close(fd);
        }
    } closer{to_close};
    ReadResult r;
    try {
        r.file = gfxstat::data::read_column(fd, "fuzz", format);
        r.ok = true;
    } catch (const gfxstat::data::InputError& e) {
        r.error = e.what();  // bad data, reported properly
    }
    return r;
}

void check_reader(std::string_view body, const gfxstat::data::ColumnFormat& format,
                  size_t chunk) {
    g_token = {};
    g_status = "";
    const ReadResult whole = read_via(body, format, 0);
    const Expected want = expected_column(body, format);
    g_token = {};
    g_status = "";
    if (want.comparable) {
        // Rejected exactly when a token in the column is not a finite number,
        // with the line of the first such token in the message.
        check(whole.ok == (want.bad_line == 0));
        if (!whole.ok) {
            const std::string prefix = "fuzz:" + std::to_string(want.bad_line) + ": ";
            check(whole.error.compare(0, prefix.size(), prefix) == 0);
        } else {
            const gfxstat::data::ColumnFile& file = whole.file;
            check(file.lines == want.lines);
            check(file.lines_without_column == want.lines_without_column);
            check(file.first_line_without_column == want.first_line_without_column);
            check(file.sample.size() == want.values.size());
            const gfxstat::analysis::ScaledValues view = file.sample.view();
            for (size_t i = 0; i < want.values.size() && i < view.size(); ++i)
                check(same_double(view.at(i), want.values[i]));
        }
    }
    if (whole.ok) {
        const gfxstat::data::ColumnFile& file = whole.file;
        size_t lines = 0;
        for (char c : body) lines += c == '\n';
        if (!body.empty() && body.back() != '\n') ++lines;
        check(file.lines == lines);
        check(file.sample.name == "fuzz");
        const size_t n = file.sample.size();
        check(n <= file.lines);
        check(file.lines_without_column <= file.lines - n);
        check((file.lines_without_column == 0) == (file.first_line_without_column == 0));
        check(file.first_line_without_column <= file.lines);
        if (file.sample.binary_tokens > 0) check(!file.sample.exact());
        check(file.sample.binary_tokens <= n);
        const gfxstat::analysis::ScaledValues view = file.sample.view();
        check(view.size() == n);
        for (size_t i = 0; i < n; ++i) check(std::isfinite(view.at(i)));
    }
    // How the bytes arrive must not matter: short reads give the same result.
    // (Only for inputs whose messages fit in the socket buffer.)
    if (chunk == 0 || body.size() > 65536) return;
    const ReadResult split = read_via(body, format, chunk);
    check(split.ok == whole.ok);
    if (!whole.ok) {
        check(split.error == whole.error);
        return;
    }
    const gfxstat::data::ColumnFile &a = whole.file, &b = split.file;
    check(a.lines == b.lines);
    check(a.lines_without_column == b.lines_without_column);
    check(a.first_line_without_column == b.first_line_without_column);
    check(a.sample.binary_tokens == b.sample.binary_tokens);
    check(a.sample.exponent == b.sample.exponent);
    check(a.sample.values.index() == b.sample.values.index());
    check(a.sample.values == b.sample.values);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const unsigned control = data[0];
    const std::string_view body(reinterpret_cast<const char*>(data + 1), size - 1);

    gfxstat::data::ColumnFormat format;
    format.column = 1 + static_cast<int>(control % 3);
    format.delimiters = kDelimiters[(control / 3) % kDelimiterSets];
    const size_t chunk = kChunkSizes[(control / (3 * kDelimiterSets)) % kReadModes];

    check_token(body);
    check_fields(body, format.delimiters);
    check_reader(body, format, chunk);
    return 0;
}
