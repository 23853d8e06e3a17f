// SPDX-License-Identifier: MIT
// What a run costs the whole-file path (compare, show, report, merge keep
// every RunRecord of a file): the record's size is held to a bound, the
// strings runs repeat are kept once, and the out-of-line members behave
// as the optionals and strings they replace (shape, not time).
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>
#include <string>
#include <string_view>
#include <type_traits>

#include "data/out_of_line.h"
#include "data/packed_optional.h"
#include "data/results_model.h"
#include "data/results_reader.h"
#include "data/shared_string.h"
#include "data/small_vector.h"
#include "data/string_table.h"

namespace gfxstat::data {
namespace {

// A million runs of one value each are read into a vector of RunRecords
// that doubles as it grows: at 624 bytes a record (its strings and a
// ThrottleRecord inline) the records alone were 650 MB of the 830 MB
// peak. Strings of 8 bytes (SharedString) and the throttle record out of
// line keep them under 256 bytes; a member added inline must be worth
// its cost for every run of every file.
// Then one metric with one value held inline (SmallVector: no heap block
// per run), optional numbers without a flag (PackedOptional) and the
// unknown members out of line: 224 bytes, and nothing on the heap for a
// run of one value.
static_assert(sizeof(SharedString) == sizeof(void*));
static_assert(sizeof(OutOfLine<ThrottleRecord>) == sizeof(void*));
static_assert(sizeof(OutOfLineVector<std::pair<std::string, std::string>>) == sizeof(void*));
static_assert(sizeof(PackedOptional<uint64_t>) == 8 && sizeof(PackedOptional<double>) == 8);
static_assert(sizeof(SmallVector<NumberToken>) == 32);
static_assert(sizeof(MetricValues) == 40, "the array flag sits in the inline value's padding");
static_assert(sizeof(RunRecord) <= 224, "RunRecord is kept per run: keep rare members out of line");
// A growing vector of records moves them only when moving cannot throw;
// otherwise it copies every one (and each copy allocates).
static_assert(std::is_nothrow_move_constructible_v<RunRecord>);

// A results file's header and the declaration of `metric`.
std::string header_and_metric(const std::string& metric) {
    return "{\"format\":\"gfxstat-results\",\"version\":1,\"id\":\"" + std::string(32, 'c') +
           "\",\"created\":\"2026-12-06T00:00:00.000000Z\",\"generator\":\"test\"}\n"
           "{\"type\":\"metric\",\"name\":\"" + metric + "\",\"unit\":\"us\",\"direction\":\"lower\"}\n";
}

TEST(RunRecordSize, RepeatedStringsAreKeptOnce) {
    std::string text = header_and_metric("latency");
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

// An `ab` file alternates its variants run by run: each text is still
// kept once (not once a run, as sharing with the previous run did), and
// so is each metric name.
TEST(RunRecordSize, AlternatingStringsAreKeptOnce) {
    std::string text = header_and_metric("a-rather-long-metric-name");
    for (int r = 0; r < 6; ++r)
        text += std::string("{\"type\":\"run\",\"variant\":\"") + (r % 2 ? "the-new-build" : "the-baseline") +
                "\",\"run\":" + std::to_string(r / 2) +
                ",\"exit\":{\"class\":\"ok\"},\"metrics\":{\"a-rather-long-metric-name\":[" + std::to_string(r) + "]}}\n";
    ResultsFile f = parse_results(text, "t.json");
    ASSERT_EQ(f.runs().size(), 6u);
    for (size_t r = 2; r < 6; ++r) {
        EXPECT_TRUE(f.runs()[r].variant.shares_with(f.runs()[r % 2].variant));
        ASSERT_EQ(f.runs()[r].metrics.size(), 1u);
        EXPECT_TRUE(f.runs()[r].metrics[0].name.shares_with(f.runs()[0].metrics[0].name));
        EXPECT_TRUE(f.runs()[r].metrics[0].array);
        EXPECT_EQ(f.runs()[r].metrics[0].values.size(), 1u);
    }
    EXPECT_EQ(f.variants(), (std::vector<std::string>{"the-baseline", "the-new-build"}));
}

// A file whose runs each carry a string of their own does not grow the
// table past its bound, and a text it sees again after a restart is
// shared again.
TEST(RunRecordSize, StringTableIsBounded) {
    StringTable table;
    SharedString first(std::string("repeated text"));
    table.share(first);
    for (size_t i = 0; i < StringTable::kMaxDistinct + 10; ++i) {
        SharedString distinct(std::string("distinct ") + std::to_string(i));
        table.share(distinct);
        EXPECT_LE(table.size(), StringTable::kMaxDistinct);
    }
    SharedString again(std::string("repeated text")), once_more(std::string("repeated text"));
    table.share(again);
    table.share(once_more);
    EXPECT_TRUE(once_more.shares_with(again));
    SharedString empty;
    table.share(empty);
    EXPECT_TRUE(empty.empty());
}

TEST(RunRecordSize, SmallVectorIsAVector) {
    SmallVector<std::string> v;
    EXPECT_TRUE(v.empty());
    v.push_back("one");
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v.front(), "one");
    v.push_back(v[0]);  // refers to the inline element it moves out of
    v.emplace_back("three");
    EXPECT_EQ(v, (std::vector<std::string>{"one", "one", "three"}));
    SmallVector<std::string> copy = v;
    v.erase(v.begin());
    EXPECT_EQ(v, (std::vector<std::string>{"one", "three"}));
    EXPECT_EQ(copy.size(), 3u);
    SmallVector<std::string> moved = std::move(copy);
    EXPECT_TRUE(copy.empty());
    EXPECT_EQ(moved.back(), "three");
    std::vector<std::string> big(1000, "x");
    const std::string* held = big.data();
    moved = std::move(big);  // taken over, not copied
    EXPECT_EQ(moved.data(), held);
    moved = std::vector<std::string>{"single"};
    EXPECT_EQ(moved.size(), 1u);
    const std::vector<std::string> more = {"a", "b"};
    moved.insert(moved.end(), more.begin(), more.end());
    EXPECT_EQ(moved, (std::vector<std::string>{"single", "a", "b"}));
    EXPECT_EQ(erase_if(moved, [](const std::string& s) { return s != "a"; }), 2u);
    EXPECT_EQ(moved, (std::vector<std::string>{"a"}));
    moved.erase(moved.begin());
    EXPECT_TRUE(moved.empty());
    moved.reserve(10);
    moved = {"p", "q"};
    moved.clear();
    EXPECT_TRUE(moved.empty());
}

TEST(RunRecordSize, PackedOptionalIsAnOptional) {
    PackedOptional<uint64_t> block;
    EXPECT_FALSE(block);
    EXPECT_EQ(block, std::nullopt);
    block = uint64_t{0};
    ASSERT_TRUE(block.has_value());
    EXPECT_EQ(*block, 0u);
    block = uint64_t{9223372036854775807ULL};
    EXPECT_EQ(block.value_or(1), 9223372036854775807ULL);
    const std::optional<uint64_t> as_optional = block;
    EXPECT_EQ(as_optional, 9223372036854775807ULL);
    block.reset();
    EXPECT_EQ(block.value_or(7), 7u);
    EXPECT_THROW(block.value(), std::bad_optional_access);
    EXPECT_THROW(block = ~uint64_t{0}, std::invalid_argument);
    PackedOptional<double> seconds = 0.25;
    EXPECT_EQ(*seconds, 0.25);
    seconds = std::optional<double>();
    EXPECT_FALSE(seconds);
    seconds = -0.0;  // not the absent pattern
    EXPECT_TRUE(seconds);
    EXPECT_EQ(PackedOptional<double>(1.5), PackedOptional<double>(1.5));
}

TEST(RunRecordSize, OutOfLineVectorIsAVector) {
    OutOfLineVector<std::pair<std::string, std::string>> unknown;
    EXPECT_TRUE(unknown.empty());
    const UnknownMembers& none = unknown;
    EXPECT_TRUE(none.empty());
    unknown.emplace_back("k", "1");
    unknown = {{"a", "true"}, {"b", "null"}};
    ASSERT_EQ(unknown.size(), 2u);
    EXPECT_EQ(unknown[1].first, "b");
    auto copy = unknown;
    EXPECT_EQ(copy, unknown);
    unknown = UnknownMembers{};
    EXPECT_TRUE(unknown.empty());
    EXPECT_EQ(copy.size(), 2u);
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
