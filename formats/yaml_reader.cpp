// SPDX-License-Identifier: MIT
#include "formats/yaml_reader.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>

#include "data/input_error.h"
#include "data/utf8.h"

namespace gfxstat::formats {

namespace {

using data::append_utf8;

constexpr int kMaxDepth = 64;

[[noreturn]] void fail(const std::string& file, size_t line, const std::string& what) {
    throw data::input_error(file, line, what);
}

// What a character is, for messages: 'x', or \xNN for the unprintable.
std::string shown(std::string_view s, size_t pos) {
    if (pos >= s.size()) return "the end of the line";
    return data::quote_token(s.substr(pos, 1));
}

// The text of one value: its first line from where the value starts, and
// the lines it continues on (folded scalars, flow collections over lines),
// joined by '\n' with their indentation removed. Offsets map to lines.
struct Text {
    std::string s;
    std::vector<std::pair<size_t, size_t>> starts;  // (offset, line number)
    void add(std::string_view part, size_t line) {
        if (!starts.empty()) s += '\n';
        starts.emplace_back(s.size(), line);
        s += part;
    }
    size_t line_of(size_t pos) const {
        auto it = std::upper_bound(starts.begin(), starts.end(), std::make_pair(pos, SIZE_MAX));
        return it == starts.begin() ? starts.front().second : std::prev(it)->second;
    }
};

// Parses scalars and flow collections from a Text.
class Scanner {
public:
    Scanner(const std::string& file, const Text& t) : file_(file), t_(t), s_(t.s) {}

    // One node, then nothing but blanks and comments up to the end.
    YamlNode whole(int depth) {
        YamlNode n = node(false, depth);
        skip_blanks(true);
        if (pos_ < s_.size())
            error("the end of the value (a comment starts with ' #'), not " + shown(s_, pos_));
        return n;
    }

private:
    const std::string& file_;
    const Text& t_;
    const std::string& s_;
    size_t pos_ = 0;

    [[noreturn]] void error(const std::string& what) const { fail(file_, t_.line_of(pos_), "expected " + what); }

    bool at_end() const { return pos_ >= s_.size(); }
    char peek(size_t ahead = 0) const { return pos_ + ahead < s_.size() ? s_[pos_ + ahead] : '\0'; }
    static bool space(char c) { return c == ' ' || c == '\t'; }
    bool blank_or_end(size_t ahead) const {
        return pos_ + ahead >= s_.size() || space(s_[pos_ + ahead]) || s_[pos_ + ahead] == '\n';
    }
    static bool flow_indicator(char c) { return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'; }

    // Blanks, and with `lines` newlines and comments too.
    void skip_blanks(bool lines) {
        while (!at_end()) {
            const char c = s_[pos_];
            if (space(c) || (lines && c == '\n')) {
                ++pos_;
            } else if (c == '#' && (pos_ == 0 || space(s_[pos_ - 1]) || s_[pos_ - 1] == '\n')) {
                while (!at_end() && s_[pos_] != '\n') ++pos_;
            } else {
                break;
            }
        }
    }

    void check_char(unsigned char c) const {
        if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7F)
            error("printable text (YAML holds no control character raw), not " +
                  data::quote_token(std::string_view(reinterpret_cast<const char*>(&c), 1)));
    }

    YamlNode node(bool in_flow, int depth) {
        if (depth > kMaxDepth) error("nesting at most " + std::to_string(kMaxDepth) + " levels deep");
        skip_blanks(in_flow);
        YamlNode n;
        n.line = t_.line_of(pos_);
        const char c = peek();
        switch (c) {
            case '{': return flow_mapping(depth);
            case '[': return flow_sequence(depth);
            case '"': n.text = double_quoted(), n.quoted = true; return n;
            case '\'': n.text = single_quoted(), n.quoted = true; return n;
            case '&': error("a value, not an anchor ('&': not used by LAVA's exports, not supported)");
            case '*': error("a value, not an alias ('*': not used by LAVA's exports, not supported)");
            case '!': return tagged(in_flow, depth);
            case '|':
            case '>': error("a value, not a block scalar ('|' or '>': not used by LAVA's exports, not supported)");
            case '%':
            case '@':
            case '`': error("a value, not " + shown(s_, pos_) + " (reserved in YAML)");
            case '?':
                if (blank_or_end(1)) error("a simple key, not a complex key ('? ': not supported)");
                break;
            default: break;
        }
        n.text = plain(in_flow);
        return n;
    }

    // The tags PyYAML writes where a style forces quotes: lava-run's log
    // (default_style='"') has `! "1.5"` for a float measurement and
    // `! "null"` for None: `!` asks for the plain scalar's resolution.
    // Also YAML's standard scalar tags !!null, !!str, !!int, !!float,
    // !!bool (safe_dump's `!!null ''`).
    YamlNode tagged(bool in_flow, int depth) {
        const size_t start = pos_;
        while (!at_end() && !space(s_[pos_]) && s_[pos_] != '\n' && !(in_flow && flow_indicator(s_[pos_]))) ++pos_;
        const std::string tag = s_.substr(start, pos_ - start);
        if (tag != "!" && tag != "!!null" && tag != "!!str" && tag != "!!int" && tag != "!!float" && tag != "!!bool") {
            pos_ = start;
            error("a value, not the tag " + data::quote_token(tag) +
                  " (only !, !!null, !!str, !!int, !!float and !!bool are read)");
        }
        YamlNode n = node(in_flow, depth + 1);
        if (!n.is_scalar()) {
            pos_ = start;
            error("a scalar after " + tag);
        }
        if (tag == "!!null") n.text.clear(), n.quoted = false;
        else if (tag == "!!str") n.quoted = true;
        else if (tag == "!") n.quoted = false;  // resolved as a plain scalar would be: ! "null" is null
        return n;
    }

    // At the '{' or '[' that opens a flow collection: its node, empty; past
    // the bracket.
    YamlNode open_flow(YamlNode::Kind kind) {
        YamlNode n;
        n.kind = kind;
        n.line = t_.line_of(pos_);
        ++pos_;
        return n;
    }

    // Where a flow collection's next item would start: false at `close`
    // (after the last item, or a trailing ','), an error at the end of the
    // text.
    bool flow_item_follows(char close, const char* what, size_t line) {
        skip_blanks(true);
        if (peek() == close) return false;
        if (at_end())
            error(std::string("'") + close + "' to close the flow " + what + " that begins on line " + std::to_string(line));
        return true;
    }

    // After an item of a flow collection: true past its ',' (another item
    // may follow), false at `close`; anything else is an error.
    bool flow_comma(char close, const char* what) {
        skip_blanks(true);
        if (peek() == ',') {
            ++pos_;
            return true;
        }
        if (peek() == close) return false;
        error(std::string("',' or '") + close + "' in the flow " + what + ", not " + shown(s_, pos_));
    }

    YamlNode flow_mapping(int depth) {
        YamlNode n = open_flow(YamlNode::Kind::mapping);
        // Keys seen, hashed: a line of 50,000 keys stays linear.
        std::unordered_set<std::string> keys;
        while (flow_item_follows('}', "mapping", n.line)) {
            const size_t key_at = pos_;
            YamlNode key = node(true, depth + 1);
            if (!key.is_scalar()) {
                pos_ = key_at;
                error("a scalar key in the flow mapping");
            }
            skip_blanks(true);
            if (peek() != ':') error("':' after the key " + data::quote_token(key.text) + ", not " + shown(s_, pos_));
            ++pos_;
            skip_blanks(true);
            YamlNode value;
            if (peek() == ',' || peek() == '}') value.line = t_.line_of(pos_);
            else value = node(true, depth + 1);
            if (!keys.insert(key.text).second) {
                pos_ = key_at;
                error("each key once in a mapping; " + data::quote_token(key.text) + " is given twice");
            }
            n.members.push_back(YamlMember{std::move(key.text), std::move(value)});
            if (!flow_comma('}', "mapping")) break;
        }
        ++pos_;  // '}'
        return n;
    }

    YamlNode flow_sequence(int depth) {
        YamlNode n = open_flow(YamlNode::Kind::sequence);
        while (flow_item_follows(']', "sequence", n.line)) {
            n.items.push_back(node(true, depth + 1));
            if (!flow_comma(']', "sequence")) break;
        }
        ++pos_;  // ']'
        return n;
    }

    // At a line break inside a quoted scalar: YAML's folding. Trailing
    // blanks before it go; one break is a space, each further (empty)
    // line a '\n'; the next line's leading blanks go.
    void fold(std::string& out, size_t& keep) {
        out.resize(keep);
        size_t breaks = 0;
        while (!at_end() && (s_[pos_] == '\n' || space(s_[pos_]))) breaks += s_[pos_++] == '\n';
        if (breaks == 1) out += ' ';
        else out.append(breaks - 1, '\n');
        keep = out.size();
    }

    // U+2028 and U+2029 (PyYAML writes them raw with allow_unicode) are
    // line breaks to YAML 1.1 that folding keeps as they are: the blanks
    // around them go.
    bool line_separator() const {
        return peek() == '\xE2' && peek(1) == '\x80' && (peek(2) == '\xA8' || peek(2) == '\xA9');
    }
    void keep_separator(std::string& out, size_t& keep) {
        out.resize(keep);
        out.append(s_, pos_, 3);
        pos_ += 3;
        while (!at_end() && space(s_[pos_])) ++pos_;
        keep = out.size();
    }
    // Inside a quoted scalar at `c`: a line break folded or a line separator
    // kept (true), or neither (false), the same in both quotes.
    bool line_break_taken(char c, std::string& out, size_t& keep) {
        if (c == '\n') fold(out, keep);
        else if (line_separator()) keep_separator(out, keep);
        else return false;
        return true;
    }

    uint32_t hex_escape(int digits) {
        uint32_t v = 0;
        for (int k = 0; k < digits; ++k) {
            const char h = peek();
            int d = -1;
            if (h >= '0' && h <= '9') d = h - '0';
            else if (h >= 'a' && h <= 'f') d = h - 'a' + 10;
            else if (h >= 'A' && h <= 'F') d = h - 'A' + 10;
            if (d < 0) error(std::to_string(digits) + " hex digits after the escape, not " + shown(s_, pos_));
            v = v * 16 + static_cast<uint32_t>(d);
            ++pos_;
        }
        return v;
    }

    std::string double_quoted() {
        const size_t open_line = t_.line_of(pos_);
        ++pos_;
        std::string out;
        size_t keep = 0;  // out's length without raw trailing blanks
        for (;;) {
            if (at_end()) error("'\"' to close the string that begins on line " + std::to_string(open_line));
            const char c = s_[pos_];
            if (c == '"') {
                ++pos_;
                return out;
            }
            if (line_break_taken(c, out, keep)) continue;
            if (c != '\\') {
                check_char(static_cast<unsigned char>(c));
                out += c;
                ++pos_;
                if (!space(c)) keep = out.size();
                continue;
            }
            ++pos_;
            const char e = peek();
            ++pos_;
            switch (e) {
                case '0': out += '\0'; break;
                case 'a': out += '\a'; break;
                case 'b': out += '\b'; break;
                case 't':
                case '\t': out += '\t'; break;
                case 'n': out += '\n'; break;
                case 'v': out += '\v'; break;
                case 'f': out += '\f'; break;
                case 'r': out += '\r'; break;
                case 'e': out += '\x1b'; break;
                case ' ': out += ' '; break;
                case '"': out += '"'; break;
                case '/': out += '/'; break;
                case '\\': out += '\\'; break;
                case 'N': append_utf8(out, 0x85); break;
                case '_': append_utf8(out, 0xA0); break;
                case 'L': append_utf8(out, 0x2028); break;
                case 'P': append_utf8(out, 0x2029); break;
                case 'x':
                case 'u':
                case 'U': {
                    const uint32_t cp = hex_escape(e == 'x' ? 2 : e == 'u' ? 4 : 8);
                    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                        pos_ -= 1;
                        error("a Unicode scalar value in the escape (not a surrogate, at most 10FFFF)");
                    }
                    append_utf8(out, cp);
                    break;
                }
                case '\n':
                    // An escaped line break: the lines join with nothing
                    // between them but what the next line escapes.
                    while (!at_end() && space(s_[pos_])) ++pos_;
                    break;
                default:
                    pos_ -= 1;
                    error("an escape of YAML's double-quoted strings (\\\\ \\\" \\n \\t \\xNN \\uNNNN ...), not '\\' "
                          "and " + shown(s_, pos_));
            }
            keep = out.size();
        }
    }

    std::string single_quoted() {
        const size_t open_line = t_.line_of(pos_);
        ++pos_;
        std::string out;
        size_t keep = 0;
        for (;;) {
            if (at_end()) error("\"'\" to close the string that begins on line " + std::to_string(open_line));
            const char c = s_[pos_];
            if (c == '\'') {
                if (peek(1) == '\'') {
                    out += '\'';
                    pos_ += 2;
                    keep = out.size();
                    continue;
                }
                ++pos_;
                return out;
            }
            if (line_break_taken(c, out, keep)) continue;
            check_char(static_cast<unsigned char>(c));
            out += c;
            ++pos_;
            if (!space(c)) keep = out.size();
        }
    }

    // A plain scalar: up to a comment, the end, and in a flow collection up
    // to ',', a bracket or ': '. Its lines fold as a quoted scalar's do.
    std::string plain(bool in_flow) {
        std::string out;
        size_t keep = 0;
        const size_t start = pos_;
        while (!at_end()) {
            const char c = s_[pos_];
            if (c == ':' && (blank_or_end(1) || (in_flow && flow_indicator(peek(1))))) {
                if (in_flow) break;
                error("a plain value without ': ' in it (quote the value), not ':' there");
            }
            if (in_flow && flow_indicator(c)) break;
            if (c == '#' && pos_ > start && (space(s_[pos_ - 1]) || s_[pos_ - 1] == '\n')) break;
            if (c == '\n') {
                // A line that starts a comment ends the scalar.
                size_t k = pos_;
                while (k < s_.size() && (s_[k] == '\n' || space(s_[k]))) ++k;
                if (k >= s_.size() || s_[k] == '#') break;
                if (in_flow && (flow_indicator(s_[k]) || s_[k] == ':')) break;
                fold(out, keep);
                continue;
            }
            check_char(static_cast<unsigned char>(c));
            out += c;
            ++pos_;
            if (!space(c)) keep = out.size();
        }
        out.resize(keep);
        if (out.empty() && in_flow && pos_ == start) error("a value, not " + shown(s_, pos_));
        return out;
    }
};

struct Line {
    size_t number = 0;
    size_t indent = 0;
    std::string_view content;  // after the indentation, without '\r'
    bool blank = false;        // empty, or a comment only
};

bool dash_item(std::string_view c) { return !c.empty() && c[0] == '-' && (c.size() == 1 || c[1] == ' '); }

// Where a block mapping's key ends: the ':' of "key: value" or "key:", if
// the line is one (a quoted key, or a plain one before the first ': ').
std::optional<size_t> key_colon(std::string_view c) {
    size_t i = 0;
    if (c.empty() || c[0] == '{' || c[0] == '[' || c[0] == '#') return std::nullopt;
    if (c[0] == '"' || c[0] == '\'') {
        const char q = c[0];
        for (i = 1; i < c.size(); ++i) {
            if (q == '"' && c[i] == '\\') ++i;
            else if (c[i] == q) {
                if (q == '\'' && i + 1 < c.size() && c[i + 1] == '\'') ++i;
                else break;
            }
        }
        if (i >= c.size()) return std::nullopt;
        ++i;
        while (i < c.size() && c[i] == ' ') ++i;
        if (i < c.size() && c[i] == ':' && (i + 1 == c.size() || c[i + 1] == ' ' || c[i + 1] == '\t')) return i;
        return std::nullopt;
    }
    for (; i < c.size(); ++i) {
        if (c[i] == '#' && i > 0 && (c[i - 1] == ' ' || c[i - 1] == '\t')) return std::nullopt;
        if (c[i] == ':' && (i + 1 == c.size() || c[i + 1] == ' ' || c[i + 1] == '\t')) return i;
    }
    return std::nullopt;
}

bool blank_rest(std::string_view c) {
    size_t i = 0;
    while (i < c.size() && (c[i] == ' ' || c[i] == '\t')) ++i;
    return i == c.size() || c[i] == '#';
}

class BlockParser {
public:
    BlockParser(std::string_view text, const std::string& file) : file_(file) {
        size_t number = 0;
        for (size_t at = 0; at <= text.size();) {
            const size_t nl = text.find('\n', at);
            std::string_view raw = text.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
            ++number;
            at = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
            if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
            Line l;
            l.number = number;
            while (l.indent < raw.size() && raw[l.indent] == ' ') ++l.indent;
            l.content = raw.substr(l.indent);
            l.blank = blank_rest(l.content);
            if (!l.blank && l.content[0] == '\t')
                fail(file_, number, "expected indentation by spaces (YAML allows no tab there)");
            lines_.push_back(l);
        }
    }

    YamlNode document() {
        skip_blank();
        if (i_ < lines_.size() && lines_[i_].indent == 0 && lines_[i_].content.substr(0, 1) == "%")
            fail(file_, lines_[i_].number, "expected a YAML document, not a directive (not supported)");
        if (i_ < lines_.size() && lines_[i_].indent == 0 && lines_[i_].content.substr(0, 3) == "---" &&
            blank_rest(lines_[i_].content.substr(3))) {
            ++i_;
            skip_blank();
        }
        YamlNode root;
        root.line = i_ < lines_.size() ? lines_[i_].number : 1;
        if (i_ < lines_.size() && !end_marker()) root = node(0, std::string::npos);
        skip_blank();
        if (i_ < lines_.size() && end_marker()) {
            ++i_;
            skip_blank();
        }
        if (i_ < lines_.size())
            fail(file_, lines_[i_].number,
                 "expected the end of the document, or this line indented as the lines above it of the same "
                 "level");
        return root;
    }

private:
    const std::string& file_;
    std::vector<Line> lines_;
    size_t i_ = 0;

    bool end_marker() const {
        return lines_[i_].indent == 0 && lines_[i_].content.substr(0, 3) == "..." &&
               blank_rest(lines_[i_].content.substr(3));
    }
    void skip_blank() {
        while (i_ < lines_.size() && lines_[i_].blank) ++i_;
    }

    // The node at line i_ (its indentation `ind`), in a block whose own
    // indentation is `parent` (npos at the top).
    YamlNode node(int depth, size_t parent) {
        const Line& l = lines_[i_];
        if (depth > kMaxDepth)
            fail(file_, l.number, "expected nesting at most " + std::to_string(kMaxDepth) + " levels deep");
        if (dash_item(l.content)) return sequence(l.indent, depth);
        if (key_colon(l.content)) return mapping(l.indent, depth);
        return inline_value(l.content, parent, depth);
    }

    YamlNode sequence(size_t ind, int depth) {
        YamlNode n;
        n.kind = YamlNode::Kind::sequence;
        n.line = lines_[i_].number;
        for (;;) {
            skip_blank();
            if (i_ >= lines_.size() || lines_[i_].indent != ind || !dash_item(lines_[i_].content)) break;
            Line& l = lines_[i_];
            std::string_view rest = l.content.substr(1);
            size_t spaces = 0;
            while (spaces < rest.size() && rest[spaces] == ' ') ++spaces;
            rest.remove_prefix(spaces);
            if (blank_rest(rest)) {
                const size_t number = l.number;
                ++i_;
                skip_blank();
                if (i_ < lines_.size() && lines_[i_].indent > ind) {
                    n.items.push_back(node(depth + 1, ind));
                } else {
                    YamlNode empty;
                    empty.line = number;
                    n.items.push_back(empty);
                }
                continue;
            }
            // "- key: value" and "- - x": the item is the rest of the line,
            // as if it began on a line of its own at that column.
            l.indent = ind + 1 + spaces;
            l.content = rest;
            n.items.push_back(node(depth + 1, ind));
        }
        return n;
    }

    YamlNode mapping(size_t ind, int depth) {
        YamlNode n;
        n.kind = YamlNode::Kind::mapping;
        n.line = lines_[i_].number;
        std::unordered_set<std::string> keys;  // hashed: 100,000 keys stay linear
        for (;;) {
            skip_blank();
            if (i_ >= lines_.size() || lines_[i_].indent != ind) break;
            const Line l = lines_[i_];
            if (dash_item(l.content))
                fail(file_, l.number, "expected a 'key: value' line of the mapping that begins on line " +
                                          std::to_string(n.line) + ", not a sequence item");
            const auto colon = key_colon(l.content);
            if (!colon)
                fail(file_, l.number, "expected a 'key: value' line of the mapping that begins on line " +
                                          std::to_string(n.line) + ", not " +
                                          data::quote_token(l.content.substr(0, 40)));
            Text kt;
            kt.add(l.content.substr(0, *colon), l.number);
            std::string key = Scanner(file_, kt).whole(depth + 1).text;
            if (!keys.insert(key).second)
                fail(file_, l.number, "expected each key once in a mapping; " + data::quote_token(key) + " is given twice");
            std::string_view rest = l.content.substr(*colon + 1);
            YamlNode value;
            if (blank_rest(rest)) {
                value.line = l.number;
                ++i_;
                skip_blank();
                if (i_ < lines_.size() && lines_[i_].indent > ind)
                    value = node(depth + 1, ind);
                else if (i_ < lines_.size() && lines_[i_].indent == ind && dash_item(lines_[i_].content))
                    value = sequence(ind, depth + 1);  // PyYAML's indentless sequence
            } else {
                while (!rest.empty() && (rest[0] == ' ' || rest[0] == '\t')) rest.remove_prefix(1);
                value = inline_value(rest, ind, depth + 1);
            }
            n.members.push_back(YamlMember{std::move(key), std::move(value)});
        }
        return n;
    }

    // A scalar or flow collection starting with `first` on line i_, going
    // on over the following lines indented beyond `parent`.
    YamlNode inline_value(std::string_view first, size_t parent, int depth) {
        Text t;
        t.add(first, lines_[i_].number);
        size_t last = i_;
        for (size_t j = i_ + 1; j < lines_.size(); ++j) {
            if (lines_[j].blank && lines_[j].content.empty()) continue;
            if (lines_[j].indent <= parent && parent != std::string::npos) break;
            if (parent == std::string::npos && lines_[j].indent == 0 && !lines_[j].blank) break;
            last = j;
        }
        for (size_t j = i_ + 1; j <= last; ++j) t.add(lines_[j].content, lines_[j].number);
        i_ = last + 1;
        return Scanner(file_, t).whole(depth);
    }
};

}  // namespace

const YamlNode* YamlNode::get(std::string_view key) const {
    for (const auto& m : members)
        if (m.first == key) return &m.second;
    return nullptr;
}

bool YamlNode::is_null() const {
    return kind == Kind::scalar && !quoted && (text.empty() || text == "~" || text == "null" || text == "Null" ||
                                               text == "NULL");
}

const char* yaml_kind_name(YamlNode::Kind k) {
    switch (k) {
        case YamlNode::Kind::scalar: return "a scalar";
        case YamlNode::Kind::sequence: return "a sequence";
        case YamlNode::Kind::mapping: return "a mapping";
    }
    return "a node";
}

namespace {
// A UTF-8 byte-order mark, which editors on other systems put first and
// YAML allows there.
std::string_view without_bom(std::string_view text) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    return text;
}
}  // namespace

YamlNode parse_yaml(std::string_view text, const std::string& file) {
    return BlockParser(without_bom(text), file).document();
}

YamlNode parse_yaml_flow_line(std::string_view text, const std::string& file, size_t line) {
    if (line == 1) text = without_bom(text);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (text.substr(0, 2) == "- ") text.remove_prefix(2);
    size_t i = 0;
    while (i < text.size() && text[i] == ' ') ++i;
    if (i >= text.size() || text[i] != '{')
        fail(file, line, "expected a log record '- {\"dt\": ..., \"lvl\": ..., \"msg\": ...}' (a flow mapping), not " +
                             data::quote_token(text.substr(0, 40)));
    Text t;
    t.add(text, line);
    return Scanner(file, t).whole(0);
}

}  // namespace gfxstat::formats
