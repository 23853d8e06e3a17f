// SPDX-License-Identifier: MIT
// What a run costs the whole-file path (compare, show, report, merge keep
// every RunRecord of a file): the record's size is held to a bound, the
// strings runs repeat are kept once, and the out-of-line members behave
// as the optionals and strings they replace (shape, not time).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>

#include "data/out_of_line.h"
#include "data/results_model.h"
#include "data/results_reader.h"
#include "data/shared_string.h"

namespace gfxstat::data {
namespace {

// A million runs of one value each are read into a vector of RunRecords
// that doubles as it grows: at 624 bytes a record (its strings and a
// ThrottleRecord inline) the records alone were 650 MB of the 830 MB
// peak. Strings of 8 bytes (SharedString) and the throttle record out of
// line keep them under 256 bytes; a member added inline must be worth
// its cost for every run of every file.
static_assert(sizeof(SharedString) == sizeof(void*));
static_assert(sizeof(OutOfLine<ThrottleRecord>) == sizeof(void*));
static_assert(sizeof(RunRecord) <= 256, "RunRecord is kept per run: keep rare members out of line");

TEST(RunRecordSize, RepeatedStringsAreKeptOnce) {
    std::string text =
        "{\"format\":\"gfxstat-results\",\"version\":1,\"id\":\"" + std::string(32, 'c') +
        "\",\"created\":\"2026-12-06T00:00:00.000000Z\",\"generator\":\"test\"}\n"
        "{\"type\":\"metric\",\"name\":\"latency\",\"unit\":\"us\",\"direction\":\"lower\"}\n";
    for (int r = 0; r < 3; ++r)
        text += "{\"type\":\"run\",\"variant\":\"a-long-variant-label\",\"run\":" + std::to_string(r) +
                ",\"boot\":\"0c6d3ad6-4e3c-4f5a-9f3e-2b1d3c4e5f60\",\"exit\":{\"class\":\"ok\",\"code\":0},"
                "\"metrics\":{\"latency\":1}}\n";
    ResultsFile f = parse_results(text, "t.json");
    ASSERT_EQ(f.runs().size(), 3u);
    for (const RunRecord& r : f.runs()) {
        EXPECT_TRUE(r.variant.shares_with(f.runs()[0].variant));
        EXPECT_TRUE(r.boot.shares_with(f.runs()[0].boot));
        EXPECT_EQ(r.variant, "a-long-variant-label");
        EXPECT_FALSE(r.throttle);
        EXPECT_TRUE(r.origin.empty());
    }
    EXPECT_EQ(f.find_run("", "a-long-variant-label", 2), 2u);
    EXPECT_FALSE(f.find_run("", "a-long-variant-label", 3));
}

TEST(RunRecordSize, SharedStringReadsAsAString) {
    SharedString s;
    EXPECT_TRUE(s.empty());
    EXPECT_EQ(s, "");
    s = std::string("baseline");
    SharedString t = s;
    EXPECT_TRUE(t.shares_with(s));
    t = "other";
    EXPECT_EQ(s, "baseline");
    EXPECT_EQ(t, std::string_view("other"));
    EXPECT_LT(s, t);
    EXPECT_EQ("run of " + s + '!', "run of baseline!");
    const std::string& ref = s;
    EXPECT_EQ(ref.size(), 8u);
    s.clear();
    EXPECT_TRUE(s.empty());
    EXPECT_EQ(t.size(), 5u);
}

TEST(RunRecordSize, OutOfLineIsAnOptional) {
    OutOfLine<ThrottleRecord> a;
    EXPECT_FALSE(a.has_value());
    ThrottleRecord t;
    t.samples = 21;
    a = t;
    ASSERT_TRUE(a);
    OutOfLine<ThrottleRecord> b = a;  // a copy, not a shared value
    b->samples = 3;
    EXPECT_EQ(a->samples, 21u);
    EXPECT_EQ((*b).samples, 3u);
    a = std::optional<ThrottleRecord>();
    EXPECT_FALSE(a);
    EXPECT_EQ(a.value_or(t).samples, 21u);
    EXPECT_EQ(b.to_optional()->samples, 3u);
}

}  // namespace
}  // namespace gfxstat::data
