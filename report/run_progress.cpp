// SPDX-License-Identifier: MIT
#include "report/run_progress.h"

#include "drivers/image_check_pass.h"

#include <cmath>
#include <cstdio>

#include "text/text_escape.h"

namespace gfxstat::report {

using text::escape_text;

namespace {

// "1:02" or "1:02:03".
std::string clock_text(double seconds) {
    if (!(seconds >= 0) || !std::isfinite(seconds)) return "?";
    const long s = std::lround(seconds);
    char buf[32];
    if (s >= 3600) std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}

}  // namespace

std::string run_progress_line(const drivers::RunProgress& p) {
    const data::RunRecord& r = *p.record;
    char buf[512];
    // A failed run names the run it was to be: after "run 2/50 ok" comes
    // "run 3/50 fail" (measured counts only the ok runs).
    const size_t number = p.measured + (r.exit_class == data::ExitClass::ok ? 0 : 1);
    const std::string head = p.warmup ? "warm-up" : "run " + std::to_string(number) + "/" + std::to_string(p.planned);
    std::string text = head + " " + data::exit_class_name(r.exit_class);
    if (r.duration_s) {
        std::snprintf(buf, sizeof buf, " %.3g s", *r.duration_s);
        text += buf;
    }
    if (!r.exit_reason.empty()) text += " (" + r.exit_reason + ")";
    if (p.estimate && !p.metric.empty()) {
        // The running estimate of the tracked metric and its interval.
        std::snprintf(buf, sizeof buf, "  %s: %s %.6g", p.metric.c_str(), p.mean ? "mean" : "median", *p.estimate);
        text += buf;
        if (p.half_width) {
            std::snprintf(buf, sizeof buf, " +- %.3g", *p.half_width);
            text += buf;
        }
        if (!p.unit.empty()) text += " " + p.unit;
    }
    if (p.seconds_per_run > 0 && p.planned > p.measured)
        text += "  ETA " + clock_text(p.seconds_per_run * static_cast<double>(p.planned - p.measured));
    return text;
}

std::vector<std::string> run_end_lines(const drivers::RunPlan& plan, const drivers::RunReport& report) {
    std::vector<std::string> out;
    std::string done = std::to_string(report.measured) + " measured run" + (report.measured == 1 ? "" : "s");
    if (report.warmups) done += ", " + std::to_string(report.warmups) + " warm-up" + (report.warmups == 1 ? "" : "s");
    if (report.failed) done += ", " + std::to_string(report.failed) + " failed";
    if (report.invalid) done += " (" + std::to_string(report.invalid) + " invalid: the kernel reported GPU trouble)";
    out.push_back(done + " of '" + escape_text(plan.variant) + "' recorded in " + escape_text(plan.results_path));
    if (!plan.runs && report.outcome == drivers::RunOutcome::completed) {
        char buf[256];
        if (report.target_reached)
            std::snprintf(buf, sizeof buf, "target reached: the interval's half-width is %.3g%% (target %g%%)",
                          *report.last_half_width_pct, plan.target_ci_pct);
        else
            std::snprintf(buf, sizeof buf, "note: --max-runs %zu reached before the target: half-width %s (target %g%%)",
                          plan.max_runs,
                          report.last_half_width_pct
                              ? (std::to_string(*report.last_half_width_pct).substr(0, 6) + "%").c_str()
                              : "unknown",
                          plan.target_ci_pct);
        out.push_back(buf);
    }
    if (report.checks.runs) out.push_back(drivers::image_check_pass_line(report.checks));
    return out;
}

}  // namespace gfxstat::report
