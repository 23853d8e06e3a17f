// SPDX-License-Identifier: MIT
// Campaigns without running anything: the plan (parsing, checking, the
// schedule and its plan.json round trip), the journal (append, read, torn
// last lines) and fold_campaign (plan + journal + results -> state).
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "data/input_error.h"
#include "data/results_model.h"
#include "drivers/campaign_journal.h"
#include "drivers/campaign_plan.h"
#include "drivers/campaign_state.h"

namespace gfxstat::drivers {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Strings = std::vector<std::string>;

// ------------------------------------------------------------ helpers

// The plan from the issue: a reboot baseline and a switchable candidate.
const char* const kIssuePlan = R"({
  "variants": [
    {"label": "baseline", "reboot": true, "before_reboot": ["grub-reboot", "kernel-a"],
     "expect": {"kernel_release": "6.12.0-a"}},
    {"label": "patched", "reboot": false, "env": {"LD_LIBRARY_PATH": "/opt/mesa-patched/lib"}}
  ],
  "workload": {"command": ["gem_exec_nop", "-r", "1"], "parser": "lines"},
  "runs_per_boot": 5, "boots_per_variant": 4, "warmup_runs": 1, "order": "abba", "seed": 1,
  "reboot_command": ["systemctl", "reboot"], "max_reboots": 40
})";

json issue_json() { return json::parse(kIssuePlan); }

CampaignPlan parse(const json& j) { return parse_campaign_plan(j.dump(), "plan.json"); }

// Two switchable variants A and B and a built-in workload; the rest default.
json switchable_json() {
    return json{{"variants", {{{"label", "A"}, {"reboot", false}}, {{"label", "B"}, {"reboot", false}}}},
                {"workload", {{"builtin", "wakeup-latency"}}}};
}

json reboot_variant(const std::string& label) {
    return {{"label", label}, {"reboot", true}, {"expect", {{"kernel_release", label + "-kernel"}}}};
}

// The message of the InputError `j` makes parse_campaign_plan throw.
std::string plan_error(const std::string& text) {
    try {
        parse_campaign_plan(text, "plan.json");
    } catch (const data::InputError& e) {
        return e.what();
    } catch (const std::exception& e) {
        return std::string("not an InputError: ") + e.what();
    }
    return "no error";
}
std::string plan_error(const json& j) { return plan_error(j.dump()); }

#define EXPECT_PLAN_ERROR(j, member, words)                                              \
    do {                                                                                 \
        const std::string msg_ = plan_error(j);                                          \
        EXPECT_EQ(msg_.rfind(std::string("plan.json: ") + (member) + ":", 0), 0u) << msg_; \
        EXPECT_NE(msg_.find(words), std::string::npos) << msg_;                          \
    } while (0)

// A slot's steps as "Aw Bw A B": the label, "w" for a warm-up.
std::string slot_text(const CampaignPlan& p, size_t slot) {
    std::string s;
    for (uint64_t k : p.slots.at(slot).steps) {
        if (!s.empty()) s += ' ';
        s += p.variants[p.steps[k].variant].label + (p.steps[k].warmup ? "w" : "");
    }
    return s;
}

// The slots' variants, one word per slot ("A+B" for a shared boot).
std::string slot_kinds(const CampaignPlan& p) {
    std::string s;
    for (const auto& slot : p.slots) {
        std::string k;
        for (size_t v : slot.variants) k += (k.empty() ? "" : "+") + p.variants[v].label;
        s += (s.empty() ? "" : " ") + k;
    }
    return s;
}

// What every schedule obeys, whatever the settings.
void expect_schedule_invariants(const CampaignPlan& p) {
    std::vector<int> seen(p.steps.size(), 0);
    for (size_t i = 0; i < p.slots.size(); ++i) {
        const CampaignSlot& slot = p.slots[i];
        EXPECT_EQ(slot.index, i);
        std::map<size_t, size_t> warm, measured;
        bool in_measured = false;
        for (uint64_t k : slot.steps) {
            ASSERT_LT(k, p.steps.size());
            ++seen[k];
            const CampaignStep& st = p.steps[k];
            EXPECT_EQ(st.step, k);
            EXPECT_EQ(st.slot, i) << "step " << k;
            EXPECT_NE(std::find(slot.variants.begin(), slot.variants.end(), st.variant), slot.variants.end());
            if (st.warmup) {
                EXPECT_FALSE(in_measured) << "a warm-up after a measured run in slot " << i;
                ++warm[st.variant];
            } else {
                in_measured = true;
                ++measured[st.variant];
            }
        }
        for (size_t v : slot.variants) {
            EXPECT_EQ(warm[v], p.warmup_runs) << "slot " << i;
            EXPECT_EQ(measured[v], p.runs_per_boot) << "slot " << i;
        }
        EXPECT_EQ(slot.deploy, slot.variants.size() == 1 && p.variants[slot.variants[0]].reboot);
    }
    for (size_t k = 0; k < seen.size(); ++k) EXPECT_EQ(seen[k], 1) << "step " << k;
}

struct TempDir {
    fs::path path;
    TempDir() {
        std::string t = (fs::temp_directory_path() / "gfxstat-campaign-XXXXXX").string();
        path = mkdtemp(t.data());
    }
    ~TempDir() { fs::remove_all(path); }
    std::string file(const std::string& name) const { return (path / name).string(); }
};

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void append_raw(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::app);
    out << bytes;
}

JournalEvent ev(const std::string& type, const std::string& boot = "", std::optional<uint64_t> step = {},
                std::optional<uint64_t> slot = {}) {
    JournalEvent e;
    e.type = type;
    e.boot = boot;
    e.step = step;
    e.slot = slot;
    e.time = "2026-01-01T00:00:00Z";
    e.t = 1000;
    return e;
}

JournalEvent done_ev(uint64_t step, const std::string& exit_class) {
    JournalEvent e = ev("done", "b1", step);
    e.exit_class = exit_class;
    return e;
}

JournalEvent resume_ev(const std::string& boot, std::optional<uint64_t> progress, double t = 1000) {
    JournalEvent e = ev("resume", boot);
    e.progress = progress;
    e.t = t;
    return e;
}

// A run of `plan`'s step k as `gfxstat campaign resume` records it.
void add_step_run(data::ResultsFile& rf, const CampaignPlan& plan, uint64_t k,
                  data::ExitClass exit = data::ExitClass::ok, const std::string& boot = "b1") {
    data::RunRecord r;
    r.variant = plan.variants[plan.steps[k].variant].label;
    r.run = rf.next_run_index(r.variant);
    r.warmup = plan.steps[k].warmup;
    r.boot = boot;
    r.exit_class = exit;
    r.campaign_step = k;
    ASSERT_EQ(rf.add_run(r), "");
}

void add_run(data::ResultsFile& rf, const std::string& variant, bool warmup, std::optional<uint64_t> step) {
    data::RunRecord r;
    r.variant = variant;
    r.run = rf.next_run_index(variant);
    r.warmup = warmup;
    r.campaign_step = step;
    ASSERT_EQ(rf.add_run(r), "");
}

size_t count_kind(const CampaignState& s, const std::string& kind) {
    return std::count_if(s.anomalies.begin(), s.anomalies.end(),
                         [&](const CampaignAnomaly& a) { return a.kind == kind; });
}

// A, B switchable; runs_per_boot 2, boots 2, warm-ups 1: 2 slots of 6 steps,
// slot 0 = Aw Bw A B B A (steps 0..5), slot 1 = Aw Bw B A A B (6..11).
CampaignPlan small_plan(bool reboot_first = true) {
    json j = switchable_json();
    j["runs_per_boot"] = 2;
    j["boots_per_variant"] = 2;
    j["warmup_runs"] = 1;
    j["reboot_first"] = reboot_first;
    return parse(j);
}

// ------------------------------------------------------------ plan parsing

TEST(CampaignPlan, IssueExampleParses) {
    const CampaignPlan p = parse_campaign_plan(kIssuePlan, "plan.json");
    ASSERT_EQ(p.variants.size(), 2u);
    const CampaignVariant& a = p.variants[0];
    EXPECT_EQ(a.label, "baseline");
    EXPECT_TRUE(a.reboot);
    EXPECT_EQ(a.before_reboot.argv, (Strings{"grub-reboot", "kernel-a"}));
    EXPECT_FALSE(a.before_reboot.shell);
    EXPECT_EQ(a.expect.kernel_release, "6.12.0-a");
    EXPECT_TRUE(a.expect.kernel_cmdline_contains.empty());
    EXPECT_TRUE(a.env.empty());
    const CampaignVariant& b = p.variants[1];
    EXPECT_EQ(b.label, "patched");
    EXPECT_FALSE(b.reboot);
    EXPECT_TRUE(b.before_reboot.empty());
    EXPECT_TRUE(b.expect.empty());
    EXPECT_EQ(b.env, (std::map<std::string, std::string>{{"LD_LIBRARY_PATH", "/opt/mesa-patched/lib"}}));
    EXPECT_EQ(p.workload.command, (Strings{"gem_exec_nop", "-r", "1"}));
    EXPECT_EQ(p.workload.parser, "lines");
    EXPECT_TRUE(p.workload.builtin.empty());
    EXPECT_EQ(p.runs_per_boot, 5u);
    EXPECT_EQ(p.boots_per_variant, 4u);
    EXPECT_EQ(p.warmup_runs, 1u);
    EXPECT_EQ(p.order, "abba");
    EXPECT_EQ(p.seed, 1u);
    EXPECT_EQ(p.reboot_command.argv, (Strings{"systemctl", "reboot"}));
    EXPECT_FALSE(p.reboot_command.shell);
    EXPECT_EQ(p.max_reboots, 40u);
    // A reboot kind and a switchable kind, 4 rounds, ABBA.
    EXPECT_EQ(slot_kinds(p), "baseline patched patched baseline baseline patched patched baseline");
    EXPECT_EQ(p.steps.size(), 2u * 4 * (5 + 1));
    EXPECT_EQ(p.measured_steps(), 2u * 4 * 5);
    EXPECT_EQ(p.planned_reboots(), 8u);
    expect_schedule_invariants(p);
}

TEST(CampaignPlan, DefaultsWhenMembersAreAbsent) {
    const CampaignPlan p = parse(switchable_json());
    EXPECT_EQ(p.name, "");
    EXPECT_EQ(p.reboot_command.argv, (Strings{"systemctl", "reboot"}));
    EXPECT_FALSE(p.reboot_command.shell);
    EXPECT_TRUE(p.reboot_first);
    EXPECT_EQ(p.runs_per_boot, 5u);
    EXPECT_EQ(p.boots_per_variant, 4u);
    EXPECT_EQ(p.warmup_runs, 1u);
    EXPECT_EQ(p.order, "abba");
    EXPECT_EQ(p.seed, 1u);
    EXPECT_EQ(p.timeout_s, 0.0);
    EXPECT_EQ(p.cooldown_s, 0.0);
    EXPECT_EQ(p.max_consecutive_failures, 3u);
    EXPECT_EQ(p.max_run_attempts, 3u);
    EXPECT_EQ(p.max_deploy_attempts, 3u);
    EXPECT_EQ(p.max_resumes_without_progress, 5u);
    EXPECT_EQ(p.workload.builtin, "wakeup-latency");
    // Switchable variants share their 4 boots; every slot starts with a reboot.
    EXPECT_EQ(p.slots.size(), 4u);
    EXPECT_EQ(p.planned_reboots(), 4u);
    EXPECT_EQ(p.max_reboots, 2u * 4 + 2);

    json j = switchable_json();
    j["reboot_first"] = false;
    const CampaignPlan q = parse(j);
    EXPECT_EQ(q.planned_reboots(), 3u);
    EXPECT_EQ(q.max_reboots, 2u * 3 + 2);
}

TEST(CampaignPlan, CommandsGivenAsStringsAreShellLines) {
    json j = issue_json();
    j["workload"]["command"] = "gem_exec_nop -r 1 | tail -n 1";
    j["variants"][0]["before_reboot"] = "grub-reboot 'kernel a'";
    j["variants"][1]["setup"] = "echo 3 > /proc/sys/vm/drop_caches";
    j["reboot_command"] = "sync; reboot";
    const CampaignPlan p = parse(j);
    EXPECT_EQ(p.workload.command, (Strings{"/bin/sh", "-c", "gem_exec_nop -r 1 | tail -n 1"}));
    EXPECT_TRUE(p.variants[0].before_reboot.shell);
    EXPECT_EQ(p.variants[0].before_reboot.argv, (Strings{"/bin/sh", "-c", "grub-reboot 'kernel a'"}));
    EXPECT_EQ(p.variants[0].before_reboot.text(), "grub-reboot 'kernel a'");
    EXPECT_TRUE(p.variants[1].setup.shell);
    EXPECT_EQ(p.variants[1].setup.argv, (Strings{"/bin/sh", "-c", "echo 3 > /proc/sys/vm/drop_caches"}));
    EXPECT_TRUE(p.reboot_command.shell);
    EXPECT_EQ(p.reboot_command.argv, (Strings{"/bin/sh", "-c", "sync; reboot"}));
    EXPECT_EQ((PlanCommand{{"grub-reboot", "kernel a"}, false}).text(), "grub-reboot 'kernel a'");
}

TEST(CampaignPlan, ErrorsNameTheFileAndTheMember) {
    json j = issue_json();
    j["boot_per_variant"] = 4;
    EXPECT_PLAN_ERROR(j, "boot_per_variant", "unknown member");

    j = issue_json();
    j["variants"][1]["colour"] = "red";
    EXPECT_PLAN_ERROR(j, "variants[1].colour", "unknown member");

    j = issue_json();
    j["variants"][0].erase("expect");
    EXPECT_PLAN_ERROR(j, "variants[0]", "expect");

    j = issue_json();
    j["variants"][1]["before_reboot"] = json::array({"grub-reboot", "x"});
    EXPECT_PLAN_ERROR(j, "variants[1].before_reboot", "reboot");

    j = issue_json();
    j["variants"][1]["label"] = "baseline";
    EXPECT_PLAN_ERROR(j, "variants[1].label", "used twice");

    j = issue_json();
    j["variants"].erase(1);
    EXPECT_PLAN_ERROR(j, "variants", "at least two");
    j.erase("variants");
    EXPECT_PLAN_ERROR(j, "variants", "at least two");

    j = issue_json();
    j["workload"]["builtin"] = "wakeup-latency";
    EXPECT_PLAN_ERROR(j, "workload", "either");

    j = switchable_json();
    j["workload"]["parser"] = "lines";
    EXPECT_PLAN_ERROR(j, "workload.parser", "built-in");

    j = switchable_json();
    j["workload"]["builtin"] = "wakeup-latencies";
    EXPECT_PLAN_ERROR(j, "workload.builtin", "expected one of");

    j = switchable_json();
    j["workload"]["size"] = 4096;
    EXPECT_PLAN_ERROR(j, "workload.size", "does not go with wakeup-latency");

    j = issue_json();
    j["variants"][1]["env"]["1BAD"] = "x";
    EXPECT_PLAN_ERROR(j, "variants[1].env.1BAD", "environment variable name");
    j = issue_json();
    j["variants"][1]["env"]["MESA-DEBUG"] = "x";
    EXPECT_PLAN_ERROR(j, "variants[1].env.MESA-DEBUG", "environment variable name");

    for (const char* member : {"runs_per_boot", "boots_per_variant", "warmup_runs", "max_run_attempts"}) {
        j = issue_json();
        j[member] = -1;
        EXPECT_PLAN_ERROR(j, member, "whole number");
        j[member] = 2.5;
        EXPECT_PLAN_ERROR(j, member, "whole number");
    }
    for (const char* member : {"runs_per_boot", "boots_per_variant", "max_deploy_attempts"}) {
        j = issue_json();
        j[member] = 0;
        EXPECT_PLAN_ERROR(j, member, "whole number from 1");
    }

    j = issue_json();
    j["order"] = "xyz";
    EXPECT_PLAN_ERROR(j, "order", "\"abba\" or \"random\"");

    j = issue_json();  // 8 slots, the first one a reboot too
    j["max_reboots"] = 7;
    EXPECT_PLAN_ERROR(j, "max_reboots", "fewer than the 8 reboots");
    j["max_reboots"] = 8;
    EXPECT_EQ(parse(j).max_reboots, 8u);

    j = issue_json();
    j["workload"]["command"] = json::array();
    EXPECT_PLAN_ERROR(j, "workload.command", "expected a command");
    j = issue_json();
    j["variants"][0]["before_reboot"] = json::array();
    EXPECT_PLAN_ERROR(j, "variants[0].before_reboot", "expected a command");
    j = issue_json();
    j["reboot_command"] = "";
    EXPECT_PLAN_ERROR(j, "reboot_command", "must not be empty");
}

TEST(CampaignPlan, InvalidJsonNamesTheLine) {
    const std::string text = "{\n  \"variants\": [],\n  \"workload\": {\"command\": [\"x\",]},\n  \"seed\": 1\n}\n";
    const std::string msg = plan_error(text);
    EXPECT_EQ(msg.rfind("plan.json:3: not valid JSON", 0), 0u) << msg;
    EXPECT_EQ(plan_error(std::string("[1, 2]")).rfind("plan.json: the plan:", 0), 0u);
}

// ------------------------------------------------------------ schedule

TEST(CampaignSchedule, TwoSwitchableVariantsAbba) {
    const CampaignPlan p = small_plan();
    ASSERT_EQ(p.slots.size(), 2u);
    // Warm-ups first, then rounds A B / B A; the second shared boot starts flipped.
    EXPECT_EQ(slot_text(p, 0), "Aw Bw A B B A");
    EXPECT_EQ(slot_text(p, 1), "Aw Bw B A A B");
    EXPECT_EQ(p.slots[0].steps, (std::vector<uint64_t>{0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(p.slots[1].steps, (std::vector<uint64_t>{6, 7, 8, 9, 10, 11}));
    EXPECT_FALSE(p.slots[0].deploy);
    EXPECT_FALSE(p.slots[1].deploy);
    EXPECT_EQ(p.slots[0].variants, (std::vector<size_t>{0, 1}));
    EXPECT_EQ(p.steps.size(), 12u);
    EXPECT_EQ(p.measured_steps(), 8u);
    expect_schedule_invariants(p);
}

TEST(CampaignSchedule, TwoRebootVariantsAbba) {
    json j = switchable_json();
    j["variants"] = {reboot_variant("A"), reboot_variant("B")};
    j["boots_per_variant"] = 4;
    j["runs_per_boot"] = 3;
    j["warmup_runs"] = 2;
    const CampaignPlan p = parse(j);
    EXPECT_EQ(slot_kinds(p), "A B B A A B B A");
    for (const auto& slot : p.slots) {
        EXPECT_TRUE(slot.deploy);
        EXPECT_EQ(slot.variants.size(), 1u);
        EXPECT_EQ(slot.steps.size(), 5u);
    }
    EXPECT_EQ(slot_text(p, 1), "Bw Bw B B B");
    EXPECT_EQ(p.steps.size(), 8u * 5);
    EXPECT_EQ(p.planned_reboots(), 8u);
    expect_schedule_invariants(p);
}

TEST(CampaignSchedule, MixedRebootAndSwitchable) {
    json j = switchable_json();
    j["variants"] = {reboot_variant("R"), {{"label", "S"}, {"reboot", false}}, {{"label", "T"}, {"reboot", false}}};
    j["boots_per_variant"] = 4;
    j["runs_per_boot"] = 2;
    j["warmup_runs"] = 1;
    const CampaignPlan p = parse(j);
    EXPECT_EQ(slot_kinds(p), "R S+T S+T R R S+T S+T R");
    EXPECT_EQ(slot_text(p, 0), "Rw R R");
    // The flip counts shared boots only: slots 1, 2, 5, 6 are shared boots 0..3.
    EXPECT_EQ(slot_text(p, 1), "Sw Tw S T T S");
    EXPECT_EQ(slot_text(p, 2), "Sw Tw T S S T");
    EXPECT_EQ(slot_text(p, 5), "Sw Tw S T T S");
    EXPECT_EQ(slot_text(p, 6), "Sw Tw T S S T");
    EXPECT_TRUE(p.slots[0].deploy);
    EXPECT_FALSE(p.slots[1].deploy);
    EXPECT_EQ(p.steps.size(), 4u * 3 + 4u * 6);
    expect_schedule_invariants(p);
}

TEST(CampaignSchedule, RandomOrderIsSeededAndBlocked) {
    json j = switchable_json();
    j["variants"] = {reboot_variant("R1"), reboot_variant("R2"), reboot_variant("R3"),
                     {{"label", "S"}, {"reboot", false}}, {{"label", "T"}, {"reboot", false}}};
    j["order"] = "random";
    j["boots_per_variant"] = 8;
    j["runs_per_boot"] = 6;
    j["seed"] = 7;
    const CampaignPlan p = parse(j), same = parse(j);
    std::vector<std::string> texts, same_texts;
    for (size_t i = 0; i < p.slots.size(); ++i) {
        texts.push_back(slot_text(p, i));
        same_texts.push_back(slot_text(same, i));
    }
    EXPECT_EQ(texts, same_texts);
    EXPECT_EQ(slot_kinds(p), slot_kinds(same));
    j["seed"] = 8;
    const CampaignPlan other = parse(j);
    std::vector<std::string> other_texts;
    for (size_t i = 0; i < other.slots.size(); ++i) other_texts.push_back(slot_text(other, i));
    EXPECT_NE(texts, other_texts);
    EXPECT_NE(slot_kinds(p), slot_kinds(other));

    for (const CampaignPlan* q : {&p, &other}) {
        expect_schedule_invariants(*q);
        ASSERT_EQ(q->slots.size(), 4u * 8);
        // Each round of 4 slots holds each kind once.
        for (size_t round = 0; round < 8; ++round) {
            std::set<std::vector<size_t>> kinds;
            for (size_t i = 0; i < 4; ++i) kinds.insert(q->slots[round * 4 + i].variants);
            EXPECT_EQ(kinds.size(), 4u) << "round " << round;
        }
        // In shared boots, each round of measured runs holds S and T once.
        for (const auto& slot : q->slots) {
            if (slot.variants.size() != 2) continue;
            std::vector<size_t> measured;
            for (uint64_t k : slot.steps)
                if (!q->steps[k].warmup) measured.push_back(q->steps[k].variant);
            ASSERT_EQ(measured.size(), 12u);
            for (size_t r = 0; r < measured.size(); r += 2) EXPECT_NE(measured[r], measured[r + 1]);
        }
    }
}

// ------------------------------------------------------------ plan.json round trip

void expect_same_plan(const CampaignPlan& a, const CampaignPlan& b) {
    EXPECT_EQ(a.name, b.name);
    ASSERT_EQ(a.variants.size(), b.variants.size());
    for (size_t i = 0; i < a.variants.size(); ++i) {
        const auto &x = a.variants[i], &y = b.variants[i];
        EXPECT_EQ(x.label, y.label);
        EXPECT_EQ(x.reboot, y.reboot);
        EXPECT_EQ(x.before_reboot.argv, y.before_reboot.argv);
        EXPECT_EQ(x.before_reboot.shell, y.before_reboot.shell);
        EXPECT_EQ(x.expect.kernel_release, y.expect.kernel_release);
        EXPECT_EQ(x.expect.kernel_cmdline_contains, y.expect.kernel_cmdline_contains);
        EXPECT_EQ(x.expect.command.argv, y.expect.command.argv);
        EXPECT_EQ(x.expect.command.shell, y.expect.command.shell);
        EXPECT_EQ(x.env, y.env);
        EXPECT_EQ(x.setup.argv, y.setup.argv);
        EXPECT_EQ(x.setup.shell, y.setup.shell);
        EXPECT_EQ(x.tags, y.tags);
    }
    const auto &w = a.workload, &v = b.workload;
    EXPECT_EQ(w.command, v.command);
    EXPECT_EQ(w.parser, v.parser);
    EXPECT_EQ(w.metrics, v.metrics);
    EXPECT_EQ(w.metric_name, v.metric_name);
    EXPECT_EQ(w.unit, v.unit);
    EXPECT_EQ(w.direction, v.direction);
    EXPECT_EQ(w.builtin, v.builtin);
    EXPECT_EQ(w.device, v.device);
    EXPECT_EQ(w.load, v.load);
    EXPECT_EQ(w.duration, v.duration);
    EXPECT_EQ(w.iterations, v.iterations);
    EXPECT_EQ(w.size, v.size);
    EXPECT_EQ(w.burst, v.burst);
    EXPECT_EQ(a.timeout_s, b.timeout_s);
    EXPECT_EQ(a.cooldown_s, b.cooldown_s);
    EXPECT_EQ(a.runs_per_boot, b.runs_per_boot);
    EXPECT_EQ(a.boots_per_variant, b.boots_per_variant);
    EXPECT_EQ(a.warmup_runs, b.warmup_runs);
    EXPECT_EQ(a.order, b.order);
    EXPECT_EQ(a.seed, b.seed);
    EXPECT_EQ(a.reboot_command.argv, b.reboot_command.argv);
    EXPECT_EQ(a.reboot_command.shell, b.reboot_command.shell);
    EXPECT_EQ(a.reboot_first, b.reboot_first);
    EXPECT_EQ(a.max_reboots, b.max_reboots);
    EXPECT_EQ(a.max_consecutive_failures, b.max_consecutive_failures);
    EXPECT_EQ(a.max_run_attempts, b.max_run_attempts);
    EXPECT_EQ(a.max_deploy_attempts, b.max_deploy_attempts);
    EXPECT_EQ(a.max_resumes_without_progress, b.max_resumes_without_progress);
    ASSERT_EQ(a.slots.size(), b.slots.size());
    for (size_t i = 0; i < a.slots.size(); ++i) {
        EXPECT_EQ(a.slots[i].index, b.slots[i].index);
        EXPECT_EQ(a.slots[i].variants, b.slots[i].variants);
        EXPECT_EQ(a.slots[i].deploy, b.slots[i].deploy);
        EXPECT_EQ(a.slots[i].steps, b.slots[i].steps);
    }
    ASSERT_EQ(a.steps.size(), b.steps.size());
    for (size_t k = 0; k < a.steps.size(); ++k) {
        EXPECT_EQ(a.steps[k].step, b.steps[k].step);
        EXPECT_EQ(a.steps[k].slot, b.steps[k].slot);
        EXPECT_EQ(a.steps[k].variant, b.steps[k].variant);
        EXPECT_EQ(a.steps[k].warmup, b.steps[k].warmup);
    }
}

TEST(CampaignPlanJson, RoundTripKeepsScheduleAndSettings) {
    json rich = issue_json();
    rich["name"] = "exec-nop";
    rich["variants"].push_back({{"label", "cmdline"}, {"reboot", true},
                                {"expect", {{"kernel_cmdline_contains", "i915.enable_guc=3"},
                                            {"command", "test -e /sys/module/i915"}}},
                                {"tags", {{"mesa", "abc123"}}}});
    rich["variants"][1]["setup"] = "echo 1 > /tmp/x";
    rich["workload"] = {{"command", {"gem_exec_nop"}},
                        {"metrics", {{"rate", "([0-9.]+) ops/s"}}},
                        {"metric_name", "rate"}, {"unit", "ops/s"}, {"direction", "higher"}};
    rich["timeout_s"] = 12.5;
    rich["cooldown_s"] = 0.25;
    rich["order"] = "random";
    rich["seed"] = 18446744073709551615ull;
    rich["reboot_first"] = false;
    rich["max_reboots"] = 100;
    rich["max_consecutive_failures"] = 9;
    rich["max_run_attempts"] = 4;
    rich["max_deploy_attempts"] = 2;
    rich["max_resumes_without_progress"] = 7;
    json builtin = switchable_json();
    builtin["workload"] = {{"builtin", "drm-gem"}, {"device", "/dev/dri/card1"}, {"iterations", 500},
                           {"size", 65536}};
    json exec_nop = switchable_json();
    exec_nop["workload"] = {{"builtin", "i915-exec-nop"}, {"duration", 0.5}, {"burst", 16}};

    for (const json& j : {issue_json(), rich, builtin, exec_nop, switchable_json()}) {
        const CampaignPlan p = parse(j);
        const std::string text = campaign_plan_json(p);
        const CampaignPlan q = parse_campaign_plan(text, "dir/plan.json");
        expect_same_plan(p, q);
        EXPECT_EQ(campaign_plan_json(q), text);
        EXPECT_TRUE(json::parse(text).contains("schedule"));
    }
    const CampaignPlan p = parse(rich);
    EXPECT_EQ(p.seed, 18446744073709551615ull);
    EXPECT_EQ(p.workload.direction, data::Direction::higher_is_better);
    EXPECT_TRUE(p.variants[2].expect.command.shell);
}

TEST(CampaignPlanJson, EditedScheduleIsRejected) {
    const std::string text = campaign_plan_json(small_plan());
    json j = json::parse(text);
    ASSERT_EQ(j["schedule"][0]["steps"][2]["variant"], "A");
    j["schedule"][0]["steps"][2]["variant"] = "B";
    EXPECT_PLAN_ERROR(j, "schedule", "does not match");

    j = json::parse(text);
    j["schedule"][1]["steps"].erase(5);
    EXPECT_PLAN_ERROR(j, "schedule", "does not match");

    j = json::parse(text);  // settings changed, schedule kept
    j["runs_per_boot"] = 3;
    EXPECT_PLAN_ERROR(j, "schedule", "does not match");

    j = json::parse(text);
    j["schedule"][0]["steps"][0]["warmup"] = false;
    EXPECT_PLAN_ERROR(j, "schedule", "does not match");
}

// ------------------------------------------------------------ journal

TEST(CampaignJournal, AppendAndReadBackEveryField) {
    TempDir dir;
    const std::string path = dir.file("journal.jsonl");
    JournalEvent full;
    full.type = "intent";
    full.time = "2026-02-03T04:05:06Z";
    full.t = 1770000000.125;
    full.boot = "0b6c1d7e-boot";
    full.step = 7;
    full.slot = 2;
    full.attempt = 3;
    full.progress = 18446744073709551615ull;
    full.pid = 4242;
    full.kernel = "6.12.0-a";
    full.exit_class = "timeout";
    full.detail = "a \"quoted\" reason\nwith a newline\tand a tab";
    JournalEvent bare;
    bare.type = "resume";
    {
        JournalWriter w(path);
        w.append(full);
        w.append(bare);
    }
    const std::string text = slurp(path);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
    EXPECT_EQ(text.back(), '\n');
    bool torn = true;
    uint64_t end = 0;
    const auto events = read_journal(path, 0, &torn, &end);
    EXPECT_FALSE(torn);
    EXPECT_EQ(end, text.size());
    ASSERT_EQ(events.size(), 2u);
    const JournalEvent& e = events[0];
    EXPECT_EQ(e.type, full.type);
    EXPECT_EQ(e.time, full.time);
    EXPECT_EQ(e.t, full.t);
    EXPECT_EQ(e.boot, full.boot);
    EXPECT_EQ(e.step, full.step);
    EXPECT_EQ(e.slot, full.slot);
    EXPECT_EQ(e.attempt, full.attempt);
    EXPECT_EQ(e.progress, full.progress);
    EXPECT_EQ(e.pid, full.pid);
    EXPECT_EQ(e.kernel, full.kernel);
    EXPECT_EQ(e.exit_class, full.exit_class);
    EXPECT_EQ(e.detail, full.detail);
    // Time and t filled in when unset; absent members stay absent.
    const JournalEvent& r = events[1];
    EXPECT_EQ(r.type, "resume");
    EXPECT_EQ(r.time.size(), 27u) << r.time;  // 2026-01-01T00:00:00.000000Z
    EXPECT_EQ(r.time.back(), 'Z');
    EXPECT_EQ(r.time[10], 'T');
    EXPECT_GT(r.t, 1.7e9);
    EXPECT_FALSE(r.step || r.slot || r.attempt || r.progress || r.pid);
    EXPECT_TRUE(r.boot.empty() && r.detail.empty());
}

TEST(CampaignJournal, TornLastLineIsSkippedThenCut) {
    TempDir dir;
    const std::string path = dir.file("journal.jsonl");
    {
        JournalWriter w(path);
        w.append(ev("init", "b0"));
        w.append(ev("resume", "b0"));
    }
    const std::string whole = slurp(path);
    append_raw(path, R"({"type":"intent","boot":"b0","st)");
    bool torn = false;
    uint64_t end = 0;
    auto events = read_journal(path, 0, &torn, &end);
    EXPECT_TRUE(torn);
    EXPECT_EQ(end, whole.size());
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[1].type, "resume");
    {
        JournalWriter w(path);
        w.append(ev("stop", "b0"));
    }
    const std::string after = slurp(path);
    EXPECT_EQ(after.substr(0, whole.size()), whole);
    EXPECT_EQ(after.find("intent"), std::string::npos);
    EXPECT_EQ(std::count(after.begin(), after.end(), '\n'), 3);
    events = read_journal(path, 0, &torn);
    EXPECT_FALSE(torn);
    ASSERT_EQ(events.size(), 3u);
    EXPECT_EQ(events[2].type, "stop");

    // A torn tail longer than the writer's read buffer, and a file that is
    // nothing but a torn line.
    append_raw(path, "{\"type\":\"done\",\"detail\":\"" + std::string(10000, 'x'));
    JournalWriter(path).append(ev("continue"));
    EXPECT_EQ(slurp(path), after + journal_line(ev("continue")));
    const std::string only = dir.file("only-torn.jsonl");
    append_raw(only, std::string(5000, 'y'));
    EXPECT_TRUE(read_journal(only, 0, &torn).empty());
    EXPECT_TRUE(torn);
    JournalWriter(only).append(ev("init", "b9"));
    EXPECT_EQ(slurp(only), journal_line(ev("init", "b9")));
}

TEST(CampaignJournal, BadLineInTheMiddleNamesTheLine) {
    TempDir dir;
    const std::string path = dir.file("journal.jsonl");
    append_raw(path, journal_line(ev("init", "b0")) + journal_line(ev("resume", "b0")) + "{\"type\": oops}\n" +
                         journal_line(ev("stop")));
    try {
        read_journal(path);
        FAIL() << "no error";
    } catch (const data::InputError& e) {
        EXPECT_EQ(std::string(e.what()).rfind(path + ":3: not a journal event", 0), 0u) << e.what();
    }
    // Counted from the start of the file, also when reading from an offset.
    const uint64_t first = journal_line(ev("init", "b0")).size();
    try {
        read_journal(path, first);
        FAIL() << "no error";
    } catch (const data::InputError& e) {
        EXPECT_EQ(std::string(e.what()).rfind(path + ":3:", 0), 0u) << e.what();
    }
    const std::string other = dir.file("no-type.jsonl");
    append_raw(other, journal_line(ev("init")) + "{\"t\": 1}\n" + journal_line(ev("stop")));
    EXPECT_THROW(read_journal(other), data::InputError);
    const std::string wrong = dir.file("wrong-type.jsonl");
    append_raw(wrong, "{\"type\":\"intent\",\"step\":\"seven\"}\n" + journal_line(ev("stop")));
    try {
        read_journal(wrong);
        FAIL() << "no error";
    } catch (const data::InputError& e) {
        EXPECT_EQ(std::string(e.what()).rfind(wrong + ":1:", 0), 0u) << e.what();
    }
}

TEST(CampaignJournal, ReadFromAnOffsetReturnsOnlyLaterEvents) {
    TempDir dir;
    const std::string path = dir.file("journal.jsonl");
    JournalWriter w(path);
    w.append(ev("init", "b0"));
    w.append(ev("resume", "b0"));
    uint64_t end = 0;
    EXPECT_EQ(read_journal(path, 0, nullptr, &end).size(), 2u);
    EXPECT_EQ(end, slurp(path).size());
    w.append(ev("intent", "b0", 4));
    w.append(ev("done", "b0", 4));
    uint64_t end2 = 0;
    const auto later = read_journal(path, end, nullptr, &end2);
    ASSERT_EQ(later.size(), 2u);
    EXPECT_EQ(later[0].type, "intent");
    EXPECT_EQ(later[0].step, 4u);
    EXPECT_EQ(later[1].type, "done");
    EXPECT_EQ(end2, slurp(path).size());
    EXPECT_TRUE(read_journal(path, end2).empty());
}

TEST(CampaignJournal, InvalidUtf8InDetailDoesNotThrow) {
    TempDir dir;
    const std::string path = dir.file("journal.jsonl");
    JournalEvent e = ev("halt", "b0");
    e.detail = "setup said \xff\xfe\xc3 and stopped";
    EXPECT_NO_THROW(journal_line(e));
    JournalWriter w(path);
    EXPECT_NO_THROW(w.append(e));
    std::vector<JournalEvent> events;
    EXPECT_NO_THROW(events = read_journal(path));
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].detail.rfind("setup said ", 0), 0u);
    EXPECT_NE(events[0].detail.find(" and stopped"), std::string::npos);
    EXPECT_EQ(events[0].detail.find('\xff'), std::string::npos);
}

TEST(CampaignJournal, TwoWritersKeepLinesWhole) {
    TempDir dir;
    const std::string path = dir.file("journal.jsonl");
    const auto writer = [&](const std::string& boot) {
        JournalWriter w(path);
        for (uint64_t i = 0; i < 60; ++i) {
            JournalEvent e = ev("intent", boot, i);
            e.detail = std::string(300, boot[0]);
            w.append(e);
        }
    };
    std::thread a(writer, "a"), b(writer, "b");
    a.join();
    b.join();
    bool torn = true;
    const auto events = read_journal(path, 0, &torn);
    EXPECT_FALSE(torn);
    ASSERT_EQ(events.size(), 120u);
    std::map<std::string, uint64_t> next;
    for (const auto& e : events) {
        EXPECT_EQ(e.detail, std::string(300, e.boot[0]));
        EXPECT_EQ(e.step, next[e.boot]++);
    }
}

// ------------------------------------------------------------ fold_campaign

TEST(CampaignFold, DoneComesFromResultsNotFromDoneEvents) {
    const CampaignPlan p = small_plan();  // slot 0: 0 Aw, 1 Bw, 2 A, 3 B, 4 B, 5 A
    data::ResultsFile rf;
    add_step_run(rf, p, 0);
    add_step_run(rf, p, 2);
    add_step_run(rf, p, 3, data::ExitClass::fail);
    add_run(rf, "A", false, std::nullopt);  // a plain run, not the campaign's
    const std::vector<JournalEvent> journal{done_ev(0, "ok"), done_ev(1, "ok"), done_ev(4, "ok")};
    const CampaignState s = fold_campaign(p, journal, rf);
    EXPECT_EQ(s.done, (std::vector<bool>{true, false, true, true, false, false, false, false, false, false, false,
                                         false}));
    EXPECT_EQ(s.done_count, 3u);
    EXPECT_EQ(s.measured_done, 1u);  // step 3 failed: done, but no value to analyse
    const std::vector<MeasuredTally> by = measured_by_variant(p, s);
    ASSERT_EQ(by.size(), 2u);
    EXPECT_EQ(by[0].ok + by[1].ok, 1u);
    EXPECT_EQ(by[0].failed + by[1].failed, 1u);
    EXPECT_EQ(by[0].given_up + by[1].given_up, 0u);
    EXPECT_EQ(s.outcome[2], data::ExitClass::ok);
    EXPECT_EQ(s.outcome[3], data::ExitClass::fail);
    EXPECT_FALSE(s.outcome[1].has_value());
    EXPECT_TRUE(s.anomalies.empty());
    EXPECT_FALSE(s.complete());
    EXPECT_EQ(s.progress(), 3u);
}

TEST(CampaignFold, MismatchedAndDuplicateRunsAreForeign) {
    const CampaignPlan p = small_plan();
    data::ResultsFile rf;
    add_run(rf, "B", false, 2);    // step 2 is A's
    add_run(rf, "A", false, 0);    // step 0 is A's warm-up
    add_run(rf, "A", false, 999);  // no such step
    add_step_run(rf, p, 5);
    add_step_run(rf, p, 5);        // a second run for step 5
    const CampaignState s = fold_campaign(p, {}, rf);
    EXPECT_FALSE(s.done[2]);
    EXPECT_FALSE(s.done[0]);
    EXPECT_TRUE(s.done[5]);
    EXPECT_EQ(s.done_count, 1u);
    EXPECT_EQ(s.measured_done, 1u);
    ASSERT_EQ(count_kind(s, "foreign_run"), 4u);
    EXPECT_EQ(s.anomalies.size(), 4u);
    EXPECT_EQ(s.anomalies[0].step, 2u);
    EXPECT_EQ(s.anomalies[2].step, 999u);
    EXPECT_EQ(s.anomalies[3].step, 5u);
    EXPECT_NE(s.anomalies[3].detail.find("second run"), std::string::npos) << s.anomalies[3].detail;
}

TEST(CampaignFold, AttemptsAndInterruptedRuns) {
    const CampaignPlan p = small_plan();
    data::ResultsFile rf;
    add_step_run(rf, p, 2, data::ExitClass::ok, "b3");
    add_step_run(rf, p, 4);
    add_step_run(rf, p, 5);  // done without an intent: no anomaly
    const std::vector<JournalEvent> journal{ev("intent", "b1", 2), ev("intent", "b2", 2), ev("intent", "b3", 2),
                                            ev("intent", "b3", 3), ev("intent", "b3", 4),
                                            ev("intent", "b3", 999)};
    const CampaignState s = fold_campaign(p, journal, rf);
    EXPECT_EQ(s.attempts[2], 3u);
    EXPECT_EQ(s.attempts[3], 1u);
    EXPECT_EQ(s.attempts[4], 1u);
    EXPECT_EQ(s.attempts[5], 0u);
    EXPECT_EQ(s.last_attempt_boot[2], "b3");
    ASSERT_EQ(count_kind(s, "interrupted_run"), 2u);
    std::map<uint64_t, CampaignAnomaly> by_step;
    for (const auto& a : s.anomalies) by_step[*a.step] = a;
    EXPECT_EQ(by_step[2].detail.rfind("2 attempts interrupted", 0), 0u) << by_step[2].detail;
    EXPECT_EQ(by_step[2].slot, 0u);
    EXPECT_EQ(by_step[2].boot, "b3");
    EXPECT_EQ(by_step[3].detail.rfind("1 attempt interrupted", 0), 0u) << by_step[3].detail;
    EXPECT_EQ(by_step.count(4), 0u);
}

TEST(CampaignFold, InitBootIsUsedWhenTheFirstSlotReboots) {
    JournalEvent init = ev("init", "b0");
    init.t = 1234;
    const CampaignState s = fold_campaign(small_plan(true), {init}, {});
    EXPECT_EQ(s.init_boot, "b0");
    EXPECT_EQ(s.init_time, init.time);
    EXPECT_EQ(s.init_t, 1234);
    EXPECT_EQ(s.used_boots, (std::set<std::string>{"b0"}));
    EXPECT_EQ(s.progress(), 1u);
    const CampaignState t = fold_campaign(small_plan(false), {init}, {});
    EXPECT_EQ(t.init_boot, "b0");
    EXPECT_TRUE(t.used_boots.empty());
    EXPECT_EQ(t.progress(), 0u);
}

TEST(CampaignFold, BootEventsBindSlotsAndDeployFailuresCount) {
    json j = switchable_json();
    j["variants"] = {reboot_variant("A"), reboot_variant("B")};
    j["boots_per_variant"] = 2;
    const CampaignPlan p = parse(j);  // slots A B B A
    const std::vector<JournalEvent> journal{
        ev("init", "b0"), ev("deploy_failed", "b1", {}, 0), ev("deploy_failed", "b2", {}, 0),
        ev("boot", "b3", {}, 0), ev("boot", "b4", {}, 1), ev("boot", "b5", {}, 1), ev("boot", "b6", {}, 99),
        ev("deploy_failed", "b7", {}, 99)};
    const CampaignState s = fold_campaign(p, journal, {});
    EXPECT_EQ(s.deploy_failures, (std::vector<size_t>{2, 0, 0, 0}));
    EXPECT_EQ(s.slot_boots[0], (Strings{"b3"}));
    EXPECT_EQ(s.slot_boots[1], (Strings{"b4", "b5"}));
    EXPECT_TRUE(s.slot_boots[2].empty());
    EXPECT_EQ(s.used_boots, (std::set<std::string>{"b0", "b1", "b2", "b3", "b4", "b5"}));
    EXPECT_EQ(count_kind(s, "deploy_failed"), 2u);
    EXPECT_EQ(s.anomalies[0].slot, 0u);
    EXPECT_EQ(s.anomalies[0].boot, "b1");
    EXPECT_EQ(s.current_slot(p), 0u);
}

TEST(CampaignFold, HaltStopAndContinue) {
    const CampaignPlan p = small_plan();
    JournalEvent halt = ev("halt", "b1");
    halt.detail = "3 runs failed in a row";
    JournalEvent stop = ev("stop", "b1");
    stop.time = "2026-01-02T00:00:00Z";
    std::vector<JournalEvent> journal{ev("init", "b0"), resume_ev("b0", 1), done_ev(2, "fail"), done_ev(3, "crash"),
                                      halt, stop};
    CampaignState s = fold_campaign(p, journal, {});
    EXPECT_TRUE(s.halted);
    EXPECT_EQ(s.halt_reason, "3 runs failed in a row");
    EXPECT_TRUE(s.stopped);
    EXPECT_EQ(s.stop_time, "2026-01-02T00:00:00Z");
    EXPECT_EQ(s.consecutive_failures, 2u);
    EXPECT_EQ(s.resumes_at(s.progress()), 1u);
    EXPECT_EQ(count_kind(s, "halt"), 1u);
    EXPECT_EQ(count_kind(s, "failed_run"), 2u);

    journal.push_back(ev("continue", "b1"));
    s = fold_campaign(p, journal, {});
    EXPECT_FALSE(s.halted);
    EXPECT_FALSE(s.stopped);
    EXPECT_EQ(s.halt_reason, "");
    EXPECT_EQ(s.consecutive_failures, 0u);
    EXPECT_EQ(s.resumes_at(s.progress()), 0u);
    EXPECT_EQ(count_kind(s, "halt"), 1u);  // the history stays

    journal.push_back(resume_ev("b1", 1));
    journal.push_back(done_ev(4, "timeout"));
    journal.push_back(halt);
    s = fold_campaign(p, journal, {});
    EXPECT_TRUE(s.halted);
    EXPECT_FALSE(s.stopped);
    EXPECT_EQ(s.consecutive_failures, 1u);
    EXPECT_EQ(s.resumes_at(s.progress()), 1u);
}

TEST(CampaignFold, ConsecutiveFailuresAndFailedRuns) {
    const CampaignPlan p = small_plan();
    std::vector<JournalEvent> journal{done_ev(0, "fail"), done_ev(2, "timeout"), done_ev(3, "skip")};
    CampaignState s = fold_campaign(p, journal, {});
    EXPECT_EQ(s.consecutive_failures, 3u);
    // Step 0 is a warm-up: its failure counts in a row but is no failed_run.
    EXPECT_EQ(count_kind(s, "failed_run"), 2u);
    JournalEvent detailed = done_ev(4, "fail");
    detailed.detail = "exit status 1";
    journal.push_back(done_ev(5, "ok"));
    journal.push_back(detailed);
    s = fold_campaign(p, journal, {});
    EXPECT_EQ(s.consecutive_failures, 1u);
    ASSERT_EQ(count_kind(s, "failed_run"), 3u);
    EXPECT_EQ(s.anomalies.back().detail, "fail: exit status 1");
    EXPECT_EQ(s.anomalies.back().step, 4u);
}

TEST(CampaignFold, ResumesHereCountsResumesAtTheCurrentProgress) {
    const CampaignPlan p = small_plan();
    data::ResultsFile rf;
    add_step_run(rf, p, 0);
    // progress = 1 run done + boots {b0 (init), b1 (slot 0)} = 3
    const std::vector<JournalEvent> journal{ev("init", "b0"),          ev("boot", "b1", {}, 0), resume_ev("b1", 2),
                                            resume_ev("b1", 3),        resume_ev("b1", 3),      resume_ev("b1", {}),
                                            resume_ev("b1", 3),        resume_ev("b1", 4)};
    const CampaignState s = fold_campaign(p, journal, rf);
    EXPECT_EQ(s.progress(), 3u);
    EXPECT_EQ(s.resumes_at(s.progress()), 3u);
}

TEST(CampaignFold, RebootSecondsFromRebootToResumeInANewBoot) {
    const CampaignPlan p = small_plan();
    JournalEvent reboot = ev("reboot", "b1", {}, 1);
    reboot.t = 100;
    JournalEvent reboot2 = ev("reboot", "b2", {}, 1);
    reboot2.t = 200;
    std::vector<JournalEvent> journal{reboot, resume_ev("b1", 0, 105), resume_ev("b2", 0, 160)};
    CampaignState s = fold_campaign(p, journal, {});
    EXPECT_EQ(s.reboot_seconds, (std::vector<double>{60}));
    EXPECT_EQ(s.waiting_boot, "");
    journal.push_back(reboot2);
    s = fold_campaign(p, journal, {});
    EXPECT_EQ(s.reboot_seconds, (std::vector<double>{60}));
    EXPECT_EQ(s.waiting_boot, "b2");
    EXPECT_EQ(s.reboots, 2u);
    EXPECT_EQ(s.reboots_into, (std::vector<size_t>{0, 2}));
    journal.push_back(resume_ev("b3", 0, 290.5));
    s = fold_campaign(p, journal, {});
    EXPECT_EQ(s.reboot_seconds, (std::vector<double>{60, 90.5}));
    EXPECT_EQ(s.waiting_boot, "");
}

TEST(CampaignFold, OtherEventsBecomeAnomalies) {
    const CampaignPlan p = small_plan();
    JournalEvent unexpected = ev("unexpected_reboot", "b2", {}, 0);
    unexpected.detail = "b1 went away during step 3";
    const CampaignState s = fold_campaign(
        p, {unexpected, ev("reboot_failed", "b2"), ev("given_up", "b2", 3), ev("complete", "b2")}, {});
    ASSERT_EQ(s.anomalies.size(), 3u);
    EXPECT_EQ(s.anomalies[0].kind, "unexpected_reboot");
    EXPECT_EQ(s.anomalies[0].detail, "b1 went away during step 3");
    EXPECT_EQ(s.anomalies[0].slot, 0u);
    EXPECT_EQ(s.anomalies[1].kind, "reboot_failed");
    EXPECT_EQ(s.anomalies[2].kind, "given_up");
    EXPECT_EQ(s.anomalies[2].step, 3u);
    EXPECT_TRUE(s.complete_logged);
    EXPECT_FALSE(s.complete());  // the journal's word is not the results'
}

// A step given up after max_run_attempts is recorded as a failed run: done,
// never run again, and not measured (summary finds no value for it).
TEST(CampaignFold, GivenUpStepsAreDoneButNotMeasured) {
    const CampaignPlan p = small_plan();  // slot 0: 0 Aw, 1 Bw, 2 A, 3 B, 4 B, 5 A
    data::ResultsFile rf;
    add_step_run(rf, p, 2);
    add_step_run(rf, p, 3, data::ExitClass::fail);  // given up (the journal says)
    add_step_run(rf, p, 4, data::ExitClass::timeout);
    add_step_run(rf, p, 5);
    const CampaignState s = fold_campaign(p, {ev("given_up", "b1", 3)}, rf);
    EXPECT_EQ(s.done_count, 4u);
    EXPECT_EQ(s.measured_done, 2u);
    EXPECT_TRUE(s.given_up[3]);
    EXPECT_FALSE(s.given_up[4]);
    const std::vector<MeasuredTally> by = measured_by_variant(p, s);
    ASSERT_EQ(by.size(), 2u);
    const size_t a = p.variants[0].label == "A" ? 0 : 1, b = 1 - a;
    EXPECT_EQ(by[a].ok, 2u);
    EXPECT_EQ(by[b].ok, 0u);
    EXPECT_EQ(by[b].given_up, 1u);
    EXPECT_EQ(by[b].failed, 1u);
    EXPECT_EQ(by[a].total + by[b].total, p.measured_steps());
}

TEST(CampaignFold, CurrentSlotAndComplete) {
    const CampaignPlan p = small_plan();
    data::ResultsFile rf;
    EXPECT_EQ(fold_campaign(p, {}, rf).current_slot(p), 0u);
    for (uint64_t k = 6; k < 12; ++k) add_step_run(rf, p, k);  // slot 1 done first
    EXPECT_EQ(fold_campaign(p, {}, rf).current_slot(p), 0u);
    for (uint64_t k = 0; k < 5; ++k) add_step_run(rf, p, k);
    CampaignState s = fold_campaign(p, {}, rf);
    EXPECT_EQ(s.current_slot(p), 0u);
    EXPECT_FALSE(s.complete());
    add_step_run(rf, p, 5, data::ExitClass::fail);  // a failed run is done too
    s = fold_campaign(p, {}, rf);
    EXPECT_FALSE(s.current_slot(p).has_value());
    EXPECT_TRUE(s.complete());
    EXPECT_EQ(s.done_count, 12u);
    EXPECT_EQ(s.measured_done, 7u);  // step 5 failed

    data::ResultsFile half;
    for (uint64_t k = 0; k < 6; ++k) add_step_run(half, p, k);
    EXPECT_EQ(fold_campaign(p, {}, half).current_slot(p), 1u);
}

// ------------------------------------------------------------ review fixes

// With three or four switchable variants, "abba" is a Williams design: over
// a full cycle of rounds every variant comes first equally often and every
// ordered pair is adjacent equally often (ABC/CBA alone would keep B in
// the middle for ever).
TEST(CampaignSchedule, ManyVariantsAreCarryOverBalanced) {
    for (size_t n : {3u, 4u}) {
        json j = switchable_json();
        j["variants"] = json::array();
        for (size_t v = 0; v < n; ++v) j["variants"].push_back({{"label", std::string(1, char('A' + v))}, {"reboot", false}});
        const size_t cycle = n % 2 ? 2 * n : n;
        j["runs_per_boot"] = cycle;
        j["boots_per_variant"] = 1;
        j["warmup_runs"] = 0;
        const CampaignPlan p = parse(j);
        ASSERT_EQ(p.steps.size(), n * cycle);
        std::map<size_t, size_t> first;
        std::map<std::pair<size_t, size_t>, size_t> follows;
        for (size_t r = 0; r < cycle; ++r) {
            std::set<size_t> seen;
            for (size_t i = 0; i < n; ++i) {
                const size_t v = p.steps[r * n + i].variant;
                seen.insert(v);
                if (i == 0) ++first[v];
                else ++follows[{p.steps[r * n + i - 1].variant, v}];
            }
            EXPECT_EQ(seen.size(), n) << "round " << r << " of " << n;
        }
        for (size_t v = 0; v < n; ++v) EXPECT_EQ(first[v], cycle / n) << "variant " << v << " of " << n;
        EXPECT_EQ(follows.size(), n * (n - 1)) << n;
        for (const auto& [pair, count] : follows) EXPECT_EQ(count, cycle * (n - 1) / (n * (n - 1))) << n;
    }
    // Two variants: still ABBA.
    json j = switchable_json();
    j["runs_per_boot"] = 4;
    j["boots_per_variant"] = 1;
    j["warmup_runs"] = 0;
    EXPECT_EQ(slot_text(parse(j), 0), "A B B A A B B A");
}

// An attempt stopped by the user's signal runs again and does not count
// towards max_run_attempts; a reboot issued twice from one boot is one.
TEST(CampaignFold, UserInterruptionsAndRepeatedRebootsDoNotCount) {
    const CampaignPlan p = small_plan();
    JournalEvent r1 = ev("reboot", "b0", {}, 0);
    JournalEvent r2 = ev("reboot", "b0", {}, 0);
    JournalEvent r3 = ev("reboot", "b1", {}, 1);
    const std::vector<JournalEvent> journal{r1, r2, ev("intent", "b1", 0), ev("interrupted", "b1", 0),
                                            ev("intent", "b1", 0), ev("interrupted", "b1", 0),
                                            ev("intent", "b1", 0), r3};
    const CampaignState s = fold_campaign(p, journal, {});
    EXPECT_EQ(s.intents[0], 3u);
    EXPECT_EQ(s.attempts[0], 1u);
    EXPECT_EQ(s.reboots, 2u);
    EXPECT_EQ(s.reboots_since_continue, 2u);
    EXPECT_EQ(count_kind(s, "interrupted_run"), 1u);  // the one not stopped by the user
    std::vector<JournalEvent> more = journal;
    more.push_back(ev("continue", "b2"));
    more.push_back(ev("spent", "b2", {}, 0));
    const CampaignState t = fold_campaign(p, more, {});
    EXPECT_EQ(t.reboots, 2u);
    EXPECT_EQ(t.reboots_since_continue, 0u);
    EXPECT_EQ(t.used_boots.count("b2"), 1u);
}

}  // namespace
}  // namespace gfxstat::drivers
