// SPDX-License-Identifier: MIT
// The results file the --filter and --row/--col tests query: what an IGT
// subtest suite compared across a baseline and two patches looks like.
// 30 subtests (3 sizes x upload/download x 5 tilings, "4KiB/upload_linear"),
// all in MiB/s, higher is better; 3 variants x 5 runs, interleaved in file
// order as `gfxstat ab` writes them, with run indices 100..104 so that
// renumbering shows. The environment: tag kernel (6.9 for the baseline,
// 6.10 for both patches), tag gpu (runs 0-2 on a dg2, runs 3-4 on an mtl),
// tag mesa on patch-b only; fields kernel_release, gpu_driver and
// gpu_pci_id that follow the tags, and hostname.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "data/bench_filter.h"
#include "data/number_token.h"
#include "data/results_model.h"

namespace gfxstat::test {

inline const std::vector<std::string>& igt_subtests() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const char* size : {"4KiB", "64KiB", "1MiB"})
            for (const char* op : {"upload", "download"})
                for (const char* tiling : {"linear", "x", "y", "yf", "4"})
                    out.push_back(std::string(size) + "/" + op + "_" + tiling);
        return out;
    }();
    return names;
}

inline const std::vector<std::string>& igt_variants() {
    static const std::vector<std::string> v{"baseline", "patch-a", "patch-b"};
    return v;
}

inline constexpr size_t kIgtRuns = 5;
inline constexpr const char* kIgtDesign = "design-0011223344556677";
inline constexpr const char* kIgtMesa = "3f2a9c1";

inline std::string igt_kernel(size_t variant) { return variant == 0 ? "6.9" : "6.10"; }
inline std::string igt_gpu(size_t run) { return run < 3 ? "dg2" : "mtl"; }

// The value of subtest s in run i of variant v, as written in the file:
// distinct for every (s, v, i), so a value says where it came from.
inline std::string igt_value(size_t s, size_t v, size_t i) {
    return std::to_string(1000 + 10 * s + 100 * v + i) + ".5";
}

struct IgtOptions {
    bool design = false;    // runs laid out by a design record (block = run, position = variant)
    bool left_out = false;  // a baseline warm-up first (all values), a failed patch-a run last (none)
};

inline data::Environment igt_environment(size_t variant, size_t run) {
    data::Environment env;
    env.tags["kernel"] = igt_kernel(variant);
    env.tags["gpu"] = igt_gpu(run);
    if (variant == 2) env.tags["mesa"] = kIgtMesa;
    env.fields["kernel_release"] = igt_kernel(variant) + ".0-gfx";
    env.fields["gpu_driver"] = run < 3 ? "i915" : "xe";
    env.fields["gpu_pci_id"] = run < 3 ? "8086:56a0" : "8086:7d55";
    env.fields["hostname"] = "rig";
    return env;
}

inline void igt_check(const std::string& why) {
    if (!why.empty()) throw std::logic_error("test file: " + why);
}

inline data::RunRecord igt_run(size_t v, uint64_t index, const std::string& env, bool with_values, size_t i) {
    data::RunRecord r;
    r.variant = igt_variants()[v];
    r.run = index;
    r.boot = "boot-" + r.variant;
    r.start = "2026-12-01T00:00:0" + std::to_string(i) + "Z";
    r.duration_s = 1.5;
    r.environment = env;
    r.source = "igt.log:" + std::to_string(index);
    if (with_values)
        for (size_t s = 0; s < igt_subtests().size(); ++s) {
            data::MetricValues m;
            m.name = igt_subtests()[s];
            m.values.push_back(data::parse_number_token(igt_value(s, v, i)));
            r.metrics.push_back(std::move(m));
        }
    return r;
}

inline data::ResultsFile igt_results(IgtOptions options = {}) {
    data::ResultsFile f;
    f.header.id = "0123456789abcdef0123456789abcdef";
    f.header.generator = "test";
    for (const std::string& name : igt_subtests())
        igt_check(f.declare_metric(data::MetricInfo(name, "MiB/s", data::Direction::higher_is_better)));
    if (options.design) {
        data::DesignRecord d;
        d.id = kIgtDesign;
        d.variants = igt_variants();
        d.order = "random";
        d.stopping = "fixed";
        d.metric = igt_subtests()[0];
        d.runs = kIgtRuns;
        igt_check(f.add_design(d));
    }
    // environment ids by (variant, gpu): six of them
    std::vector<std::string> env_ids(igt_variants().size() * 2);
    for (size_t v = 0; v < igt_variants().size(); ++v)
        for (size_t g = 0; g < 2; ++g) {
            data::Environment env = igt_environment(v, g == 0 ? 0 : 3);
            igt_check(f.add_environment(env));
            env_ids[v * 2 + g] = env.id;
        }
    const auto env_of = [&](size_t v, size_t i) { return env_ids[v * 2 + (i < 3 ? 0 : 1)]; };
    if (options.left_out) {
        data::RunRecord warm = igt_run(0, 99, env_of(0, 0), true, 0);
        warm.warmup = true;
        igt_check(f.add_run(std::move(warm)));
    }
    for (size_t i = 0; i < kIgtRuns; ++i)
        for (size_t v = 0; v < igt_variants().size(); ++v) {
            data::RunRecord r = igt_run(v, 100 + i, env_of(v, i), true, i);
            if (options.design) {
                r.design = kIgtDesign;
                r.block = i;
                r.position = v;
            }
            igt_check(f.add_run(std::move(r)));
        }
    if (options.left_out) {
        data::RunRecord failed = igt_run(1, 105, env_of(1, 4), false, 4);
        failed.exit_class = data::ExitClass::fail;
        failed.exit_code = 1;
        failed.exit_reason = "GPU hang";
        igt_check(f.add_run(std::move(failed)));
    }
    return f;
}

// Every observation of `file`: one per run and metric it reports.
inline std::vector<data::Observation> observations(const data::ResultsFile& file) {
    std::vector<data::Observation> out;
    for (const data::RunRecord& r : file.runs()) {
        const data::Environment* env = file.find_environment(r.environment);
        for (const data::MetricValues& m : r.metrics) {
            data::Observation o;
            o.name = m.name;
            o.unit = file.find_metric(m.name)->unit;
            o.variant = r.variant;
            o.tags = env ? &env->tags : nullptr;
            o.fields = env ? &env->fields : nullptr;
            out.push_back(o);
        }
    }
    return out;
}

}  // namespace gfxstat::test
