// SPDX-License-Identifier: MIT
// Text as XML 1.0 character data or an attribute value: the one escaper of
// everything gfxstat writes as XML (the SVG charts, the HTML page, which is
// well-formed XML, and JUnit files). A file with one character XML cannot
// hold is not a file with one odd character but no file at all: xmllint
// and GitLab's JUnit reader reject it whole, the gate's <failure> with it.
//
// XML 1.0 holds only tab, newline, return, U+0020..U+D7FF,
// U+E000..U+FFFD and U+10000..U+10FFFF. Whatever else reaches here is
// shown in text_escape.h's visible form:
//   & < > " '          &amp; &lt; &gt; &quot; &apos;
//   C0 controls (but tab, newline, return), DEL, and each byte that is
//   not part of valid UTF-8 (surrogates, overlong forms)   \xNN
//   C1 controls        \u0080..\u009f (allowed by XML, forbidden in HTML)
//   U+FFFE, U+FFFF     \ufffe \uffff
// Everything else, including valid multibyte UTF-8 ("é", "–"), is kept.
#pragma once

#include <string>
#include <string_view>

namespace gfxstat::text {

// `text` already escaped for people (escape_text, escape_message, or a
// renderer's report), made XML: entities, and what XML cannot hold shown.
std::string xml_escape(std::string_view text);

// Text from data: escape_text (text_escape.h), then xml_escape.
std::string xml_text(std::string_view raw);

// Lines for people (a message, a report): each line escaped as a message
// (escape_message, text_escape.h), newlines kept as newlines (JUnit's
// <system-out>, <error>), then xml_escape.
std::string xml_message(std::string_view raw);

}  // namespace gfxstat::text
