// SPDX-License-Identifier: MIT
// Results files: records <-> JSON lines (data/results_json.h), whole-file
// reading with its rules and torn-tail handling (results_reader.h), atomic
// writing and crash-safe appending (results_writer.h), and picking one
// metric's samples (results_select.h).
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "data/input_error.h"
#include "data/json_cursor.h"
#include "data/number_token.h"
#include "data/results_json.h"
#include "data/results_merge.h"
#include "data/results_model.h"
#include "data/results_reader.h"
#include "data/results_select.h"
#include "data/results_writer.h"
#include "tests/unit/test_support.h"

namespace gfxstat::data {
namespace {

namespace fs = std::filesystem;

// ------------------------------------------------------------ helpers

NumberToken tok(std::string_view text) {
    NumberToken t = parse_number_token(text);
    EXPECT_TRUE(t.status == TokenStatus::decimal || t.status == TokenStatus::binary) << text;
    return t;
}

NumberToken decimal(bool negative, uint64_t significand, int exponent) {
    NumberToken t;
    t.status = TokenStatus::decimal;
    t.negative = negative;
    t.significand = significand;
    t.exponent = exponent;
    return t;
}

// The double a token stands for, computed independently of gfxstat's
// conversions: strtod of "<significand>e<exponent>".
double strtod_value(const NumberToken& t) {
    if (t.status == TokenStatus::binary) return t.value;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%" PRIu64 "e%d", t.negative ? "-" : "", t.significand,
                  t.exponent);
    return std::strtod(buf, nullptr);
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

struct Normal {  // a decimal with trailing zeros moved into the exponent
    bool negative;
    uint64_t significand;
    int64_t exponent;
    bool operator==(const Normal&) const = default;
};

Normal normal(const NumberToken& t) {
    Normal n{t.negative, t.significand, t.exponent};
    if (n.significand == 0) n.exponent = 0;
    while (n.significand != 0 && n.significand % 10 == 0) n.significand /= 10, ++n.exponent;
    return n;
}

std::string describe_token(const NumberToken& t) {
    char buf[96];
    if (t.status == TokenStatus::binary)
        std::snprintf(buf, sizeof buf, "binary %.17g", t.value);
    else
        std::snprintf(buf, sizeof buf, "decimal %s%" PRIu64 "e%d (status %d)", t.negative ? "-" : "",
                      t.significand, t.exponent, static_cast<int>(t.status));
    return buf;
}

// A decimal reads back as the same exact decimal (sign of zero included); a
// binary token as the same double (possibly now held as a decimal).
void expect_same_number(const NumberToken& want, const NumberToken& got, const std::string& where) {
    SCOPED_TRACE(where + ": want " + describe_token(want) + ", got " + describe_token(got));
    if (want.status == TokenStatus::decimal) {
        ASSERT_EQ(got.status, TokenStatus::decimal);
        EXPECT_TRUE(normal(want) == normal(got));
    } else {
        ASSERT_TRUE(got.status == TokenStatus::decimal || got.status == TokenStatus::binary);
        EXPECT_TRUE(same_bits(strtod_value(want), strtod_value(got)));
    }
}

void expect_same_run(const RunRecord& a, const RunRecord& b) {
    SCOPED_TRACE("run " + a.variant + "/" + std::to_string(a.run));
    EXPECT_EQ(a.variant, b.variant);
    EXPECT_EQ(a.run, b.run);
    EXPECT_EQ(a.boot, b.boot);
    EXPECT_EQ(a.start, b.start);
    ASSERT_EQ(a.duration_s.has_value(), b.duration_s.has_value());
    if (a.duration_s) {
        EXPECT_TRUE(same_bits(*a.duration_s, *b.duration_s));
    }
    EXPECT_EQ(a.exit_class, b.exit_class);
    EXPECT_EQ(a.exit_code, b.exit_code);
    EXPECT_EQ(a.signal, b.signal);
    EXPECT_EQ(a.warmup, b.warmup);
    EXPECT_EQ(a.environment, b.environment);
    EXPECT_EQ(a.origin, b.origin);
    EXPECT_EQ(a.source, b.source);
    EXPECT_EQ(a.exit_reason, b.exit_reason);
    EXPECT_EQ(a.log, b.log);
    EXPECT_EQ(a.unknown, b.unknown);
    ASSERT_EQ(a.metrics.size(), b.metrics.size());
    for (size_t i = 0; i < a.metrics.size(); ++i) {
        const MetricValues &x = a.metrics[i], &y = b.metrics[i];
        EXPECT_EQ(x.name, y.name);
        // Written as an array unless it is one value not marked as an array.
        EXPECT_EQ(y.array, x.array || x.values.size() != 1) << x.name;
        ASSERT_EQ(x.values.size(), y.values.size()) << x.name;
        for (size_t j = 0; j < x.values.size(); ++j)
            expect_same_number(x.values[j], y.values[j], x.name + "[" + std::to_string(j) + "]");
    }
}

void expect_same_file(const ResultsFile& a, const ResultsFile& b) {
    EXPECT_EQ(a.header.version, b.header.version);
    EXPECT_EQ(a.header.id, b.header.id);
    EXPECT_EQ(a.header.created, b.header.created);
    EXPECT_EQ(a.header.generator, b.header.generator);
    ASSERT_EQ(a.header.merged_from.size(), b.header.merged_from.size());
    for (size_t i = 0; i < a.header.merged_from.size(); ++i) {
        EXPECT_EQ(a.header.merged_from[i].id, b.header.merged_from[i].id);
        EXPECT_EQ(a.header.merged_from[i].path, b.header.merged_from[i].path);
        EXPECT_EQ(a.header.merged_from[i].created, b.header.merged_from[i].created);
    }
    EXPECT_EQ(a.header.unknown, b.header.unknown);
    ASSERT_EQ(a.metrics().size(), b.metrics().size());
    for (const MetricInfo& m : a.metrics()) {
        const MetricInfo* o = b.find_metric(m.name);
        ASSERT_NE(o, nullptr) << m.name;
        EXPECT_EQ(o->unit, m.unit);
        EXPECT_EQ(o->direction, m.direction);
        EXPECT_EQ(o->exact, m.exact) << m.name;
        EXPECT_EQ(o->primary, m.primary) << m.name;
        EXPECT_EQ(o->unknown, m.unknown);
    }
    ASSERT_EQ(a.environments().size(), b.environments().size());
    for (const Environment& e : a.environments()) {
        const Environment* o = b.find_environment(e.id);
        ASSERT_NE(o, nullptr) << e.id;
        EXPECT_EQ(o->fields, e.fields);
        EXPECT_EQ(o->tags, e.tags);
        EXPECT_TRUE(o->workload == e.workload) << e.id;
    }
    ASSERT_EQ(a.runs().size(), b.runs().size());
    for (size_t i = 0; i < a.runs().size(); ++i) expect_same_run(a.runs()[i], b.runs()[i]);
}

MetricValues values(const std::string& name, std::vector<NumberToken> v, bool array = false) {
    MetricValues m;
    m.name = name;
    m.values = std::move(v);
    m.array = array;
    return m;
}

RunRecord simple_run(const std::string& variant, uint64_t index, std::vector<MetricValues> m = {}) {
    RunRecord r;
    r.variant = variant;
    r.run = index;
    r.metrics = std::move(m);
    return r;
}

void must(const std::string& conflict) { ASSERT_EQ(conflict, "") << conflict; }

// A file that uses every field, with awkward strings and numbers.
ResultsFile full_file() {
    ResultsFile f;
    f.header.id = "0123456789abcdef0123456789abcdef";
    f.header.created = "2026-11-30T05:00:00.000000Z";
    f.header.generator = "gfxstat 0.1.0";
    f.header.merged_from = {{"aaaa", "dir/a \"b\".json", "2026-01-01T00:00:00Z"},
                            {"bbbb", "caf\xc3\xa9\\x", ""}};
    f.header.unknown = {{"future", "{\"x\":[1,2.50,{}]}"}, {"n\xc3\xa9w", "-0.5e3"}};
    must(f.declare_metric({"latency", "us", Direction::lower_is_better,
                           {{"description", "\"p99 \\\"tail\\\"\""}, {"n", "[1, 2 ,3]"}}}));
    MetricInfo fps{"fps", "frames/s", Direction::higher_is_better, {}};
    fps.primary = false;
    must(f.declare_metric(fps));
    MetricInfo size{"unused \"one\"", "", Direction::unknown, {}};
    size.exact = true;
    size.primary = true;
    must(f.declare_metric(size));
    Environment env;
    env.fields = {{"hostname", "bdw"},
                  {"kernel_cmdline", "quiet i915.enable_guc=3 \"x\"\t\\"},
                  {"we\"ird key\n", "v"},
                  {"caf\xc3\xa9", "\xe2\x82\xac \xf0\x9f\x98\x80"},
                  {"", "empty key"}};
    env.tags = {{"mesa", "a1b2c3d"}, {"note", "line 1\nline 2\x01"}};
    must(f.add_environment(env));
    Environment unused;
    unused.fields = {{"hostname", "other"}};
    WorkloadRecord w;
    w.argv = {"sh", "-c", "echo \"x\"\n\x1b"};
    w.parser = "metric";
    w.metrics = {"fps=(\\S+) FPS", "b=(\\d)"};
    w.parser_options = {{"unit", "frames/s"}, {"direction", "higher"}};
    w.env = {{"MESA_DEBUG", "1"}};
    w.unknown = {{"cwd", "\"/tmp\""}};
    unused.workload = w;
    must(f.add_environment(unused));
    Environment builtin;
    builtin.fields = {{"hostname", "other"}};
    builtin.workload = WorkloadRecord{};
    builtin.workload->builtin = "wakeup-latency";
    builtin.workload->options = {{"duration", "1"}};
    must(f.add_environment(builtin));

    RunRecord r0 = simple_run("baseline", 0,
                              {values("latency", {tok("23.205")}),
                               values("fps", {tok("60"), tok("59.940")})});
    r0.boot = "5d1c0e6a-0000-4000-8000-000000000000";
    r0.start = "2026-11-30T05:00:01.250000Z";
    r0.duration_s = 1.02;
    r0.exit_code = 0;
    r0.environment = env.id;
    r0.source = "bench.json:12";
    r0.unknown = {{"extra", "[true,null,{\"a\":\"b\"}]"}, {"z\"q", "\"\\u00e9\""}};
    must(f.add_run(r0));

    RunRecord r1 = simple_run("baseline", 1);
    r1.exit_class = ExitClass::fail;
    r1.exit_code = 98;
    r1.signal = 9;
    r1.exit_reason = "no line \"latency\" in the output\tat all \u00e9";
    r1.log = "results.json.logs/baseline-0001";
    r1.warmup = true;
    r1.duration_s = 0.0;
    must(f.add_run(r1));

    NumberToken pi = tok("3.14159265358979323846264338327950288");
    EXPECT_EQ(pi.status, TokenStatus::binary);
    NumberToken hex = tok("-0x1.8p3");
    EXPECT_EQ(hex.status, TokenStatus::binary);
    RunRecord r2 = simple_run(
        "patched \"x\"", 0,
        {values("latency", {tok("5")}, true),
         values("fps", {tok("-0"), tok("1e-300"), tok("123456789012345678"), tok("5e-10"),
                        tok("0.000001"), pi, hex, tok("5e-324"), tok("-1.7976931348623157e308"),
                        tok("1e21"), tok("1e22"), tok("0.1e-5"), tok("-0.00"), tok("100"),
                        tok("999999999999999999e-18"), tok("12.5e+3")})});
    r2.exit_class = ExitClass::crash;
    r2.signal = 11;
    r2.duration_s = 1e-300;
    must(f.add_run(r2));

    RunRecord r3 = simple_run("patched \"x\"", 0, {values("latency", {tok("7.25")})});
    r3.origin = "ffffffffffffffffffffffffffffffff";  // same variant+run, other origin
    r3.exit_class = ExitClass::timeout;
    must(f.add_run(r3));

    RunRecord r4 = simple_run("baseline", 9223372036854775807ull, {values("latency", {})});
    r4.exit_class = ExitClass::skip;
    r4.duration_s = 123456.789;
    must(f.add_run(r4));
    return f;
}

std::string temp_dir() {
    std::string tmpl = testing::TempDir() + "gfxstat_results_XXXXXX";
    const char* made = ::mkdtemp(tmpl.data());
    EXPECT_NE(made, nullptr) << std::strerror(errno);
    return tmpl;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void write_file(const std::string& path, std::string_view text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

std::vector<std::string> lines_of(std::string_view text) {
    std::vector<std::string> out;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t nl = text.find('\n', pos);
        if (nl == std::string_view::npos) nl = text.size();
        out.emplace_back(text.substr(pos, nl - pos));
        pos = nl + 1;
    }
    return out;
}

const std::string kHeader =
    R"({"format":"gfxstat-results","version":1,"id":"00ff00ff00ff00ff00ff00ff00ff00ff","created":"2026-11-30T05:00:00Z","generator":"test"})"
    "\n";
const std::string kLat = R"({"type":"metric","name":"lat","unit":"us","direction":"lower"})" "\n";

std::string run_line(const std::string& variant, int index, const std::string& metrics,
                     const std::string& exit = "ok") {
    return R"({"type":"run","variant":")" + variant + R"(","run":)" + std::to_string(index) +
           R"(,"exit":{"class":")" + exit + R"("},"metrics":{)" + metrics + "}}\n";
}

// The InputError message for `text`, or "" when it reads.
std::string read_error(const std::string& text, ReadReport* report = nullptr) {
    try {
        parse_results(text, "f.jsonl", report);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

#define EXPECT_ERROR(text, prefix, phrase)                                   \
    do {                                                                     \
        const std::string msg_ = read_error(text);                           \
        EXPECT_EQ(msg_.rfind(prefix, 0), 0u) << "message: " << msg_;         \
        EXPECT_NE(msg_.find(phrase), std::string::npos) << "message: " << msg_; \
    } while (0)

// ------------------------------------------------------------ round trip

TEST(ResultsJson, RoundTripEveryField) {
    const ResultsFile f = full_file();
    const std::string text = serialize_results(f);
    ReadReport report;
    const ResultsFile back = parse_results(text, "rt", &report);
    EXPECT_FALSE(report.torn_tail);
    EXPECT_EQ(report.run_lines.size(), f.runs().size());
    expect_same_file(f, back);
    // Every line is JSON any parser accepts, and a second trip is stable.
    for (const std::string& line : lines_of(text))
        EXPECT_TRUE(nlohmann::json::accept(line)) << line;
    EXPECT_EQ(serialize_results(parse_results(serialize_results(back), "rt2")),
              serialize_results(back));
}

TEST(ResultsJson, NumbersAreWrittenDigitForDigit) {
    const std::string text = serialize_results(full_file());
    EXPECT_NE(text.find(R"("metrics":{"latency":23.205,"fps":[60,59.94]})"), std::string::npos)
        << text;
    EXPECT_NE(text.find(R"("fps":[-0,1e-300,123456789012345678,5e-10,0.000001,3.141592653589793,)"
                        R"(-12,5e-324,-1.7976931348623157e308,1e21,1e22,)"
                        R"(0.000001,-0,100,0.999999999999999999,12500])"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find(R"("metrics":{"latency":[5],"fps":[-0,)"), std::string::npos);  // array kept
    EXPECT_NE(text.find(R"("metrics":{"latency":[]})"), std::string::npos);
    EXPECT_NE(text.find(R"("run":9223372036854775807,)"), std::string::npos);
    EXPECT_NE(text.find(R"("extra":[true,null,{"a":"b"}])"), std::string::npos);
}

TEST(ResultsJson, UnknownMembersKeptVerbatim) {
    const std::string line =
        R"({"zz":{"deep":[1,2 , 3.50]},"type":"run","variant":"v","run":3,"exit":{"class":"ok","later":1},)"
        R"("metrics":{"m":1.50},"new_thing":"x\u00e9"})";
    const auto rec = parse_record_line(line);
    const RunRecord& r = std::get<RunRecord>(rec);
    ASSERT_EQ(r.unknown.size(), 2u);
    EXPECT_EQ(r.unknown[0], (std::pair<std::string, std::string>{"zz", R"({"deep":[1,2 , 3.50]})"}));
    EXPECT_EQ(r.unknown[1], (std::pair<std::string, std::string>{"new_thing", R"("x\u00e9")"}));
    std::string out;
    append_run_line(out, r);
    EXPECT_NE(out.find(R"("zz":{"deep":[1,2 , 3.50]})"), std::string::npos) << out;
    EXPECT_EQ(out.find("later"), std::string::npos);  // unknown inside "exit": dropped, documented
    const auto again = std::get<RunRecord>(parse_record_line(std::string_view(out).substr(0, out.size() - 1)));
    expect_same_run(r, again);
}

TEST(ResultsJson, EnvironmentKeysAreEscaped) {
    Environment env;
    env.id = "env-0000000000000001";
    env.fields = {{"a\"b", "1"}, {"new\nline", "2"}, {"back\\slash", "3"}, {"\x01", "4"}};
    std::string line;
    append_environment_line(line, env);
    ASSERT_FALSE(line.empty());
    EXPECT_EQ(line.find('\n'), line.size() - 1) << "one record, one line";
    ASSERT_TRUE(nlohmann::json::accept(line)) << line;
    const auto back = std::get<Environment>(parse_record_line(line.substr(0, line.size() - 1)));
    EXPECT_EQ(back.fields, env.fields);
}

// The reference route for a canonical number: its text, split by hand into
// sign, digits and exponent (no gfxstat code involved).
struct Split {
    bool negative = false;
    std::string digits;  // significant digits, no leading or trailing zeros ("" for 0)
    int64_t exponent = 0;
};

Split split_number(const std::string& s) {
    Split r;
    size_t i = 0;
    if (s[i] == '-') r.negative = true, ++i;
    std::string all;
    int64_t frac = 0;
    bool point = false;
    for (; i < s.size() && s[i] != 'e'; ++i) {
        if (s[i] == '.') {
            point = true;
            continue;
        }
        all += s[i];
        frac += point;
    }
    int64_t e = i < s.size() ? std::stoll(s.substr(i + 1)) : 0;
    e -= frac;
    const size_t first = all.find_first_not_of('0');
    if (first == std::string::npos) return r;
    all.erase(0, first);
    while (all.back() == '0') all.pop_back(), ++e;
    r.digits = all;
    r.exponent = e;
    return r;
}

// Canonical: no '+', no leading zeros, no trailing zeros after the point, a
// point only with digits on both sides, exponent form only when needed.
bool canonical_shape(const std::string& s) {
    size_t i = s[0] == '-';
    if (s.find('+') != std::string::npos || s.find('E') != std::string::npos) return false;
    const size_t e = s.find('e');
    const std::string mant = s.substr(i, e == std::string::npos ? std::string::npos : e - i);
    if (mant.size() > 1 && mant[0] == '0' && mant[1] != '.') return false;
    const size_t dot = mant.find('.');
    if (dot != std::string::npos && (mant.back() == '0' || dot == mant.size() - 1)) return false;
    if (e != std::string::npos) {
        // d[.ddd]e<exp>, the exponent without leading zeros
        if (!(mant[0] >= '1' && mant[0] <= '9') || (mant.size() > 1 && mant[1] != '.')) return false;
        const std::string ex = s.substr(e + 1);
        const size_t d = ex[0] == '-';
        if (ex.size() <= d || ex[d] == '0') return false;
    }
    return true;
}

TEST(ResultsJson, AppendJsonNumberIsExact) {
    std::mt19937_64 rng(424242);
    size_t checked = 0;
    for (int iter = 0; iter < 20000; ++iter) {
        const int ndigits = static_cast<int>(rng() % 18) + 1;
        uint64_t sig = 0;
        for (int d = 0; d < ndigits; ++d) {
            // zeros often, so that trailing/inner zeros get exercised
            const uint64_t digit = rng() % 3 == 0 ? 0 : rng() % 10;
            sig = sig * 10 + digit;
        }
        if (iter % 97 == 0) sig = 0;
        // Exponents over the whole range an exact decimal token may have;
        // magnitudes kept below DBL_MAX.
        const int exp = static_cast<int>(rng() % 708) - 400;
        if (ndigits - 1 + exp > 307) continue;
        const NumberToken t = decimal(rng() & 1, sig, exp);
        std::string s;
        append_json_number(s, t);
        SCOPED_TRACE(s + " from " + describe_token(t));

        // Valid JSON: the whole text is one number, for the cursor and nlohmann.
        {
            JsonCursor c(s);
            ASSERT_EQ(c.number_token(), s);
            c.expect_end();
        }
        ASSERT_TRUE(nlohmann::json::accept(s));
        ASSERT_TRUE(canonical_shape(s));

        // Same exact decimal, by hand.
        const Split got = split_number(s);
        Split want;
        want.negative = t.negative;
        if (sig != 0) {
            uint64_t v = sig;
            int64_t e = exp;
            while (v % 10 == 0) v /= 10, ++e;
            want.digits = std::to_string(v);
            want.exponent = e;
        }
        ASSERT_EQ(got.negative, want.negative);
        ASSERT_EQ(got.digits, want.digits);
        ASSERT_EQ(got.exponent, want.exponent);

        // Same double, by strtod on both spellings.
        char ref[64];
        std::snprintf(ref, sizeof ref, "%s%" PRIu64 "e%d", t.negative ? "-" : "", sig, exp);
        ASSERT_TRUE(same_bits(std::strtod(s.c_str(), nullptr), std::strtod(ref, nullptr)));

        // And gfxstat reads it back as the same decimal, through a record
        // (or refuses it as an underflow when it is no double but 0).
        const std::string line = R"({"type":"run","variant":"v","run":0,"exit":{"class":"ok"},"metrics":{"m":)" + s + "}}";
        if (sig != 0 && std::strtod(ref, nullptr) == 0) {
            EXPECT_THROW(parse_record_line(line), std::exception);
            continue;
        }
        const RunRecord r = std::get<RunRecord>(parse_record_line(line));
        ASSERT_EQ(r.metrics.size(), 1u);
        ASSERT_EQ(r.metrics[0].values.size(), 1u);
        expect_same_number(t, r.metrics[0].values[0], "read back");
        ++checked;
    }
    EXPECT_GT(checked, 15000u);
}

TEST(ResultsJson, AppendJsonNumberCanonicalForms) {
    const auto text = [](const NumberToken& t) {
        std::string s;
        append_json_number(s, t);
        return s;
    };
    EXPECT_EQ(text(decimal(false, 23205, -3)), "23.205");
    EXPECT_EQ(text(decimal(false, 23200, -3)), "23.2");
    EXPECT_EQ(text(decimal(false, 5, -10)), "5e-10");
    EXPECT_EQ(text(decimal(false, 1, -6)), "0.000001");
    EXPECT_EQ(text(decimal(false, 1, -7)), "1e-7");
    EXPECT_EQ(text(decimal(false, 15, -8)), "1.5e-7");
    EXPECT_EQ(text(decimal(true, 0, 5)), "-0");
    EXPECT_EQ(text(decimal(false, 0, -3)), "0");
    EXPECT_EQ(text(decimal(false, 1, 20)), "100000000000000000000");
    EXPECT_EQ(text(decimal(false, 1, 21)), "1e21");
    EXPECT_EQ(text(decimal(false, 12, 19)), "120000000000000000000");
    EXPECT_EQ(text(decimal(false, 1, 22)), "1e22");
    EXPECT_EQ(text(decimal(false, 123456789012345678, 0)), "123456789012345678");
    EXPECT_EQ(text(decimal(false, 123456789012345678, 10)), "1.23456789012345678e27");
    EXPECT_EQ(text(decimal(true, 1, -300)), "-1e-300");
    EXPECT_EQ(text(decimal(false, 999999999999999999, -400)), "9.99999999999999999e-383");
}

TEST(ResultsJson, BinaryTokensReadBackToTheSameDouble) {
    std::mt19937_64 rng(7);
    for (int i = 0; i < 5000; ++i) {
        double v;
        uint64_t bits = rng();
        std::memcpy(&v, &bits, sizeof v);
        if (!std::isfinite(v)) continue;
        NumberToken t;
        t.status = TokenStatus::binary;
        t.negative = std::signbit(v);
        t.value = v;
        std::string s;
        append_json_number(s, t);
        ASSERT_TRUE(nlohmann::json::accept(s)) << s;
        JsonCursor c(s);
        ASSERT_EQ(c.number_token(), s);
        const NumberToken back = parse_number_token(s);
        ASSERT_TRUE(back.status == TokenStatus::decimal || back.status == TokenStatus::binary) << s;
        ASSERT_TRUE(same_bits(strtod_value(back), v)) << s;
    }
}

TEST(ResultsJson, RecordErrors) {
    const auto record_error = [](const std::string& line) -> std::string {
        try {
            parse_record_line(line);
        } catch (const RecordError& e) {
            return e.what();
        } catch (const JsonSyntaxError& e) {
            return std::string("syntax: ") + e.what();
        }
        return "";
    };
    EXPECT_NE(record_error(R"({"variant":"v"})").find("needs a \"type\""), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"run","run":0,"exit":{"class":"ok"},"metrics":{}})").find("needs a \"variant\""), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"run","variant":"v","exit":{"class":"ok"},"metrics":{}})").find("\"run\" index"), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"run","variant":"v","run":0,"metrics":{}})").find("\"exit\" object"), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"run","variant":"v","run":0,"exit":{"class":"ok"}})").find("\"metrics\" object"), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"run","variant":"v","run":-1,"exit":{"class":"ok"},"metrics":{}})").find("whole number"), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"run","variant":"v","run":1.5,"exit":{"class":"ok"},"metrics":{}})").find("whole number"), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"run","variant":"v","run":0,"exit":{"class":"oops"},"metrics":{}})").find("not \"oops\""), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"run","variant":"v","run":0,"exit":{"class":"ok"},"metrics":{"m":1e400}})").find("beyond the range"), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"run","variant":"v","run":0,"exit":{"class":"ok"},"metrics":{"m":"1"}})").find("must be a number"), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"run","variant":"v","run":0,"exit":{"class":"ok"},"metrics":{"m":[1,null]}})").find("only numbers"), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"run","variant":"v","run":0,"exit":{"class":"ok"},"duration_s":-1,"metrics":{}})").find("duration_s"), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"metric","name":"","unit":"us"})").find("non-empty \"name\""), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"metric","name":"m","direction":"up"})").find("not \"up\""), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"environment","hostname":"x"})").find("non-empty \"id\""), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"environment","id":"e","n":1})").find("must be a string"), std::string::npos);
    // A type this gfxstat does not know is a newer one's: read (and then
    // skipped by the reader), as long as the line itself is well-formed.
    EXPECT_EQ(record_error(R"({"type":"bogus"})"), "");
    EXPECT_EQ(record_error(R"({"a":[1,{"b":2}],"type":"bogus"})"), "");
    EXPECT_NE(record_error(R"({"type":"bogus","a":1,"a":2})").find("appears twice"), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"bogus","a":})").find("syntax: "), std::string::npos);
    EXPECT_NE(record_error(R"({"type":""})").find("must not be empty"), std::string::npos);
    EXPECT_NE(record_error(R"({"type":7})").find("must be a string"), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"metric","name":"m"} x)").find("syntax: "), std::string::npos);
    EXPECT_NE(record_error(R"({"name":"m","type":"metric"} x)").find("syntax: "), std::string::npos);
    EXPECT_NE(record_error(R"({"name":"m","type":"metric",})").find("syntax: "), std::string::npos);
    EXPECT_EQ(record_error(R"({"type":"metric","name":"m"})"), "");
}

TEST(ResultsJson, LooksLikeResults) {
    EXPECT_TRUE(looks_like_results(" \n\t{\"format\""));
    EXPECT_FALSE(looks_like_results("1.5\n2\n"));
    EXPECT_FALSE(looks_like_results("   "));
}

// ------------------------------------------------------------ reader rules

TEST(ResultsReader, ReadsAValidFile) {
    const std::string text = kHeader + "\n  \n" + kLat + run_line("a", 0, R"("lat":1.5)") +
                             run_line("a", 1, R"("lat":[2,3])") + "\r\n";
    ReadReport rep;
    const ResultsFile f = parse_results(text, "f.jsonl", &rep);
    EXPECT_EQ(f.runs().size(), 2u);
    EXPECT_EQ(rep.records, 4u);
    EXPECT_EQ(rep.run_lines, (std::vector<size_t>{5, 6}));
    EXPECT_FALSE(rep.torn_tail);
    EXPECT_EQ(rep.good_bytes, text.size());
    EXPECT_EQ(f.next_run_index("a"), 2u);
}

TEST(ResultsReader, MetricUsedBeforeDeclared) {
    EXPECT_ERROR(kHeader + run_line("a", 0, R"("lat":1)") + kLat, "f.jsonl:2: ",
                 "metric 'lat' is used before it is declared");
}

TEST(ResultsReader, MetricRedeclaredDifferently) {
    const std::string ms = R"({"type":"metric","name":"lat","unit":"ms","direction":"lower"})" "\n";
    EXPECT_ERROR(kHeader + kLat + kLat + ms, "f.jsonl:4: ", "metric 'lat' was declared with unit 'us'");
    EXPECT_EQ(read_error(kHeader + kLat + kLat), "");  // the same declaration again is fine
}

TEST(ResultsJson, MetricExactAndPrimary) {
    MetricInfo m{"size", "bytes", Direction::lower_is_better, {}};
    std::string line;
    append_metric_line(line, m);
    // Written only when they say something: an old reader sees no new member.
    EXPECT_EQ(line, R"({"type":"metric","name":"size","unit":"bytes","direction":"lower"})" "\n");
    m.exact = true;
    m.primary = false;
    line.clear();
    append_metric_line(line, m);
    EXPECT_NE(line.find(R"("exact":true)"), std::string::npos) << line;
    EXPECT_NE(line.find(R"("primary":false)"), std::string::npos) << line;
    const auto back = std::get<MetricInfo>(parse_record_line(line));
    EXPECT_TRUE(back.exact);
    EXPECT_EQ(back.primary, std::optional<bool>(false));
    const auto plain = std::get<MetricInfo>(parse_record_line(kLat));
    EXPECT_FALSE(plain.exact);
    EXPECT_EQ(plain.primary, std::nullopt);  // absent: unknown, not false
    // Not booleans: refused with the file, the line and what was expected.
    EXPECT_ERROR(kHeader + R"({"type":"metric","name":"lat","unit":"us","exact":1})" "\n", "f.jsonl:2: ",
                 "a metric's \"exact\" must be true or false, found a number");
    EXPECT_ERROR(kHeader + R"({"type":"metric","name":"lat","primary":"yes"})" "\n", "f.jsonl:2: ",
                 "a metric's \"primary\" must be true or false, found a string");
}

TEST(ResultsJson, WorkloadIsPartOfTheEnvironment) {
    Environment a;
    a.fields = {{"hostname", "bdw"}};
    const std::string plain_id = environment_id(a);
    a.workload = WorkloadRecord{};
    a.workload->argv = {"sleep", "1"};
    a.workload->parser = "time";
    Environment b = a;
    b.workload->argv = {"sleep", "0.01"};
    // Another workload is another environment, and none is not an empty one.
    EXPECT_NE(environment_id(a), environment_id(b));
    EXPECT_NE(environment_id(a), plain_id);
    EXPECT_FALSE(a.same_content(b));
    a.id = environment_id(a);
    std::string line;
    append_environment_line(line, a);
    EXPECT_NE(line.find(R"("workload":{"argv":["sleep","1"],"parser":"time"})"), std::string::npos) << line;
    const auto back = std::get<Environment>(parse_record_line(line));
    ASSERT_TRUE(back.workload.has_value());
    EXPECT_TRUE(*back.workload == *a.workload);
    EXPECT_EQ(back.fields, a.fields);  // not a field
    const std::string env = R"({"type":"environment","id":"e","workload":)";
    EXPECT_ERROR(kHeader + env + R"("sleep 1"})" "\n", "f.jsonl:2: ",
                 "an environment's \"workload\" must be an object");
    EXPECT_ERROR(kHeader + env + R"({"argv":["x"],"builtin":"wakeup-latency"}})" "\n", "f.jsonl:2: ",
                 "needs either \"argv\" (a command) or \"builtin\"");
    EXPECT_ERROR(kHeader + env + R"({"parser":"time"}})" "\n", "f.jsonl:2: ", "needs either \"argv\"");
    EXPECT_ERROR(kHeader + env + R"({"argv":[]}})" "\n", "f.jsonl:2: ", "must hold the command");
    EXPECT_ERROR(kHeader + env + R"({"argv":["x",1]}})" "\n", "f.jsonl:2: ",
                 "\"workload\".\"argv\"[1] must be a string");
    EXPECT_ERROR(kHeader + env + R"({"argv":["x"],"env":{"A":"1","A":"2"}}})" "\n", "f.jsonl:2: ", "appears twice");
}

TEST(ResultsReader, ExactIsPartOfTheDeclarationPrimaryIsNot) {
    const std::string exact = R"({"type":"metric","name":"lat","unit":"us","direction":"lower","exact":true})" "\n";
    EXPECT_ERROR(kHeader + kLat + exact, "f.jsonl:3: ",
                 "metric 'lat' was declared with unit 'us', lower is better; now unit 'us', lower is better, exact");
    // primary may differ: the first word counts, and fills in an unknown.
    const std::string yes = R"({"type":"metric","name":"lat","unit":"us","direction":"lower","primary":true})" "\n";
    const std::string no = R"({"type":"metric","name":"lat","unit":"us","direction":"lower","primary":false})" "\n";
    EXPECT_EQ(parse_results(kHeader + kLat + yes + no, "f").find_metric("lat")->primary, std::optional<bool>(true));
    EXPECT_EQ(parse_results(kHeader + no + yes, "f").find_metric("lat")->primary, std::optional<bool>(false));
}

TEST(ResultsMerge, KeepsExactAndPrimary) {
    ResultsFile a, b;
    a.header.id = "aa";
    b.header.id = "bb";
    MetricInfo size{"size", "bytes", Direction::lower_is_better, {}};
    size.exact = true;
    MetricInfo wall{"wall", "s", Direction::lower_is_better, {}};
    must(a.declare_metric(size));
    must(a.declare_metric(wall));  // primary unknown here ...
    wall.primary = true;
    must(b.declare_metric(size));
    must(b.declare_metric(wall));  // ... and known here
    must(a.add_run(simple_run("v", 0, {values("size", {tok("100")})})));
    must(b.add_run(simple_run("v", 0, {values("size", {tok("100")})})));
    const std::vector<MergeInput> inputs{{"a.json", &a, nullptr}, {"b.json", &b, nullptr}};
    const ResultsFile merged = merge_results(inputs, new_results_header()).merged;
    ASSERT_NE(merged.find_metric("size"), nullptr);
    EXPECT_TRUE(merged.find_metric("size")->exact);
    EXPECT_EQ(merged.find_metric("wall")->primary, std::optional<bool>(true));
    const ResultsFile back = parse_results(serialize_results(merged), "m");
    EXPECT_TRUE(back.find_metric("size")->exact);
    EXPECT_EQ(back.find_metric("wall")->primary, std::optional<bool>(true));
    // A metric exact in one file and not in the other is two different
    // things: refused, not merged into one.
    ResultsFile c;
    c.header.id = "cc";
    must(c.declare_metric({"size", "bytes", Direction::lower_is_better, {}}));
    const std::vector<MergeInput> mixed{{"a.json", &a, nullptr}, {"c.json", &c, nullptr}};
    try {
        merge_results(mixed, new_results_header());
        ADD_FAILURE() << "merged an exact and a noisy declaration";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("c.json"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("exact"), std::string::npos) << e.what();
    }
}

TEST(ResultsReader, DuplicateRunNamesTheFirstLine) {
    const std::string text = kHeader + kLat + run_line("a", 0, R"("lat":1)") +
                             run_line("b", 0, "") + run_line("a", 0, R"("lat":2)");
    EXPECT_ERROR(text, "f.jsonl:5: ", "run 0 of variant 'a' is recorded twice (first at line 3)");
    // Another origin is another identity.
    const std::string other = R"({"type":"run","variant":"a","run":0,"origin":"ff","exit":{"class":"ok"},"metrics":{}})" "\n";
    EXPECT_EQ(read_error(kHeader + kLat + run_line("a", 0, "") + other), "");
    EXPECT_ERROR(kHeader + other + other, "f.jsonl:3: ", "from file ff is recorded twice (first at line 2)");
}

TEST(ResultsReader, OtherConflictsDoNotBlameADuplicate) {
    // A run that both repeats an identity and uses an undeclared metric: the
    // message must not point at the first run for the metric problem.
    const std::string text = kHeader + kLat + run_line("a", 0, R"("lat":1)") + run_line("a", 0, R"("x":2)");
    const std::string msg = read_error(text);
    EXPECT_EQ(msg.rfind("f.jsonl:4: ", 0), 0u) << msg;
    EXPECT_NE(msg.find("metric 'x' is used before it is declared"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("first at line"), std::string::npos) << msg;
}

TEST(ResultsReader, EnvironmentRules) {
    const std::string env = R"({"type":"environment","id":"env-1","hostname":"a"})" "\n";
    const std::string env2 = R"({"type":"environment","id":"env-1","hostname":"b"})" "\n";
    const std::string uses = R"({"type":"run","variant":"a","run":0,"environment":"env-1","exit":{"class":"ok"},"metrics":{}})" "\n";
    EXPECT_ERROR(kHeader + uses + env, "f.jsonl:2: ", "environment 'env-1' is used before it is recorded");
    EXPECT_ERROR(kHeader + env + env2, "f.jsonl:3: ", "recorded before with different content");
    EXPECT_EQ(read_error(kHeader + env + env + uses), "");
}

TEST(ResultsReader, UnknownRecordTypeIsSkippedWithOneWarningPerType) {
    const std::string text = kHeader + R"({"type":"benchmark","x":1})" "\n" + kLat +
                             R"({"type":"benchmark","x":2})" "\n" R"({"type":"shader_stats"})" "\n" +
                             R"({"type":"run","variant":"a","run":0,"exit":{"class":"ok"},"metrics":{"lat":1}})" "\n";
    ReadReport report;
    const ResultsFile f = parse_results(text, "f.jsonl", &report);
    EXPECT_EQ(f.runs().size(), 1u);  // what follows the skipped records is read
    ASSERT_EQ(report.skipped.size(), 2u);
    EXPECT_EQ(report.skipped[0].type, "benchmark");
    EXPECT_EQ(report.skipped[0].first_line, 2u);
    EXPECT_EQ(report.skipped[0].count, 2u);
    EXPECT_EQ(report.skipped[1].type, "shader_stats");
    const std::vector<std::string> msgs = skipped_record_messages("f.jsonl", report);
    ASSERT_EQ(msgs.size(), 2u);
    EXPECT_EQ(msgs[0], "f.jsonl:2: skipped 2 records of unknown type \"benchmark\", the first here (a newer gfxstat's?)");
    EXPECT_EQ(msgs[1], "f.jsonl:5: skipped 1 record of unknown type \"shader_stats\" (a newer gfxstat's?)");
    // A malformed line of an unknown type is still an error, not skipped.
    EXPECT_ERROR(kHeader + R"({"type":"benchmark","x":1,"x":2})" "\n", "f.jsonl:2: ", "appears twice");
    EXPECT_ERROR(kHeader + R"({"type":"benchmark","x":)" "\n" + kLat, "f.jsonl:2: ", "broken JSON");
    // A file without them has no warning.
    ReadReport plain;
    parse_results(kHeader + kLat, "f.jsonl", &plain);
    EXPECT_TRUE(skipped_record_messages("f.jsonl", plain).empty());
}

TEST(ResultsReader, HeaderRules) {
    EXPECT_ERROR(R"({"format":"gfxstat-results","version":2,"id":"ab"})" "\n", "f.jsonl:1: ",
                 "newer gfxstat");
    EXPECT_ERROR(kLat + kHeader, "f.jsonl:1: ", "not a gfxstat results file");
    EXPECT_ERROR(R"({"format":"gfxstat-results","id":"ab"})" "\n", "f.jsonl:1: ", "no \"version\"");
    EXPECT_ERROR(R"({"format":"gfxstat-results","version":1})" "\n", "f.jsonl:1: ", "no \"id\"");
    EXPECT_ERROR(R"({"format":"gfxstat-results","version":0,"id":"a"})" "\n", "f.jsonl:1: ", "1 or more");
    EXPECT_ERROR("1 2 3\n", "f.jsonl:1: ", "expected the header object");
    EXPECT_ERROR("{\"format\":\n", "f.jsonl:1: ", "broken JSON");
    EXPECT_ERROR("", "f.jsonl: ", "empty");
    EXPECT_ERROR("\n \n", "f.jsonl: ", "empty");
    // Blank lines before the header are allowed.
    EXPECT_EQ(read_error("\n" + kHeader), "");
}

TEST(ResultsReader, BrokenJsonInTheMiddleIsAnError) {
    const std::string broken = R"({"type":"run","variant":"a","run":0,"exit":{"class":"ok"},"metrics":{"lat":1)" "\n";
    EXPECT_ERROR(kHeader + kLat + broken + run_line("a", 1, ""), "f.jsonl:3: ", "broken JSON at byte");
    // Even as the last line: it has its '\n', so it is not a torn write.
    EXPECT_ERROR(kHeader + kLat + broken, "f.jsonl:3: ", "broken JSON");
    EXPECT_ERROR(kHeader + "[1,2]\n", "f.jsonl:2: ", "broken JSON");
}

TEST(ResultsReader, TornTailIsReportedAndIgnored) {
    const std::string good = kHeader + kLat + run_line("a", 0, R"("lat":1.25)");
    const std::string partial = R"({"type":"run","variant":"a","run":1,"exit":{"cla)";
    ReadReport rep;
    const ResultsFile f = parse_results(good + partial, "f.jsonl", &rep);
    EXPECT_TRUE(rep.torn_tail);
    EXPECT_EQ(rep.torn_line, 4u);
    EXPECT_EQ(rep.torn_bytes, partial.size());
    EXPECT_EQ(rep.good_bytes, good.size());
    EXPECT_EQ(rep.records, 3u);
    ASSERT_EQ(f.runs().size(), 1u);
    EXPECT_EQ(f.runs()[0].metrics[0].values[0].significand, 125u);
    EXPECT_EQ(torn_tail_message("f.jsonl", rep),
              "f.jsonl:4: incomplete last record (" + std::to_string(partial.size()) +
                  " bytes, a writer was interrupted) ignored; the 3 records before it are intact");
}

TEST(ResultsReader, CompleteLastLineWithoutNewline) {
    std::string text = kHeader + kLat + run_line("a", 0, "") + run_line("a", 1, R"("lat":2)");
    text.pop_back();
    ReadReport rep;
    const ResultsFile f = parse_results(text, "f.jsonl", &rep);
    EXPECT_FALSE(rep.torn_tail);
    EXPECT_EQ(f.runs().size(), 2u);
    EXPECT_EQ(rep.good_bytes, text.size());
    // But a complete last line that breaks a rule is still an error.
    std::string dup = kHeader + run_line("a", 0, "") + run_line("a", 0, "");
    dup.pop_back();
    EXPECT_ERROR(dup, "f.jsonl:3: ", "recorded twice");
}

TEST(ResultsReader, TornHeaderIsAnError) {
    EXPECT_ERROR(kHeader.substr(0, 30), "f.jsonl:1: ", "header line is incomplete");
}

TEST(ResultsReader, EveryPrefixOfAValidFileReads) {
    // What a torn append can leave: any prefix that keeps the header.
    std::string text = kHeader + kLat + run_line("a", 0, R"("lat":[1.5,-2e-7])") +
                       R"({"type":"environment","id":"env-x","note":"caf\u00e9 \"q\"","tags":{"t":"1"}})" "\n" +
                       R"({"type":"run","variant":"b","run":4,"environment":"env-x","duration_s":0.5,"exit":{"class":"fail","code":1},"metrics":{"lat":12}})" "\n";
    const auto all = lines_of(text);
    for (size_t k = kHeader.size(); k <= text.size(); ++k) {
        const std::string cut = text.substr(0, k);
        SCOPED_TRACE("prefix of " + std::to_string(k) + " bytes");
        ReadReport rep;
        ResultsFile f;
        ASSERT_NO_THROW(f = parse_results(cut, "f.jsonl", &rep));
        // Complete lines, plus a last line that is whole but lacks its '\n'.
        size_t complete = 0, at = 0;
        for (const std::string& l : all) {
            if (at + l.size() <= k) ++complete;
            at += l.size() + 1;
        }
        const bool on_boundary = k == text.size() || cut.back() == '\n' ||
                                 text[k] == '\n';
        EXPECT_EQ(rep.torn_tail, !on_boundary);
        EXPECT_EQ(rep.records, complete);
        EXPECT_EQ(f.runs().size(), (complete >= 3) + (complete >= 5));
        if (rep.torn_tail) {
            EXPECT_EQ(rep.good_bytes + rep.torn_bytes, k);
        }
    }
}

// ------------------------------------------------------------ writer

TEST(ResultsWriter, WriteRefusesToReplaceAndLeavesNoTempFile) {
    const std::string dir = temp_dir();
    const std::string path = dir + "/out.jsonl";
    const ResultsFile f = full_file();
    write_new_results_file(path, f);
    EXPECT_EQ(read_file(path), serialize_results(f));
    expect_same_file(f, read_results_path(path, "out"));

    ResultsFile other;
    other.header = new_results_header();
    try {
        write_new_results_file(path, other);
        ADD_FAILURE() << "replaced an existing file";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("already exists"), std::string::npos) << e.what();
    }
    EXPECT_EQ(read_file(path), serialize_results(f));
    rewrite_results_file(path, ExistingFile::replace, [&](const ResultsFile*, const ReadReport&) { return other; });
    EXPECT_EQ(read_file(path), serialize_results(other));
    EXPECT_THROW(write_new_results_file(dir + "/no/such/dir/x.jsonl", other), InputError);

    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    EXPECT_EQ(names, std::vector<std::string>{"out.jsonl"});
    fs::remove_all(dir);
}

TEST(ResultsWriter, StaleTempFileDoesNotBlockWriting) {
    // What a writer killed before its rename leaves, with the pid a later
    // writer may have again.
    const std::string dir = temp_dir();
    const std::string path = dir + "/out.jsonl";
    const std::string stale = path + ".tmp." + std::to_string(::getpid());
    write_file(stale, "half a file");
    ResultsFile f;
    f.header = new_results_header();
    EXPECT_NO_THROW(write_new_results_file(path, f));
    EXPECT_EQ(read_file(path), serialize_results(f));
    EXPECT_EQ(read_file(stale), "half a file");  // not ours to remove
    EXPECT_NO_THROW(ResultsAppender app(dir + "/new.jsonl"));
    write_file(dir + "/new2.jsonl.tmp." + std::to_string(::getpid()), "");
    EXPECT_NO_THROW(ResultsAppender app(dir + "/new2.jsonl"));
    fs::remove_all(dir);
}

TEST(ResultsWriter, NewHeader) {
    const ResultsHeader a = new_results_header(), b = new_results_header();
    EXPECT_EQ(a.id.size(), 32u);
    EXPECT_EQ(a.id.find_first_not_of("0123456789abcdef"), std::string::npos);
    EXPECT_NE(a.id, b.id);
    EXPECT_EQ(a.created.size(), std::string("2026-11-30T05:00:00.000000Z").size());
    EXPECT_EQ(a.created.back(), 'Z');
}

RunRecord lat_run(uint64_t index, const std::string& value) {
    return simple_run("v", index, {values("lat", {tok(value)})});
}

TEST(ResultsAppender, CreatesFileAndWritesDeclarationsWithTheRun) {
    const std::string dir = temp_dir();
    const std::string path = dir + "/r.jsonl";
    {
        ResultsAppender app(path);
        EXPECT_EQ(app.repaired(), "");
        const std::string created = read_file(path);
        ASSERT_EQ(lines_of(created).size(), 1u);
        EXPECT_EQ(app.file().header.id.size(), 32u);

        app.declare_metric({"lat", "us", Direction::lower_is_better, {}});
        Environment env;
        env.fields = {{"hostname", "h"}, {"odd\"key", "x"}};
        const std::string env_id = app.add_environment(env);
        EXPECT_EQ(env_id, environment_id(env));
        EXPECT_EQ(read_file(path), created) << "declarations wait for the run";

        RunRecord r = lat_run(0, "23.205");
        r.environment = env_id;
        app.append_run(r);
        const auto l = lines_of(read_file(path));
        ASSERT_EQ(l.size(), 4u);
        EXPECT_NE(l[1].find(R"("type":"metric")"), std::string::npos);
        EXPECT_NE(l[2].find(R"("type":"environment")"), std::string::npos);
        EXPECT_NE(l[3].find(R"("type":"run")"), std::string::npos);

        app.declare_metric({"lat", "us", Direction::lower_is_better, {}});  // no-op
        EXPECT_THROW(app.declare_metric({"lat", "ms", Direction::lower_is_better, {}}), InputError);
        app.append_run(lat_run(1, "24"));
        EXPECT_EQ(lines_of(read_file(path)).size(), 5u);

        // Rule violations are refused before anything is written.
        const std::string before = read_file(path);
        EXPECT_THROW(app.append_run(lat_run(1, "25")), InputError);  // duplicate
        EXPECT_THROW(app.append_run(simple_run("v", 2, {values("nope", {tok("1")})})), InputError);
        RunRecord bad_env = lat_run(3, "1");
        bad_env.environment = "env-0000000000000000";
        EXPECT_THROW(app.append_run(bad_env), InputError);
        EXPECT_EQ(read_file(path), before);
        EXPECT_EQ(app.file().runs().size(), 2u);
    }
    ReadReport rep;
    const ResultsFile back = read_results_path(path, "r", &rep);
    EXPECT_FALSE(rep.torn_tail);
    ASSERT_EQ(back.runs().size(), 2u);
    EXPECT_EQ(back.environments().size(), 1u);
    EXPECT_EQ(back.environments()[0].fields.at("odd\"key"), "x");
    expect_same_number(tok("23.205"), back.runs()[0].metrics[0].values[0], "lat");
    // A new appender continues the file.
    {
        ResultsAppender app(path);
        EXPECT_EQ(app.file().next_run_index("v"), 2u);
        app.append_run(lat_run(2, "25"));
    }
    EXPECT_EQ(read_results_path(path, "r").runs().size(), 3u);
    fs::remove_all(dir);
}

TEST(ResultsAppender, LearnsPrimaryForAnOldFile) {
    const std::string path = temp_dir() + "/r.jsonl";
    MetricInfo wall{"wall", "s", Direction::lower_is_better, {}};
    {
        ResultsAppender app(path);  // as a gfxstat before `primary`
        app.declare_metric(wall);
        app.append_run(simple_run("v", 0, {values("wall", {tok("1")})}));
    }
    wall.primary = true;
    {
        ResultsAppender app(path);
        app.declare_metric(wall);
        app.append_run(simple_run("v", 1, {values("wall", {tok("2")})}));
    }
    EXPECT_EQ(read_results_path(path, "r").find_metric("wall")->primary, std::optional<bool>(true));
}

TEST(ResultsAppender, SecondAppenderIsLockedOut) {
    const std::string dir = temp_dir();
    const std::string path = dir + "/r.jsonl";
    {
        ResultsAppender first(path);
        try {
            ResultsAppender second(path);
            ADD_FAILURE() << "two appenders on one file";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("another gfxstat is writing"), std::string::npos)
                << e.what();
        }
    }
    EXPECT_NO_THROW(ResultsAppender again(path));  // the lock went with the first
    fs::remove_all(dir);
}

TEST(ResultsAppender, RefusesACorruptFile) {
    const std::string dir = temp_dir();
    const std::string path = dir + "/r.jsonl";
    const std::string text = kHeader + "{oops\n" + run_line("a", 0, "");
    write_file(path, text);
    EXPECT_THROW(ResultsAppender app(path), InputError);
    EXPECT_EQ(read_file(path), text);
    fs::remove_all(dir);
}

TEST(ResultsAppender, CutsOffATornTail) {
    const std::string dir = temp_dir();
    const std::string path = dir + "/r.jsonl";
    const std::string good = kHeader + kLat + run_line("v", 0, R"("lat":1)");
    write_file(path, good + R"({"type":"run","variant":"v","run":1,"metr)");
    {
        ResultsAppender app(path);
        EXPECT_NE(app.repaired().find("incomplete last record"), std::string::npos) << app.repaired();
        EXPECT_NE(app.repaired().find("cut off"), std::string::npos) << app.repaired();
        EXPECT_EQ(read_file(path), good);
        app.append_run(lat_run(1, "2"));
    }
    ReadReport rep;
    const ResultsFile f = read_results_path(path, "r", &rep);
    EXPECT_FALSE(rep.torn_tail);
    EXPECT_EQ(f.runs().size(), 2u);
    fs::remove_all(dir);
}

TEST(ResultsAppender, TerminatesACompleteLastLine) {
    const std::string dir = temp_dir();
    const std::string path = dir + "/r.jsonl";
    std::string text = kHeader + kLat + run_line("v", 0, R"("lat":1)");
    text.pop_back();
    write_file(path, text);
    {
        ResultsAppender app(path);
        EXPECT_EQ(app.repaired(), "");
        app.append_run(lat_run(1, "2"));
    }
    EXPECT_EQ(read_results_path(path, "r").runs().size(), 2u);
    fs::remove_all(dir);
}

TEST(ResultsAppender, RepairsEveryTruncation) {
    const std::string dir = temp_dir();
    const std::string src = dir + "/src.jsonl";
    {
        ResultsAppender app(src);
        app.declare_metric({"lat", "us", Direction::lower_is_better, {}});
        app.declare_metric({"fps", "", Direction::higher_is_better, {}});
        app.append_run(lat_run(0, "1.5"));
        RunRecord r = simple_run("v", 1, {values("lat", {tok("2"), tok("3e-9")}), values("fps", {tok("60")})});
        app.append_run(r);
    }
    const std::string text = read_file(src);
    const ResultsFile full = parse_results(text, "src");
    const size_t header_end = text.find('\n') + 1;
    const std::string path = dir + "/cut.jsonl";
    for (size_t k = header_end; k <= text.size(); ++k) {
        SCOPED_TRACE("cut at " + std::to_string(k));
        write_file(path, std::string_view(text).substr(0, k));
        ReadReport rep;
        const ResultsFile before = parse_results(text.substr(0, k), "cut", &rep);
        size_t kept = before.runs().size();
        ASSERT_LE(kept, full.runs().size());
        for (size_t i = 0; i < kept; ++i) expect_same_run(full.runs()[i], before.runs()[i]);
        {
            ResultsAppender app(path);
            EXPECT_EQ(app.repaired().empty(), !rep.torn_tail);
            app.declare_metric({"lat", "us", Direction::lower_is_better, {}});
            app.append_run(lat_run(7, "9.75"));
        }
        ReadReport after_rep;
        const ResultsFile after = read_results_path(path, "cut", &after_rep);
        EXPECT_FALSE(after_rep.torn_tail);
        ASSERT_EQ(after.runs().size(), kept + 1);
        for (size_t i = 0; i < kept; ++i) expect_same_run(full.runs()[i], after.runs()[i]);
        EXPECT_EQ(after.runs().back().run, 7u);
    }
    fs::remove_all(dir);
}

TEST(ResultsAppender, FailedWriteLeavesTheFileReadable) {
    // A write that fails part-way (disk full; here the file size limit) must
    // not leave a partial line that the next record would be glued onto.
    const std::string dir = temp_dir();
    const std::string path = dir + "/r.jsonl";
    struct rlimit old {};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
    const auto old_handler = ::signal(SIGXFSZ, SIG_IGN);
    {
        ResultsAppender app(path);
        app.declare_metric({"lat", "us", Direction::lower_is_better, {}});
        app.append_run(lat_run(0, "1"));
        const std::string before = read_file(path);
        struct rlimit small = old;
        small.rlim_cur = before.size() + 20;  // room for a piece of the next line
        ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
        std::string error;
        try {
            app.append_run(lat_run(1, "2.5"));
        } catch (const InputError& e) {
            error = e.what();
        }
        ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &old), 0);
        EXPECT_NE(error, "") << "the failed write was acknowledged";
        EXPECT_EQ(read_file(path), before) << "the partial record was not removed";
        // The appender does not write after a failure it could not undo
        // the state of; whatever it does, the file must stay readable.
        try {
            app.append_run(lat_run(2, "3"));
        } catch (const InputError&) {
        }
        ReadReport rep;
        EXPECT_NO_THROW(read_results_path(path, "r", &rep));
    }
    ::signal(SIGXFSZ, old_handler);
    {
        ResultsAppender app(path);
        app.append_run(lat_run(app.file().next_run_index("v"), "4"));
    }
    ReadReport rep;
    const ResultsFile f = read_results_path(path, "r", &rep);
    EXPECT_FALSE(rep.torn_tail);
    EXPECT_GE(f.runs().size(), 2u);
    fs::remove_all(dir);
}

TEST(ResultsAppender, RunFailsAfterAFailedWrite) {
    const std::string dir = temp_dir();
    const std::string path = dir + "/r.jsonl";
    struct rlimit old {};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
    const auto old_handler = ::signal(SIGXFSZ, SIG_IGN);
    {
        ResultsAppender app(path);
        app.declare_metric({"lat", "us", Direction::lower_is_better, {}});
        struct rlimit small = old;
        small.rlim_cur = read_file(path).size() + 10;
        ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
        EXPECT_THROW(app.append_run(lat_run(0, "1")), InputError);
        ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &old), 0);
        // The run was not written, so it is not recorded either: the file
        // must not end up with a run it never declared the metric for.
        try {
            app.append_run(lat_run(1, "2"));
        } catch (const InputError&) {
        }
    }
    ::signal(SIGXFSZ, old_handler);
    EXPECT_NO_THROW(read_results_path(path, "r"));
    fs::remove_all(dir);
}

// ------------------------------------------------------------ selection

ResultsFile selection_file() {
    ResultsFile f;
    f.header.id = "ab";
    must(f.declare_metric({"lat", "us", Direction::lower_is_better, {}}));
    must(f.declare_metric({"fps", "fps", Direction::higher_is_better, {}}));
    const auto add = [&](const std::string& v, uint64_t i, ExitClass cls, bool warm,
                         std::vector<MetricValues> m) {
        RunRecord r = simple_run(v, i, std::move(m));
        r.exit_class = cls;
        r.warmup = warm;
        must(f.add_run(r));
    };
    add("A", 0, ExitClass::ok, false, {values("lat", {tok("23.205")}), values("fps", {tok("60")})});
    add("A", 1, ExitClass::ok, true, {values("lat", {tok("99")})});
    add("B", 0, ExitClass::ok, false, {values("lat", {tok("30")})});
    add("A", 2, ExitClass::fail, false, {values("lat", {tok("1")})});
    add("A", 3, ExitClass::timeout, false, {});
    add("A", 4, ExitClass::crash, false, {values("lat", {tok("2")})});
    add("A", 5, ExitClass::skip, false, {});
    add("A", 6, ExitClass::ok, false, {values("fps", {tok("59")})});
    add("A", 7, ExitClass::ok, false, {values("lat", {tok("23.2"), tok("23.21")}, true)});
    add("B", 1, ExitClass::fail, true, {values("lat", {tok("5")})});
    add("B", 2, ExitClass::ok, false, {values("lat", {tok("-0.5")})});
    return f;
}

std::string select_error(const ResultsFile& f, std::string_view metric,
                         const std::vector<std::string>& variants) {
    try {
        select_metric(f, "f.jsonl", metric, variants);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(ResultsSelect, ExcludesWarmupsAndFailedRuns) {
    const MetricSelection sel = select_metric(selection_file(), "f.jsonl", "lat", {});
    EXPECT_EQ(sel.metric.name, "lat");
    ASSERT_EQ(sel.variants.size(), 2u);
    const VariantSample& a = sel.variants[0];
    EXPECT_EQ(a.variant, "A");
    EXPECT_EQ(a.sample.name, "A");
    EXPECT_EQ(a.counts.runs_used, 2u);
    EXPECT_EQ(a.counts.values, 3u);
    EXPECT_EQ(a.counts.warmup, 1u);
    EXPECT_EQ(a.counts.without_metric, 1u);
    EXPECT_EQ(a.counts.excluded_by_class[static_cast<size_t>(ExitClass::ok)], 0u);
    EXPECT_EQ(a.counts.excluded_by_class[static_cast<size_t>(ExitClass::fail)], 1u);
    EXPECT_EQ(a.counts.excluded_by_class[static_cast<size_t>(ExitClass::timeout)], 1u);
    EXPECT_EQ(a.counts.excluded_by_class[static_cast<size_t>(ExitClass::crash)], 1u);
    EXPECT_EQ(a.counts.excluded_by_class[static_cast<size_t>(ExitClass::skip)], 1u);
    EXPECT_EQ(a.counts.excluded(), 6u);
    EXPECT_EQ(describe_exclusions(a.counts),
              "1 failed, 1 crashed, 1 timed out, 1 skipped, 1 warm-up, 1 run without the metric");
    // Exact values: the same Sample the column-file path builds.
    const Sample want = test::sample_from_tokens({"23.205", "23.2", "23.21"});
    EXPECT_TRUE(a.sample.exact());
    EXPECT_EQ(a.sample.exponent, -3);
    EXPECT_EQ(a.sample.exponent, want.exponent);
    EXPECT_EQ(a.sample.values, want.values);
    EXPECT_EQ(std::get<std::vector<int32_t>>(a.sample.values), (std::vector<int32_t>{23205, 23200, 23210}));

    const VariantSample& b = sel.variants[1];
    EXPECT_EQ(b.variant, "B");
    EXPECT_EQ(b.counts.runs_used, 2u);
    EXPECT_EQ(b.counts.warmup, 1u);  // a warm-up is counted as that, whatever its exit
    EXPECT_EQ(b.counts.excluded_by_class[static_cast<size_t>(ExitClass::fail)], 0u);
    EXPECT_EQ(describe_exclusions(b.counts), "1 warm-up");
    const Sample want_b = test::sample_from_tokens({"30", "-0.5"});
    EXPECT_EQ(b.sample.values, want_b.values);
    EXPECT_EQ(b.sample.exponent, want_b.exponent);
}

TEST(ResultsSelect, VariantsInTheOrderAsked) {
    const MetricSelection sel = select_metric(selection_file(), "f.jsonl", "fps", {"B", "A"});
    ASSERT_EQ(sel.variants.size(), 2u);
    EXPECT_EQ(sel.variants[0].variant, "B");
    EXPECT_EQ(sel.variants[0].sample.size(), 0u);
    EXPECT_EQ(sel.variants[0].counts.without_metric, 2u);
    EXPECT_EQ(sel.variants[1].variant, "A");
    EXPECT_EQ(sel.variants[1].sample.values, test::sample_from_tokens({"60", "59"}).values);
    EXPECT_EQ(sel.variants[1].counts.without_metric, 1u);  // A 7 has no fps
}

TEST(ResultsSelect, Errors) {
    const ResultsFile f = selection_file();
    std::string e = select_error(f, "", {});
    EXPECT_EQ(e, "f.jsonl: holds several metrics ('lat', 'fps'); choose one with --metric");
    e = select_error(f, "power", {});
    EXPECT_EQ(e, "f.jsonl: has no metric 'power'; it holds 'lat', 'fps'");
    e = select_error(f, "lat", {"A", "C"});
    EXPECT_EQ(e, "f.jsonl: has no variant 'C'; it holds 'A', 'B'");
    e = select_error(f, "lat", {"A", "A"});
    EXPECT_NE(e.find("selected twice"), std::string::npos) << e;

    ResultsFile empty;
    EXPECT_NE(select_error(empty, "", {}).find("holds no metrics"), std::string::npos);
    ResultsFile one;
    must(one.declare_metric({"lat", "us", Direction::lower_is_better, {}}));
    EXPECT_NE(select_error(one, "", {}).find("holds no runs"), std::string::npos);
    must(one.add_run(lat_run(0, "1")));
    // One metric: no --metric needed.
    const MetricSelection sel = select_metric(one, "f.jsonl", "", {});
    EXPECT_EQ(sel.metric.name, "lat");
    ASSERT_EQ(sel.variants.size(), 1u);
    EXPECT_EQ(sel.variants[0].sample.size(), 1u);
}

TEST(ResultsSelect, BinaryValuesAreKeptAsDoubles) {
    ResultsFile f;
    must(f.declare_metric({"lat", "us", Direction::unknown, {}}));
    must(f.add_run(simple_run("v", 0, {values("lat", {tok("1.5"), tok("0x1.8p1")})})));
    const MetricSelection sel = select_metric(f, "f.jsonl", "lat", {});
    const Sample& s = sel.variants[0].sample;
    EXPECT_FALSE(s.exact());
    EXPECT_EQ(s.binary_tokens, 1u);
    EXPECT_EQ(std::get<std::vector<double>>(s.values), (std::vector<double>{1.5, 3.0}));
}

std::string describe_selection(const MetricSelection& s) {
    std::ostringstream out;
    out << s.metric.name << "\n";
    for (const VariantSample& v : s.variants) {
        out << v.variant << " used=" << v.counts.runs_used << " values=" << v.counts.values
            << " warmup=" << v.counts.warmup << " without=" << v.counts.without_metric << " class=";
        for (size_t c : v.counts.excluded_by_class) out << c << ",";
        out << " exp=" << v.sample.exponent << " binary=" << v.sample.binary_tokens
            << " kind=" << v.sample.values.index() << " :";
        std::visit([&](const auto& vec) {
            for (const auto& x : vec) out << " " << x;
        }, v.sample.values);
        out << "\n";
    }
    return out.str();
}

TEST(ResultsSelect, ReadAndSelectMatchesSelectMetric) {
    const std::string text = serialize_results(selection_file());
    const ResultsFile f = parse_results(text, "f.jsonl");
    for (const char* metric : {"lat", "fps", "", "nope"}) {
        for (const std::vector<std::string>& variants :
             {std::vector<std::string>{}, {"B"}, {"B", "A"}, {"C"}, {"A", "A"}}) {
            std::string a, b;
            try {
                a = describe_selection(select_metric(f, "f.jsonl", metric, variants));
            } catch (const InputError& e) {
                a = std::string("error ") + e.what();
            }
            try {
                b = describe_selection(read_and_select(text, "f.jsonl", metric, variants));
            } catch (const InputError& e) {
                b = std::string("error ") + e.what();
            }
            EXPECT_EQ(a, b) << "metric '" << metric << "', " << variants.size() << " variants";
        }
    }
    const std::string one_pass = describe_selection(read_and_select(text, "f.jsonl", "lat", {}));
    EXPECT_NE(one_pass.find("A used=2 values=3 warmup=1 without=1"), std::string::npos) << one_pass;
    // A torn tail is reported, and the runs before it are used.
    ReadReport rep;
    const MetricSelection torn = read_and_select(text + R"({"type":"run","vari)", "f.jsonl", "lat", {}, &rep);
    EXPECT_TRUE(rep.torn_tail);
    EXPECT_EQ(describe_selection(torn), one_pass);
    EXPECT_THROW(read_and_select(text + "{\n", "f.jsonl", "lat", {}), InputError);
}

TEST(ResultsJson, TypeMayBeAnywhereInARecord) {
    const std::vector<std::string> lines = {
        R"({"type":"run","variant":"v","run":2,"exit":{"class":"ok"},"metrics":{"m":[1.5]},"x":1})",
        R"({"variant":"v","type":"run","run":2,"exit":{"class":"ok"},"metrics":{"m":[1.5]},"x":1})",
        R"({"variant":"v","run":2,"exit":{"class":"ok"},"metrics":{"m":[1.5]},"x":1,"type":"run"})",
        R"( { "variant" : "v" , "run" : 2 , "exit" : { "class" : "ok" } , "metrics" : { "m" : [ 1.5 ] } , "x" : 1 , "type" : "run" } )",
    };
    const RunRecord first = std::get<RunRecord>(parse_record_line(lines[0]));
    for (const std::string& line : lines) {
        const RunRecord r = std::get<RunRecord>(parse_record_line(line));
        expect_same_run(first, r);
    }
    const auto metric = std::get<MetricInfo>(parse_record_line(R"({"unit":"us","name":"m","type":"metric"})"));
    EXPECT_EQ(metric.name, "m");
    EXPECT_EQ(metric.unit, "us");
    // The same errors either way.
    for (const char* bad : {R"({"type":"run","variant":1})", R"({"variant":1,"type":"run"})"}) {
        try {
            parse_record_line(bad);
            ADD_FAILURE() << bad;
        } catch (const RecordError& e) {
            EXPECT_NE(std::string(e.what()).find("\"variant\" must be a string"), std::string::npos) << e.what();
        }
    }
    for (const char* bad : {R"({"type":"metric","name":"m"},)", R"({"name":"m","type":"metric"},)",
                            R"({"type":"metric","name":"m")", R"({"name":"m","type":"metric")"})
        EXPECT_THROW(parse_record_line(bad), JsonSyntaxError) << bad;
}

// ------------------------------------------------------------ model

TEST(ResultsModel, IdsIndexesAndConflicts) {
    ResultsFile f;
    Environment e1;
    e1.fields = {{"hostname", "a"}};
    Environment e2 = e1;
    e2.tags = {{"hostname", "a"}};  // same pair, but as a tag: different content
    EXPECT_NE(environment_id(e1), environment_id(e2));
    Environment e3;
    e3.fields = {{"hostnamea", ""}};  // length-prefixed: no ambiguity
    EXPECT_NE(environment_id(e1), environment_id(e3));
    EXPECT_EQ(environment_id(e1).size(), 20u);
    EXPECT_EQ(environment_id(e1).rfind("env-", 0), 0u);
    must(f.add_environment(e1));
    EXPECT_EQ(e1.id, environment_id(e1));
    Environment clash = e2;
    clash.id = e1.id;
    EXPECT_NE(f.add_environment(clash).find("different content"), std::string::npos);

    EXPECT_NE(f.declare_metric({"", "", Direction::unknown, {}}), "");
    must(f.declare_metric({"m", "", Direction::unknown, {}}));
    EXPECT_NE(f.add_run(simple_run("", 0)).find("non-empty variant"), std::string::npos);
    EXPECT_NE(f.add_run(simple_run("v", 0, {values("m", {}), values("m", {})})).find("appears twice"),
              std::string::npos);
    must(f.add_run(simple_run("v", 5)));
    RunRecord merged = simple_run("v", 9);
    merged.origin = "x";
    must(f.add_run(merged));
    must(f.add_run(simple_run("w", 0)));
    EXPECT_EQ(f.next_run_index("v"), 6u);  // runs from other files do not count
    EXPECT_EQ(f.next_run_index("w"), 1u);
    EXPECT_EQ(f.next_run_index("z"), 0u);
    EXPECT_EQ(f.variants(), (std::vector<std::string>{"v", "w"}));
    EXPECT_EQ(f.find_run("x", "v", 9), std::optional<size_t>(1));
    EXPECT_EQ(f.find_run("", "v", 9), std::nullopt);
}

}  // namespace
}  // namespace gfxstat::data
