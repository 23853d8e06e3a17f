// SPDX-License-Identifier: MIT
// A campaign's plan (gfxstat campaign init PLAN -d DIR; docs/campaign.md):
// the variants, how each is put in place (environment, setup command, or a
// reboot into another kernel with a check that it really booted), the
// workload, and the design (runs per boot, boots per variant, warm-ups,
// order), read from the user's JSON, checked, and turned into a schedule:
// numbered boot slots, each holding numbered steps (one run each). The
// schedule is fixed at init and written with the plan into DIR/plan.json,
// so that every later resume, whatever happened between, works from the
// same list of steps.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "data/results_model.h"

namespace gfxstat::drivers {

// A command in a plan: a JSON array (argv, no shell) or a string (a shell
// line, run with /bin/sh -c).
struct PlanCommand {
    std::vector<std::string> argv;
    bool shell = false;  // given as a string: argv is {"/bin/sh", "-c", LINE}
    bool empty() const { return argv.empty(); }
    std::string text() const;  // for messages: the line, or argv joined
};

// How a booted variant is recognised; every given check must pass.
struct VariantExpect {
    std::string kernel_release;           // `uname -r`, exactly
    std::string kernel_cmdline_contains;  // a substring of /proc/cmdline
    PlanCommand command;                  // exits 0
    bool empty() const { return kernel_release.empty() && kernel_cmdline_contains.empty() && command.empty(); }
};

struct CampaignVariant {
    std::string label;
    // Needs its own boots: before_reboot arranges the next boot (grub-reboot
    // ENTRY), the campaign reboots, and expect says whether it worked.
    bool reboot = false;
    PlanCommand before_reboot;
    VariantExpect expect;
    std::map<std::string, std::string> env;   // set for its runs
    PlanCommand setup;                        // before each of its runs; failure fails the run
    std::map<std::string, std::string> tags;  // recorded with its environment
};

// What runs: a command with a parser, or a built-in workload (the same
// settings as `gfxstat run`'s options).
struct CampaignWorkload {
    std::vector<std::string> command;
    std::string parser;                        // with command; "" : lines
    std::map<std::string, std::string> metrics;  // NAME -> REGEX, instead of a parser
    std::string metric_name, unit;
    data::Direction direction = data::Direction::unknown;
    std::string builtin;                       // wakeup-latency, drm-ioctl, drm-gem, i915-exec-nop
    std::string device, load;
    double duration = 0;                       // 0: the workload's default
    uint64_t iterations = 0, size = 0;
    unsigned burst = 0;
};

struct CampaignStep {
    uint64_t step = 0;   // index into CampaignPlan::steps
    size_t slot = 0;     // boot slot
    size_t variant = 0;  // index into CampaignPlan::variants
    bool warmup = false;
};

// One boot: a reboot variant alone, or every switchable variant interleaved.
struct CampaignSlot {
    size_t index = 0;
    std::vector<size_t> variants;  // one reboot variant, or the switchable ones
    bool deploy = false;           // a reboot variant: its before_reboot runs before the reboot into it
    std::vector<uint64_t> steps;   // in the order they run
};

struct CampaignPlan {
    std::string name;  // "" : the campaign directory's name
    std::vector<CampaignVariant> variants;
    CampaignWorkload workload;
    double timeout_s = 0;   // per run; 0 none
    double cooldown_s = 0;  // between runs
    size_t runs_per_boot = 5, boots_per_variant = 4, warmup_runs = 1;
    std::string order = "abba";  // or "random" (seeded blocks)
    uint64_t seed = 1;
    PlanCommand reboot_command;  // default systemctl reboot
    // The first slot starts with a reboot (a fresh boot, and the first
    // reboot variant deployed); false: it may use the boot init ran in.
    bool reboot_first = true;
    // Checking runs (drivers/image_check_pass.h): a pass of 2 per variant
    // in each of its boots, after the boot's last run; check_frames: an
    // apitrace CALLSET.
    bool check_images = false;
    std::string check_frames;
    size_t max_reboots = 0;  // 0 at parse: twice the planned reboots, plus 2
    size_t max_consecutive_failures = 3;
    size_t max_run_attempts = 3;       // an interrupted run is retried this many times in all
    size_t max_deploy_attempts = 3;    // reboots into a slot whose variant did not come up
    size_t max_resumes_without_progress = 5;

    std::vector<CampaignSlot> slots;
    std::vector<CampaignStep> steps;

    size_t planned_reboots() const { return slots.empty() ? 0 : slots.size() - (reboot_first ? 0 : 1); }
    size_t measured_steps() const;
};

// Reads a user's plan (or a DIR/plan.json, whose schedule must match the
// one its settings give). Throws data::InputError naming `path`, the line
// of a syntax error or the member at fault, and what was expected.
CampaignPlan parse_campaign_plan(std::string_view text, const std::string& path);

// The plan as written to DIR/plan.json: every setting explicit, the
// schedule appended (slots with their steps).
std::string campaign_plan_json(const CampaignPlan& plan);

}  // namespace gfxstat::drivers
