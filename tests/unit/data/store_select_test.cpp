// SPDX-License-Identifier: MIT
// Store selections (data/store_select.h): the query a selection derives
// narrows what the database gives, never what is selected. Random-ish
// selections (AND, OR, NOT, regexes, tags, metric names, last:N) over a
// store of varied files select exactly the runs a full scan of every
// stored file with the filter (the reference, written here) selects.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <tuple>

#include "data/bench_filter.h"
#include "data/blocked_pairs.h"
#include "data/input_error.h"
#include "data/results_reader.h"
#include "data/store.h"
#include "data/store_backend.h"
#include "data/store_select.h"

namespace gfxstat::data {
namespace {

struct TempStore {
    TempStore() {
        char tmpl[] = "/tmp/gfxstat_store_select_test.XXXXXX";
        dir = ::mkdtemp(tmpl);
        url = parse_store_url("sqlite:" + dir + "/results.sqlite");
    }
    ~TempStore() { std::filesystem::remove_all(dir); }
    std::string dir;
    StoreUrl url;
};

using Identity = std::tuple<std::string, std::string, uint64_t>;  // origin, variant, run

// One file: `variants` x `runs` runs on one environment. An empty host
// with a machine id gives a machine without hostname; `no_env` leaves the
// environment out of the runs. Every third run of "mr" failed (no values).
struct FileSpec {
    std::string id, host, machine_id;
    std::map<std::string, std::string> tags;
    std::vector<std::string> variants;
    size_t runs = 3;
    int day = 1;
    bool no_env = false;
    bool fps_only = false;  // declares and measures fps only
};

std::string file_text(const FileSpec& f) {
    using nlohmann::json;
    std::string text = json{{"format", "gfxstat-results"}, {"version", 1}, {"id", f.id},
                            {"created", "2026-12-01T00:00:00Z"}, {"generator", "store_select_test"}}
                           .dump() +
                       "\n";
    text += json{{"type", "metric"}, {"name", "fps"}, {"unit", "fps"}, {"direction", "higher"}}.dump() + "\n";
    if (!f.fps_only)
        text += json{{"type", "metric"}, {"name", "ms"}, {"unit", "ms"}, {"direction", "lower"}}.dump() + "\n";
    const std::string env_id = "env-" + f.id.substr(0, 8) + f.id.substr(24);  // a file's own environment
    json env = {{"type", "environment"}, {"id", env_id}, {"tags", f.tags}};
    if (!f.host.empty()) env["hostname"] = f.host;
    if (!f.machine_id.empty()) env["machine"] = f.machine_id;
    if (!f.no_env) text += env.dump() + "\n";
    for (const std::string& v : f.variants)
        for (size_t r = 0; r < f.runs; ++r) {
            json run = {{"type", "run"}, {"variant", v}, {"run", r}, {"boot", "b1"}};
            char start[40];
            std::snprintf(start, sizeof start, "2026-11-%02dT%02zu:00:00Z", f.day, r);
            run["start"] = start;
            if (!f.no_env) run["environment"] = env_id;
            if (v == "mr" && r % 3 == 2) {
                run["exit"] = {{"class", "fail"}};
                run["metrics"] = json::object();
            } else {
                run["exit"] = {{"class", "ok"}};
                run["metrics"] = {{"fps", 60.5 + static_cast<double>(r)}};
                // One value as an array, and several, as some files print them.
                if (v == "other" && r == 0) run["metrics"]["fps"] = json::array({60.5});
                if (v == "other" && r == 1) run["metrics"]["fps"] = json::array({61.5, 1e-7, 62});
                if (r % 2 == 0 && !f.fps_only) run["metrics"]["ms"] = 3.25;
            }
            text += run.dump() + "\n";
        }
    return text;
}

std::vector<FileSpec> specs() {
    std::vector<FileSpec> s;
    const char* hosts[] = {"dut-1", "dut-2", "dut-3"};
    for (int b = 0; b < 6; ++b)
        for (int h = 0; h < 3; ++h) {
            FileSpec f;
            char id[40];
            std::snprintf(id, sizeof id, "%08d%024d", b, h);
            f.id = id;
            f.host = hosts[h];
            f.tags = {{"commit", "c" + std::to_string(b)}, {"branch", b % 2 ? "main" : "next"}};
            f.variants = b == 5 ? std::vector<std::string>{"main", "mr"} : std::vector<std::string>{"main"};
            // Start order is not commit order: c4 started before c3.
            f.day = b == 3 ? 20 : 10 + b;
            s.push_back(f);
        }
    FileSpec by_id;  // a machine known by its id only, a build tag instead of a commit
    by_id.id = "ffff0000ffff0000ffff0000ffff0001";
    by_id.machine_id = "id-9";
    by_id.tags = {{"build", "nightly-7"}};
    by_id.variants = {"main", "other"};
    by_id.day = 25;
    s.push_back(by_id);
    FileSpec bare;  // no environment: build = variant, no machine
    bare.id = "ffff0000ffff0000ffff0000ffff0002";
    bare.variants = {"mr", "other"};
    bare.no_env = true;
    bare.day = 2;
    s.push_back(bare);
    FileSpec both;  // a commit tag and a build tag: the build column is the commit
    both.id = "ffff0000ffff0000ffff0000ffff0003";
    both.host = "dut-2";
    both.tags = {{"commit", "c9"}, {"build", "c2"}};
    both.variants = {"main"};
    both.day = 26;
    both.fps_only = true;
    s.push_back(both);
    return s;
}

std::string build_of(const ResultsFile& f, const RunRecord& r) { return store_build_of(f, r); }

bool kept(const BenchFilter& filter, const ResultsFile& f, const RunRecord& run) {
    if (filter.empty()) return true;
    const Environment* env = f.find_environment(run.environment.str());
    Observation o;
    o.variant = run.variant.view();
    o.tags = env ? &env->tags : nullptr;
    o.fields = env ? &env->fields : nullptr;
    if (run.metrics.empty()) return filter.may_match_run(o);
    for (const MetricValues& mv : run.metrics) {
        const MetricInfo* m = f.find_metric(mv.name.view());
        o.name = mv.name.view();
        o.unit = m ? std::string_view(m->unit) : std::string_view();
        if (filter.matches(o)) return true;
    }
    return false;
}

// The full scan: every stored file parsed, every run judged by the filter,
// then last:N over the kept runs' builds by first start, then name.
std::set<Identity> reference(Store& store, const std::string& selection) {
    const StoreSelection sel = parse_store_selection(selection);
    struct Kept {
        Identity id;
        std::string build, start;
    };
    std::vector<Kept> all;
    for (const StoredFile& sf : store.files()) {
        std::string text = sf.header_line + "\n";
        for (const std::string& l : sf.lines) text += l + "\n";
        const ResultsFile f = parse_results(text, sf.file_id);
        for (const RunRecord& r : f.runs())
            if (kept(sel.filter, f, r))
                all.push_back({{r.origin.empty() ? f.header.id : r.origin.str(), r.variant.str(), r.run},
                               build_of(f, r), r.start});
    }
    std::set<std::string> chosen;
    if (sel.last) {
        std::map<std::string, std::string> first;
        for (const Kept& k : all) {
            auto [it, fresh] = first.emplace(k.build, k.start);
            if (!k.start.empty() && (it->second.empty() || k.start < it->second)) it->second = k.start;
        }
        std::vector<std::pair<std::string, std::string>> order;  // (first start, build)
        for (const auto& [b, s] : first) order.emplace_back(s, b);
        std::sort(order.begin(), order.end());
        for (size_t i = order.size() > sel.last ? order.size() - sel.last : 0; i < order.size(); ++i)
            chosen.insert(order[i].second);
    }
    std::set<Identity> out;
    for (const Kept& k : all)
        if (!sel.last || chosen.count(k.build)) out.insert(k.id);
    return out;
}

std::set<Identity> selected(Store& store, const std::string& selection) {
    const ResultsFile f = parse_results(select_stored_runs(store, selection), "selected");
    std::set<Identity> out;
    for (const RunRecord& r : f.runs()) out.insert({r.origin.empty() ? f.header.id : r.origin.str(), r.variant.str(), r.run});
    return out;
}

class StoreSelect : public ::testing::Test {
protected:
    void SetUp() override {
        store = open_store(t.url, StoreOpen::create);
        for (const FileSpec& f : specs()) store->push(parse_results(file_text(f), f.id), f.id + ".json");
    }
    // Returns whether the selection keeps a run.
    bool expect_same(const std::string& selection) {
        SCOPED_TRACE(selection);
        const std::set<Identity> want = reference(*store, selection);
        if (want.empty()) {
            EXPECT_THROW(selected(*store, selection), InputError);
            return false;
        }
        EXPECT_EQ(selected(*store, selection), want);
        return true;
    }
    TempStore t;
    std::unique_ptr<Store> store;
};

TEST_F(StoreSelect, QueryFromTopLevelTerms) {
    StoreSelection s = parse_store_selection("variant:main machine:dut-1 last:3");
    EXPECT_TRUE(s.exact);
    EXPECT_EQ(s.last, 3u);
    EXPECT_EQ(s.query.variants, std::vector<std::string>{"main"});
    EXPECT_EQ(s.query.machines, std::vector<std::string>{"dut-1"});
    EXPECT_TRUE(s.query.builds.empty());
    s = parse_store_selection("branch:main machine:(dut-2 OR dut-1) commit:c1 fps");
    EXPECT_FALSE(s.exact);
    EXPECT_EQ(s.query.machines, (std::vector<std::string>{"dut-1", "dut-2"}));
    EXPECT_EQ(s.query.builds, std::vector<std::string>{"c1"});
    EXPECT_TRUE(s.query.variants.empty());
    EXPECT_TRUE(s.query.metrics.empty());  // failed runs have no metric, yet are kept
    s = parse_store_selection("variant:main OR machine:dut-1");
    EXPECT_TRUE(s.query.variants.empty() && s.query.machines.empty());
    EXPECT_FALSE(s.exact);
    s = parse_store_selection("-variant:main machine:/dut/");
    EXPECT_TRUE(s.query.variants.empty() && s.query.machines.empty());
    s = parse_store_selection("variant:(main OR mr) variant:(mr OR other)");
    EXPECT_EQ(s.query.variants, std::vector<std::string>{"mr"});
    EXPECT_FALSE(s.contradictory);
    EXPECT_TRUE(parse_store_selection("variant:main variant:mr").contradictory);
    EXPECT_THROW(select_stored_runs(*store, "variant:main variant:mr"), InputError);
}

TEST_F(StoreSelect, LastNeedsTheTopLevelAndOneWholeNumber) {
    for (const char* bad : {"last:0", "last:x", "last:-1", "last:/1/", "last:*", "last:(1 OR 2)", "a OR last:2",
                            "-last:2", "variant:x (variant:main last:2)", "last:2 last:3", "NOT last:1", "last:12345678901"})
        EXPECT_THROW(parse_store_selection(bad), FilterSyntaxError) << bad;
    EXPECT_NO_THROW(parse_store_selection("variant:main AND last:1"));
    EXPECT_NO_THROW(parse_store_selection("(variant:main last:1)"));  // the whole selection grouped
    // In --filter, last is a tag key like any other.
    EXPECT_NO_THROW(BenchFilter::parse("a OR last:2"));
}

TEST_F(StoreSelect, LastCountsBuildsByFirstStart) {
    // dut-1's main builds by first start: c0 c1 c2 c4 c5 c3 (c3 started last).
    std::set<std::string> builds;
    const ResultsFile f = parse_results(select_stored_runs(*store, "machine:dut-1 variant:main last:2"), "x");
    for (const RunRecord& r : f.runs()) builds.insert(build_of(f, r));
    EXPECT_EQ(builds, (std::set<std::string>{"c5", "c3"}));
    // Through the filter (a tag term): the same builds.
    builds.clear();
    const ResultsFile g = parse_results(select_stored_runs(*store, "machine:dut-1 branch:/./ last:2"), "x");
    for (const RunRecord& r : g.runs()) builds.insert(build_of(g, r));
    EXPECT_EQ(builds, (std::set<std::string>{"c5", "c3"}));
}

TEST_F(StoreSelect, AnOrderOfBuildsLeavesOutWhatItDoesNotPlace) {
    // An order that places only commits c0..c5, in reverse: last:2 is c1, c0.
    const BuildOrder reverse = [](const std::vector<StoredBuild>& builds, std::vector<std::string>& notes) {
        std::vector<std::string> out;
        for (const StoredBuild& b : builds)
            if (b.build.size() == 2 && b.build[0] == 'c' && b.build[1] <= '5') out.push_back(b.build);
            else notes.push_back("left out " + b.build);
        std::sort(out.rbegin(), out.rend());
        return out;
    };
    for (const char* sel : {"variant:main last:2", "branch:/./ last:2"}) {
        SelectedRuns s = select_runs(*store, parse_store_selection(sel), reverse);
        const std::vector<std::string> notes = s.notes;
        const ResultsFile f = results_file(std::move(s), "x");
        std::set<std::string> builds;
        for (const RunRecord& r : f.runs()) builds.insert(build_of(f, r));
        EXPECT_EQ(builds, (std::set<std::string>{"c1", "c0"})) << sel;
        // Builds nightly-7 and c9 are not placed: said.
        if (std::string(sel) == "variant:main last:2") {
            EXPECT_EQ(notes.size(), 2u);
        }
    }
}

TEST_F(StoreSelect, AProjectionKeepsTheRunsAndOnlyItsMetrics) {
    for (const char* sel : {"variant:main machine:dut-1", "ms branch:main", "*"}) {
        SCOPED_TRACE(sel);
        const ResultsFile whole = results_file(select_runs(*store, parse_store_selection(sel)), "whole");
        const ResultsFile fps = results_file(select_runs(*store, parse_store_selection(sel), {}, {"fps"}), "fps");
        ASSERT_EQ(whole.runs().size(), fps.runs().size());
        ASSERT_EQ(fps.metrics().size(), 1u);
        EXPECT_EQ(fps.metrics()[0].name, "fps");
        size_t dropped = 0;
        for (size_t i = 0; i < whole.runs().size(); ++i) {
            const RunRecord& a = whole.runs()[i];
            const RunRecord& b = fps.runs()[i];
            EXPECT_EQ(a.variant, b.variant);
            EXPECT_EQ(a.run, b.run);
            EXPECT_EQ(a.exit_class, b.exit_class);
            EXPECT_EQ(run_value(a, "fps"), run_value(b, "fps"));
            ASSERT_LE(b.metrics.size(), 1u);
            dropped += a.metrics.size() - b.metrics.size();
        }
        EXPECT_GT(dropped, 0u);  // the ms values are gone
    }
    // A metric no file declares: nothing is projected.
    const ResultsFile none = results_file(select_runs(*store, parse_store_selection("*"), {}, {"nope"}), "none");
    EXPECT_EQ(none.metrics().size(), 2u);
}

TEST_F(StoreSelect, MachineIsTheHostnameElseTheMachineId) {
    EXPECT_EQ(selected(*store, "machine:id-9").size(), 6u);
    EXPECT_EQ(selected(*store, "machine:dut-3").size(), 6u * 3 + 3);
    expect_same("machine:id-9");
    expect_same("-machine:dut-1");
    expect_same("machine:\"\"");
}

TEST_F(StoreSelect, NarrowingNeverChangesTheSelection) {
    const std::vector<std::string> atoms = {
        "variant:main", "variant:mr", "variant:(main OR other)", "machine:dut-1", "machine:(dut-2 OR id-9)",
        "machine:/dut-[12]/", "commit:c2", "commit:(c2 OR c9)", "build:c2", "build:nightly-7", "branch:main",
        "branch:*", "fps", "name:ms", "/f.s/", "unit:ms", "hostname:dut-3", "machine:id-9", "variant:other",
        "-variant:mr", "NOT machine:dut-2", "-branch:next", "*"};
    std::mt19937 rng(20261207);
    const auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
    const auto conjunction = [&] {
        std::string s;
        const size_t n = 1 + pick(3);
        for (size_t i = 0; i < n; ++i) s += (i ? " " : "") + atoms[pick(atoms.size())];
        return s;
    };
    size_t kept = 0, exact = 0;
    for (int i = 0; i < 250; ++i) {
        std::string sel;
        switch (pick(4)) {
            case 0: sel = conjunction(); break;
            case 1: sel = conjunction() + " OR " + conjunction(); break;
            case 2: sel = atoms[pick(atoms.size())] + " (" + conjunction() + " OR " + conjunction() + ")"; break;
            default: sel = "NOT (" + conjunction() + ") " + atoms[pick(atoms.size())]; break;
        }
        if (pick(3) == 0) sel = "(" + sel + ") last:" + std::to_string(1 + pick(4));
        kept += expect_same(sel);
        exact += parse_store_selection(sel).exact;
    }
    // The draw means something: many selections keep runs, some are
    // decided by the database alone.
    EXPECT_GT(kept, 80u);
    EXPECT_GT(exact, 5u);
}

// The one-metric read as it was before the store kept skeletons: the
// whole lines select_files gives, each file that declares the metric with
// only its declaration and each run's line projected onto it.
std::vector<StoredFile> projected_whole_lines(std::vector<StoredFile> files, const std::string& metric) {
    const std::vector<std::string> token = {nlohmann::json(metric).dump()};
    for (StoredFile& f : files) {
        bool declares = false;
        for (size_t i = 0; i < f.lines.size(); ++i)
            declares |= f.kinds[i] == StoreRecord::Kind::metric && nlohmann::json::parse(f.lines[i])["name"] == metric;
        if (!declares) continue;
        StoredFile p = f;
        p.lines.clear();
        p.kinds.clear();
        for (size_t i = 0; i < f.lines.size(); ++i) {
            if (f.kinds[i] == StoreRecord::Kind::metric && nlohmann::json::parse(f.lines[i])["name"] != metric) continue;
            p.lines.push_back(f.kinds[i] == StoreRecord::Kind::run ? store_projected_run(f.lines[i], token) : f.lines[i]);
            p.kinds.push_back(f.kinds[i]);
        }
        f = std::move(p);
    }
    return files;
}

TEST_F(StoreSelect, OneMetricReadGivesTheProjectionOfWholeLines) {
    const std::vector<std::string> variants = {"main", "mr", "other"};
    const std::vector<std::string> machines = {"dut-1", "dut-2", "dut-3", "id-9", ""};
    const std::vector<std::string> builds = {"c0", "c2", "c5", "c9", "nightly-7", "mr", "other"};
    std::mt19937 rng(20261207);
    const auto some = [&](const std::vector<std::string>& from) {
        std::vector<std::string> out;
        if (rng() % 2) return out;
        for (size_t n = 1 + rng() % 2; n > 0; --n) out.push_back(from[rng() % from.size()]);
        return out;
    };
    size_t runs = 0, rebuilt = 0;
    for (int i = 0; i < 150; ++i) {
        StoreQuery q;
        q.variants = some(variants);
        q.machines = some(machines);
        q.builds = some(builds);
        for (const char* metric : {"fps", "ms", "nope"}) {
            const std::vector<StoredFile> got = store->select_metric_files(q, metric);
            const std::vector<StoredFile> want = projected_whole_lines(store->select_files(q), metric);
            ASSERT_EQ(got.size(), want.size()) << i << " " << metric;
            for (size_t k = 0; k < got.size(); ++k) {
                EXPECT_EQ(got[k].file_id, want[k].file_id);
                EXPECT_EQ(got[k].header_line, want[k].header_line);
                EXPECT_EQ(got[k].name, want[k].name);
                EXPECT_EQ(got[k].pushed_at, want[k].pushed_at);
                EXPECT_EQ(got[k].lines, want[k].lines) << i << " " << metric;
                EXPECT_EQ(got[k].kinds, want[k].kinds);
                for (size_t l = 0; l < got[k].lines.size(); ++l) {
                    if (got[k].kinds[l] != StoreRecord::Kind::run) continue;
                    ++runs;
                    rebuilt += got[k].lines[l].find("\"fps\":[") != std::string::npos;
                }
            }
        }
    }
    // The draw reaches runs, and runs that print one metric as an array.
    EXPECT_GT(runs, 500u);
    EXPECT_GT(rebuilt, 5u);
}

}  // namespace
}  // namespace gfxstat::data
