// SPDX-License-Identifier: MIT
// gfxstat tune: show the pre-measure check as a table, apply the settings
// that make measurements steady, reset them to exactly what they were.
// Exit statuses: 0 done; 1 the machine refused (not root, a write the kernel
// refused: what was changed is put back); 2 usage errors and bad input (a
// --gpu-freq outside the hardware's range, an unreadable state file).
#include "cli/tune_command.h"

#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>

#include "cli/command_describe.h"
#include "cli/command_line.h"
#include "text/nearest_word.h"
#include "report/tune_show.h"
#include "drivers/machine_check.h"
#include "drivers/machine_tune.h"
#include "drivers/system_root.h"
#include "drivers/tune_state.h"
#include "text/text_escape.h"
#include "text/text_width.h"

namespace gfxstat::cli {
namespace {

using text::escape_message;
using text::escape_text;

constexpr const char* kProg = "gfxstat tune";

// --root DIR: every /sys and /proc path under DIR. Refused unless a directory.
bool use_root(const std::string& root, const std::string& prog) {
    if (root.empty()) return true;
    struct stat st {};
    if (::stat(root.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        std::fprintf(stderr, "%s: --root %s: not a directory\n", prog.c_str(), escape_text(root).c_str());
        return false;
    }
    drivers::set_system_root(root);
    return true;
}

void print_report(const drivers::TuneReport& r, const std::string& prog) {
    for (const auto& c : r.changes) std::printf("%s\n", escape_message(c).c_str());
    for (const auto& n : r.notes) std::fprintf(stderr, "%s: note: %s\n", prog.c_str(), escape_message(n).c_str());
    for (const auto& w : r.warnings) std::fprintf(stderr, "%s: warning: %s\n", prog.c_str(), escape_message(w).c_str());
}

int show_main(int argc, char** argv) {
    CLI::App app{"The check gfxstat run, ab and campaign make before measuring, as a table: what could add noise "
                 "and what to do about it.",
                 "gfxstat tune show"};
    bool json = false;
    std::string root;
    int width = text::kDefaultWidth;
    app.add_flag("--json", json, "as JSON");
    app.add_option("--root", root, "read /sys and /proc under DIR (default: GFXSTAT_SYSFS_ROOT, else /)");
    app.add_option("--width", width, "text: lines at most this many columns, 40 to 1000 (default 72: a mail reply)")
        ->check(CLI::Range(text::kMinWidth, text::kMaxWidth));
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    if (!use_root(root, "gfxstat tune show")) return 2;
    std::vector<drivers::MissingSource> missing;
    const auto findings = drivers::check_machine(&missing);
    const std::string out = json ? report::tune_show_json(findings)
                                 : report::tune_show_text(findings, missing, static_cast<size_t>(width));
    std::fputs(out.c_str(), stdout);
    return 0;
}

int apply_main(int argc, char** argv) {
    CLI::App app{"Set the machine up for measuring: CPU governor performance, turbo off, GPU frequency pinned. The "
                 "original values are saved first; gfxstat tune reset puts them back.",
                 "gfxstat tune apply"};
    std::string freq = "rp1", level = "profile_standard", root;
    const auto* gpu_freq =
        app.add_option("--gpu-freq", freq, "i915/xe GPU frequency: MHZ, rp0 or rp1 (xe: rpe; default rp1)");
    app.add_option("--amdgpu-level", level, "amdgpu power_dpm_force_performance_level (default profile_standard)")
        ->check(CLI::IsMember({"profile_standard", "manual"}));
    app.add_option("--root", root, "write /sys under DIR (default: GFXSTAT_SYSFS_ROOT, else /)");
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    const std::string prog = "gfxstat tune apply";
    if (!use_root(root, prog)) return 2;
    drivers::TuneRequest req;
    const auto target = drivers::parse_gpu_frequency(freq);
    if (!target) {
        std::fprintf(stderr, "%s: --gpu-freq wants MHz (1 to 100000), rp0 or rp1, not '%s'\n", prog.c_str(),
                     escape_text(freq).c_str());
        return 2;
    }
    req.gpu = *target;
    req.gpu_freq_given = gpu_freq->count() > 0;
    req.amdgpu_level = level;
    try {
        const auto r = drivers::apply_tune(req);
        print_report(r, prog);
        if (!r.changes.empty())
            std::fprintf(stderr, "%s: %s %s; gfxstat tune reset restores them\n", prog.c_str(),
                         r.saved_now ? "the original values are saved in" : "the first apply's originals are kept in",
                         escape_text(drivers::tune_state_path()).c_str());
    } catch (const drivers::TuneError& e) {
        std::fprintf(stderr, "%s: %s\n", prog.c_str(), escape_message(e.what()).c_str());
        return e.exit_code();
    }
    return 0;
}

int reset_main(int argc, char** argv) {
    CLI::App app{"Put back the values gfxstat tune apply found, byte for byte, and forget the saved state.",
                 "gfxstat tune reset"};
    std::string root;
    app.add_option("--root", root, "write /sys under DIR (default: GFXSTAT_SYSFS_ROOT, else /)");
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    const std::string prog = "gfxstat tune reset";
    if (!use_root(root, prog)) return 2;
    try {
        print_report(drivers::reset_tune(), prog);
    } catch (const drivers::TuneError& e) {
        std::fprintf(stderr, "%s: %s\n", prog.c_str(), escape_message(e.what()).c_str());
        return e.exit_code();
    }
    return 0;
}

void usage(FILE* out) {
    std::fprintf(out,
                 "usage: gfxstat tune show [--json] [--root DIR] [--width N]\n"
                 "       gfxstat tune apply [--gpu-freq MHZ|rp0|rp1] [--amdgpu-level profile_standard|manual] "
                 "[--root DIR]\n"
                 "       gfxstat tune reset [--root DIR]\n"
                 "\n"
                 "  show    what could add noise to measurements, and what to do (the check run makes)\n"
                 "  apply   CPU governor performance, turbo off, GPU frequency pinned; originals saved\n"
                 "  reset   the saved originals written back, byte for byte\n");
}

// The subcommands for gfxstat __describe tune (man page, completion), as usage() words them.
const SubcommandSummary kSubcommands[] = {
    {"show", "what could add noise to measurements, and what to do (the check run makes)"},
    {"apply", "CPU governor performance, turbo off, GPU frequency pinned; originals saved"},
    {"reset", "the saved originals written back, byte for byte"},
};

}  // namespace

int tune_main(int argc, char** argv) {
    if (argc < 2 && describe_requested())
        return describe_fixed({kProg, "Steady CPU and GPU settings for measuring, applied and reset exactly.",
                               "See docs/tune.md.", {}, {std::begin(kSubcommands), std::end(kSubcommands)}, {}});
    if (argc < 2) {
        std::fprintf(stderr, "%s: missing SUBCOMMAND (show, apply or reset)\n", kProg);
        usage(stderr);
        return 2;
    }
    const std::string sub = argv[1];
    if (sub == "show") return show_main(argc - 1, argv + 1);
    if (sub == "apply") return apply_main(argc - 1, argv + 1);
    if (sub == "reset") return reset_main(argc - 1, argv + 1);
    if (sub == "-h" || sub == "--help" || sub == "help") {
        usage(stdout);
        return 0;
    }
    // "--aply" is "apply" typed as an option: the subcommand is suggested
    // for it (nearest_words offers options only for options).
    const size_t bare = sub.find_first_not_of('-');
    std::fprintf(stderr, "%s: unknown subcommand '%s'%s\n", kProg, escape_text(sub).c_str(),
                 text::did_you_mean(bare == std::string::npos ? sub : sub.substr(bare), {"show", "apply", "reset"}).c_str());
    usage(stderr);
    return 2;
}

}  // namespace gfxstat::cli
