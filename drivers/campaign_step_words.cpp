// SPDX-License-Identifier: MIT
#include "drivers/campaign_step_words.h"

#include <cstdio>
#include <vector>

#include "drivers/run_loop.h"
#include "text/number_format.h"

namespace gfxstat::drivers {

std::string step_result_words(const data::RunRecord& run, const data::ResultsFile& file, const std::string& tracked) {
    std::string line = data::exit_class_name(run.exit_class);
    if (run.duration_s) {
        char buf[32];
        std::snprintf(buf, sizeof buf, " %.3g s", *run.duration_s);
        line += buf;
    }
    if (run.exit_class != data::ExitClass::ok) {
        if (!run.exit_reason.empty()) line += " (" + run.exit_reason + ")";
        return line;
    }
    std::string name = tracked;
    if (name.empty() || !run.metric(name)) {
        std::vector<data::MetricInfo> seen;
        for (const auto& m : run.metrics)
            if (const data::MetricInfo* info = file.find_metric(m.name)) seen.push_back(*info);
        name = default_tracked(seen);
    }
    const data::MetricValues* m = name.empty() ? nullptr : run.metric(name);
    if (m && !m->values.empty()) {
        const data::MetricInfo* info = file.find_metric(name);
        const std::string unit = info && !info->unit.empty() ? " " + info->unit : "";
        line += ": " + name + " ";
        if (m->values.size() == 1) line += text::number_g(run_median(*m), 4) + unit;  // the token's value, decimal or binary
        else line += "median " + text::number_g(run_median(*m), 4) + unit + " of " + std::to_string(m->values.size()) + " values";
    }
    if (!run.exit_reason.empty()) line += " (" + run.exit_reason + ")";
    return line;
}

}  // namespace gfxstat::drivers
