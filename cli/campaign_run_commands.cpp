// SPDX-License-Identifier: MIT
// gfxstat campaign init and resume: lay a campaign out from its plan, and
// do what this boot owes it (drivers/campaign_runner.h).
#include "cli/campaign_subcommands.h"

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>

#include "cli/command_line.h"
#include "cli/help_lists.h"
#include "cli/lava_option.h"
#include "cli/tune_command.h"
#include "drivers/workload_setup.h"
#include "data/file_read.h"
#include "data/input_error.h"
#include "drivers/campaign_runner.h"
#include "drivers/kernel_log_watch.h"
#include "report/campaign_init.h"
#include "report/campaign_resume.h"
#include "report/ci/lava_report.h"
#include "report/diagnostic_words.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;

namespace {

constexpr const char* kProg = kCampaignProg;

WorkloadOptions workload_options(const drivers::CampaignWorkload& w) {
    WorkloadOptions o;
    o.command = w.command;
    o.builtin = w.builtin;
    o.device = w.device;
    o.load = w.load;
    if (w.duration > 0) o.duration = w.duration;
    o.iterations = w.iterations;
    o.size = w.size;
    o.burst = w.burst;
    o.parser_name = w.parser;
    o.metric_name = w.metric_name;
    o.unit = w.unit;
    for (const auto& [name, regex] : w.metrics) o.regexes.push_back(name + "=" + regex);
    o.direction = w.direction;
    return o;
}

}  // namespace

// ------------------------------------------------------------------ init

int campaign_init_main(int argc, char** argv) {
    CLI::App app{"Lay out a campaign from a plan: DIR/plan.json (with the schedule), journal.jsonl, results.json.",
                 "gfxstat campaign init"};
    std::string plan_path, dir;
    app.add_option("plan", plan_path, "the plan (JSON; docs/campaign.md)")->required();
    app.add_option("-d,--dir", dir, "the campaign directory to create")->required();
    app.footer([] { return parsers_and_workloads_help(NamesFor::plan); });  // the plan's workload names
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    try {
        drivers::CampaignPlan plan = drivers::parse_campaign_plan(data::read_whole_file(plan_path), plan_path);
        try {
            make_workload(workload_options(plan.workload));
        } catch (const std::invalid_argument& e) {
            throw data::input_error(plan_path, 0, std::string("workload: ") + e.what());
        }
        drivers::init_campaign(dir, plan);
        report::print_campaign_laid_out(plan, dir, plan_path, stdout);
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s init: %s\n", kProg, escape_message(e.what()).c_str());
        return 2;
    }
    return 0;
}

// ---------------------------------------------------------------- resume

namespace {
volatile sig_atomic_t g_stop_signals = 0;  // the first stop signal (the exit status names it)
extern "C" void on_campaign_signal(int sig) {
    drivers::interrupt_campaign(forwarded_stop_signal(g_stop_signals, sig));
}
}  // namespace

int campaign_resume_main(int argc, char** argv) {
    CLI::App app{"Do what this boot owes the campaign: check the boot, run this slot's steps, then reboot into "
                 "the next slot or finish. Run at every boot (install-service) or by hand.",
                 "gfxstat campaign resume"};
    std::string dir;
    bool go_on = false;
    add_campaign_dir(app, dir);
    app.add_flag("--continue", go_on, "go on after a halt or a stop");
    bool no_check = false;
    app.add_flag("--no-check", no_check, "no warning about what could add noise (gfxstat tune show)");
    bool simulate = false;
    app.add_flag("--simulate-reboots", simulate,
                 "try the plan on this machine without rebooting: the whole campaign in one go, each reboot "
                 "simulated (before_reboot and the reboot command are not run; the runs, setup and expect checks "
                 "are), each run's boot recorded as BOOT_ID:simulated:N");
    app.footer("A campaign is simulated or real, never both: try a plan in a directory of its own "
               "(gfxstat campaign init PLAN -d TRY_DIR), then init the real one elsewhere. See docs/campaign.md, "
               "\"Trying a plan safely\".");
    std::string lava_mode = "auto";
    add_lava_option(app, lava_mode);
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    // Inside a LAVA test shell: the finished campaign's results as test
    // cases, or a raise when this boot's runs could not be set up.
    LavaReport lava(std::string(kProg) + " resume", lava_mode);
    drivers::CampaignPlan plan;
    Workload workload;
    try {
        plan = drivers::load_campaign_plan(dir);
        workload = make_workload(workload_options(plan.workload));
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s resume: %s\n", kProg, escape_message(e.what()).c_str());
        return 2;
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "%s resume: %s/plan.json: workload: %s\n", kProg, escape_text(dir).c_str(),
                     escape_message(e.what()).c_str());
        return 2;
    }
    install_stop_handler(on_campaign_signal);
    if (!no_check) print_machine_check(kProg);

    drivers::ResumeOptions opt;
    opt.continue_after_halt = go_on;
    opt.simulate_reboots = simulate;
    opt.command = workload.command;
    opt.parser = workload.parser.get();
    opt.tags = workload.tags;
    opt.workload = workload.record;
    opt.say = [](const std::string& line) {  // labels, commands' exit reasons, boot ids
        // Broken at spaces into 72 columns: an expect check's reason can
        // be a long command line and its output.
        for (const auto& part : wrap_words(std::string(kProg) + ": " + escape_message(line), 72, 0, 4))
            std::fprintf(stderr, "%s\n", part.c_str());
        std::fflush(stderr);
    };
    // Said once, before the first run: what the kernel log watch cannot see.
    if (const std::string w = drivers::process_kernel_log_watch()->why_not(); !w.empty()) opt.say("warning: " + w);
    drivers::ResumeReport r;
    try {
        r = drivers::resume_campaign(dir, plan, opt);
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s resume: %s\n", kProg, escape_message(e.what()).c_str());
        lava.setup_failed(e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s resume: %s; every finished run is in %s/results.json\n", kProg,
                     escape_message(e.what()).c_str(), escape_text(dir).c_str());
        lava.setup_failed(e.what());
        return 1;
    }
    report::print_resume_outcome(kProg, r, dir, simulate, stderr);
    if (r.outcome == drivers::ResumeOutcome::complete) {
        std::vector<std::string> labels;
        for (const auto& v : plan.variants) labels.push_back(v.label);
        lava.results(drivers::campaign_files(dir).results, labels);
    }
    switch (r.outcome) {
        case drivers::ResumeOutcome::rebooting:
        case drivers::ResumeOutcome::complete:
        case drivers::ResumeOutcome::stopped: return 0;
        case drivers::ResumeOutcome::halted:
        case drivers::ResumeOutcome::busy: return 1;
        case drivers::ResumeOutcome::interrupted: return stopped_status(g_stop_signals);
    }
    return 0;
}

}  // namespace gfxstat::cli
