// SPDX-License-Identifier: MIT
// text/text_escape.h: text from data as printed for people. Every
// control (C0, DEL, C1) and every byte outside valid UTF-8 becomes a
// visible escape; valid multibyte UTF-8 is kept as it is.
#include "text/text_escape.h"

#include <gtest/gtest.h>

#include <string>

namespace gfxstat::text {
namespace {

using namespace std::string_literals;

TEST(TextEscape, PlainTextIsKept) {
    EXPECT_EQ(escape_text(""), "");
    EXPECT_EQ(escape_text("mesa-24.1 (before) ~ 100% {x}"), "mesa-24.1 (before) ~ 100% {x}");
    EXPECT_EQ(escape_text("a|b"), "a|b");  // only markdown needs '|' escaped
}

TEST(TextEscape, C0Controls) {
    EXPECT_EQ(escape_text("a\nb"), "a\\nb");
    EXPECT_EQ(escape_text("a\tb\r"), "a\\tb\\r");
    EXPECT_EQ(escape_text("\x1b]0;pwned\x07\x1b[2Jsleep 1"), "\\x1b]0;pwned\\x07\\x1b[2Jsleep 1");
    EXPECT_EQ(escape_text("\x01\x1f"), "\\x01\\x1f");
    EXPECT_EQ(escape_text("a\0b"s), "a\\x00b");  // a NUL byte does not end the text
}

TEST(TextEscape, Del) { EXPECT_EQ(escape_text("x\x7fy"), "x\\x7fy"); }

TEST(TextEscape, C1ControlsAsCodePoints) {
    EXPECT_EQ(escape_text("\xc2\x80"), "\\u0080");
    EXPECT_EQ(escape_text("a\xc2\x9b" "2Jb"), "a\\u009b2Jb");  // CSI
    EXPECT_EQ(escape_text("\xc2\x9f"), "\\u009f");
    EXPECT_EQ(escape_text("\xc2\xa0"), "\xc2\xa0");  // U+00A0 is no control
}

TEST(TextEscape, InvalidUtf8AsBytes) {
    EXPECT_EQ(escape_text("\x9b" "2J"), "\\x9b2J");         // a raw C1 byte
    EXPECT_EQ(escape_text("caf\xe9"), "caf\\xe9");          // Latin-1
    EXPECT_EQ(escape_text("\xc3"), "\\xc3");                // truncated sequence
    EXPECT_EQ(escape_text("\xc3(x"), "\\xc3(x");            // bad continuation
    EXPECT_EQ(escape_text("\xc0\xaf"), "\\xc0\\xaf");       // overlong '/'
    EXPECT_EQ(escape_text("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
    EXPECT_EQ(escape_text("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
    EXPECT_EQ(escape_text("\xff\xfe"), "\\xff\\xfe");
}

TEST(TextEscape, ValidMultibyteKept) {
    EXPECT_EQ(escape_text("é"), "é");
    EXPECT_EQ(escape_text("before – after"), "before – after");
    EXPECT_EQ(escape_text("μs ≥ 5 \xf0\x9f\x93\x88"), "μs ≥ 5 \xf0\x9f\x93\x88");
    EXPECT_EQ(escape_text("é\nè"), "é\\nè");
}

TEST(TextEscape, BackslashDoubled) {
    // A label that really reads \x1b must not look like an escaped ESC.
    EXPECT_EQ(escape_text("\\x1b"), "\\\\x1b");
    EXPECT_NE(escape_text("\\x1b"), escape_text("\x1b"));
    EXPECT_EQ(escape_text("C:\\mesa"), "C:\\\\mesa");
}

TEST(TextEscape, MessagesKeepBackslashes) {
    // Messages quote tokens from files already (data::quote_token): their
    // backslashes are not doubled again; controls are escaped all the same.
    EXPECT_EQ(escape_message("invalid metric name \"fps\\x1b[2J\""), "invalid metric name \"fps\\x1b[2J\"");
    EXPECT_EQ(escape_message("r.json:3: no\x1b[2Jsuch \xc2\x9b \x9b é\n"),
              "r.json:3: no\\x1b[2Jsuch \\u009b \\x9b é\\n");
}

// A name reversed by a right-to-left override, or two names told apart only
// by a zero-width space, are shown for what they hold.
TEST(TextEscape, InvisibleFormatCharacters) {
    EXPECT_EQ(escape_text("gl_\u202etrex"), "gl_\\u202etrex");
    EXPECT_EQ(escape_text("a\u200bb\u2066c\u2069\ufeff\u2028"), "a\\u200bb\\u2066c\\u2069\\ufeff\\u2028");
    // Their neighbours in the same blocks are text.
    EXPECT_EQ(escape_text("\u2010\u2030\u206a\u2013"), "\u2010\u2030\u206a\u2013");
}

TEST(TextEscape, Markdown) {
    EXPECT_EQ(escape_markdown("a|b"), "a\\|b");
    EXPECT_EQ(escape_markdown("| x |\n| y |"), "\\| x \\|\\n\\| y \\|");
    EXPECT_EQ(escape_markdown("\x1b[31mred é"), "\\x1b\\[31mred é");
    // Names that would emphasise, link, open a code span or carry HTML.
    EXPECT_EQ(escape_markdown("*a* [b](http://x) `c` <img src=x> &amp;"),
              "\\*a\\* \\[b\\](http://x) \\`c\\` \\<img src=x\\> \\&amp;");
    EXPECT_EQ(escape_markdown("\\|"), "\\\\\\|");  // the backslash, then the pipe
}

TEST(TextEscape, EscapedTextIsSafe) {
    // Every byte value, alone and after a lead byte: nothing below 0x20, no
    // DEL, no C1, and valid UTF-8 (a byte >= 0x80 only in a valid sequence).
    for (int lead : {-1, 0xc2, 0xe2, 0xf0})
        for (int b = 0; b < 256; ++b) {
            std::string in;
            if (lead >= 0) in += static_cast<char>(lead);
            in += static_cast<char>(b);
            const std::string out = escape_text(in);
            for (size_t i = 0; i < out.size(); ++i) {
                const auto c = static_cast<unsigned char>(out[i]);
                EXPECT_TRUE(c >= 0x20 && c != 0x7f) << "byte " << b << " after " << lead;
                if (c == 0xc2 && i + 1 < out.size()) {
                    EXPECT_GT(static_cast<unsigned char>(out[i + 1]), 0x9f) << "C1 from " << b;
                }
                if (c >= 0x80 && c < 0xc0) {
                    EXPECT_GT(i, 0u) << "stray continuation byte";
                }
            }
            if (lead < 0 && b >= 0x80) {
                EXPECT_EQ(out.size(), 4u) << b;  // \xNN
            }
        }
}

TEST(TextEscape, ClipKeepsSequencesWhole) {
    EXPECT_EQ(clip_text("abcdef", 6), "abcdef");
    EXPECT_EQ(clip_text("abcdefg", 6), "abcde~");
    EXPECT_EQ(clip_text("ab–cd", 4), "ab~");  // "–" is 3 bytes: not cut inside
    EXPECT_EQ(clip_text("éééé", 4), "é~");
    EXPECT_EQ(clip_text("abc", 0), "~");
}

}  // namespace
}  // namespace gfxstat::text
