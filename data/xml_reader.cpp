// SPDX-License-Identifier: MIT
#include "data/xml_reader.h"

#include <algorithm>
#include <cstdint>

#include "data/input_error.h"
#include "data/utf8.h"

namespace gfxstat::data {

const XmlElement* XmlElement::child(std::string_view child_name) const {
    for (const XmlElement& c : children)
        if (c.name == child_name) return &c;
    return nullptr;
}

std::vector<const XmlElement*> XmlElement::children_named(std::string_view child_name) const {
    std::vector<const XmlElement*> out;
    for (const XmlElement& c : children)
        if (c.name == child_name) out.push_back(&c);
    return out;
}

namespace {

// Elements nest by recursion; a hostile file must not overflow the stack.
// PTS nests five deep.
constexpr int kMaxDepth = 256;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// XML names, restricted to ASCII where it matters; any byte of a UTF-8
// sequence is accepted so non-ASCII names do not need a Unicode table.
bool is_name_start(char c) {
    const unsigned char u = static_cast<unsigned char>(c);
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == ':' || u >= 0x80;
}
bool is_name_char(char c) {
    return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

// The characters XML 1.0 allows in a document (its "Char" production).
bool is_xml_char(uint32_t cp) {
    return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
           (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
}

class Parser {
public:
    Parser(std::string_view text, const std::string& file) : t_(text), file_(file) {}

    XmlElement document() {
        if (rest().starts_with("\xEF\xBB\xBF")) pos_ = 3;  // UTF-8 byte order mark
        declaration_pos_ = pos_;
        skip_misc();
        if (at_end()) fail("expected the root element, found end of file");
        if (t_[pos_] != '<' || pos_ + 1 >= t_.size() || !is_name_start(t_[pos_ + 1]))
            fail("expected the root element, found " + describe_next());
        XmlElement root;
        element(root, 0);
        skip_misc();
        if (!at_end())
            fail("expected end of file after </" + root.name + ">, found " + describe_next());
        return root;
    }

private:
    [[noreturn]] void fail(const std::string& what) const { throw input_error(file_, line_, what); }

    bool at_end() const { return pos_ >= t_.size(); }
    std::string_view rest() const { return t_.substr(pos_); }

    // Moves forward n bytes, counting the lines passed.
    void advance(size_t n) {
        const size_t end = std::min(t_.size(), pos_ + n);
        line_ += static_cast<size_t>(std::count(t_.begin() + pos_, t_.begin() + end, '\n'));
        pos_ = end;
    }

    void skip_space() {
        size_t n = 0;
        while (pos_ + n < t_.size() && is_space(t_[pos_ + n])) ++n;
        advance(n);
    }

    std::string describe_next() const {
        if (at_end()) return "end of file";
        std::string_view s = rest().substr(0, 20);
        s = s.substr(0, s.find('\n'));
        return quote_token(s.empty() ? std::string_view("\n") : s);
    }

    // White space, comments and processing instructions: what may surround
    // the root element.
    void skip_misc() {
        for (;;) {
            skip_space();
            if (rest().starts_with("<!--")) {
                comment();
            } else if (rest().starts_with("<?")) {
                processing_instruction();
            } else if (rest().starts_with("<!DOCTYPE")) {
                fail("DOCTYPE declarations are not supported (the files this reads have none)");
            } else {
                return;
            }
        }
    }

    void comment() {  // at "<!--"
        const size_t end = t_.find("-->", pos_ + 4);
        if (end == std::string_view::npos) fail("expected '-->' to end the comment, found end of file");
        if (t_.substr(pos_ + 4, end - (pos_ + 4)).find("--") != std::string_view::npos)
            fail("'--' inside a comment");
        advance(end + 3 - pos_);
    }

    void processing_instruction() {  // at "<?"
        const size_t start = pos_;
        advance(2);
        std::string target = name("after '<?'");
        std::transform(target.begin(), target.end(), target.begin(),
                       [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
        if (target == "xml" && start != declaration_pos_)
            fail("the <?xml ...?> declaration may only come first in the file");
        const size_t end = t_.find("?>", pos_);
        if (end == std::string_view::npos) fail("expected '?>' to end <?" + target + ", found end of file");
        advance(end + 2 - pos_);
    }

    std::string name(const char* where) {
        if (at_end() || !is_name_start(t_[pos_]))
            fail(std::string("expected a name ") + where + ", found " + describe_next());
        size_t n = 1;
        while (pos_ + n < t_.size() && is_name_char(t_[pos_ + n])) ++n;
        std::string s(t_.substr(pos_, n));
        advance(n);
        return s;
    }

    // At '&': decodes one reference onto `out`.
    void reference(std::string& out) {
        // The longest reference XML allows here is "&#x10FFFF;" (10 bytes).
        // Searching only that far keeps a file full of stray '&' linear.
        const size_t found = t_.substr(pos_, 11).find(';');
        const size_t semi = found == std::string_view::npos ? found : pos_ + found;
        if (semi == std::string_view::npos || semi == pos_ + 1)
            fail("expected a reference like &amp; after '&', found " + describe_next());
        const std::string_view body = t_.substr(pos_ + 1, semi - pos_ - 1);
        const std::string_view whole = t_.substr(pos_, semi + 1 - pos_);
        if (body == "amp") out += '&';
        else if (body == "lt") out += '<';
        else if (body == "gt") out += '>';
        else if (body == "quot") out += '"';
        else if (body == "apos") out += '\'';
        else if (body[0] == '#') out += character_reference(body, whole);
        else
            fail("unknown entity " + quote_token(whole) +
                 " (without a DOCTYPE only &amp; &lt; &gt; &quot; &apos; and &#N; are defined)");
        advance(semi + 1 - pos_);
    }

    std::string character_reference(std::string_view body, std::string_view whole) {
        const bool hex = body.size() > 1 && body[1] == 'x';
        const std::string_view digits = body.substr(hex ? 2 : 1);
        uint32_t cp = 0;
        bool ok = !digits.empty();
        for (char c : digits) {
            int d = -1;
            if (c >= '0' && c <= '9') d = c - '0';
            else if (hex && c >= 'a' && c <= 'f') d = c - 'a' + 10;
            else if (hex && c >= 'A' && c <= 'F') d = c - 'A' + 10;
            if (d < 0 || cp > 0x10FFFF) {
                ok = false;
                break;
            }
            cp = cp * (hex ? 16 : 10) + static_cast<uint32_t>(d);
        }
        if (!ok) fail("expected a decimal or hexadecimal character number in " + quote_token(whole));
        if (!is_xml_char(cp)) fail(quote_token(whole) + " is not a character XML allows");
        std::string out;
        append_utf8(out, cp);
        return out;
    }

    // After the element's name: attributes, then '>' or "/>". Attribute
    // values are checked and dropped (PTS writes none that matter here).
    // Returns true for an empty-element tag.
    bool start_tag_end(const std::string& element_name) {
        for (;;) {
            const size_t before = pos_;
            skip_space();
            if (rest().starts_with("/>")) {
                advance(2);
                return true;
            }
            if (rest().starts_with(">")) {
                advance(1);
                return false;
            }
            if (at_end() || pos_ == before || !is_name_start(t_[pos_]))
                fail("expected an attribute, '>' or '/>' in the start tag of <" + element_name + ">, found " +
                     describe_next());
            const std::string attribute = name("for an attribute");
            skip_space();
            if (at_end() || t_[pos_] != '=')
                fail("expected '=' after attribute " + attribute + ", found " + describe_next());
            advance(1);
            skip_space();
            if (at_end() || (t_[pos_] != '"' && t_[pos_] != '\''))
                fail("expected a quoted value for attribute " + attribute + ", found " + describe_next());
            const char quote = t_[pos_];
            advance(1);
            std::string ignored;
            for (;;) {
                if (at_end()) fail("expected the closing quote of attribute " + attribute + ", found end of file");
                const char c = t_[pos_];
                if (c == quote) break;
                if (c == '<') fail("'<' inside the value of attribute " + attribute);
                if (c == '&') reference(ignored);
                else advance(1);
            }
            advance(1);
        }
    }

    void element(XmlElement& e, int depth) {  // at '<' before a name
        if (depth >= kMaxDepth) fail("elements nested more than " + std::to_string(kMaxDepth) + " deep");
        e.line = line_;
        advance(1);
        e.name = name("after '<'");
        if (start_tag_end(e.name)) return;
        for (;;) {
            if (at_end())
                fail("expected </" + e.name + "> to close <" + e.name + "> from line " + std::to_string(e.line) +
                     ", found end of file");
            const char c = t_[pos_];
            if (c == '&') {
                reference(e.text);
            } else if (c != '<') {
                size_t n = 1;
                while (pos_ + n < t_.size() && t_[pos_ + n] != '<' && t_[pos_ + n] != '&') ++n;
                e.text.append(t_.substr(pos_, n));
                advance(n);
            } else if (rest().starts_with("</")) {
                advance(2);
                const std::string closing = name("after '</'");
                skip_space();
                if (at_end() || t_[pos_] != '>')
                    fail("expected '>' to end </" + closing + ">, found " + describe_next());
                if (closing != e.name)
                    fail("expected </" + e.name + "> to close <" + e.name + "> from line " +
                         std::to_string(e.line) + ", found </" + closing + ">");
                advance(1);
                return;
            } else if (rest().starts_with("<!--")) {
                comment();
            } else if (rest().starts_with("<![CDATA[")) {
                const size_t end = t_.find("]]>", pos_ + 9);
                if (end == std::string_view::npos) fail("expected ']]>' to end the CDATA section, found end of file");
                e.text.append(t_.substr(pos_ + 9, end - (pos_ + 9)));
                advance(end + 3 - pos_);
            } else if (rest().starts_with("<?")) {
                processing_instruction();
            } else if (pos_ + 1 < t_.size() && is_name_start(t_[pos_ + 1])) {
                e.children.emplace_back();
                element(e.children.back(), depth + 1);
            } else {
                fail("expected an element, comment, CDATA section or </" + e.name + "> after '<', found " +
                     describe_next());
            }
        }
    }

    std::string_view t_;
    const std::string& file_;
    size_t pos_ = 0;
    size_t line_ = 1;
    size_t declaration_pos_ = 0;  // where <?xml ...?> may stand: after a byte order mark
};

}  // namespace

XmlElement read_xml(std::string_view text, const std::string& file) { return Parser(text, file).document(); }

}  // namespace gfxstat::data
