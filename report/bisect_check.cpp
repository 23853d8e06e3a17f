// SPDX-License-Identifier: MIT
// gfxstat bisect check's text and JSON: the references, the error
// budget, and whether they differ enough to bisect.
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "report/bisect_report.h"
#include "report/bisect_words.h"
#include "text/text_escape.h"

namespace gfxstat::report {

std::string bisect_check_json(const drivers::PreparedBisection& p, const analysis::BisectReferences& r) {
    nlohmann::json j = {
        {"metric", p.plan.metric},
        {"unit", p.plan.unit},
        {"log_scale", r.log_scale},
        {"good", {{"file", p.plan.good.file}, {"variant", p.plan.good.variant}, {"runs", r.good_runs},
                  {"center", r.good_center}}},
        {"bad", {{"file", p.plan.bad.file}, {"variant", p.plan.bad.variant}, {"runs", r.bad_runs},
                 {"center", r.bad_center}}},
        {"change", r.change},
        {"change_interval", {std::isfinite(r.change_lower) ? nlohmann::json(r.change_lower) : nlohmann::json(),
                             std::isfinite(r.change_upper) ? nlohmann::json(r.change_upper) : nlohmann::json()}},
        {"p", r.p},
        {"threshold", p.plan.threshold},
        {"confidence", p.plan.confidence},
        {"expected_steps", p.plan.expected_steps},
        {"step_alpha", r.step_alpha},
        {"expected_runs_per_step", r.expected_runs ? nlohmann::json(*r.expected_runs) : nlohmann::json()},
        {"differ", r.differ},
        {"why", r.why},
    };
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string bisect_check_text(const drivers::PreparedBisection& p, const analysis::BisectReferences& r) {
    std::string out = "gfxstat bisect check: ";
    for (const auto& line : bisect_reference_lines(p.plan, r)) out += line + "\n";
    out += "  (steps: " + p.steps_said + ")\n";
    out += (r.differ ? "ready to bisect: " : "nothing to bisect: ") + text::escape_text(r.why) + "\n";
    if (r.differ) {
        if (r.expected_runs)
            out += "a commit at either level should settle in about " +
                   std::to_string(std::max(*r.expected_runs, p.plan.min_runs)) + " runs (at most " +
                   std::to_string(p.plan.max_runs) + ")\n";
        else
            out += "warning: at this spread a commit may not settle within " + std::to_string(p.plan.max_runs) +
                   " runs (--max-runs); steps would be skipped undecided\n";
    }
    return out;
}

}  // namespace gfxstat::report
