// SPDX-License-Identifier: MIT
// LAVA support's pieces against independent references: SHA-256 and
// base64 (data/digest.h) and the results block (formats/lava_block.h)
// against Python's hashlib and base64 (tests/data/make_lava_digest_reference.py);
// the YAML reader (formats/yaml_reader.h) against what PyYAML's safe_load
// reads from YAML that PyYAML wrote the ways LAVA writes it
// (tests/data/make_lava_yaml_reference.py), and its errors; the YAML and
// shell quoting of `gfxstat lava testdef` read back; LAVA's name rules.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "data/digest.h"
#include "data/input_error.h"
#include "drivers/lava_signals.h"
#include "formats/lava_block.h"
#include "formats/lava_testdef.h"
#include "formats/yaml_reader.h"

namespace {

using namespace gfxstat;
using nlohmann::json;

json load(const char* rel) {
    std::ifstream f(std::string(GFXSTAT_SOURCE_DIR) + "/" + rel);
    std::stringstream s;
    s << f.rdbuf();
    return json::parse(s.str());
}

std::string from_hex(const std::string& h) {
    std::string out;
    for (size_t i = 0; i + 1 < h.size(); i += 2) out += static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16));
    return out;
}

std::string block_text(const std::string& bytes) {
    char* buf = nullptr;
    size_t size = 0;
    FILE* f = open_memstream(&buf, &size);
    EXPECT_TRUE(formats::write_results_block("results.json", bytes, f));
    std::fclose(f);
    std::string out(buf, size);
    std::free(buf);
    return out;
}

TEST(Digest, MatchesHashlibAndBase64) {
    const json ref = load("tests/data/lava/digest_reference.json");
    ASSERT_GE(ref["cases"].size(), 20u);
    for (const auto& c : ref["cases"]) {
        const std::string bytes = from_hex(c["hex"]);
        EXPECT_EQ(data::sha256_hex(bytes), c["sha256"].get<std::string>()) << c["hex"];
        EXPECT_EQ(data::base64_encode(bytes), c["base64"].get<std::string>()) << c["hex"];
        const auto back = data::base64_decode(c["base64"].get<std::string>());
        ASSERT_TRUE(back.has_value());
        EXPECT_EQ(*back, bytes);
        // Fed in uneven pieces, the digest is the same.
        data::Sha256 s;
        for (size_t at = 0, step = 1; at < bytes.size(); at += step, step = step * 3 % 67 + 1)
            s.update(std::string_view(bytes).substr(at, step));
        EXPECT_EQ(s.hex(), c["sha256"].get<std::string>());
    }
    EXPECT_EQ(data::sha256_hex(std::string(1000000, 'a')), ref["million_a_sha256"].get<std::string>());
}

TEST(Digest, Base64RefusesWhatIsNotOneEncoding) {
    for (const char* bad : {"A", "AB", "ABC", "A===", "AB=C", "YR==", "YWJ=", "@@@@", "YQ==YQ==", "Y Q=", "YQ\n="})
        EXPECT_FALSE(data::base64_decode(bad).has_value()) << bad;
    EXPECT_EQ(*data::base64_decode(""), "");
}

TEST(ResultsBlock, WrittenAsPythonWritesItAndReadBack) {
    const json ref = load("tests/data/lava/digest_reference.json");
    for (const auto& c : ref["cases"]) {
        const std::string bytes = from_hex(c["hex"]);
        const std::string text = block_text(bytes);
        EXPECT_EQ(text, c["block"].get<std::string>());
        // Decoded line by line, it is the file again.
        std::istringstream in(text);
        std::string line, why;
        std::getline(in, line);
        auto header = formats::parse_results_block_begin(line, why);
        ASSERT_TRUE(header) << why;
        formats::ResultsBlockDecoder d(*header);
        while (std::getline(in, line) && line != formats::kResultsBlockEnd) {
            EXPECT_LE(line.size(), formats::kResultsBlockColumns);
            ASSERT_TRUE(d.add_line(line, why)) << why;
        }
        const auto back = d.finish(why);
        ASSERT_TRUE(back) << why;
        EXPECT_EQ(*back, bytes);
    }
}

TEST(ResultsBlock, DamageIsFound) {
    std::string bytes;
    for (int i = 0; i < 300; ++i) bytes += "{\"run\": " + std::to_string(i) + "}\n";
    const std::string text = block_text(bytes);
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    std::string why;
    const auto header = *formats::parse_results_block_begin(lines[0], why);
    const auto decode = [&](const std::vector<std::string>& body) -> std::optional<std::string> {
        formats::ResultsBlockDecoder d(header);
        for (const auto& l : body)
            if (!d.add_line(l, why)) return std::nullopt;
        return d.finish(why);
    };
    std::vector<std::string> body(lines.begin() + 1, lines.end() - 1);
    ASSERT_TRUE(decode(body));
    auto flipped = body;
    flipped[3][10] = flipped[3][10] == 'A' ? 'B' : 'A';  // one character changed on the console
    EXPECT_FALSE(decode(flipped));
    EXPECT_NE(why.find("sha256"), std::string::npos) << why;
    auto dropped = body;
    dropped.erase(dropped.begin() + 2);  // a line lost
    EXPECT_FALSE(decode(dropped));
    EXPECT_NE(why.find("bytes"), std::string::npos) << why;
    auto cut = body;
    cut[1].pop_back();  // a character lost
    EXPECT_FALSE(decode(cut));
    for (const char* bad : {"<GFXSTAT_RESULTS_BEGIN v2 name=a bytes=1 sha256=00>", "<GFXSTAT_RESULTS_BEGIN v1 name=a>",
                            "<GFXSTAT_RESULTS_BEGIN v1 name=a bytes=x sha256=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855>",
                            "<GFXSTAT_RESULTS_BEGIN v1 name=a bytes=1 sha256=E3B0>"}) {
        EXPECT_FALSE(formats::parse_results_block_begin(bad, why)) << bad;
        EXPECT_FALSE(why.empty()) << bad;
    }
    EXPECT_FALSE(formats::parse_results_block_begin("<LAVA_SIGNAL_TESTSET STOP>", why));
    EXPECT_TRUE(why.empty());  // not a begin line at all
}

// The reader's tree equals what PyYAML read.
void expect_same(const formats::YamlNode& n, const json& j, const std::string& where) {
    if (j.is_null()) {
        EXPECT_TRUE(n.is_null()) << where << ": " << n.text;
    } else if (j.is_string()) {
        ASSERT_TRUE(n.is_scalar()) << where;
        EXPECT_FALSE(n.is_null() && !j.get<std::string>().empty()) << where;
        EXPECT_EQ(n.text, j.get<std::string>()) << where;
    } else if (j.is_array()) {
        ASSERT_EQ(n.kind, formats::YamlNode::Kind::sequence) << where;
        ASSERT_EQ(n.items.size(), j.size()) << where;
        for (size_t i = 0; i < j.size(); ++i) expect_same(n.items[i], j[i], where + "[" + std::to_string(i) + "]");
    } else {
        ASSERT_EQ(n.kind, formats::YamlNode::Kind::mapping) << where;
        ASSERT_EQ(n.members.size(), j.size()) << where;
        for (const auto& [k, v] : j.items()) {
            const formats::YamlNode* m = n.get(k);
            ASSERT_NE(m, nullptr) << where << "." << k;
            expect_same(*m, v, where + "." + k);
        }
    }
}

TEST(YamlReader, ReadsWhatPyYamlReads) {
    const json ref = load("tests/data/lava/yaml_cases.json");
    ASSERT_GE(ref["documents"].size(), 20u);
    for (const auto& c : ref["documents"]) {
        const std::string name = c["name"];
        try {
            expect_same(formats::parse_yaml(c["yaml"].get<std::string>(), name), c["expected"], name);
        } catch (const data::InputError& e) {
            ADD_FAILURE() << name << ": " << e.what() << "\n" << c["yaml"].get<std::string>();
        }
    }
    for (const auto& c : ref["log_lines"]) {
        const std::string line = c["line"];
        try {
            expect_same(formats::parse_yaml_flow_line(line, "log", 1), c["expected"], line);
        } catch (const data::InputError& e) {
            ADD_FAILURE() << line << ": " << e.what();
        }
    }
}

std::string error_of(const std::string& text) {
    try {
        formats::parse_yaml(text, "f.yaml");
    } catch (const data::InputError& e) {
        return e.what();
    }
    return "";
}

TEST(YamlReader, ErrorsNameTheLineAndWhatWasExpected) {
    const struct {
        const char* text;
        const char* where;
        const char* says;
    } cases[] = {
        {"- a: 1\n\tb: 2\n", "f.yaml:2:", "spaces"},
        {"- a: &x 1\n", "f.yaml:1:", "anchor"},
        {"- a: *x\n", "f.yaml:1:", "alias"},
        {"a: !python/tuple [1]\n", "f.yaml:1:", "tag"},
        {"a: |\n  text\n", "f.yaml:1:", "block scalar"},
        {"a: 1\nb: \"open\n", "f.yaml:2:", "'\"'"},
        {"a: 1\na: 2\n", "f.yaml:2:", "twice"},
        {"a: 1\n  b: 2\n", "f.yaml:2:", "': '"},
        {"a:\n  - x\n  y: 1\n", "f.yaml:3:", "indented"},
        {"- {a: 1, b}\n", "f.yaml:1:", "':'"},
        {"- [a, b\n", "f.yaml:1:", "']'"},
        {"a: \"\\q\"\n", "f.yaml:1:", "escape"},
        {"a: \"\\uD800\"\n", "f.yaml:1:", "surrogate"},
        {"%YAML 1.1\n---\na: 1\n", "f.yaml:1:", "directive"},
        {"a: b\x01\n", "f.yaml:1:", "control"},
        {"? a\n: b\n", "f.yaml:1:", "complex key"},
    };
    for (const auto& c : cases) {
        const std::string e = error_of(c.text);
        EXPECT_EQ(e.rfind(c.where, 0), 0u) << c.text << " -> " << e;
        EXPECT_NE(e.find(c.says), std::string::npos) << c.text << " -> " << e;
        EXPECT_NE(e.find("expected"), std::string::npos) << c.text << " -> " << e;
    }
    // Nesting is bounded, whatever the input.
    EXPECT_NE(error_of(std::string(10000, '[')).find("levels deep"), std::string::npos);
    std::string deep;
    for (int i = 0; i < 200; ++i) deep += std::string(2 * i, ' ') + "- \n";
    EXPECT_NE(error_of(deep).find("levels deep"), std::string::npos);
    EXPECT_NE(error_of("- {\"dt\": \"x\"").find("'}'"), std::string::npos);
}

TEST(YamlReader, LogLines) {
    const auto n = formats::parse_yaml_flow_line(
        "- {\"dt\": \"2023-01-01T00:00:00\", \"lvl\": \"results\", \"msg\": {\"case\": \"fps\", \"measurement\": "
        "\"1.5\"}}\r",
        "job.log", 7);
    ASSERT_NE(n.get("msg"), nullptr);
    EXPECT_EQ(n.get("msg")->get("measurement")->text, "1.5");
    try {
        formats::parse_yaml_flow_line("not a record", "job.log", 7);
        ADD_FAILURE() << "no error";
    } catch (const data::InputError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("job.log:7: expected a log record", 0), 0u) << e.what();
    }
}

TEST(LavaTestdefText, QuotedTextReadsBackAsItWas) {
    for (const std::string& s : {std::string("plain"), std::string("a: b # c"), std::string("\"q\" \\ 'x'"),
                                std::string("line\nbreak\ttab\r"), std::string("bell\x07 esc\x1b del\x7f"),
                                std::string("caf\xc3\xa9 \xe2\x80\xa8 \xef\xbb\xbf \xc2\x85"), std::string(""),
                                std::string("null"), std::string("- x")}) {
        const std::string doc = "v: " + formats::yaml_quoted(s) + "\n";
        EXPECT_EQ(doc.find('\n'), doc.size() - 1) << doc;  // one line
        EXPECT_EQ(formats::parse_yaml(doc, "q").get("v")->text, s) << doc;
    }
    EXPECT_THROW(formats::yaml_quoted("\xff"), std::invalid_argument);
    EXPECT_EQ(formats::shell_quoted("gfxstat"), "gfxstat");
    EXPECT_EQ(formats::shell_quoted("it's a"), "'it'\\''s a'");
    EXPECT_EQ(formats::shell_quoted(""), "''");
    EXPECT_EQ(formats::shell_quoted("$HOME;rm"), "'$HOME;rm'");
    // "$<digit>" never appears as such: LAVA rewrites it in some steps.
    EXPECT_EQ(formats::shell_quoted("{print $1}"), "'{print '\"$\"'1}'");
    EXPECT_EQ(formats::shell_quoted("$"), "'$'");
    EXPECT_TRUE(formats::lava_definition_name("gfxstat-perf_1.0"));
    EXPECT_FALSE(formats::lava_definition_name("gfx perf"));
    EXPECT_FALSE(formats::lava_definition_name(""));
}

// lava-test-raise's message goes through dash's echo: no backslash reaches
// it ("\c" would end the line before its '>', "\0074" would print '<').
TEST(LavaNames, RaiseMessagesHaveNoBackslashNorSignalCharacters) {
    EXPECT_EQ(drivers::lava_message("cannot run 'x\\cy'"), "cannot run 'x\xEF\xBC\xBC" "cy'");
    EXPECT_EQ(drivers::lava_message("a\\0074b\\0076"), "a\xEF\xBC\xBC" "0074b\xEF\xBC\xBC" "0076");
    EXPECT_EQ(drivers::lava_message("<x>\ny\x1b"), " x  y ");
    EXPECT_TRUE(drivers::lava_plain_word("/tmp/run-1/results.json"));
    EXPECT_FALSE(drivers::lava_plain_word("/tmp/a\\cb.json"));
    EXPECT_FALSE(drivers::lava_plain_word("/tmp/a b.json"));
    EXPECT_FALSE(drivers::lava_plain_word("/tmp/a=b.json"));
    EXPECT_FALSE(drivers::lava_plain_word("/tmp/caf\xc3\xa9.json"));
    EXPECT_FALSE(drivers::lava_plain_word(""));
}

TEST(LavaNames, SanitizedAndUnique) {
    EXPECT_EQ(drivers::lava_name("gl/manhattan fps"), "gl_manhattan_fps");
    EXPECT_EQ(drivers::lava_name("ok-1.2_x"), "ok-1.2_x");
    EXPECT_EQ(drivers::lava_name(""), "_");
    EXPECT_EQ(drivers::lava_name("caf\xc3\xa9"), "caf__");
    EXPECT_EQ(drivers::lava_units("frames per s"), "frames_per_s");
    EXPECT_EQ(drivers::lava_units("a=b>c\x1b"), "a_b_c_");
    EXPECT_EQ(drivers::lava_units("MiB/s"), "MiB/s");
    // Names that would be the results directory or its parent.
    EXPECT_EQ(drivers::lava_name("."), "_");
    EXPECT_EQ(drivers::lava_name(".."), "__");
    EXPECT_EQ(drivers::lava_name("..."), "___");
    EXPECT_EQ(drivers::lava_name(".x"), ".x");
    // Units reach dash's echo (backslash escapes) and an unquoted echo
    // (globs): only plain characters and UTF-8 pass.
    EXPECT_EQ(drivers::lava_units("f\\cps"), "f_cps");
    EXPECT_EQ(drivers::lava_units("ms\\nMEASUREMENT=9"), "ms_nMEASUREMENT_9");
    EXPECT_EQ(drivers::lava_units("*"), "_");
    EXPECT_EQ(drivers::lava_units("$(id)`x`'\""), "__id__x___");
    EXPECT_EQ(drivers::lava_units("\xc2\xb5s"), "\xc2\xb5s");
    EXPECT_EQ(drivers::lava_units("%"), "%");
    // LAVA splits a signal's parameters with Python's str.split(), at
    // Unicode white space too: one '_' per such code point, and per byte
    // that is not UTF-8; C1 controls go as well.
    EXPECT_EQ(drivers::lava_units("ms\xc2\xa0" "x"), "ms_x");
    EXPECT_EQ(drivers::lava_units("a\xe2\x80\x89" "b\xe3\x80\x80" "c\xe2\x80\xa8" "d"), "a_b_c_d");
    EXPECT_EQ(drivers::lava_units("\xc2\x85\xc2\x9b"), "__");
    EXPECT_EQ(drivers::lava_units("\xff\xc3" "x"), "__x");
    EXPECT_EQ(drivers::lava_units("\xe2\x80\x8b\xc3\xa9"), "\xe2\x80\x8b\xc3\xa9");  // ZWSP is not space to Python
    drivers::LavaNames names;
    EXPECT_EQ(names.unique("a b"), "a_b");
    EXPECT_EQ(names.unique("a/b"), "a_b-2");
    EXPECT_EQ(names.unique("a_b"), "a_b-3");
    EXPECT_EQ(names.unique("a_b-2"), "a_b-2-2");
    EXPECT_EQ(*drivers::lava_measurement(0.1), "0.10000000000000001");
    EXPECT_EQ(std::strtod(drivers::lava_measurement(1.0 / 3)->c_str(), nullptr), 1.0 / 3);
    EXPECT_FALSE(drivers::lava_measurement(INFINITY));
    EXPECT_FALSE(drivers::lava_measurement(NAN));
    EXPECT_EQ(drivers::parse_lava_mode("auto"), drivers::LavaMode::automatic);
    EXPECT_FALSE(drivers::parse_lava_mode("yes"));
}

TEST(LavaDetection, EnvironmentAndPath) {
    const char* old_dir = std::getenv("LAVA_RESULT_DIR");
    const std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
    unsetenv("LAVA_RESULT_DIR");
    setenv("PATH", "/nonexistent-dir", 1);
    EXPECT_FALSE(drivers::lava_active(drivers::LavaMode::automatic));
    EXPECT_TRUE(drivers::lava_active(drivers::LavaMode::on));
    setenv("LAVA_RESULT_DIR", "/tmp/x", 1);
    EXPECT_TRUE(drivers::lava_active(drivers::LavaMode::automatic));
    EXPECT_FALSE(drivers::lava_active(drivers::LavaMode::off));
    setenv("PATH", old_path.c_str(), 1);
    if (old_dir) setenv("LAVA_RESULT_DIR", old_dir, 1);
    else unsetenv("LAVA_RESULT_DIR");
}

}  // namespace
