// SPDX-License-Identifier: MIT
#include "report/ab_progress.h"

#include <cmath>
#include <cstdio>

#include "drivers/image_check_pass.h"
#include "report/signed_percent.h"
#include "text/number_format.h"
#include "text/plural.h"
#include "text/text_escape.h"

namespace gfxstat::report {

using text::escape_message;
using text::escape_text;
using text::plural;

std::string ab_plan_line(const drivers::AbPlan& plan, const std::vector<std::string>& variants,
                         const std::string& order_name, double confidence, double threshold_pct) {
    char buf[256];
    std::string line = std::to_string(variants.size()) + " variants, baseline '" + escape_text(variants[0]) +
                       "'; order " + order_name;
    if (plan.order == drivers::AbOrder::random) line += " (--seed " + std::to_string(plan.seed) + " repeats it)";
    if (plan.blocks) {
        line += "; " + std::to_string(*plan.blocks) + " blocks";
    } else {
        std::snprintf(buf, sizeof buf, "; stops when settled (%s at %g%%, threshold %g%%), at most %zu blocks",
                      drivers::ab_stop_method(plan.stop), 100 * confidence, threshold_pct, plan.max_blocks);
        line += buf;
        if (plan.stop == drivers::AbStop::group) {
            // The looks are the design: say them before the first run.
            line += "; looks at blocks";
            const std::vector<size_t> looks = drivers::ab_sequential_options(plan, confidence).looks;
            for (size_t i = 0; i < looks.size(); ++i) line += (i ? ", " : " ") + std::to_string(looks[i]);
        }
    }
    return line;
}

std::string ab_run_line(const drivers::AbRunProgress& p) {
    const data::RunRecord& r = *p.record;
    std::string line = (p.warmup ? std::string("warm-up ") : "block " + std::to_string(p.block + 1) + " ") +
                       r.variant + " " + data::exit_class_name(r.exit_class);
    if (r.duration_s) {
        char buf[32];
        std::snprintf(buf, sizeof buf, " %.3g s", *r.duration_s);
        line += buf;
    }
    if (!r.exit_reason.empty()) line += " (" + r.exit_reason + ")";
    return line;
}

std::optional<std::string> ab_run_failure_line(const drivers::AbRunProgress& p) {
    const data::RunRecord& r = *p.record;
    if (r.exit_class == data::ExitClass::ok) return std::nullopt;
    return (p.warmup ? std::string("warm-up") : "block " + std::to_string(p.block + 1)) + " " +
           escape_text(r.variant) + ": " + data::exit_class_name(r.exit_class) +
           (r.exit_reason.empty() ? "" : " (" + escape_message(r.exit_reason) + ")");
}

std::vector<std::string> ab_block_lines(const drivers::AbBlockProgress& p, const std::vector<std::string>& labels,
                                        size_t first_bounded, double threshold_pct, bool fixed) {
    std::string head = "block " + std::to_string(p.block + 1) + "/" + std::to_string(p.planned) + " (";
    for (size_t i = 0; i < p.order.size(); ++i) {
        head += (i ? " " : "") + labels[p.order[i]];
        if (!p.ok[i]) head += " failed";
    }
    head += ")";
    std::vector<std::string> out;
    for (size_t c = 0; c < p.looks.size(); ++c) {
        const analysis::SequentialLook& l = p.looks[c];
        std::string line = head + ": " + labels[c + 1] + " vs " + labels[0];
        if (!p.metric.empty()) line += " " + p.metric;
        // Relative when the baseline's centre is not 0, else in the
        // metric's units.
        const bool relative = std::isfinite(l.relative_change);
        const bool bounded = std::isfinite(l.change_lower) && std::isfinite(l.change_upper) &&
                             !(l.log_ratio && !(l.lower > -1));
        if (l.blocks >= 1) line += " " + (relative ? signed_percent(l.relative_change) : text::signed_number_g(l.change, 4));
        if (fixed) {
            out.push_back(line);
            head = std::string(head.size(), ' ');
            continue;
        }
        if (bounded)
            line += relative ? " [" + signed_percent(l.lower) + ", " + signed_percent(l.upper) + "]"
                             : " [" + text::signed_number_g(l.change_lower, 4) + ", " + text::signed_number_g(l.change_upper, 4) + "]";
        if (l.call != analysis::SequentialCall::go_on) {
            line += std::string(": ") + analysis::sequential_call_name(l.call);
        } else if (!bounded && l.next_look) {
            line += " (" + plural(l.blocks, "complete block") + "; the next look is at block " +
                    std::to_string(*l.next_look) + ")";
        } else if (!bounded) {
            if (l.blocks >= first_bounded)
                line += " (the same difference in every block so far: no spread to judge it by yet)";
            else
                line += " (" + plural(l.blocks, "complete block") + "; the interval needs " +
                        std::to_string(first_bounded) + ")";
        } else {
            char buf[96];
            std::snprintf(buf, sizeof buf, ": the interval must leave 0 or fit inside +-%g%%", threshold_pct);
            line += buf;
        }
        out.push_back(line);
        head = std::string(head.size(), ' ');
    }
    return out;
}

std::string ab_recorded_line(const drivers::AbReport& r, const std::string& output) {
    std::string done = plural(r.blocks, "block") + (r.last_block_cut ? " (the last cut short)" : "") + ", " +
                       plural(r.measured, "measured run");
    if (r.warmups) done += ", " + plural(r.warmups, "warm-up");
    if (r.failed) done += ", " + std::to_string(r.failed) + " failed";
    done += " recorded in " + escape_text(output);
    if (r.checks.runs) done += "; " + drivers::image_check_pass_line(r.checks);
    return done;
}

std::string ab_too_few_runs(const drivers::AbReport& r, const std::vector<std::string>& variants, size_t v) {
    std::string why = "variant '" + variants[v] + "': " + plural(r.usable[v], "measured run") + " ended ok with " +
                      (r.metric.empty() ? std::string("a metric") : "'" + r.metric + "'") + "; a comparison needs 2";
    if (!r.last_failure[v].empty()) why += " (last failure: " + r.last_failure[v] + ")";
    return why;
}

std::string ab_end_line(const drivers::AbPlan& plan, const drivers::AbReport& r,
                        const std::vector<std::string>& variants, size_t max_runs) {
    if (plan.blocks) return "the " + std::to_string(*plan.blocks) + " blocks asked for are done";  // --runs >= 2
    if (r.settled)
        return "settled after " + std::to_string(r.blocks) + " blocks: every comparison's " +
               drivers::ab_stop_method(plan.stop) + " is decided";
    std::string line = "inconclusive after " + std::to_string(r.blocks) + " blocks (--max-runs " +
                       std::to_string(max_runs) + ")";
    for (size_t c = 0; c < r.looks.size(); ++c) {
        const analysis::SequentialLook& l = r.looks[c];
        if (l.call != analysis::SequentialCall::go_on) continue;
        line += "; " + escape_text(variants[c + 1]) + " vs " + escape_text(variants[0]) + ": ";
        if (l.blocks_to_settle)
            line += "about " + plural(*l.blocks_to_settle, "more block") + " would likely settle it";
        else
            line += "no estimate of the blocks it needs (no variability seen yet)";
    }
    return line;
}

}  // namespace gfxstat::report
