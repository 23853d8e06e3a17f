// SPDX-License-Identifier: MIT
#include "drivers/campaign_commands.h"

#include <sys/utsname.h>

#include "data/file_read.h"
#include "drivers/process_runner.h"
#include "drivers/run_end_words.h"

namespace gfxstat::drivers {

namespace {

// Why a plan's command failed, from its log: the last line it printed
// (run_loop's skip_reason, which also knows IGT's requirement block).
std::string reason_in_log(const std::string& path) {
    try {
        return skip_reason("", data::read_whole_file(path));
    } catch (const std::exception&) {
        return "";
    }
}

bool succeeded(const ProcessResult& pr) { return pr.ended == ProcessResult::Ended::exited && pr.exit_code == 0; }

std::string shell_quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'') out += "'\\''";
        else out += c;
    }
    return out + "'";
}

}  // namespace

// A plan's command (before_reboot, reboot_command, expect.command), its
// output kept in DIR/hooks/NAME.log; "" when it succeeded, else why.
std::string run_plan_command(const PlanCommand& c, const std::string& log, double timeout_s) {
    ProcessSpec spec;
    spec.argv = c.argv;
    spec.stdout_path = log;
    spec.stderr_path = log;
    spec.timeout_s = timeout_s;
    const ProcessResult pr = run_process(spec);
    if (succeeded(pr)) return "";
    const std::string why = reason_in_log(log);
    return "'" + c.text() + "' failed (" + describe_end(pr) + ")" + (why.empty() ? "" : ": " + why) + "; its output: " + log;
}

// A setup command as a --prepare line (run_loop runs hooks with sh -c).
std::string shell_line(const PlanCommand& c) {
    if (c.shell) return c.argv[2];
    std::string line;
    for (const auto& a : c.argv) line += (line.empty() ? "" : " ") + shell_quote(a);
    return line;
}

std::string kernel_release() {
    utsname u{};
    return uname(&u) == 0 ? u.release : "";
}

// Whether this boot runs the slot's variant(s): "" yes, else why not.
std::string check_expect(const CampaignPlan& plan, const CampaignSlot& slot, const CampaignFiles& files,
                         const std::string& tag) {
    for (size_t v : slot.variants) {
        const CampaignVariant& var = plan.variants[v];
        const VariantExpect& e = var.expect;
        if (!e.kernel_release.empty()) {
            const std::string r = kernel_release();
            if (r != e.kernel_release)
                return "'" + var.label + "' expects kernel " + e.kernel_release + ", but " + r + " is running";
        }
        if (!e.kernel_cmdline_contains.empty()) {
            std::string cmdline;
            try {
                cmdline = data::read_whole_file("/proc/cmdline");
            } catch (const std::exception&) {
            }
            if (cmdline.find(e.kernel_cmdline_contains) == std::string::npos)
                return "'" + var.label + "' expects '" + e.kernel_cmdline_contains + "' in the kernel command line";
        }
        if (!e.command.empty()) {
            const std::string why = run_plan_command(
                e.command, files.hooks + "/expect-" + tag + "-" + std::to_string(v) + ".log", 300);
            if (!why.empty()) return "'" + var.label + "': expect.command " + why;
        }
    }
    return "";
}

}  // namespace gfxstat::drivers
