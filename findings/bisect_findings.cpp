// SPDX-License-Identifier: MIT
#include "findings/bisect_findings.h"

#include <algorithm>

#include "data/input_error.h"
#include "drivers/git_revisions.h"

namespace gfxstat::findings {

std::string BisectFindings::subject_of(const std::string& commit) const {
    for (const auto& s : log.steps)
        if (s.commit == commit) return s.subject;
    return "";
}

void read_bisect_findings(const std::string& path, BisectFindings& out) {
    out.log = data::read_bisect_log(path);
    const data::BisectLog& log = out.log;
    out.refs = analysis::bisect_references(log.plan.good.values, log.plan.bad.values, drivers::bisect_options(log.plan));
    out.views.clear();
    for (const auto& s : log.steps) {
        BisectStepView v{&s, {}};
        try {
            v.look = analysis::bisect_look(out.refs, s.values);
        } catch (const std::invalid_argument& e) {
            throw data::input_error(path, 0, "step of " + drivers::short_commit_id(s.commit) + ": " + e.what());
        }
        out.views.push_back(v);
    }
    out.first = drivers::first_bad_commit(log);
    out.tested = std::count_if(log.steps.begin(), log.steps.end(), [](const auto& s) { return s.call != "skip"; });
    out.over_budget = log.steps.size() > log.plan.expected_steps;
}

}  // namespace gfxstat::findings
