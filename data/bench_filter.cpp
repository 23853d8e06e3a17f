// SPDX-License-Identifier: MIT
// --filter (bench_filter.h): a recursive-descent parser over the text,
// straight into a small tree of nodes held in one vector, and its
// evaluation. The lexing depends on where it is (after `key:` a value may
// hold ':', a bare word may not), so the parser reads characters itself
// rather than a token stream.
//
// Evaluation has three values: `may_match_run` judges a run without a
// metric, so terms on the name or unit are "unknown" there (Kleene logic:
// false AND unknown is false, true OR unknown is true).
#include "data/bench_filter.h"

#include <re2/re2.h>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace gfxstat::data {

namespace {

enum class Truth : uint8_t { no, yes, unknown };
enum class KeyKind : uint8_t { name, unit, variant, machine, environment };

// Nested parentheses and negations each take a frame of the parser and of
// the evaluation: a filter is typed by a person, a hundred levels is far
// beyond what one needs and far below what the stack holds.
constexpr int kMaxDepth = 100;
// Quoted context in messages: the end of what was read, enough to find it.
constexpr size_t kContextChars = 40;

bool blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

KeyKind key_kind(std::string_view canonical) {
    if (canonical == "name") return KeyKind::name;
    if (canonical == "unit") return KeyKind::unit;
    if (canonical == "variant") return KeyKind::variant;
    if (canonical == "machine") return KeyKind::machine;
    return KeyKind::environment;
}

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && blank(s.back())) s.remove_suffix(1);
    return s;
}

}  // namespace

std::string_view canonical_key(std::string_view key) {
    if (key == "name" || key == ".name" || key == "metric") return "name";
    if (key == "unit" || key == ".unit") return "unit";
    if (key == "variant" || key == ".variant") return "variant";
    return key;
}

struct BenchFilter::Program {
    enum class Kind : uint8_t { all, match, negate, all_of, any_of };
    // One accepted value of a match: present (key:*), a regex, or exact text.
    struct Value {
        bool present = false;
        std::string text;
        std::unique_ptr<RE2> regex;
    };
    struct Node {
        Kind kind = Kind::all;
        KeyKind key_kind = KeyKind::name;  // match only
        std::string key;                   // match on an environment key only
        std::vector<Value> values;         // match: any of these
        std::vector<size_t> children;      // negate: one; all_of / any_of: two or more
    };
    std::vector<Node> nodes;
    size_t root = 0;

    Truth eval(size_t at, const Observation& o, bool name_known) const;
};

namespace {

using Program = BenchFilter::Program;

// machine_name (data/results_model.h) over a run's fields: the hostname
// when recorded, else the machine id, else "" (the results store's machine
// column). A run without an environment has no machine.
std::optional<std::string_view> machine_of(const Observation& o) {
    if (!o.fields) return std::nullopt;
    const auto host = o.fields->find("hostname");
    if (host != o.fields->end() && !host->second.empty()) return std::string_view(host->second);
    if (const auto m = o.fields->find("machine"); m != o.fields->end() && !m->second.empty())
        return std::string_view(m->second);
    return std::string_view();
}

std::optional<std::string_view> value_of(const Program::Node& n, const Observation& o) {
    switch (n.key_kind) {
        case KeyKind::name: return o.name;
        case KeyKind::unit: return o.unit;
        case KeyKind::variant: return o.variant;
        case KeyKind::machine: return machine_of(o);
        case KeyKind::environment: break;
    }
    // Tags win: the user's word on the run over what was probed.
    if (o.tags)
        if (const auto it = o.tags->find(n.key); it != o.tags->end()) return std::string_view(it->second);
    if (o.fields)
        if (const auto it = o.fields->find(n.key); it != o.fields->end()) return std::string_view(it->second);
    return std::nullopt;
}

bool accepts(const Program::Value& v, std::string_view value) {
    if (v.present) return true;
    if (v.regex) return RE2::PartialMatch(re2::StringPiece(value.data(), value.size()), *v.regex);
    return value == v.text;
}

}  // namespace

Truth BenchFilter::Program::eval(size_t at, const Observation& o, bool name_known) const {
    const Node& n = nodes[at];
    switch (n.kind) {
        case Kind::all: return Truth::yes;
        case Kind::match: {
            if (!name_known && (n.key_kind == KeyKind::name || n.key_kind == KeyKind::unit)) return Truth::unknown;
            const std::optional<std::string_view> value = value_of(n, o);
            if (!value) return Truth::no;
            for (const Value& v : n.values)
                if (accepts(v, *value)) return Truth::yes;
            return Truth::no;
        }
        case Kind::negate: {
            const Truth t = eval(n.children[0], o, name_known);
            return t == Truth::unknown ? t : t == Truth::yes ? Truth::no : Truth::yes;
        }
        case Kind::all_of:
        case Kind::any_of: {
            // Three-valued: one child that decides (no for all_of, yes for
            // any_of) decides, else any unknown child leaves it unknown.
            const Truth decides = n.kind == Kind::all_of ? Truth::no : Truth::yes;
            Truth result = n.kind == Kind::all_of ? Truth::yes : Truth::no;
            for (size_t c : n.children) {
                const Truth t = eval(c, o, name_known);
                if (t == decides) return t;
                if (t == Truth::unknown) result = t;
            }
            return result;
        }
    }
    return Truth::no;
}

namespace {

class Parser {
public:
    Parser(std::string_view text, Program& program) : s_(text), p_(program) {}

    void parse() {
        skip_blanks();
        if (at_end()) {
            p_.root = add(Program::Kind::all);
            return;
        }
        p_.root = parse_or();
        skip_blanks();
        // parse_or stops only at the end or at a ')' no group opened.
        if (!at_end()) fail(pos_, "')' closes no '('" + after(pos_));
    }

private:
    std::string_view s_;
    Program& p_;
    size_t pos_ = 0;
    int depth_ = 0;
    // Where the innermost construct being read began: messages quote what
    // was read of it.
    size_t context_ = 0;

    bool at_end() const { return pos_ >= s_.size(); }
    char peek() const { return at_end() ? '\0' : s_[pos_]; }
    void skip_blanks() {
        while (!at_end() && blank(s_[pos_])) ++pos_;
    }
    // After a quoted text or a regex: the next term must be apart from it.
    bool at_delimiter() const { return at_end() || blank(peek()) || peek() == ')'; }

    [[noreturn]] void fail(size_t at, const std::string& what) const {
        throw FilterSyntaxError("--filter: at column " + std::to_string(at + 1) + ": " + what);
    }
    // " after 'gl_4 OR gl_5'": what was read of the current construct.
    std::string after(size_t at) const {
        std::string_view read = trimmed(s_.substr(context_, at > context_ ? at - context_ : 0));
        if (read.empty()) return "";
        std::string cut;
        if (read.size() > kContextChars) {
            read = read.substr(read.size() - kContextChars);
            cut = "...";
        }
        return " after '" + cut + std::string(read) + "'";
    }
    // ", found 'b'": what stands where something else was expected.
    std::string found(size_t at) const {
        if (at >= s_.size()) return "";
        size_t end = at + 1;
        if (s_[at] != '(' && s_[at] != ')')
            while (end < s_.size() && end - at < 20 && !blank(s_[end]) && s_[end] != '(' && s_[end] != ')') ++end;
        return ", found '" + std::string(s_.substr(at, end - at)) + "'";
    }
    [[noreturn]] void expected(const std::string& what, size_t at) const {
        fail(at, "expected " + what + after(at) + found(at));
    }

    size_t add(Program::Kind kind) {
        p_.nodes.emplace_back();
        p_.nodes.back().kind = kind;
        return p_.nodes.size() - 1;
    }
    size_t add_list(Program::Kind kind, std::vector<size_t> children) {
        if (children.size() == 1) return children[0];
        const size_t at = add(kind);
        p_.nodes[at].children = std::move(children);
        return at;
    }
    size_t add_match(std::string_view key, Program::Value value) {
        const size_t at = add(Program::Kind::match);
        Program::Node& n = p_.nodes[at];
        const std::string_view canonical = canonical_key(key);
        n.key_kind = key_kind(canonical);
        if (n.key_kind == KeyKind::environment) n.key = std::string(canonical);
        n.values.push_back(std::move(value));
        return at;
    }
    void descend() {
        if (++depth_ > kMaxDepth)
            fail(pos_, "parentheses and negations nested deeper than " + std::to_string(kMaxDepth) + " levels");
    }

    // A bare word: up to a blank, a parenthesis or ':' (a key's end).
    size_t word_end(size_t from) const {
        size_t end = from;
        while (end < s_.size() && !blank(s_[end]) && s_[end] != '(' && s_[end] != ')' && s_[end] != ':') ++end;
        return end;
    }
    // AND, OR, NOT: in capitals, alone (not a key: `OR:x` is the tag OR).
    bool keyword(std::string_view word) const {
        const size_t end = word_end(pos_);
        return s_.substr(pos_, end - pos_) == word && (end >= s_.size() || s_[end] != ':');
    }

    size_t parse_or() {
        std::vector<size_t> terms{parse_and()};
        for (;;) {
            skip_blanks();
            if (!keyword("OR")) break;
            pos_ += 2;
            terms.push_back(parse_and());
        }
        return add_list(Program::Kind::any_of, std::move(terms));
    }

    size_t parse_and() {
        std::vector<size_t> terms{parse_unary()};
        for (;;) {
            skip_blanks();
            if (at_end() || peek() == ')' || keyword("OR")) break;
            if (keyword("AND")) pos_ += 3;
            terms.push_back(parse_unary());
        }
        return add_list(Program::Kind::all_of, std::move(terms));
    }

    size_t parse_unary() {
        skip_blanks();
        size_t skip = 0;
        if (peek() == '-') skip = 1;
        else if (keyword("NOT")) skip = 3;
        if (skip == 0) return parse_primary();
        pos_ += skip;
        descend();
        const size_t operand = parse_unary();
        --depth_;
        const size_t at = add(Program::Kind::negate);
        p_.nodes[at].children.push_back(operand);
        return at;
    }

    size_t parse_primary() {
        skip_blanks();
        if (at_end() || peek() == ')') expected("a filter term", pos_);
        const size_t start = pos_;
        if (peek() == '(') {
            ++pos_;
            descend();
            const size_t outer = context_;
            context_ = pos_;
            const size_t inner = parse_or();
            skip_blanks();
            if (peek() != ')') expected("')'", pos_);
            ++pos_;
            context_ = outer;
            --depth_;
            return inner;
        }
        if (peek() == '"') {
            std::string text = quoted();
            if (peek() == ':') {
                ++pos_;
                if (text.empty()) fail(start, "expected a key before ':' (the quoted key is empty)");
                return parse_value(text, start);
            }
            require_delimiter(start);
            return add_match("name", Program::Value{false, std::move(text), nullptr});
        }
        if (peek() == '/') {
            Program::Value v = regex_literal();
            require_delimiter(start);
            return add_match("name", std::move(v));
        }
        const size_t end = word_end(pos_);
        const std::string_view word = s_.substr(pos_, end - pos_);
        if (end < s_.size() && s_[end] == ':') {
            if (word.empty()) fail(pos_, "expected a key before ':'");
            pos_ = end + 1;
            return parse_value(word, start);
        }
        if (word == "AND" || word == "OR") expected("a filter term", pos_);
        pos_ = end;
        if (word == "*") return add(Program::Kind::all);
        return add_match("name", Program::Value{false, std::string(word), nullptr});
    }

    void require_delimiter(size_t start) const {
        if (!at_delimiter())
            fail(pos_, "expected a blank or ')' after '" + std::string(s_.substr(start, pos_ - start)) + "'" +
                           found(pos_));
    }

    // `key:` read, at the value: value, "quoted", /regex/, * or a list.
    size_t parse_value(std::string_view key, size_t start) {
        const size_t outer = context_;
        context_ = start;
        if (at_end() || blank(peek()) || peek() == ')')
            fail(pos_, "expected a value after '" + std::string(s_.substr(start, pos_ - start)) +
                           "' (write " + std::string(key) + ":* for any value, " + std::string(key) +
                           ":\"\" for an empty one)");
        size_t at;
        if (peek() == '(') {
            ++pos_;
            std::vector<Program::Value> values;
            for (;;) {
                skip_blanks();
                if (at_end() || peek() == ')' || peek() == '(') expected("a value", pos_);
                values.push_back(value_item());
                skip_blanks();
                if (peek() == ')') {
                    ++pos_;
                    break;
                }
                if (!keyword("OR")) expected("'OR' or ')'", pos_);
                pos_ += 2;
            }
            at = add_match(key, std::move(values[0]));
            for (size_t i = 1; i < values.size(); ++i) p_.nodes[at].values.push_back(std::move(values[i]));
        } else {
            at = add_match(key, value_item());
        }
        context_ = outer;
        return at;
    }

    Program::Value value_item() {
        const size_t start = pos_;
        if (peek() == '"') {
            std::string text = quoted();
            require_delimiter(start);
            return Program::Value{false, std::move(text), nullptr};
        }
        if (peek() == '/') {
            Program::Value v = regex_literal();
            require_delimiter(start);
            return v;
        }
        // A value may hold ':' (a PCI id, a time of day).
        while (!at_end() && !blank(peek()) && peek() != '(' && peek() != ')') ++pos_;
        const std::string_view word = s_.substr(start, pos_ - start);
        if (word == "*") return Program::Value{true, "", nullptr};
        return Program::Value{false, std::string(word), nullptr};
    }

    // The text up to an unescaped `close`; at the opening delimiter. \close
    // stands for close, and \\ for one backslash where backslashes_too;
    // every other backslash stays, with the byte after it.
    std::string delimited(char close, const char* what, bool backslashes_too) {
        const size_t start = pos_++;
        std::string text;
        for (;;) {
            if (at_end())
                fail(pos_, std::string("expected '") + close + "' to end the " + what + " that starts at column " +
                               std::to_string(start + 1));
            const char c = s_[pos_];
            if (c == close) {
                ++pos_;
                return text;
            }
            if (c == '\\' && pos_ + 1 < s_.size()) {
                const char next = s_[pos_ + 1];
                if (next != close && !(backslashes_too && next == '\\')) text += c;
                text += next;
                pos_ += 2;
                continue;
            }
            text += c;
            ++pos_;
        }
    }

    // "text", with \" and \\ inside; at the opening quote.
    std::string quoted() { return delimited('"', "quoted text", true); }

    // /regex/, with \/ for a slash (every other escape is RE2's); at the
    // opening slash. Compiled here, so that a bad regex is a syntax error
    // with RE2's reason.
    Program::Value regex_literal() {
        const size_t start = pos_;
        std::string pattern = delimited('/', "regex", false);
        // Bytes, as --metric's regexes: names and environment values need
        // not be UTF-8.
        RE2::Options options;
        options.set_encoding(RE2::Options::EncodingLatin1);
        options.set_log_errors(false);
        auto re = std::make_unique<RE2>(pattern, options);
        if (!re->ok())
            fail(start, "invalid regex " + std::string(s_.substr(start, pos_ - start)) + ": " + re->error());
        return Program::Value{false, std::move(pattern), std::move(re)};
    }
};

}  // namespace

BenchFilter::BenchFilter() {
    auto p = std::make_shared<Program>();
    p->nodes.emplace_back();  // Kind::all
    program_ = std::move(p);
}

BenchFilter BenchFilter::parse(std::string_view text) {
    auto p = std::make_shared<Program>();
    Parser(text, *p).parse();
    BenchFilter f;
    f.text_ = std::string(text);
    f.program_ = std::move(p);
    return f;
}

bool BenchFilter::matches(const Observation& o) const { return program_->eval(program_->root, o, true) == Truth::yes; }

bool BenchFilter::may_match_run(const Observation& run) const {
    return program_->eval(program_->root, run, false) != Truth::no;
}

namespace {

std::string key_name(const Program::Node& n) {
    switch (n.key_kind) {
        case KeyKind::name: return "name";
        case KeyKind::unit: return "unit";
        case KeyKind::variant: return "variant";
        case KeyKind::machine: return "machine";
        case KeyKind::environment: break;
    }
    return n.key;
}

// The nodes joined by the top-level AND: the root's children when it is
// one, else the root alone.
std::vector<size_t> top_level(const Program& p) {
    const Program::Node& root = p.nodes[p.root];
    if (root.kind == Program::Kind::all_of) return root.children;
    return {p.root};
}

}  // namespace

std::vector<ExactTerm> BenchFilter::exact_terms(bool* all_exact) const {
    std::vector<ExactTerm> out;
    if (all_exact) *all_exact = true;
    for (size_t at : top_level(*program_)) {
        const Program::Node& n = program_->nodes[at];
        if (n.kind == Program::Kind::all) continue;
        if (n.kind != Program::Kind::match) {
            if (all_exact) *all_exact = false;
            continue;
        }
        ExactTerm t{key_name(n), {}};
        bool exact = true;
        for (const Program::Value& v : n.values) {
            if (v.present || v.regex) exact = false;
            t.values.push_back(v.text);
        }
        if (exact) out.push_back(std::move(t));
        else if (all_exact) *all_exact = false;
    }
    return out;
}

BenchFilter BenchFilter::parse_taking(std::string_view text, std::string_view reserved, std::vector<std::string>& taken) {
    auto p = std::make_shared<Program>();
    Parser(text, *p).parse();
    std::vector<bool> top(p->nodes.size(), false);
    for (size_t at : top_level(*p)) top[at] = true;
    const std::string key(reserved);
    for (size_t at = 0; at < p->nodes.size(); ++at) {
        Program::Node& n = p->nodes[at];
        if (n.kind != Program::Kind::match || n.key_kind != KeyKind::environment || n.key != key) continue;
        if (!top[at])
            throw FilterSyntaxError(key + ":N belongs at the top level of a selection, joined to the rest by AND "
                                          "(not inside OR, NOT or parentheses)");
        if (n.values.size() != 1 || n.values[0].present || n.values[0].regex)
            throw FilterSyntaxError(key + ": takes one number (" + key + ":10), not a regex, '*' or a list");
        taken.push_back(n.values[0].text);
        n = Program::Node{};  // Kind::all: matches everything
    }
    BenchFilter f;
    f.text_ = std::string(text);
    f.program_ = std::move(p);
    return f;
}

bool BenchFilter::empty() const { return program_->nodes[program_->root].kind == Program::Kind::all; }

std::string BenchFilter::text() const { return text_; }

}  // namespace gfxstat::data
