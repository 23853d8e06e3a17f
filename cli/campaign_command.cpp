// SPDX-License-Identifier: MIT
// gfxstat campaign: A/B comparisons over many boots that survive reboots,
// crashes and power cuts (drivers/campaign_runner.h). Exit statuses:
// 0 done, complete, stopped, or the machine is rebooting; 1 the campaign
// halted (it says why) or another resume is running; 2 usage errors and
// bad plans; 128 + the signal when interrupted (130 SIGINT, 143 SIGTERM,
// 129 SIGHUP; the interrupted run runs again next time).
#include "cli/campaign_command.h"
#include "cli/tune_command.h"

#include <CLI/CLI.hpp>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/campaign_design.h"
#include "cli/campaign_service.h"
#include "cli/command_describe.h"
#include "cli/command_line.h"
#include "cli/compare_command.h"
#include "cli/help_lists.h"
#include "cli/lava_report.h"
#include "text/nearest_word.h"
#include "report/diagnostic_words.h"
#include "report/json_version.h"
#include "drivers/workload_setup.h"
#include "data/file_read.h"
#include "data/input_error.h"
#include "data/results_reader.h"
#include "data/safe_files.h"
#include "drivers/campaign_runner.h"
#include "drivers/campaign_simulation.h"
#include "drivers/kernel_log_watch.h"
#include "drivers/lava_signals.h"
#include "drivers/environment_probe.h"
#include "drivers/process_runner.h"
#include "text/plural.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;
using text::plural;

namespace {

constexpr const char* kProg = "gfxstat campaign";

void usage(FILE* out) {
    std::fprintf(out,
                 "usage: gfxstat campaign SUBCOMMAND ...\n"
                 "\n"
                 "  init PLAN.json -d DIR     lay out a campaign: plan, schedule, journal, results\n"
                 "  resume DIR [--continue]   do what this boot owes: runs, then the next reboot\n"
                 "                            (run at every boot by the service)\n"
                 "  resume DIR --simulate-reboots\n"
                 "                            try a plan: all of it in this boot, without\n"
                 "                            rebooting (its boots are marked simulated)\n"
                 "  status DIR [--json]       progress, ETA, anomalies\n"
                 "  stop DIR [--now]          stop after the current run (--now: interrupt it)\n"
                 "  install-service DIR       write a systemd unit that resumes at boot\n"
                 "                            [--unit-dir D] [--enable]\n"
                 "  analyze DIR [compare options]  the comparison, boots as clusters\n"
                 "\n"
                 "See docs/campaign.md.\n");
}

// The subcommands for gfxstat __describe campaign (man page, completion).
const SubcommandSummary kSubcommands[] = {
    {"init", "lay out a campaign: plan, schedule, journal, results"},
    {"resume", "do what this boot owes: runs, then the next reboot (run at every boot by the service); "
               "--simulate-reboots tries a plan in this boot, without rebooting"},
    {"status", "progress, ETA, anomalies"},
    {"stop", "stop after the current run (--now: interrupt it)"},
    {"install-service", "write a systemd unit that resumes at boot"},
    {"analyze", "the comparison, boots as clusters"},
};

std::string absolute(const std::string& path) {
    if (!path.empty() && path[0] == '/') return path;
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) return path;
    std::string p = path;
    while (p.rfind("./", 0) == 0) p = p.substr(2);
    return std::string(cwd) + "/" + p;
}

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

std::string clock_text(double seconds) {
    if (!(seconds >= 0) || !std::isfinite(seconds)) return "?";
    const long s = std::lround(seconds);
    char buf[48];
    if (s >= 86400) std::snprintf(buf, sizeof buf, "%ldd %ld:%02ld:%02ld", s / 86400, s / 3600 % 24, s / 60 % 60, s % 60);
    else std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    return buf;
}

// ------------------------------------------------------------------ init

int init_main(int argc, char** argv) {
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
        size_t per_boot = 0;
        for (const auto& s : plan.slots) per_boot = std::max(per_boot, s.steps.size());
        const std::string shown_dir = escape_text(dir);
        // One command per line, to copy; short enough for a 72-column reply.
        std::printf("campaign %s: %s, %s (%zu per variant),\n  %s (%zu measured), %s\n", shown_dir.c_str(),
                    plural(plan.variants.size(), "variant").c_str(), plural(plan.slots.size(), "boot slot").c_str(),
                    plan.boots_per_variant, plural(plan.steps.size(), "run").c_str(), plan.measured_steps(),
                    plural(plan.planned_reboots(), "reboot").c_str());
        std::printf("next: resume at every boot, start, then follow it:\n"
                    "  gfxstat campaign install-service %s --enable\n"
                    "  gfxstat campaign resume %s\n"
                    "  gfxstat campaign status %s\n"
                    "try it first, without rebooting, in a directory of its own:\n"
                    "  gfxstat campaign init %s -d TRY_DIR\n"
                    "  gfxstat campaign resume TRY_DIR --simulate-reboots\n",
                    shown_dir.c_str(), shown_dir.c_str(), shown_dir.c_str(), escape_text(plan_path).c_str());
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s init: %s\n", kProg, escape_message(e.what()).c_str());
        return 2;
    }
    return 0;
}

// ---------------------------------------------------------------- resume

volatile sig_atomic_t g_stop_signals = 0;  // the first stop signal (the exit status names it)
extern "C" void on_campaign_signal(int sig) {
    const bool again = g_stop_signals != 0;
    if (!again) g_stop_signals = sig;
    drivers::interrupt_campaign(again ? SIGKILL : sig);
}

int resume_main(int argc, char** argv) {
    CLI::App app{"Do what this boot owes the campaign: check the boot, run this slot's steps, then reboot into "
                 "the next slot or finish. Run at every boot (install-service) or by hand.",
                 "gfxstat campaign resume"};
    std::string dir;
    bool go_on = false;
    app.add_option("dir", dir, "the campaign directory")->required();
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
    if (r.runs) std::fprintf(stderr, "%s: %s recorded by this resume\n", kProg, plural(r.runs, "run").c_str());
    std::fprintf(stderr, "%s: %s\n", kProg, escape_message(r.message).c_str());
    if (simulate && r.outcome == drivers::ResumeOutcome::complete)
        std::fprintf(stderr, "%s: the boots were simulated: `gfxstat campaign analyze %s` shows the analysis this "
                             "plan gives, but not how boots really differ; run the real campaign from a directory "
                             "of its own\n", kProg, escape_text(dir).c_str());
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

// ---------------------------------------------------------------- status

struct StatusFacts {
    drivers::CampaignPlan plan;
    drivers::CampaignState state;
    long pid = 0;
    std::string phase;
    std::optional<double> eta_s, run_seconds, reboot_seconds;
    size_t reboots_left = 0;
    std::vector<std::vector<std::string>> variant_boots;  // distinct boots per variant with a done run
    std::vector<size_t> variant_done, variant_total;  // runs, warm-ups included
    // Measured steps per variant, and their sum: done with a value, given
    // up, failed. "Measured" counts only runs whose values analyze uses.
    std::vector<drivers::MeasuredTally> variant_measured;
    drivers::MeasuredTally measured;
    drivers::SimulatedBoots simulated;  // the runs' boot ids
};

StatusFacts gather(const std::string& dir) {
    StatusFacts s;
    s.plan = drivers::load_campaign_plan(dir);
    const auto files = drivers::campaign_files(dir);
    const data::ResultsFile results = data::read_results_path(files.results, files.results);
    s.state = drivers::fold_campaign(s.plan, drivers::read_journal(files.journal), results);
    s.simulated = drivers::count_simulated_boots(results);
    s.pid = drivers::running_resume_pid(dir);
    s.phase = drivers::campaign_phase(s.plan, s.state, s.pid != 0);
    // ETA: the mean run (with the cooldown) times the runs left, plus the
    // mean reboot (from the reboot command to the next resume) per reboot left.
    double total = 0;
    size_t n = 0;
    s.variant_boots.assign(s.plan.variants.size(), {});
    s.variant_done.assign(s.plan.variants.size(), 0);
    s.variant_total.assign(s.plan.variants.size(), 0);
    for (const auto& step : s.plan.steps) ++s.variant_total[step.variant];
    s.variant_measured = drivers::measured_by_variant(s.plan, s.state);
    for (const auto& t : s.variant_measured) s.measured += t;
    for (const auto& r : results.runs()) {
        if (!r.campaign_step || *r.campaign_step >= s.plan.steps.size()) continue;
        const size_t v = s.plan.steps[*r.campaign_step].variant;
        ++s.variant_done[v];
        if (r.exit_class == data::ExitClass::ok && !r.warmup && !r.boot.empty()) {
            auto& b = s.variant_boots[v];
            if (std::find(b.begin(), b.end(), r.boot) == b.end()) b.push_back(r.boot);
        }
        if (r.duration_s) {
            total += *r.duration_s + s.plan.cooldown_s;
            ++n;
        }
    }
    if (n) s.run_seconds = total / static_cast<double>(n);
    if (!s.state.reboot_seconds.empty()) {
        double t = 0;
        for (double x : s.state.reboot_seconds) t += x;
        s.reboot_seconds = t / static_cast<double>(s.state.reboot_seconds.size());
    }
    const size_t remaining = s.state.done.size() - s.state.done_count;
    if (const auto slot = s.state.current_slot(s.plan)) {
        s.reboots_left = s.plan.slots.size() - *slot - 1;
        const std::string boot = drivers::current_boot_id();
        const auto& bound = s.state.slot_boots[*slot];
        if (std::find(bound.begin(), bound.end(), boot) == bound.end()) ++s.reboots_left;
    }
    if (remaining == 0) s.eta_s = 0;
    else if (s.run_seconds && (s.reboots_left == 0 || s.reboot_seconds))
        s.eta_s = *s.run_seconds * static_cast<double>(remaining) +
                  (s.reboot_seconds ? *s.reboot_seconds : 0) * static_cast<double>(s.reboots_left);
    return s;
}

// Measured steps done without a value, named by why: "" when none, else
// `lead` and "1 given up, 2 failed" (the counts that are not 0).
std::string not_measured_words(const drivers::MeasuredTally& t, const char* lead) {
    std::string w;
    if (t.given_up) w += std::to_string(t.given_up) + " given up";
    if (t.failed) w += (w.empty() ? "" : ", ") + std::to_string(t.failed) + " failed";
    return w.empty() ? w : lead + w;
}

int status_main(int argc, char** argv) {
    CLI::App app{"Where a campaign stands: runs and boots done, ETA, what went wrong.", "gfxstat campaign status"};
    std::string dir;
    bool json = false;
    app.add_option("dir", dir, "the campaign directory")->required();
    app.add_flag("--json", json, "machine-readable");
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    StatusFacts s;
    try {
        s = gather(dir);
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s status: %s\n", kProg, escape_message(e.what()).c_str());
        return 2;
    }
    const auto& st = s.state;
    const size_t remaining = st.done.size() - st.done_count;
    const auto slot = st.current_slot(s.plan);
    if (json) {
        nlohmann::ordered_json j;
        add_gfxstat_version(j);
        j["campaign"] = s.plan.name;
        j["state"] = st.complete() ? "complete" : st.halted ? "halted" : st.stopped ? "stopped"
                                                    : s.pid ? "running" : !st.waiting_boot.empty() ? "rebooting" : "waiting";
        j["phase"] = s.phase;
        j["complete"] = st.complete();
        j["remaining"] = remaining;
        j["runs_done"] = st.done_count;
        j["runs_total"] = st.done.size();
        j["measured_done"] = st.measured_done;
        j["measured_total"] = s.plan.measured_steps();
        j["given_up"] = s.measured.given_up;
        j["failed"] = s.measured.failed;
        j["slot"] = slot ? nlohmann::ordered_json(*slot) : nlohmann::ordered_json(nullptr);
        j["slots_total"] = s.plan.slots.size();
        j["boots_used"] = st.used_boots.size();
        j["reboots"] = st.reboots;
        j["max_reboots"] = s.plan.max_reboots;
        j["simulated_reboots"] = st.simulated;  // resume --simulate-reboots: no boot was real
        j["eta_s"] = s.eta_s ? nlohmann::ordered_json(*s.eta_s) : nlohmann::ordered_json(nullptr);
        j["resume_pid"] = s.pid > 0 ? nlohmann::ordered_json(s.pid) : nlohmann::ordered_json(nullptr);
        if (st.halted) j["halt_reason"] = st.halt_reason;
        nlohmann::ordered_json vs = nlohmann::ordered_json::array();
        for (size_t v = 0; v < s.plan.variants.size(); ++v) {
            nlohmann::ordered_json o;
            o["label"] = s.plan.variants[v].label;
            o["runs_done"] = s.variant_done[v];
            o["runs_total"] = s.variant_total[v];
            o["measured_done"] = s.variant_measured[v].ok;
            o["measured_total"] = s.variant_measured[v].total;
            o["given_up"] = s.variant_measured[v].given_up;
            o["failed"] = s.variant_measured[v].failed;
            o["boots"] = s.variant_boots[v];
            vs.push_back(o);
        }
        j["variants"] = vs;
        nlohmann::ordered_json an = nlohmann::ordered_json::array();
        for (const auto& a : st.anomalies) {
            nlohmann::ordered_json o;
            o["kind"] = a.kind;
            if (!a.time.empty()) o["time"] = a.time;
            if (a.slot) o["slot"] = *a.slot;
            if (a.step) o["step"] = *a.step;
            if (!a.boot.empty()) o["boot"] = a.boot;
            o["detail"] = a.detail;
            an.push_back(o);
        }
        j["anomalies"] = an;
        std::printf("%s\n", j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace).c_str());
        return 0;
    }
    // The plan's name and labels, halt reasons and anomalies' details (exit
    // reasons, boot ids) come from the campaign's files: escaped.
    std::printf("campaign %s (%s): %s\n", escape_text(s.plan.name).c_str(), escape_text(dir).c_str(),
                escape_message(s.phase).c_str());
    if (st.halted) std::printf("  halted   %s\n", escape_message(st.halt_reason).c_str());
    std::printf("  runs     %zu of %zu done (%zu of %zu measured%s), %zu to go\n", st.done_count, st.done.size(),
                st.measured_done, s.plan.measured_steps(), not_measured_words(s.measured, "; ").c_str(), remaining);
    std::printf("  boots    %s; %s used, %s of at most %zu%s\n",
                slot ? ("slot " + std::to_string(*slot + 1) + " of " + std::to_string(s.plan.slots.size())).c_str()
                     : "all slots done",
                plural(st.used_boots.size(), "boot").c_str(), plural(st.reboots, "reboot").c_str(), s.plan.max_reboots,
                st.simulated ? " (simulated)" : "");
    if (remaining) {
        std::string eta = s.eta_s ? clock_text(*s.eta_s) : "unknown";
        if (s.run_seconds)
            eta += " (" + plural(remaining, "run") + " at ~" + clock_text(*s.run_seconds) +
                   (s.reboots_left ? " + " + plural(s.reboots_left, "reboot") +
                                         (s.reboot_seconds ? " at ~" + clock_text(*s.reboot_seconds) : " of unknown length")
                                   : "") +
                   ")";
        std::printf("  ETA      %s\n", eta.c_str());
    }
    for (size_t v = 0; v < s.plan.variants.size(); ++v)
        std::printf("  %-8s %zu of %s, %zu of %zu measured in %s\n", v == 0 ? "variants" : "", s.variant_done[v],
                    plural(s.variant_total[v], "run").c_str(), s.variant_measured[v].ok, s.variant_measured[v].total,
                    escape_text(plural(s.variant_boots[v].size(), "boot") +
                                not_measured_words(s.variant_measured[v], ", ") + " (" + s.plan.variants[v].label + ")")
                        .c_str());
    if (!st.anomalies.empty()) {
        std::printf("anomalies:\n");
        for (const auto& a : st.anomalies) {
            std::string where;
            if (a.slot) where += " slot " + std::to_string(*a.slot);
            if (a.step) where += " step " + std::to_string(*a.step);
            const std::string boot = a.boot.empty() ? "" : " boot " + drivers::boot_words(a.boot);
            std::printf("  %s\n", escape_message(a.kind + where + boot + ": " + a.detail).c_str());
        }
    }
    return 0;
}

// ------------------------------------------------------------------ stop

int stop_main(int argc, char** argv) {
    CLI::App app{"Stop a campaign: the running resume stops after its current run, and later resumes do nothing "
                 "until `resume --continue`.",
                 "gfxstat campaign stop"};
    std::string dir;
    bool now = false;
    app.add_option("dir", dir, "the campaign directory")->required();
    app.add_flag("--now", now, "interrupt the current run too (it runs again after --continue)");
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    try {
        drivers::load_campaign_plan(dir);
        drivers::JournalWriter journal(drivers::campaign_files(dir).journal);
        drivers::JournalEvent e;
        e.type = "stop";
        e.boot = drivers::current_boot_id();
        journal.append(e);
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s stop: %s\n", kProg, escape_message(e.what()).c_str());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s stop: %s\n", kProg, escape_message(e.what()).c_str());
        return 1;
    }
    const long pid = drivers::running_resume_pid(dir);
    if (pid > 0 && now) {
        if (kill(static_cast<pid_t>(pid), SIGTERM) == 0)
            std::fprintf(stderr, "%s: stopped; interrupted the running resume (pid %ld)\n", kProg, pid);
        else
            std::fprintf(stderr, "%s: stopped; cannot signal the running resume (pid %ld): %s\n", kProg, pid,
                         std::strerror(errno));
    } else if (pid > 0) {
        std::fprintf(stderr, "%s: stopped; the running resume (pid %ld) ends after its current run\n", kProg, pid);
    } else {
        std::fprintf(stderr, "%s: stopped; `gfxstat campaign resume --continue %s` goes on\n", kProg,
                     escape_text(dir).c_str());
    }
    return 0;
}

// -------------------------------------------------------- install-service

int install_service_main(int argc, char** argv) {
    CLI::App app{"Write a systemd unit that runs `gfxstat campaign resume DIR` at every boot. Nothing is enabled "
                 "unless --enable is given.",
                 "gfxstat campaign install-service"};
    std::string dir, unit_dir = "/etc/systemd/system", name;
    bool enable = false;
    app.add_option("dir", dir, "the campaign directory")->required();
    app.add_option("--unit-dir", unit_dir, "where the unit goes (default /etc/systemd/system)");
    app.add_option("--name", name,
                   "the unit's name (default gfxstat-campaign-PATH.service, PATH the directory as systemd-escape "
                   "--path writes it)");
    app.add_flag("--enable", enable, "also run systemctl daemon-reload and systemctl enable");
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    drivers::CampaignPlan plan;
    try {
        plan = drivers::load_campaign_plan(dir);
        // Its resume at a real boot would be refused: boots do not mix.
        if (drivers::read_campaign_state(dir, plan).simulated)
            throw data::input_error(dir, 0, "this campaign's boots are simulated (resume --simulate-reboots), and a "
                                            "unit would resume it at real boots; lay the plan out again in a "
                                            "directory of its own for the real campaign");
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s install-service: %s\n", kProg, escape_message(e.what()).c_str());
        return 2;
    }
    // The unit runs `campaign resume` as root at every boot: the plan's
    // commands, the gfxstat it names and the files resume writes must be
    // ones no other user can change, or that user's commands would run as
    // root. The unit names the paths checked (canonical, no links).
    std::string adir, exe, real_unit_dir;
    try {
        adir = data::check_writable_only_by_root(absolute(dir), "the campaign directory");
        data::check_writable_only_by_root(adir + "/plan.json", "the campaign's plan");
        exe = data::check_writable_only_by_root(self_executable(), "the gfxstat executable");
        // A sticky directory may be writable by others: a link they plant
        // with the unit's name is refused below, and the unit, once
        // written, is root's.
        real_unit_dir = data::check_writable_only_by_root(unit_dir, "the unit directory", /*sticky_ok=*/true);
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s install-service: %s\n", kProg, escape_message(e.what()).c_str());
        return 2;
    }
    for (unsigned char c : adir + exe)
        if (c < 0x20 || c == 0x7f) {
            std::fprintf(stderr, "%s install-service: the directory or gfxstat's path holds a control character; "
                                 "a unit file cannot name it\n", kProg);
            return 2;
        }
    if (name.empty()) {
        const auto derived = default_campaign_unit_name(adir);
        if (!derived) {
            std::fprintf(stderr, "%s install-service: %s: a unit named after this directory would be longer than "
                                 "systemd takes (255 bytes); give one with --name NAME.service\n",
                         kProg, escape_text(adir).c_str());
            return 2;
        }
        name = *derived;
    } else if (name.find('/') != std::string::npos || name.size() < 9 ||
               name.compare(name.size() - 8, 8, ".service") != 0) {
        std::fprintf(stderr, "%s install-service: --name wants NAME.service, not '%s'\n", kProg,
                     escape_text(name).c_str());
        return 2;
    }
    const std::string unit = campaign_unit_text(plan.name, adir, exe);
    const std::string path = real_unit_dir + "/" + name;
    if (const std::string why = unit_path_taken(path, adir); !why.empty()) {
        std::fprintf(stderr, "%s install-service: %s\n", kProg, escape_message(why).c_str());
        return 2;
    }
    if (const std::string w = older_unit_warning(real_unit_dir, plan.name, name, adir); !w.empty())
        std::fprintf(stderr, "%s install-service: warning: %s\n", kProg, escape_message(w).c_str());
    // 0644 whatever the umask; no temporary name, and a symbolic link
    // planted with the unit's name is refused, not followed.
    try {
        data::write_file_atomically(path, unit, 0644, /*replace=*/true);
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s install-service: %s\n", kProg, escape_message(e.what()).c_str());
        return 2;
    }
    std::printf("wrote %s\n", escape_text(path).c_str());
    if (!enable) {
        std::printf("not enabled; to resume at every boot: systemctl daemon-reload && systemctl enable %s\n",
                    shell_word_for_unit(name).c_str());
        return 0;
    }
    for (const std::vector<std::string>& argv2 :
         {std::vector<std::string>{"systemctl", "daemon-reload"}, std::vector<std::string>{"systemctl", "enable", name}}) {
        drivers::ProcessSpec spec;
        spec.argv = argv2;
        // Its output goes to the campaign's hooks directory (opening
        // /dev/stderr would truncate a file stderr is redirected to).
        const std::string log = drivers::campaign_files(dir).hooks + "/systemctl.log";
        spec.stdout_path = log;
        spec.stderr_path = log;
        const drivers::ProcessResult pr = drivers::run_process(spec);
        if (!(pr.ended == drivers::ProcessResult::Ended::exited && pr.exit_code == 0)) {
            std::string out;
            try {
                out = data::read_whole_file(log);
            } catch (const std::exception&) {
            }
            // systemctl's own lines, each escaped.
            std::string said;
            for (size_t at = 0; at < out.size();) {
                const size_t nl = std::min(out.find('\n', at), out.size());
                said += escape_message(std::string_view(out).substr(at, nl - at)) + "\n";
                at = nl + 1;
            }
            std::fprintf(stderr, "%s install-service: '%s %s' failed%s\n%s", kProg, argv2[0].c_str(),
                         escape_text(argv2[1]).c_str(),
                         pr.ended == drivers::ProcessResult::Ended::not_started
                             ? (": " + escape_message(pr.error)).c_str() : "",
                         said.c_str());
            return 1;
        }
    }
    std::printf("enabled %s\n", escape_text(name).c_str());
    return 0;
}

// --------------------------------------------------------------- analyze

// analyze is not parsed by CLI11: DIR, then compare's options as they are.
CommandDescription analyze_description() {
    CommandDescription d;
    d.name = "gfxstat campaign analyze";
    d.description = "The campaign's design, then gfxstat compare of its results: the first variant is the "
                    "baseline; boots are the unit where boot-to-boot variance matters. Options are compare's; with "
                    "--format markdown the design is markdown too, and advice names the plan's members.";
    OptionDescription dir;
    dir.names = {"dir"};
    dir.positional = true;
    dir.type = "TEXT";
    dir.expected_min = dir.expected_max = 1;
    dir.required = true;
    dir.description = "the campaign directory";
    OptionDescription lava;  // analyze's own (cli/lava_report.h), taken out before compare parses
    lava.names = {"--lava"};
    lava.type = "TEXT:{auto,on,off}";
    lava.expected_min = lava.expected_max = 1;
    lava.description = "LAVA signals (the verdicts as test cases, the results file in the log): auto (default: "
                       "inside a LAVA test shell), on, off";
    lava.choices = {"auto", "on", "off"};
    d.options = {dir, lava};
    d.options_from = {{"compare"}};
    return d;
}

// The design part of campaign analyze (on stderr with --format json, so
// stdout stays JSON).
void print_analyze_design(const StatusFacts& s, const std::string& format) {
    const bool json = format == "json";
    FILE* out = json ? stderr : stdout;
    const auto& st = s.state;
    CampaignDesignFacts d;
    d.name = s.plan.name;
    d.runs_done = st.done_count;
    d.runs_total = st.done.size();
    d.boots_per_variant = s.plan.boots_per_variant;
    d.runs_per_boot = s.plan.runs_per_boot;
    d.warmup_runs = s.plan.warmup_runs;
    for (const auto& v : s.plan.variants) d.reboot_variants |= v.reboot;
    for (size_t v = 0; v < s.plan.variants.size(); ++v) d.variants.push_back({s.plan.variants[v].label, s.variant_boots[v].size()});
    for (const auto& a : st.anomalies) {
        d.deploy_failed += a.kind == "deploy_failed";
        d.unexpected_reboots += a.kind == "unexpected_reboot";
        d.interrupted_runs += a.kind == "interrupted_run";
        d.failed_runs += a.kind == "failed_run" || a.kind == "given_up";
    }
    d.complete = st.complete();
    d.simulated_note = drivers::simulated_boots_note(s.simulated);
    print_campaign_design(d, format == "markdown", out);
    std::fflush(out);
}

int analyze_main(int argc, char** argv) {
    if (describe_requested()) return describe_fixed(analyze_description());
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
        if (argc < 2) std::fprintf(stderr, "%s analyze: missing DIR\n", kProg);
        std::fprintf(argc < 2 ? stderr : stdout,
                     "usage: gfxstat campaign analyze DIR [compare options]\n"
                     "The campaign's design, then `gfxstat compare` of its results: the first\n"
                     "variant is the baseline; boots are the unit where boot-to-boot variance\n"
                     "matters. Options are compare's (gfxstat compare --help); with --format\n"
                     "markdown the design is markdown too. Advice names the plan's members\n"
                     "(warmup_runs, cooldown_s, boots_per_variant, runs_per_boot).\n");
        return argc < 2 ? 2 : 0;
    }
    // --lava MODE is analyze's own (cli/lava_report.h): taken out of the
    // command line before compare parses the rest.
    std::string lava_mode = "auto";
    std::vector<std::string> rest{argv[0]};
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--") {
            for (; i < argc; ++i) rest.push_back(argv[i]);
            break;
        }
        if (a == "--lava" || a.starts_with("--lava=")) {
            if (a == "--lava" && i + 1 >= argc) {
                std::fprintf(stderr, "%s analyze: --lava wants auto, on or off\n", kProg);
                return 2;
            }
            lava_mode = a == "--lava" ? argv[++i] : std::string(a.substr(7));
            if (!drivers::parse_lava_mode(lava_mode)) {
                std::fprintf(stderr, "%s analyze: --lava wants auto, on or off, not '%s'\n", kProg,
                             escape_text(lava_mode).c_str());
                return 2;
            }
            continue;
        }
        rest.push_back(argv[i]);
    }
    LavaReport lava(std::string(kProg) + " analyze", lava_mode);
    std::string results_path;
    // compare parses the whole command line (options may come before DIR,
    // and a bad option is refused before anything is printed); DIR is its
    // one positional, swapped for the campaign's results file.
    CompareSettings preset;
    lava.collect_verdicts(preset.exports);
    preset.after_parse = [&results_path](std::vector<std::string>& files, CompareSettings& c) -> std::optional<int> {
        if (files.size() != 1) {
            std::fprintf(stderr, "%s analyze: give one DIR, not %zu\n", kProg, files.size());
            return 2;
        }
        const std::string dir = files[0];
        StatusFacts s;
        try {
            s = gather(dir);
        } catch (const data::InputError& e) {
            std::fprintf(stderr, "%s analyze: %s\n", kProg, escape_message(e.what()).c_str());
            return 2;
        }
        files = {drivers::campaign_files(dir).results};
        results_path = files[0];
        if (c.choices.baseline.empty()) c.choices.baseline = s.plan.variants[0].label;
        print_analyze_design(s, c.format);
        return std::nullopt;
    };
    // Inside a campaign the runs are set by the plan, not by run's options:
    // the advice names the plan's members.
    preset.advice.warmup = "the plan's warmup_runs";
    preset.advice.cooldown = "the plan's cooldown_s";
    preset.advice.more_boots = "the plan's boots_per_variant";
    preset.advice.more_runs = "runs_per_boot";
    preset.note_simulated_boots = false;  // the design said it
    std::vector<std::string> args{"gfxstat campaign analyze"};
    for (size_t i = 1; i < rest.size(); ++i) args.push_back(rest[i]);
    std::vector<char*> cargv;
    for (auto& a : args) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    const int status = compare_main(static_cast<int>(args.size()), cargv.data(), preset);
    if (!results_path.empty() && (status == 0 || status == 1 || status == 3)) lava.results(results_path, {});
    return status;
}

}  // namespace

int campaign_main(int argc, char** argv) {
    if (argc < 2 && describe_requested())
        return describe_fixed({kProg, "A/B campaigns over many boots that survive reboots and crashes.", "See docs/campaign.md.",
                               {}, {std::begin(kSubcommands), std::end(kSubcommands)}, {}});
    if (argc < 2) {
        std::fprintf(stderr, "%s: missing SUBCOMMAND\n", kProg);
        usage(stderr);
        return 2;
    }
    const std::string sub = argv[1];
    if (sub == "-h" || sub == "--help" || sub == "help") {
        usage(stdout);
        return 0;
    }
    if (sub == "init") return init_main(argc - 1, argv + 1);
    if (sub == "resume") return resume_main(argc - 1, argv + 1);
    if (sub == "status") return status_main(argc - 1, argv + 1);
    if (sub == "stop") return stop_main(argc - 1, argv + 1);
    if (sub == "install-service") return install_service_main(argc - 1, argv + 1);
    if (sub == "analyze") return analyze_main(argc - 1, argv + 1);
    std::fprintf(stderr, "%s: unknown subcommand '%s'%s\n", kProg, escape_text(sub).c_str(),
                 text::did_you_mean(sub, {"init", "resume", "status", "stop", "install-service", "analyze"}).c_str());
    usage(stderr);
    return 2;
}

}  // namespace gfxstat::cli
