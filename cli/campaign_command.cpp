// SPDX-License-Identifier: MIT
// gfxstat campaign: A/B comparisons over many boots that survive reboots,
// crashes and power cuts (drivers/campaign_runner.h). Exit statuses:
// 0 done, complete, stopped, or the machine is rebooting; 1 the campaign
// halted (it says why) or another resume is running; 2 usage errors and
// bad plans; 128 + the signal when interrupted (130 SIGINT, 143 SIGTERM,
// 129 SIGHUP; the interrupted run runs again next time).
#include "cli/campaign_command.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "cli/campaign_subcommands.h"
#include "cli/command_describe.h"
#include "cli/compare_command.h"
#include "cli/subcommands.h"
#include "cli/compare_output.h"
#include "cli/compare_reading.h"
#include "cli/summary_compare.h"
#include "data/input_error.h"
#include "drivers/campaign_runner.h"
#include "drivers/campaign_status.h"
#include "drivers/lava_signals.h"
#include "findings/campaign_design.h"
#include "findings/compare.h"
#include "report/campaign_design.h"
#include "report/ci/lava_report.h"
#include "report/plot_files.h"
#include "text/nearest_word.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;

namespace {

constexpr const char* kProg = kCampaignProg;

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
    OptionDescription lava;  // analyze's own (report/ci/lava_report.h), taken out before compare parses
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
void print_analyze_design(const drivers::CampaignStatus& s, const std::string& format) {
    const bool json = format == "json";
    FILE* out = json ? stderr : stdout;
    report::print_campaign_design(findings::campaign_design_facts(s), format == "markdown", out);
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
    // --lava MODE is analyze's own (report/ci/lava_report.h): taken out of the
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
        const auto s = read_campaign_status("analyze", dir);
        if (!s) return 2;
        files = {drivers::campaign_files(dir).results};
        results_path = files[0];
        if (c.choices.baseline.empty()) c.choices.baseline = s->plan.variants[0].label;
        print_analyze_design(*s, c.format);
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
    std::vector<std::string> files;
    CompareSettings c = preset;
    c.store_options = false;  // the campaign's files are the inputs
    if (const auto done = parse_compare_line(static_cast<int>(args.size()), cargv.data(), c, files)) return *done;
    if (c.summaries) return compare_summaries(files, summary_compare_settings(c), stdout);
    const auto started = std::chrono::steady_clock::now();
    const int status = with_compare_errors(c.program, [&] {
        if (!c.plot.empty()) check_plot_request(c.plot, c.plot_kind);
        return report_comparison(
            findings::compare(read_compare_inputs(files, c), analysis_options(c), compare_notes(c.program)), c,
            stdout, started);
    });
    if (!results_path.empty() && (status == 0 || status == 1 || status == 3)) lava.results(results_path, {});
    return status;
}

// The subcommands, their summaries for gfxstat __describe campaign (man
// page, completion) and their entry points.
const Subcommand kSubcommands[] = {
    {"init", "lay out a campaign: plan, schedule, journal, results", campaign_init_main},
    {"resume", "do what this boot owes: runs, then the next reboot (run at every boot by the service); "
               "--simulate-reboots tries a plan in this boot, without rebooting",
     campaign_resume_main},
    {"status", "progress, ETA, anomalies", campaign_status_main},
    {"stop", "stop after the current run (--now: interrupt it)", campaign_stop_main},
    {"install-service", "write a systemd unit that resumes at boot", campaign_install_service_main},
    {"analyze", "the comparison, boots as clusters", analyze_main},
};

}  // namespace

int campaign_main(int argc, char** argv) {
    return run_subcommand({kProg, "A/B campaigns over many boots that survive reboots and crashes.",
                           "See docs/campaign.md.", kSubcommands, usage},
                          argc, argv);
}

}  // namespace gfxstat::cli
