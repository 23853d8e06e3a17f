// SPDX-License-Identifier: MIT
// Within-run metrics (MetricInfo::per, docs/results-format.md "Metric
// records"): a run's per-frame times are written, read, merged and selected
// as one run's data, never as independent samples.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "data/input_error.h"
#include "data/results_json.h"
#include "data/results_merge.h"
#include "data/results_model.h"
#include "data/results_reader.h"
#include "data/results_select.h"
#include "data/results_writer.h"

namespace gfxstat::data {
namespace {

const std::string kHeader =
    R"({"format":"gfxstat-results","version":1,"id":"00ff00ff00ff00ff00ff00ff00ff00ff","created":"2026-11-30T05:00:00Z","generator":"test"})"
    "\n";
const std::string kFrames =
    R"({"type":"metric","name":"frame_time","unit":"ms","direction":"lower","per":"frame"})" "\n";
const std::string kFps = R"({"type":"metric","name":"fps_mean","unit":"fps","direction":"higher"})" "\n";

std::string run_line(const std::string& variant, int index, const std::string& metrics) {
    return R"({"type":"run","variant":")" + variant + R"(","run":)" + std::to_string(index) +
           R"(,"exit":{"class":"ok"},"metrics":{)" + metrics + "}}\n";
}

std::string read_error(const std::string& text) {
    try {
        parse_results(text, "f.jsonl");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

// Two variants, two runs each: three frames per run and the run's fps.
std::string frames_file() {
    return kHeader + kFrames + kFps + run_line("a", 0, R"("frame_time":[16,17,18],"fps_mean":58.8)") +
           run_line("a", 1, R"("frame_time":[16,16,19],"fps_mean":58.8)") +
           run_line("b", 0, R"("frame_time":[15,16,17],"fps_mean":62.5)") +
           run_line("b", 1, R"("frame_time":[15,15,18],"fps_mean":62.5)");
}

TEST(WithinRun, WrittenOnlyWhenSetAndReadBack) {
    MetricInfo m{"frame_time", "ms", Direction::lower_is_better, {}};
    std::string line;
    append_metric_line(line, m);
    EXPECT_EQ(line.find("per"), std::string::npos) << line;  // older readers see what they always did
    m.per = "frame";
    line.clear();
    append_metric_line(line, m);
    EXPECT_EQ(line, kFrames);
    const auto back = std::get<MetricInfo>(parse_record_line(line));
    EXPECT_EQ(back.per, "frame");
    EXPECT_TRUE(back.within_run());
    // A file without it reads as before: every value a sample.
    const auto plain = std::get<MetricInfo>(parse_record_line(kFps));
    EXPECT_EQ(plain.per, "");
    EXPECT_FALSE(plain.within_run());
}

TEST(WithinRun, ReaderRules) {
    EXPECT_NE(read_error(kHeader + R"({"type":"metric","name":"f","per":1})" "\n").find("a metric's \"per\""),
              std::string::npos);
    EXPECT_NE(read_error(kHeader + R"({"type":"metric","name":"f","per":""})" "\n").find("leave it out"),
              std::string::npos);
    EXPECT_NE(read_error(kHeader + R"({"type":"metric","name":"f","per":"run"})" "\n").find("leave it out"),
              std::string::npos);
    // A kind this gfxstat does not know is still within-run data.
    const ResultsFile f = parse_results(kHeader + R"({"type":"metric","name":"f","per":"iteration"})" "\n", "f");
    EXPECT_TRUE(f.find_metric("f")->within_run());
}

TEST(WithinRun, PartOfTheDeclaration) {
    const std::string runs = R"({"type":"metric","name":"frame_time","unit":"ms","direction":"lower"})" "\n";
    const std::string msg = read_error(kHeader + kFrames + runs);
    EXPECT_EQ(msg.rfind("f.jsonl:3: ", 0), 0u) << msg;
    EXPECT_NE(msg.find("one value per frame"), std::string::npos) << msg;
    EXPECT_EQ(read_error(kHeader + kFrames + kFrames), "");
    // merge refuses frames in one file and runs in another.
    ResultsFile a = parse_results(kHeader + kFrames, "a"), b = parse_results(kHeader + runs, "b");
    a.header.id = "aa";
    b.header.id = "bb";
    const std::vector<MergeInput> inputs{{"a.json", &a, nullptr}, {"b.json", &b, nullptr}};
    EXPECT_THROW(merge_results(inputs, new_results_header()), InputError);
}

TEST(WithinRun, SelectingRefusesFramesAndPointsAtPerRunMetrics) {
    const ResultsFile f = parse_results(frames_file(), "f.json");
    try {
        select_metric(f, "f.json", "frame_time", {});
        ADD_FAILURE() << "frames selected as samples";
    } catch (const InputError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("f.json: metric 'frame_time' holds one value per frame (12 frames in 4 runs)"),
                  std::string::npos)
            << m;
        EXPECT_NE(m.find("'fps_mean'"), std::string::npos) << m;
    }
    // The streaming path says the same.
    EXPECT_THROW(read_and_select(frames_file(), "f.json", "frame_time", {}), InputError);
    // The per-run metric is selected: one value per run.
    const MetricSelection sel = select_metric(f, "f.json", "fps_mean", {});
    ASSERT_EQ(sel.variants.size(), 2u);
    EXPECT_EQ(sel.variants[0].sample.size(), 2u);
    EXPECT_EQ(sel.variants[0].counts.runs_used, 2u);
}

// "The only metric" is the only one with a sample per run.
TEST(WithinRun, OnlyMetricSkipsWithinRunMetrics) {
    const MetricSelection sel = read_and_select(frames_file(), "f.json", "", {});
    EXPECT_EQ(sel.metric.name, "fps_mean");
    const std::string only_frames = kHeader + kFrames + run_line("a", 0, R"("frame_time":[16,17])");
    try {
        read_and_select(only_frames, "g.json", "", {});
        ADD_FAILURE() << "frames selected as the only metric";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("holds no metric with one sample per run"), std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace gfxstat::data
