// SPDX-License-Identifier: MIT
// text/xml_escape.h: the one XML escaper of JUnit files, the HTML page and
// SVG. Whatever the text holds, the result is XML 1.0 character data: only
// tab, newline, return, U+0020..U+D7FF, U+E000..U+FFFD, U+10000..U+10FFFF,
// with & < > " ' as entities.
#include "text/xml_escape.h"

#include <gtest/gtest.h>

#include <string>

#include "text/text_escape.h"

namespace gfxstat::text {
namespace {

using namespace std::string_literals;

// Whether `s` is UTF-8 of XML 1.0 characters only, with no raw markup.
bool xml_characters_only(const std::string& s) {
    for (size_t i = 0; i < s.size();) {
        const size_t len = utf8_length(std::string_view(s).substr(i));
        if (len == 0) return false;
        const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
        if (len == 1 && ((b(0) < 0x20 && b(0) != '\t' && b(0) != '\n' && b(0) != '\r') || b(0) == '<' ||
                         b(0) == '>' || b(0) == '"' || b(0) == '\''))
            return false;
        if (len == 3 && b(0) == 0xef && b(1) == 0xbf && b(2) >= 0xbe) return false;  // U+FFFE, U+FFFF
        i += len;
    }
    return true;
}

TEST(XmlEscape, MarkupBecomesEntities) {
    EXPECT_EQ(xml_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
    EXPECT_EQ(xml_escape("line 1\nline 2\ttab"), "line 1\nline 2\ttab");  // <pre> and <system-out> keep lines
    EXPECT_EQ(xml_escape("é – ☃ 😀"), "é – ☃ 😀");
}

TEST(XmlEscape, WhatXmlCannotHoldIsShown) {
    EXPECT_EQ(xml_escape("x\xef\xbf\xbe"), "x\\ufffe");
    EXPECT_EQ(xml_escape("y\xef\xbf\xbfz"), "y\\uffffz");
    EXPECT_EQ(xml_escape("\xef\xbf\xbd"), "\xef\xbf\xbd");                 // U+FFFD is a character
    EXPECT_EQ(xml_escape("\xef\xb7\x90"), "\xef\xb7\x90");                 // U+FDD0: allowed by XML
    EXPECT_EQ(xml_escape("\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf");         // U+10FFFF: allowed
    EXPECT_EQ(xml_escape("a\x1b[2J\x7f"s), "a\\x1b[2J\\x7f");
    EXPECT_EQ(xml_escape("\0"s), "\\x00");
    EXPECT_EQ(xml_escape("\xc2\x9b"), "\\u009b");                          // C1 (CSI)
    EXPECT_EQ(xml_escape("\xed\xa0\x80"), "\\xed\\xa0\\x80");             // a surrogate is not UTF-8
    EXPECT_EQ(xml_escape("caf\xe9"), "caf\\xe9");                          // Latin-1
}

TEST(XmlEscape, XmlTextEscapesForPeopleFirst) {
    EXPECT_EQ(xml_text("a\nb"), "a\\nb");
    EXPECT_EQ(xml_text("x\xef\xbf\xbe<"), "x\\ufffe&lt;");
    EXPECT_EQ(xml_text("\xe2\x80\xae"), "\\u202e");  // a bidi override, made visible by escape_text
}

TEST(XmlEscape, EveryCodePointGivesXmlCharacters) {
    // Every code point of the BMP, those above it in steps, and every lone
    // byte: escaped alone and inside text.
    std::string all;
    for (unsigned cp = 0; cp <= 0x10ffff; cp += cp < 0x800 ? 1 : cp < 0x10000 ? 1 : 0x101) {
        if (cp >= 0xd800 && cp <= 0xdfff) continue;
        std::string u;
        if (cp < 0x80) u += static_cast<char>(cp);
        else if (cp < 0x800) u += {static_cast<char>(0xc0 | (cp >> 6)), static_cast<char>(0x80 | (cp & 0x3f))};
        else if (cp < 0x10000)
            u += {static_cast<char>(0xe0 | (cp >> 12)), static_cast<char>(0x80 | ((cp >> 6) & 0x3f)),
                  static_cast<char>(0x80 | (cp & 0x3f))};
        else
            u += {static_cast<char>(0xf0 | (cp >> 18)), static_cast<char>(0x80 | ((cp >> 12) & 0x3f)),
                  static_cast<char>(0x80 | ((cp >> 6) & 0x3f)), static_cast<char>(0x80 | (cp & 0x3f))};
        ASSERT_TRUE(xml_characters_only(xml_escape(u))) << std::hex << cp;
        all += u;
    }
    for (unsigned b = 0; b < 256; ++b) all += static_cast<char>(b);
    EXPECT_TRUE(xml_characters_only(xml_escape(all)));
    EXPECT_TRUE(xml_characters_only(xml_text(all)));
}

}  // namespace
}  // namespace gfxstat::text
