// SPDX-License-Identifier: MIT
// Design records (`gfxstat ab`'s blocks and stop rule) in results files:
// JSON round trip, the rules a reader checks, appending, merging, and the
// blocked pairs a block design compares (data/blocked_pairs.h).
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "data/blocked_pairs.h"
#include "data/input_error.h"
#include "data/results_json.h"
#include "data/results_merge.h"
#include "data/results_model.h"
#include "data/results_reader.h"
#include "data/results_writer.h"

namespace gfxstat::data {
namespace {

constexpr std::string_view kHeader =
    R"({"format":"gfxstat-results","version":1,"id":"0123456789abcdef0123456789abcdef","created":"2026-12-01T00:00:00Z","generator":"test"})";
constexpr std::string_view kDesignLine =
    R"({"type":"design","id":"design-00112233aabbccdd","kind":"ab","variants":["A","B"],"order":"random","seed":42,"stopping":"sequential","method":"t-mixture confidence sequence","metric":"fps","confidence":0.95,"threshold":0.01,"max_runs":50})";
constexpr std::string_view kMetricLine = R"({"type":"metric","name":"fps","unit":"fps","direction":"higher"})";

DesignRecord sample_design() {
    DesignRecord d;
    d.id = "design-00112233aabbccdd";
    d.variants = {"A", "B"};
    d.order = "random";
    d.seed = 42;
    d.stopping = "sequential";
    d.method = "t-mixture confidence sequence";
    d.metric = "fps";
    d.max_runs = 50;
    return d;
}

NumberToken tok(std::string_view text) { return parse_number_token(text); }

RunRecord run_of(const std::string& variant, uint64_t index, uint64_t block, uint64_t position,
                 std::vector<std::string> values, const std::string& design = "design-00112233aabbccdd") {
    RunRecord r;
    r.variant = variant;
    r.run = index;
    r.design = design;
    r.block = block;
    r.position = position;
    MetricValues m;
    m.name = "fps";
    for (const auto& v : values) m.values.push_back(tok(v));
    if (!values.empty()) r.metrics.push_back(m);
    return r;
}

std::string temp_dir() {
    std::string tmpl = testing::TempDir() + "gfxstat_design_XXXXXX";
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

std::string file_text(std::initializer_list<std::string_view> records) {
    std::string s(kHeader);
    s += '\n';
    for (auto r : records) {
        s += r;
        s += '\n';
    }
    return s;
}

TEST(DesignRecord, WrittenAsDocumentedAndReadBack) {
    std::string line;
    append_design_line(line, sample_design());
    EXPECT_EQ(line, std::string(kDesignLine) + "\n");
    const auto back = std::get<DesignRecord>(parse_record_line(kDesignLine));
    EXPECT_EQ(back, sample_design());
}

TEST(DesignRecord, FixedStoppingAndUnknownMembersKept) {
    const std::string_view text =
        R"({"type":"design","id":"design-1","variants":["base","new","newer"],"order":"random","seed":7,"stopping":"fixed","method":"","metric":"lat","confidence":0.9,"threshold":0.02,"runs":10,"future":{"a":[1,2]}})";
    const auto d = std::get<DesignRecord>(parse_record_line(text));
    EXPECT_EQ(d.kind, "ab");  // the default when absent
    EXPECT_EQ(d.variants.size(), 3u);
    EXPECT_EQ(d.stopping, "fixed");
    EXPECT_FALSE(d.max_runs);
    ASSERT_TRUE(d.runs);
    EXPECT_EQ(*d.runs, 10u);
    EXPECT_DOUBLE_EQ(d.confidence, 0.9);
    ASSERT_EQ(d.unknown.size(), 1u);
    EXPECT_EQ(d.unknown[0].first, "future");
    EXPECT_EQ(d.unknown[0].second, R"({"a":[1,2]})");
    std::string again;
    append_design_line(again, d);
    EXPECT_EQ(std::get<DesignRecord>(parse_record_line(again.substr(0, again.size() - 1))), d);
    EXPECT_NE(again.find(R"("future":{"a":[1,2]})"), std::string::npos);
}

// A group-sequential design's looks and boundary: written as documented
// (docs/results-format.md), read back, and checked.
TEST(DesignRecord, GroupSequentialLooksRoundTrip) {
    DesignRecord d = sample_design();
    d.method = "group-sequential t (Pocock)";
    d.looks = {4, 9, 14};
    d.boundary = {6.5, 3.25, 3.0};
    std::string line;
    append_design_line(line, d);
    EXPECT_NE(line.find(R"("max_runs":50,"looks":[4,9,14],"boundary":[6.5,3.25,3])"), std::string::npos) << line;
    EXPECT_EQ(std::get<DesignRecord>(parse_record_line(line.substr(0, line.size() - 1))), d);
    for (std::string_view bad : {
             R"({"type":"design","id":"d","variants":["A","B"],"looks":[4,4]})",
             R"({"type":"design","id":"d","variants":["A","B"],"looks":[1,4]})",
             R"({"type":"design","id":"d","variants":["A","B"],"looks":4})",
             R"({"type":"design","id":"d","variants":["A","B"],"looks":[4,9],"boundary":[3]})",
         })
        EXPECT_THROW(parse_record_line(bad), RecordError) << bad;
}

TEST(DesignRecord, MalformedRecordsRefused) {
    for (std::string_view bad : {
             R"({"type":"design","variants":["A","B"]})",                          // no id
             R"({"type":"design","id":"","variants":["A","B"]})",                  // empty id
             R"({"type":"design","id":"d","variants":["A"]})",                     // one variant
             R"({"type":"design","id":"d"})",                                      // no variants
             R"({"type":"design","id":"d","variants":["A","A"]})",                 // twice
             R"({"type":"design","id":"d","variants":["A",""]})",                  // empty label
             R"({"type":"design","id":"d","variants":["A","B"],"confidence":1})",  // out of range
             R"({"type":"design","id":"d","variants":["A","B"],"confidence":0.5})",
             R"({"type":"design","id":"d","variants":["A","B"],"confidence":"x"})",
             R"({"type":"design","id":"d","variants":["A","B"],"threshold":-0.1})",
             R"({"type":"design","id":"d","variants":["A","B"],"seed":-1})",
             R"({"type":"design","id":"d","variants":["A","B"],"max_runs":1.5})",
             R"({"type":"design","id":"d","id":"e","variants":["A","B"]})",  // member twice
         })
        EXPECT_THROW(parse_record_line(bad), RecordError) << bad;
}

TEST(DesignRecord, RunMembersRoundTrip) {
    RunRecord r = run_of("A", 3, 1, 0, {"59.5"});
    std::string line;
    append_run_line(line, r);
    EXPECT_NE(line.find(R"("design":"design-00112233aabbccdd","block":1,"position":0)"), std::string::npos) << line;
    const auto back = std::get<RunRecord>(parse_record_line(line.substr(0, line.size() - 1)));
    EXPECT_EQ(back.design, r.design);
    EXPECT_EQ(back.block, r.block);
    EXPECT_EQ(back.position, r.position);
    // A run without them writes none of them.
    RunRecord plain;
    plain.variant = "A";
    std::string p;
    append_run_line(p, plain);
    EXPECT_EQ(p.find("design"), std::string::npos);
    EXPECT_EQ(p.find("block"), std::string::npos);
    EXPECT_THROW(parse_record_line(R"({"type":"run","variant":"A","run":0,"exit":{"class":"ok"},"metrics":{},"design":""})"),
                 RecordError);
    EXPECT_THROW(parse_record_line(R"({"type":"run","variant":"A","run":0,"exit":{"class":"ok"},"metrics":{},"block":-1})"),
                 RecordError);
}

TEST(DesignRecord, ModelRules) {
    ResultsFile f;
    ASSERT_EQ(f.declare_metric(MetricInfo("fps", "fps", Direction::higher_is_better)), "");
    // A run of an undeclared design is refused, and so is a block without a design.
    EXPECT_NE(f.add_run(run_of("A", 0, 0, 0, {"1"})).find("used before it is recorded"), std::string::npos);
    RunRecord orphan = run_of("A", 0, 0, 0, {"1"}, "");
    EXPECT_NE(f.add_run(orphan).find("needs the \"design\""), std::string::npos);
    orphan.block.reset();
    EXPECT_NE(f.add_run(orphan).find("\"position\""), std::string::npos);
    EXPECT_EQ(f.add_design(sample_design()), "");
    EXPECT_EQ(f.add_design(sample_design()), "");  // the same again: a no-op
    DesignRecord other = sample_design();
    other.seed = 43;
    EXPECT_NE(f.add_design(other).find("different content"), std::string::npos);
    EXPECT_EQ(f.designs().size(), 1u);
    ASSERT_NE(f.find_design("design-00112233aabbccdd"), nullptr);
    EXPECT_EQ(f.find_design("design-0"), nullptr);
    EXPECT_EQ(f.add_run(run_of("A", 0, 0, 0, {"1"})), "");
    // A variant the design does not list cannot be one of its runs.
    EXPECT_NE(f.add_run(run_of("C", 0, 0, 1, {"1"})).find("not one of design"), std::string::npos);
}

TEST(DesignRecord, ReaderChecksDeclarationBeforeUse) {
    const std::string run0 =
        R"({"type":"run","variant":"A","run":0,"exit":{"class":"ok"},"metrics":{"fps":60},"design":"design-00112233aabbccdd","block":0,"position":1})";
    const std::string ok = file_text({kDesignLine, kMetricLine, run0});
    const ResultsFile f = parse_results(ok, "t.json");
    ASSERT_EQ(f.designs().size(), 1u);
    EXPECT_EQ(f.runs()[0].position, std::optional<uint64_t>(1));
    try {
        parse_results(file_text({kMetricLine, run0}), "t.json");
        FAIL() << "a run before its design was accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("t.json:3"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("design 'design-00112233aabbccdd' is used before"), std::string::npos);
    }
    std::string changed(kDesignLine);
    changed.replace(changed.find("\"seed\":42"), 9, "\"seed\":41");
    EXPECT_THROW(parse_results(file_text({kDesignLine, changed}), "t.json"), InputError);
    EXPECT_NO_THROW(parse_results(file_text({kDesignLine, kDesignLine}), "t.json"));
    // serialize writes the design before its first run; an unused one at the end.
    const std::string out = serialize_results(f);
    EXPECT_LT(out.find("\"type\":\"design\""), out.find("\"type\":\"run\""));
    EXPECT_EQ(parse_results(out, "again").designs(), f.designs());
    ResultsFile unused;
    unused.header = f.header;
    ASSERT_EQ(unused.add_design(sample_design()), "");
    const std::string u = serialize_results(unused);
    EXPECT_NE(u.find("\"type\":\"design\""), std::string::npos);
    EXPECT_EQ(parse_results(u, "u").designs().size(), 1u);
}

TEST(DesignRecord, AppenderWritesDesignWithNextRun) {
    const std::string dir = temp_dir();
    const std::string path = dir + "/ab.json";
    {
        ResultsAppender app(path);
        app.declare_metric(MetricInfo("fps", "fps", Direction::higher_is_better));
        app.declare_design(sample_design());
        EXPECT_EQ(read_file(path).find("design"), std::string::npos);  // not before a run
        app.append_run(run_of("A", 0, 0, 0, {"60"}));
        app.declare_design(sample_design());  // again: nothing new
        app.append_run(run_of("B", 0, 0, 1, {"61"}));
        DesignRecord other = sample_design();
        other.threshold = 0.05;
        EXPECT_THROW(app.declare_design(other), InputError);
        // A run of an undeclared design is refused before anything is written.
        EXPECT_THROW(app.append_run(run_of("A", 1, 1, 0, {"60"}, "design-ffffffffffffffff")), InputError);
    }
    const std::string text = read_file(path);
    size_t count = 0;
    for (size_t at = 0; (at = text.find("\"type\":\"design\"", at)) != std::string::npos; ++at) ++count;
    EXPECT_EQ(count, 1u);
    const ResultsFile f = parse_results(text, path);
    EXPECT_EQ(f.runs().size(), 2u);
    EXPECT_EQ(f.designs()[0], sample_design());
    {
        ResultsAppender again(path);  // reopened: the design is known
        again.append_run(run_of("A", 1, 1, 1, {"59"}));
    }
    EXPECT_EQ(parse_results(read_file(path), path).runs().size(), 3u);
}

TEST(DesignRecord, MergeCarriesDesignsAndRefusesConflicts) {
    ResultsFile a, b;
    a.header.id = "a";
    b.header.id = "b";
    for (ResultsFile* f : {&a, &b}) {
        ASSERT_EQ(f->declare_metric(MetricInfo("fps", "fps", Direction::higher_is_better)), "");
        ASSERT_EQ(f->add_design(sample_design()), "");
    }
    ASSERT_EQ(a.add_run(run_of("A", 0, 0, 0, {"60"})), "");
    ASSERT_EQ(b.add_run(run_of("B", 0, 0, 1, {"61"})), "");
    ResultsHeader h;
    h.id = "m";
    const MergeOutcome m = merge_results({{"a.json", &a, nullptr}, {"b.json", &b, nullptr}}, h);
    EXPECT_EQ(m.merged.designs().size(), 1u);
    EXPECT_EQ(m.merged.runs().size(), 2u);
    EXPECT_EQ(m.merged.runs()[1].design, "design-00112233aabbccdd");
    ResultsFile c;
    c.header.id = "c";
    DesignRecord other = sample_design();
    other.variants = {"A", "C"};
    ASSERT_EQ(c.add_design(other), "");
    try {
        merge_results({{"a.json", &a, nullptr}, {"c.json", &c, nullptr}}, h);
        FAIL() << "conflicting designs merged";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("c.json"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("different content"), std::string::npos);
    }
}

TEST(BlockedPairs, RunValueIsTheMeanOfTheRunsValues) {
    const RunRecord r = run_of("A", 0, 0, 0, {"1", "2", "4.5"});
    ASSERT_TRUE(run_value(r, "fps"));
    EXPECT_DOUBLE_EQ(*run_value(r, "fps"), 7.5 / 3);
    EXPECT_FALSE(run_value(r, "other"));
    EXPECT_FALSE(run_value(run_of("A", 0, 0, 0, {}), "fps"));
    EXPECT_DOUBLE_EQ(*run_value(run_of("A", 0, 0, 0, {"0.1"}), "fps"), 0.1);
    EXPECT_DOUBLE_EQ(*run_value(run_of("A", 0, 0, 0, {"-2.5e3"}), "fps"), -2500);
}

TEST(BlockedPairs, PairedByBlockSkippingFailedAndWarmupRuns) {
    ResultsFile f;
    ASSERT_EQ(f.declare_metric(MetricInfo("fps", "fps", Direction::higher_is_better)), "");
    ASSERT_EQ(f.declare_metric(MetricInfo("ft", "ms", Direction::lower_is_better)), "");
    MetricInfo frames("frame", "ms", Direction::lower_is_better);
    frames.per = "frame";
    ASSERT_EQ(f.declare_metric(frames), "");
    ASSERT_EQ(f.add_design(sample_design()), "");
    // Block 2 first in the file: pairs come in block order.
    ASSERT_EQ(f.add_run(run_of("B", 0, 2, 0, {"63"})), "");
    ASSERT_EQ(f.add_run(run_of("A", 0, 2, 1, {"62"})), "");
    ASSERT_EQ(f.add_run(run_of("A", 1, 0, 0, {"60", "61"})), "");
    ASSERT_EQ(f.add_run(run_of("B", 1, 0, 1, {"61.5"})), "");
    // Block 1: B failed.
    ASSERT_EQ(f.add_run(run_of("A", 2, 1, 0, {"59"})), "");
    RunRecord failed = run_of("B", 2, 1, 1, {"10"});
    failed.exit_class = ExitClass::fail;
    ASSERT_EQ(f.add_run(failed), "");
    // Block 3: A is a warm-up.
    RunRecord warm = run_of("A", 3, 3, 0, {"50"});
    warm.warmup = true;
    ASSERT_EQ(f.add_run(warm), "");
    ASSERT_EQ(f.add_run(run_of("B", 3, 3, 1, {"64"})), "");
    // Block 4: B lacks the metric.
    ASSERT_EQ(f.add_run(run_of("A", 4, 4, 0, {"58"})), "");
    ASSERT_EQ(f.add_run(run_of("B", 4, 4, 1, {})), "");
    // Runs outside the design are not pairs.
    RunRecord loose = run_of("A", 5, 0, 0, {"1"}, "");
    loose.block.reset();
    loose.position.reset();
    ASSERT_EQ(f.add_run(loose), "");

    const BlockedPairs p = blocked_pairs(f, "design-00112233aabbccdd", "fps", "A", "B");
    EXPECT_EQ(p.blocks, (std::vector<uint64_t>{0, 2}));
    EXPECT_EQ(p.baseline, (std::vector<double>{60.5, 62}));
    EXPECT_EQ(p.candidate, (std::vector<double>{61.5, 63}));
    EXPECT_EQ(p.incomplete, 3u);
    // The other way round, the sides swap.
    const BlockedPairs q = blocked_pairs(f, "design-00112233aabbccdd", "fps", "B", "A");
    EXPECT_EQ(q.baseline, p.candidate);
    // Another design, a metric no run has, a within-run metric, an unknown one: nothing.
    EXPECT_TRUE(blocked_pairs(f, "design-x", "fps", "A", "B").blocks.empty());
    EXPECT_TRUE(blocked_pairs(f, "design-00112233aabbccdd", "ft", "A", "B").blocks.empty());
    EXPECT_TRUE(blocked_pairs(f, "design-00112233aabbccdd", "frame", "A", "B").blocks.empty());
    EXPECT_TRUE(blocked_pairs(f, "design-00112233aabbccdd", "nope", "A", "B").blocks.empty());
}

}  // namespace
}  // namespace gfxstat::data
