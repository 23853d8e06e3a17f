// SPDX-License-Identifier: MIT
// A campaign as a newcomer meets it, without running anything: simulated
// boot ids and the fold of a simulated campaign (which refuses to mix
// with real boots), the note an analysis of simulated boots gets, the
// step line's measured value, the advice naming the plan's knobs, the
// markdown design of `campaign analyze`, and counts with their nouns.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "report/campaign_design.h"
#include "report/diagnostic_words.h"
#include "data/results_model.h"
#include "drivers/campaign_plan.h"
#include "drivers/campaign_simulation.h"
#include "drivers/campaign_state.h"
#include "drivers/campaign_step_words.h"
#include "text/plural.h"

namespace gfxstat {
namespace {

using drivers::CampaignPlan;
using drivers::CampaignState;
using drivers::JournalEvent;
using nlohmann::json;

const std::string kBoot = "5d1c0b2e-7f43-4a51-9d0e-3c8a6b1f2e90";

CampaignPlan switchable_plan(bool reboot_first) {
    const json j{{"variants", {{{"label", "A"}, {"reboot", false}}, {{"label", "B"}, {"reboot", false}}}},
                 {"workload", {{"builtin", "wakeup-latency"}}},
                 {"runs_per_boot", 2},
                 {"boots_per_variant", 2},
                 {"warmup_runs", 1},
                 {"reboot_first", reboot_first}};
    return drivers::parse_campaign_plan(j.dump(), "plan.json");
}

JournalEvent ev(const std::string& type, const std::string& boot, std::optional<uint64_t> slot = {}) {
    JournalEvent e;
    e.type = type;
    e.boot = boot;
    e.slot = slot;
    e.time = "2026-01-01T00:00:00Z";
    e.t = 1000;
    return e;
}

data::RunRecord step_run(const CampaignPlan& plan, data::ResultsFile& rf, uint64_t k, const std::string& boot) {
    data::RunRecord r;
    r.variant = plan.variants[plan.steps[k].variant].label;
    r.run = rf.next_run_index(r.variant);
    r.warmup = plan.steps[k].warmup;
    r.boot = boot;
    r.campaign_step = k;
    return r;
}

// What `f` prints into a string.
template <class F>
std::string printed(F&& f) {
    char* buf = nullptr;
    size_t size = 0;
    FILE* out = open_memstream(&buf, &size);
    f(out);
    std::fclose(out);
    std::string s(buf, size);
    std::free(buf);
    return s;
}

// ------------------------------------------------------- simulated boot ids

TEST(SimulatedBoot, IdsCarryTheRealBootAndTheCounter) {
    const std::string id = drivers::simulated_boot_id(kBoot, 3);
    EXPECT_EQ(id, kBoot + ":simulated:3");
    EXPECT_EQ(drivers::simulated_boot_number(id), 3u);
    EXPECT_EQ(drivers::real_boot_of(id), kBoot);
    EXPECT_EQ(drivers::simulated_boot_number(drivers::simulated_boot_id(kBoot, 0)), 0u);
    EXPECT_EQ(drivers::boot_words(id), "5d1c0b2e (simulated boot 3)");
    EXPECT_EQ(drivers::boot_words(kBoot), "5d1c0b2e");
}

TEST(SimulatedBoot, OtherIdsAreNotSimulated) {
    for (const std::string& id : {kBoot, std::string(""), kBoot + ":simulated:", kBoot + ":simulated:3a",
                                 kBoot + ":simulated:-1", std::string(":simulated:3"),
                                 kBoot + ":simulated:123456789012345678901"}) {
        EXPECT_FALSE(drivers::simulated_boot_number(id)) << id;
        EXPECT_EQ(drivers::real_boot_of(id), id);
    }
}

// ------------------------------------------------------------------ fold

TEST(SimulatedFold, SimulationEventStandsForInitsBoot) {
    const std::string sim0 = drivers::simulated_boot_id(kBoot, 0);
    // reboot_first: init's boot is spent, and so is simulated boot 0.
    const CampaignState s = drivers::fold_campaign(switchable_plan(true),
                                                   {ev("init", kBoot), ev("simulation", sim0)}, {});
    EXPECT_TRUE(s.simulated);
    EXPECT_FALSE(s.real_activity);
    EXPECT_EQ(s.init_boot, sim0);
    EXPECT_EQ(s.used_boots, (std::set<std::string>{sim0}));  // one boot, as in a real campaign
    EXPECT_EQ(s.last_simulated_boot, sim0);
    // Without: simulated boot 0 may be the first slot's.
    const CampaignState t = drivers::fold_campaign(switchable_plan(false),
                                                   {ev("init", kBoot), ev("simulation", sim0)}, {});
    EXPECT_EQ(t.init_boot, sim0);
    EXPECT_EQ(t.used_boots.count(sim0), 0u);
    // A simulation begun in a later real boot does not stand for init's.
    const std::string other = drivers::simulated_boot_id("other-boot", 0);
    const CampaignState u = drivers::fold_campaign(switchable_plan(true),
                                                   {ev("init", kBoot), ev("simulation", other)}, {});
    EXPECT_EQ(u.init_boot, kBoot);
    EXPECT_EQ(u.used_boots.count(other), 0u);
}

TEST(SimulatedFold, RealActivityComesFromRealBootsEventsAndRuns) {
    const CampaignPlan p = switchable_plan(true);
    const std::string sim1 = drivers::simulated_boot_id(kBoot, 1);
    // init and resume are not activity: a resume interrupted at once did nothing.
    EXPECT_FALSE(drivers::fold_campaign(p, {ev("init", kBoot), ev("resume", "b1")}, {}).real_activity);
    for (const char* type : {"boot", "reboot", "deploy_failed", "intent"}) {
        EXPECT_TRUE(drivers::fold_campaign(p, {ev("init", kBoot), ev(type, "b1", 0)}, {}).real_activity) << type;
        EXPECT_FALSE(drivers::fold_campaign(p, {ev("init", kBoot), ev(type, sim1, 0)}, {}).real_activity) << type;
    }
    data::ResultsFile rf;
    ASSERT_EQ(rf.add_run(step_run(p, rf, 0, "b1")), "");
    EXPECT_TRUE(drivers::fold_campaign(p, {ev("init", kBoot)}, rf).real_activity);
    data::ResultsFile sim;
    ASSERT_EQ(sim.add_run(step_run(p, sim, 0, sim1)), "");
    EXPECT_FALSE(drivers::fold_campaign(p, {ev("init", kBoot)}, sim).real_activity);
}

TEST(SimulatedFold, LastSimulatedBootIsTheHighest) {
    const CampaignPlan p = switchable_plan(true);
    const auto sim = [](uint64_t n) { return drivers::simulated_boot_id(kBoot, n); };
    const CampaignState s = drivers::fold_campaign(
        p, {ev("init", kBoot), ev("simulation", sim(0)), ev("reboot", sim(0), 0), ev("resume", sim(1)),
            ev("boot", sim(1), 0), ev("reboot", sim(1), 1), ev("resume", sim(2)), ev("stop", sim(1))},
        {});
    EXPECT_EQ(s.last_simulated_boot, sim(2));
    // The machine has not rebooted: the simulation goes on in that boot.
    EXPECT_EQ(drivers::simulated_boot_at_start(s, kBoot), sim(2));
    // It has: a new simulated boot of the new real one, numbered on.
    EXPECT_EQ(drivers::simulated_boot_at_start(s, "new-boot"), drivers::simulated_boot_id("new-boot", 3));
    // Before any simulation: simulated boot 0 of this boot.
    EXPECT_EQ(drivers::simulated_boot_at_start(CampaignState{}, kBoot), sim(0));
}

TEST(SimulatedFold, SimulatedAndRealNeverMix) {
    CampaignState fresh;
    EXPECT_EQ(drivers::simulation_conflict(fresh, true, "d"), "");
    EXPECT_EQ(drivers::simulation_conflict(fresh, false, "d"), "");
    CampaignState real;
    real.real_activity = true;
    EXPECT_NE(drivers::simulation_conflict(real, true, "d").find("has run for real"), std::string::npos);
    EXPECT_EQ(drivers::simulation_conflict(real, false, "d"), "");
    CampaignState simulated;
    simulated.simulated = true;
    const std::string why = drivers::simulation_conflict(simulated, false, "d");
    EXPECT_NE(why.find("simulated"), std::string::npos) << why;
    EXPECT_NE(why.find("resume d --simulate-reboots"), std::string::npos) << why;
    EXPECT_EQ(drivers::simulation_conflict(simulated, true, "d"), "");
}

TEST(SimulatedBoots, CountedAndNotedForAnAnalysis) {
    data::ResultsFile rf;
    const auto add = [&](const std::string& boot) {
        data::RunRecord r;
        r.variant = "a";
        r.run = rf.next_run_index("a");
        r.boot = boot;
        ASSERT_EQ(rf.add_run(r), "");
    };
    EXPECT_EQ(drivers::simulated_boots_note(drivers::count_simulated_boots(rf)), "");
    add(kBoot);
    EXPECT_EQ(drivers::simulated_boots_note(drivers::count_simulated_boots(rf)), "");
    for (uint64_t n : {1, 1, 2, 3}) add(drivers::simulated_boot_id(kBoot, n));
    const drivers::SimulatedBoots b = drivers::count_simulated_boots(rf);
    EXPECT_EQ(b.runs, 4u);
    EXPECT_EQ(b.simulated_boots, 3u);
    EXPECT_EQ(b.real_boots, 1u);
    EXPECT_EQ(b.other_runs, 1u);
    const std::string note = drivers::simulated_boots_note(b);
    EXPECT_EQ(note.rfind("4 runs ran in 3 simulated boots", 0), 0u) << note;
    EXPECT_NE(note.find("one real boot"), std::string::npos) << note;
    EXPECT_NE(note.find("measures nothing about reboots"), std::string::npos) << note;
    EXPECT_NE(note.find("1 run of real boots"), std::string::npos) << note;
}

// ------------------------------------------------------------- step lines

TEST(StepLine, ShowsTheTrackedValueWithItsUnit) {
    data::ResultsFile rf;
    data::MetricInfo fps;
    fps.name = "fps";
    fps.unit = "fps";
    fps.direction = data::Direction::higher_is_better;
    ASSERT_EQ(rf.declare_metric(fps), "");
    data::MetricInfo lat;
    lat.name = "latency";
    lat.unit = "us";
    lat.direction = data::Direction::lower_is_better;
    ASSERT_EQ(rf.declare_metric(lat), "");
    data::RunRecord r;
    r.duration_s = 1.5;
    data::MetricValues v;
    v.name = "fps";
    v.values.push_back(data::parse_number_token("103.42"));
    r.metrics.push_back(v);
    EXPECT_EQ(drivers::step_result_words(r, rf, "fps"), "ok 1.5 s: fps 103.4 fps");
    // No tracked metric named (metrics from the output): the first with a unit and direction.
    EXPECT_EQ(drivers::step_result_words(r, rf, ""), "ok 1.5 s: fps 103.4 fps");
    data::MetricValues many;
    many.name = "latency";
    for (const char* x : {"3", "1", "2"}) many.values.push_back(data::parse_number_token(x));
    r.metrics = {many};
    EXPECT_EQ(drivers::step_result_words(r, rf, "latency"), "ok 1.5 s: latency median 2 us of 3 values");
    r.metrics.clear();
    EXPECT_EQ(drivers::step_result_words(r, rf, "fps"), "ok 1.5 s");
    r.exit_class = data::ExitClass::fail;
    r.exit_reason = "exit 1";
    r.metrics = {v};
    EXPECT_EQ(drivers::step_result_words(r, rf, "fps"), "fail 1.5 s (exit 1)");
}

// ------------------------------------------------------------------ advice

TEST(AdviceVocabulary, DefaultNamesRunsOptionsAndCampaignTheGivenKnobs) {
    analysis::SampleDiagnostics d;
    d.n = 10;
    d.first_run_differs = true;
    d.drift.first_run.firsts = 1;
    d.drift.first_run.mean_firsts = 20;
    d.drift.first_run.mean_others = 10;
    d.drift.first_run.difference = 10;
    d.drift.first_run.relative_difference = 1;
    d.drift.first_run.p = 0.001;
    const auto first = [](const std::vector<std::string>& s) { return s.empty() ? std::string() : s[0]; };
    const std::string plain = first(cli::sample_findings("baseline", d, "ms", 0.95));
    EXPECT_NE(plain.find("(gfxstat run --warmup)"), std::string::npos) << plain;
    cli::AdviceVocabulary plan;
    plan.warmup = "the plan's warmup_runs";
    plan.cooldown = "the plan's cooldown_s";
    plan.more_boots = "the plan's boots_per_variant";
    plan.more_runs = "runs_per_boot";
    const std::string named = first(cli::sample_findings("baseline", d, "ms", 0.95, 5, nullptr, plan));
    EXPECT_NE(named.find("(the plan's warmup_runs)"), std::string::npos) << named;
    EXPECT_EQ(named.find("gfxstat run"), std::string::npos) << named;

    analysis::TwoSampleComparison c;
    c.clustering.known = true;
    c.clustering.by_boots = true;
    c.clustering.paired = true;
    c.clustering.boot_differences = {1, 2, 3};
    const std::string pairs = first(cli::comparison_findings("baseline", "candidate", c, "ms", 0.95));
    EXPECT_NE(pairs.find("More boots, not more runs, will narrow"), std::string::npos) << pairs;
    const std::string pairs_named = first(cli::comparison_findings("baseline", "candidate", c, "ms", 0.95, plan));
    EXPECT_NE(pairs_named.find("More boots (the plan's boots_per_variant), not more runs (runs_per_boot), will narrow"),
              std::string::npos)
        << pairs_named;
}

// ----------------------------------------------------------- design section

findings::CampaignDesignFacts design_facts() {
    findings::CampaignDesignFacts f;
    f.name = "drm|tip";
    f.runs_done = 1;
    f.runs_total = 1;
    f.boots_per_variant = 1;
    f.runs_per_boot = 1;
    f.warmup_runs = 1;
    f.reboot_variants = true;
    f.variants = {{"base|line", 1}, {"patched", 2}};
    f.failed_runs = 1;
    f.complete = true;
    f.simulated_note = "2 runs ran in 2 simulated boots";
    return f;
}

TEST(CampaignDesign, MarkdownIsHeadingListsAndATable) {
    const std::string md = printed([](FILE* out) { report::print_campaign_design(design_facts(), true, out); });
    std::vector<std::string> lines;
    for (size_t at = 0; at < md.size();) {
        const size_t nl = md.find('\n', at);
        lines.push_back(md.substr(at, nl - at));
        at = nl + 1;
    }
    ASSERT_GE(lines.size(), 8u) << md;
    EXPECT_EQ(lines[0], "## Campaign drm\\|tip");
    size_t table_rows = 0;
    for (const auto& l : lines) {
        // A heading, a list item, a table row or a blank line: nothing a
        // renderer would show as preformatted text (4 leading spaces).
        const bool ok = l.empty() || l.rfind("## ", 0) == 0 || l.rfind("- ", 0) == 0 || l.rfind("| ", 0) == 0;
        EXPECT_TRUE(ok) << "'" << l << "' in\n" << md;
        if (l.rfind("| ", 0) == 0) {
            ++table_rows;
            EXPECT_EQ(l.back(), '|') << l;
        }
    }
    EXPECT_EQ(table_rows, 4u) << md;  // header, rule, two variants
    EXPECT_NE(md.find("| base\\|line | 1 boot | one boot;"), std::string::npos) << md;
    EXPECT_NE(md.find("| patched | 2 boots |  |"), std::string::npos) << md;
    EXPECT_NE(md.find("- 1 of 1 run done; 1 boot per variant planned, 1 run + 1 warm-up per boot"), std::string::npos)
        << md;
    EXPECT_NE(md.find("- **note:** 2 runs ran in 2 simulated boots"), std::string::npos) << md;
    EXPECT_NE(md.find("0 failed deploys, 0 unexpected reboots, 0 interrupted runs re-run, 1 failed run"),
              std::string::npos)
        << md;
}

TEST(CampaignDesign, TextKeepsItsLinesWithPluralsRight) {
    const std::string text = printed([](FILE* out) { report::print_campaign_design(design_facts(), false, out); });
    // Wrapped to 72 columns: the layout on a line of its own.
    EXPECT_NE(text.find("campaign drm|tip: 1 of 1 run done; 1 boot per variant planned, 1 run + 1\n"
                        "  warm-up per boot;\n"
                        "  variants in separate boots"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("  base|line: measured in 1 boot (warning: one boot;"), std::string::npos) << text;
    EXPECT_NE(text.find("  patched: measured in 2 boots\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  note: 2 runs ran in 2 simulated boots"), std::string::npos) << text;
    findings::CampaignDesignFacts f = design_facts();
    f.simulated_note = std::string(30, 'x') + " " + std::string(30, 'y') + " " + std::string(30, 'z');
    const std::string wrapped = printed([&](FILE* out) { report::print_campaign_design(f, false, out); });
    EXPECT_NE(wrapped.find("  note: " + std::string(30, 'x') + " " + std::string(30, 'y') + "\n        " +
                           std::string(30, 'z') + "\n"),
              std::string::npos)
        << wrapped;
}

TEST(Plural, OneIsSingular) {
    EXPECT_EQ(text::plural(1, "boot"), "1 boot");
    EXPECT_EQ(text::plural(0, "boot"), "0 boots");
    EXPECT_EQ(text::plural(2, "boot slot"), "2 boot slots");
    EXPECT_EQ(text::plural(3, "warm-up"), "3 warm-ups");
    EXPECT_EQ(text::plural(2, "process", "processes"), "2 processes");
    EXPECT_EQ(text::plural(1, "process", "processes"), "1 process");
}

}  // namespace
}  // namespace gfxstat
