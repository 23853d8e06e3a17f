// SPDX-License-Identifier: MIT
// What a run costs a reader: the identity index (data/run_identity_index.h)
// finds every run however the indices come (in order, with gaps, out of
// order, from several origins), and a file read for its samples keeps the
// identities and not the runs, so its memory is not a record per run
// (shape, not time).
#include "data/run_identity_index.h"

#include <gtest/gtest.h>

#include <string>

#include "data/input_error.h"
#include "data/results_model.h"
#include "data/results_reader.h"

namespace gfxstat::data {
namespace {

TEST(RunIdentityIndex, FindsRunsInOrderWithGapsAndOutOfOrder) {
    RunIdentityIndex idx;
    const uint64_t order[] = {0, 1, 2, 5, 4, 3, 7, 1000000, 6};
    size_t place = 0;
    for (uint64_t r : order) EXPECT_TRUE(idx.add("", "a", r, place++)) << r;
    place = 0;
    for (uint64_t r : order) EXPECT_EQ(idx.find("", "a", r), place++) << r;
    for (uint64_t r : {8u, 9u, 999999u}) EXPECT_FALSE(idx.find("", "a", r)) << r;
    // Each index once, whether it went to the array or the map.
    for (uint64_t r : order) EXPECT_FALSE(idx.add("", "a", r, 99)) << r;
    EXPECT_EQ(idx.find("", "a", 3), 5u);
}

TEST(RunIdentityIndex, VariantsAndOriginsAreApart) {
    RunIdentityIndex idx;
    EXPECT_TRUE(idx.add("", "a", 0, 0));
    EXPECT_TRUE(idx.add("", "b", 0, 1));
    EXPECT_TRUE(idx.add("f1", "a", 0, 2));
    // "origin\nvariant" keys: a newline cannot move a run to another key.
    EXPECT_TRUE(idx.add("f1\na", "", 0, 3));
    EXPECT_EQ(idx.find("", "b", 0), 1u);
    EXPECT_EQ(idx.find("f1", "a", 0), 2u);
    EXPECT_FALSE(idx.find("f2", "a", 0));
    EXPECT_FALSE(idx.add("f1", "a", 0, 4));
}

const std::string kHeader =
    R"({"format":"gfxstat-results","version":1,"id":"00000000000000000000000000000000","created":"2026-12-06T00:00:00Z","generator":"t"})"
    "\n"
    R"({"type":"metric","name":"lat","unit":"us","direction":"lower"})"
    "\n";

std::string run_line(const std::string& variant, uint64_t run) {
    return R"({"type":"run","variant":")" + variant + R"(","run":)" + std::to_string(run) +
           R"(,"exit":{"class":"ok"},"metrics":{"lat":1.5}})" "\n";
}

TEST(RunIdentityIndex, AReaderWithAHookKeepsIdentitiesOnly) {
    size_t seen = 0;
    const ResultsFile f = parse_results(kHeader + run_line("a", 0) + run_line("b", 0) + run_line("a", 1), "f",
                                        nullptr, [&](RunRecord&) { ++seen; });
    EXPECT_EQ(seen, 3u);
    // The declarations are kept; of the runs, nothing the file holds.
    EXPECT_EQ(f.metrics().size(), 1u);
    EXPECT_TRUE(f.runs().empty());
    EXPECT_TRUE(f.variants().empty());
    // A run recorded twice is still found, naming the first line.
    std::string error;
    try {
        parse_results(kHeader + run_line("a", 0) + run_line("b", 0) + run_line("a", 0), "f", nullptr,
                      [](RunRecord&) {});
    } catch (const InputError& e) {
        error = e.what();
    }
    EXPECT_EQ(error, "f:5: run 0 of variant 'a' is recorded twice (first at line 3)");
}

}  // namespace
}  // namespace gfxstat::data
