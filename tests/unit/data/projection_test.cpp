// SPDX-License-Identifier: MIT
// --row / --col (data/projection.h) on the IGT-like results file of
// query_test_results.h: the default projection gives the file back with
// runs renumbered; other keys relabel variants and metrics, carry the
// values where they belong, say what a cell pooled, refuse a row of two
// different declarations, drop designs whose variants no longer exist,
// and keep the runs that reports count as left out. Every projected file
// is written and read back, so it obeys the rules of a results file.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "data/bench_filter.h"
#include "data/projection.h"
#include "data/results_reader.h"
#include "data/results_select.h"
#include "data/results_writer.h"
#include "tests/unit/query_test_results.h"

namespace gfxstat::data {
namespace {

using test::igt_results;
using test::igt_subtests;
using test::igt_value;
using test::IgtOptions;

using Strings = std::vector<std::string>;

std::string token_text(const NumberToken& t) {
    std::string d = std::to_string(t.significand);
    if (t.exponent < 0) {
        const size_t k = static_cast<size_t>(-t.exponent);
        if (d.size() <= k) d.insert(0, k - d.size() + 1, '0');
        d.insert(d.size() - k, ".");
    } else {
        d.append(static_cast<size_t>(t.exponent), '0');
    }
    return (t.negative ? "-" : "") + d;
}

// The values of `metric` in the runs of `variant`, in file order.
Strings values(const ResultsFile& f, std::string_view variant, std::string_view metric) {
    Strings out;
    for (const RunRecord& r : f.runs())
        if (r.variant == variant)
            if (const MetricValues* m = r.metric(metric))
                for (const NumberToken& t : m->values) out.push_back(token_text(t));
    return out;
}

Strings metric_names(const ResultsFile& f) {
    Strings out;
    for (const MetricInfo& m : f.metrics()) out.push_back(m.name);
    return out;
}

ProjectedResults project(const ResultsFile& in, std::string_view filter, std::string_view row, std::string_view col) {
    ProjectedResults p = project_results(in, BenchFilter::parse(filter), Projection::parse(row, "--row"),
                                         Projection::parse(col, "--col"));
    // Whatever it holds must be a results file that gfxstat reads back.
    const ResultsFile back = parse_results(serialize_results(p.file), "projected");
    EXPECT_EQ(back.runs().size(), p.file.runs().size());
    EXPECT_EQ(back.designs().size(), p.file.designs().size());
    return p;
}

std::string pooled(const std::string& key, const std::string& values) {
    return key + " varies within cells (" + values + ") and its runs are pooled: add it to --row or --col";
}
const std::string kGpuNote = pooled("gpu", "dg2, mtl");
const std::string kDriverNote = pooled("gpu_driver", "i915, xe");
const std::string kPciNote = pooled("gpu_pci_id", "8086:56a0, 8086:7d55");

TEST(Projection, DefaultIsTheFileWithRunsRenumbered) {
    const ResultsFile in = igt_results();
    const ProjectedResults p = project(in, "", "name", "variant");
    EXPECT_EQ(p.kept, 450u);
    EXPECT_EQ(p.dropped, 0u);
    const ResultsFile& out = p.file;
    EXPECT_EQ(out.variants(), in.variants());
    EXPECT_EQ(metric_names(out), igt_subtests());
    for (const MetricInfo& m : out.metrics()) {
        EXPECT_EQ(m.unit, "MiB/s");
        EXPECT_EQ(m.direction, Direction::higher_is_better);
    }
    ASSERT_EQ(out.runs().size(), 15u);
    ASSERT_EQ(in.runs().size(), 15u);
    for (size_t i = 0; i < 15; ++i) {
        const RunRecord& a = in.runs()[i];
        const RunRecord& b = out.runs()[i];
        SCOPED_TRACE(a.variant + " run " + std::to_string(a.run));
        EXPECT_EQ(b.variant, a.variant);
        EXPECT_EQ(a.run, 100 + i / 3);
        EXPECT_EQ(b.run, i / 3);  // renumbered from 0 per variant
        EXPECT_EQ(b.boot, a.boot);
        EXPECT_EQ(b.start, a.start);
        EXPECT_EQ(b.duration_s, a.duration_s);
        EXPECT_EQ(b.source, a.source);
        EXPECT_EQ(b.environment, a.environment);
        ASSERT_NE(out.find_environment(b.environment), nullptr);
        EXPECT_TRUE(out.find_environment(b.environment)->same_content(*in.find_environment(a.environment)));
        ASSERT_EQ(b.metrics.size(), a.metrics.size());
        for (size_t m = 0; m < a.metrics.size(); ++m) {
            EXPECT_EQ(b.metrics[m].name, a.metrics[m].name);
            ASSERT_EQ(b.metrics[m].values.size(), 1u);
            EXPECT_EQ(token_text(b.metrics[m].values[0]), token_text(a.metrics[m].values[0]));
        }
    }
    EXPECT_EQ(values(out, "patch-b", "64KiB/download_yf"),
              (Strings{igt_value(18, 2, 0), igt_value(18, 2, 1), igt_value(18, 2, 2), igt_value(18, 2, 3),
                       igt_value(18, 2, 4)}));
    // Each variant ran on two GPUs: compare pools them, and now says so.
    EXPECT_EQ(p.notes, (Strings{kGpuNote, kDriverNote, kPciNote}));
}

TEST(Projection, FilterKeepsAndDropsObservations) {
    const ProjectedResults p = project(igt_results(), "variant:patch-a /upload/", "name", "variant");
    EXPECT_EQ(p.kept, 75u);
    EXPECT_EQ(p.dropped, 375u);
    EXPECT_EQ(p.file.variants(), Strings{"patch-a"});
    ASSERT_EQ(p.file.metrics().size(), 15u);
    for (const MetricInfo& m : p.file.metrics()) EXPECT_NE(m.name.find("upload"), std::string::npos) << m.name;
    ASSERT_EQ(p.file.runs().size(), 5u);
    for (const RunRecord& r : p.file.runs()) EXPECT_EQ(r.metrics.size(), 15u);
    EXPECT_EQ(values(p.file, "patch-a", "4KiB/upload_x"),
              (Strings{igt_value(1, 1, 0), igt_value(1, 1, 1), igt_value(1, 1, 2), igt_value(1, 1, 3),
                       igt_value(1, 1, 4)}));
}

TEST(Projection, ColumnsByKernelPoolTheVariantsOfAKernel) {
    const ResultsFile in = igt_results();
    const ProjectedResults p = project(in, "", "name", "kernel");
    const ResultsFile& out = p.file;
    EXPECT_EQ(out.variants(), (Strings{"6.9", "6.10"}));
    ASSERT_EQ(out.runs().size(), 15u);
    // File order: baseline, patch-a, patch-b of each round.
    for (size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(out.runs()[3 * i].variant, "6.9");
        EXPECT_EQ(out.runs()[3 * i].run, i);
        EXPECT_EQ(out.runs()[3 * i + 1].variant, "6.10");
        EXPECT_EQ(out.runs()[3 * i + 1].run, 2 * i);
        EXPECT_EQ(out.runs()[3 * i + 2].run, 2 * i + 1);
        EXPECT_EQ(out.runs()[3 * i + 2].boot, "boot-patch-b");
    }
    Strings patches;
    for (size_t i = 0; i < 5; ++i) patches.push_back(igt_value(29, 1, i)), patches.push_back(igt_value(29, 2, i));
    EXPECT_EQ(values(out, "6.10", "1MiB/download_4"), patches);
    const MetricSelection s = select_metric(out, "projected", "1MiB/download_4", {});
    ASSERT_EQ(s.variants.size(), 2u);
    EXPECT_EQ(s.variants[0].sample.size(), 5u);
    EXPECT_EQ(s.variants[1].sample.size(), 10u);
    EXPECT_EQ(p.notes, (Strings{"variant is not in --row or --col: runs of its 3 variants are pooled", kGpuNote,
                                kDriverNote, kPciNote, pooled("mesa", "not set, 3f2a9c1")}));
}

TEST(Projection, RowsByNameAndGpu) {
    const ProjectedResults p = project(igt_results(), "", "name,gpu", "variant");
    const ResultsFile& out = p.file;
    ASSERT_EQ(out.metrics().size(), 60u);
    EXPECT_EQ(out.metrics()[0].name, "4KiB/upload_linear gpu=dg2");
    EXPECT_EQ(out.metrics()[30].name, "4KiB/upload_linear gpu=mtl");
    EXPECT_EQ(out.metrics()[59].name, "1MiB/download_4 gpu=mtl");
    for (const MetricInfo& m : out.metrics()) {
        EXPECT_EQ(m.unit, "MiB/s");
        EXPECT_EQ(m.direction, Direction::higher_is_better);
    }
    EXPECT_EQ(out.runs().size(), 15u);
    EXPECT_EQ(values(out, "baseline", "64KiB/download_yf gpu=mtl"), (Strings{igt_value(18, 0, 3), igt_value(18, 0, 4)}));
    EXPECT_EQ(values(out, "patch-a", "64KiB/download_yf gpu=dg2"),
              (Strings{igt_value(18, 1, 0), igt_value(18, 1, 1), igt_value(18, 1, 2)}));
    const MetricSelection s = select_metric(out, "projected", "64KiB/download_yf gpu=mtl", {});
    ASSERT_EQ(s.variants.size(), 3u);
    EXPECT_EQ(s.variants[2].sample.size(), 2u);
    EXPECT_EQ(s.variants[2].counts.without_metric, 3u);  // the dg2 runs
    // The GPU was what varied within a variant, and its fields follow it.
    EXPECT_EQ(p.notes, Strings{});
}

TEST(Projection, LabelsOfSeveralKeysAndOfMissingTags) {
    const ResultsFile in = igt_results();
    EXPECT_EQ(project(in, "", "name,kernel", "variant").file.metrics()[0].name, "4KiB/upload_linear kernel=6.9");
    EXPECT_EQ(project(in, "", "name", "kernel,gpu").file.variants(),
              (Strings{"kernel=6.9 gpu=dg2", "kernel=6.10 gpu=dg2", "kernel=6.9 gpu=mtl", "kernel=6.10 gpu=mtl"}));
    EXPECT_EQ(project(in, "", "name", "variant,gpu").file.variants(),
              (Strings{"baseline gpu=dg2", "patch-a gpu=dg2", "patch-b gpu=dg2", "baseline gpu=mtl",
                       "patch-a gpu=mtl", "patch-b gpu=mtl"}));
    EXPECT_EQ(project(in, "", "name", "mesa").file.variants(), (Strings{"mesa=", "3f2a9c1"}));
    EXPECT_EQ(project(in, "", "name,mesa", "variant").file.metrics()[0].name, "4KiB/upload_linear mesa=");
    EXPECT_EQ(project(in, "", "unit", "variant").file.metrics()[0].name, "MiB/s");
    EXPECT_EQ(project(in, "", "name,unit", "variant").file.metrics()[0].name, "4KiB/upload_linear unit=MiB/s");
    // Transposed: a column per metric, a row per variant.
    const ProjectedResults t = project(in, "/^4KiB\\/upload/", "variant", "name");
    EXPECT_EQ(metric_names(t.file), (Strings{"baseline", "patch-a", "patch-b"}));
    EXPECT_EQ(t.file.variants().size(), 5u);
    EXPECT_EQ(values(t.file, "4KiB/upload_y", "patch-b"),
              (Strings{igt_value(2, 2, 0), igt_value(2, 2, 1), igt_value(2, 2, 2), igt_value(2, 2, 3),
                       igt_value(2, 2, 4)}));
}

TEST(Projection, MetricsOfOneDeclarationPoolIntoARow) {
    const ProjectedResults p = project(igt_results(), "", "gpu", "variant");
    EXPECT_EQ(metric_names(p.file), (Strings{"dg2", "mtl"}));
    ASSERT_EQ(p.file.runs().size(), 15u);
    const RunRecord& first = p.file.runs()[0];
    ASSERT_EQ(first.metrics.size(), 1u);
    EXPECT_EQ(first.metrics[0].name, "dg2");
    ASSERT_EQ(first.metrics[0].values.size(), 30u);
    EXPECT_TRUE(first.metrics[0].array);
    EXPECT_EQ(token_text(first.metrics[0].values[29]), igt_value(29, 0, 0));
    EXPECT_EQ(p.notes, Strings{"name is not in --row or --col: values of its 30 metrics are pooled"});
}

ResultsFile two_units(const MetricInfo& second) {
    ResultsFile f;
    f.header.id = "00112233445566778899aabbccddeeff";
    EXPECT_EQ(f.declare_metric(MetricInfo("a", "fps", Direction::higher_is_better)), "");
    EXPECT_EQ(f.declare_metric(second), "");
    Environment env;
    env.tags["suite"] = "x";
    EXPECT_EQ(f.add_environment(env), "");
    RunRecord r;
    r.variant = "v";
    r.environment = env.id;
    for (const char* name : {"a", second.name.c_str()}) {
        MetricValues m;
        m.name = name;
        m.values.push_back(parse_number_token("1"));
        r.metrics.push_back(m);
    }
    EXPECT_EQ(f.add_run(r), "");
    return f;
}

std::string projection_error(const ResultsFile& f, std::string_view filter, std::string_view row) {
    try {
        project(f, filter, row, "variant");
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(Projection, TwoDeclarationsInOneRowIsAnError) {
    const ResultsFile units = two_units(MetricInfo("b", "ms", Direction::higher_is_better));
    EXPECT_EQ(projection_error(units, "", "suite"),
              "--row: metrics 'a' (fps) and 'b' (ms) fall in one row 'x': add name to --row");
    const ResultsFile directions = two_units(MetricInfo("c", "fps", Direction::lower_is_better));
    EXPECT_EQ(projection_error(directions, "", "suite"),
              "--row: metrics 'a' (fps, higher is better) and 'c' (fps, lower is better) fall in one row 'x': "
              "add name to --row");
    MetricInfo frames("d", "fps", Direction::higher_is_better);
    frames.per = "frame";
    EXPECT_EQ(projection_error(two_units(frames), "", "suite"),
              "--row: metrics 'a' (fps, one value per run) and 'd' (fps, one value per frame) fall in one row 'x': "
              "add name to --row");
    // With the name in the row, or one of them filtered out, there is no conflict.
    EXPECT_EQ(projection_error(units, "", "suite,name"), "(no error)");
    EXPECT_EQ(projection_error(units, "-b", "suite"), "(no error)");
}

TEST(Projection, DesignsKeptOnlyWhenTheColumnsAreTheVariants) {
    const ResultsFile in = igt_results(IgtOptions{.design = true});
    const ProjectedResults same = project(in, "", "name", "variant");
    ASSERT_EQ(same.file.designs().size(), 1u);
    EXPECT_EQ(same.file.designs()[0], in.designs()[0]);
    ASSERT_EQ(same.file.runs().size(), 15u);
    for (size_t i = 0; i < 15; ++i) {
        EXPECT_EQ(same.file.runs()[i].design, test::kIgtDesign);
        EXPECT_EQ(same.file.runs()[i].block, in.runs()[i].block);
        EXPECT_EQ(same.file.runs()[i].position, in.runs()[i].position);
    }
    EXPECT_EQ(same.file.runs()[14].block, 4u);
    EXPECT_EQ(same.file.runs()[14].position, 2u);
    for (const char* col : {"kernel", "variant,gpu"}) {
        SCOPED_TRACE(col);
        const ProjectedResults p = project(in, "", "name", col);
        EXPECT_TRUE(p.file.designs().empty());
        ASSERT_EQ(p.file.runs().size(), 15u);
        for (const RunRecord& r : p.file.runs()) {
            EXPECT_EQ(r.design, "");
            EXPECT_FALSE(r.block.has_value());
            EXPECT_FALSE(r.position.has_value());
        }
    }
}

size_t failed(const VariantSample& v) { return v.counts.excluded_by_class[static_cast<size_t>(ExitClass::fail)]; }

TEST(Projection, RunsThatDidNotEndOkAreCarriedUnderTheirColumn) {
    const ResultsFile in = igt_results(IgtOptions{.left_out = true});
    ASSERT_EQ(in.runs().size(), 17u);
    const std::string metric = igt_subtests()[0];

    const ProjectedResults same = project(in, "", "name", "variant");
    EXPECT_EQ(same.kept, 480u);  // the warm-up's values too
    ASSERT_EQ(same.file.runs().size(), 17u);
    const RunRecord& last = same.file.runs().back();
    EXPECT_EQ(last.exit_class, ExitClass::fail);
    EXPECT_EQ(last.exit_reason, "GPU hang");
    EXPECT_EQ(last.exit_code, 1);
    EXPECT_EQ(last.run, 5u);
    EXPECT_TRUE(last.metrics.empty());
    EXPECT_TRUE(same.file.runs().front().warmup);
    EXPECT_EQ(same.file.runs().front().metrics.size(), 30u);
    const MetricSelection s = select_metric(same.file, "projected", metric, {});
    ASSERT_EQ(s.variants.size(), 3u);
    EXPECT_EQ(s.variants[0].counts.warmup, 1u);
    EXPECT_EQ(failed(s.variants[1]), 1u);
    EXPECT_EQ(s.variants[1].counts.runs_used, 5u);

    const ProjectedResults kernels = project(in, "", "name", "kernel");
    const MetricSelection k = select_metric(kernels.file, "projected", metric, {});
    ASSERT_EQ(k.variants.size(), 2u);
    EXPECT_EQ(k.variants[0].counts.warmup, 1u);
    EXPECT_EQ(k.variants[0].counts.runs_used, 5u);
    EXPECT_EQ(failed(k.variants[1]), 1u);
    EXPECT_EQ(k.variants[1].counts.runs_used, 10u);

    // A filter on the variant decides for a run without values; one on the
    // name cannot, so the run stays, to be counted as left out.
    const ProjectedResults base = project(in, "variant:baseline", "name", "variant");
    EXPECT_EQ(base.file.runs().size(), 6u);
    EXPECT_EQ(base.kept, 180u);
    EXPECT_EQ(base.dropped, 300u);
    const ProjectedResults uploads = project(in, "/upload/", "name", "variant");
    EXPECT_EQ(uploads.file.runs().size(), 17u);
    EXPECT_EQ(failed(select_metric(uploads.file, "projected", metric, {}).variants[1]), 1u);
    EXPECT_EQ(project(in, "/upload/ variant:baseline", "name", "variant").file.runs().size(), 6u);
    EXPECT_EQ(project(in, "/upload/ -variant:patch-a", "name", "variant").file.runs().size(), 11u);
}

TEST(Projection, RunsThatDidNotEndOkCannotBePlacedByName) {
    const ResultsFile in = igt_results(IgtOptions{.left_out = true});
    const ProjectedResults p = project(in, "", "variant", "name");
    EXPECT_EQ(p.file.runs().size(), 450u);
    EXPECT_EQ(p.file.variants().size(), 30u);
    for (const RunRecord& r : p.file.runs()) {
        EXPECT_FALSE(r.warmup);
        EXPECT_EQ(r.exit_class, ExitClass::ok);
    }
    const std::string note =
        "--col places values, not runs, when it holds name or unit: 2 runs that did not end ok or were warm-ups "
        "are left out of the columns, and reports do not count them";
    // Each cell (variant, metric) holds the runs on both GPUs.
    EXPECT_EQ(p.notes, (Strings{kGpuNote, kDriverNote, kPciNote, note}));
    // The baseline's warm-up is filtered out with its values; the failed
    // patch-a run is one the filter keeps.
    const ProjectedResults one = project(in, "variant:patch-a", "variant", "name");
    ASSERT_EQ(one.notes.size(), 4u);
    EXPECT_NE(one.notes[3].find(": 1 run that did not end ok"), std::string::npos) << one.notes[3];
}

// A warm-up on other hardware is no part of what a comparison pools.
TEST(Projection, PoolingNotesLookAtMeasuredRunsOnly) {
    const auto file_with_first_run = [](bool warmup) {
        ResultsFile f;
        f.header.id = "00112233445566778899aabbccddeeff";
        EXPECT_EQ(f.declare_metric(MetricInfo("fps", "fps", Direction::higher_is_better)), "");
        Environment old_gpu, new_gpu;
        old_gpu.tags["gpu"] = "old";
        new_gpu.tags["gpu"] = "new";
        EXPECT_EQ(f.add_environment(old_gpu), "");
        EXPECT_EQ(f.add_environment(new_gpu), "");
        for (uint64_t i = 0; i < 3; ++i) {
            RunRecord r;
            r.variant = "v";
            r.run = i;
            r.warmup = i == 0 && warmup;
            r.environment = i == 0 ? old_gpu.id : new_gpu.id;
            r.metrics.push_back(MetricValues{"fps", {parse_number_token("60")}, false});
            EXPECT_EQ(f.add_run(r), "");
        }
        return f;
    };
    EXPECT_EQ(project(file_with_first_run(true), "", "name", "variant").notes, Strings{});
    EXPECT_EQ(project(file_with_first_run(false), "", "name", "variant").notes, Strings{pooled("gpu", "old, new")});
}

// A cell whose runs met another load average or temperature pools them
// without advice: facts of the moment are no key to split a table by.
TEST(Projection, FactsOfTheMomentAreNeverAdvisedAsKeys) {
    ResultsFile f;
    f.header.id = "00112233445566778899aabbccddeeff";
    EXPECT_EQ(f.declare_metric(MetricInfo("fps", "fps", Direction::higher_is_better)), "");
    for (uint64_t i = 0; i < 4; ++i) {
        Environment env;
        env.fields["load_average"] = i % 2 ? "0.77 1.56 1.66" : "1.49 0.79 1.63";
        env.fields["temp_coretemp"] = std::to_string(50 + i);
        env.fields["gpu_act_freq_mhz"] = std::to_string(900 + 100 * i);
        env.fields["kernel_release"] = i < 2 ? "6.9" : "6.10";
        EXPECT_EQ(f.add_environment(env), "");
        RunRecord r;
        r.variant = "v";
        r.run = i;
        r.environment = env.id;
        r.metrics.push_back(MetricValues{"fps", {parse_number_token("60")}, false});
        EXPECT_EQ(f.add_run(r), "");
    }
    EXPECT_EQ(project(f, "", "name", "variant").notes, Strings{pooled("kernel_release", "6.9, 6.10")});
}

TEST(Projection, ParseKeys) {
    EXPECT_EQ(Projection::parse("name,gpu", "--row").keys, (Strings{"name", "gpu"}));
    EXPECT_EQ(Projection::parse(" metric , .variant,kernel_release ", "--col").keys,
              (Strings{"name", "variant", "kernel_release"}));
    EXPECT_EQ(Projection::rows().keys, Strings{"name"});
    EXPECT_EQ(Projection::columns().keys, Strings{"variant"});
    const auto error = [](std::string_view text, std::string_view option) -> std::string {
        try {
            Projection::parse(text, option);
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "(no error)";
    };
    EXPECT_EQ(error(" ", "--row"),
              "--row: expected one or more keys separated by ',' (name, variant, unit, or a tag or field key)");
    EXPECT_EQ(error("name,,gpu", "--col"),
              "--col: key 2 of 'name,,gpu' is empty (expected name, variant, unit, or a tag or field key)");
    EXPECT_EQ(error("name,gpu,", "--row").substr(0, 35), "--row: key 3 of 'name,gpu,' is empt");
    EXPECT_EQ(error("gpu,gpu", "--row"), "--row: 'gpu' is given twice");
    EXPECT_EQ(error("name,metric", "--col"), "--col: 'name' is given twice");
    // A projection made by hand is checked too.
    EXPECT_THROW(project_results(igt_results(), BenchFilter(), Projection{}, Projection::columns()),
                 std::invalid_argument);
}

}  // namespace
}  // namespace gfxstat::data
