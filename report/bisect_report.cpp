// SPDX-License-Identifier: MIT
// gfxstat bisect report: the references, one row per step (commit, runs,
// estimate against the good build, evidence, call), and the first bad
// commit with the evidence on both sides; as text, markdown or JSON.
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "drivers/git_revisions.h"
#include "report/bisect_report.h"
#include "report/bisect_words.h"
#include "text/text_escape.h"

namespace gfxstat::report {

using drivers::short_commit_id;
using text::escape_text;

namespace {

std::string step_estimate(const findings::BisectStepView& v) {
    if (v.step->values.empty()) return "";
    return signed_percent(v.look.estimate) + bisect_look_interval(v.look);
}

// Why a commit is called what it is: its step's estimate, or the bisection's
// own good or bad commit and the references' runs.
std::string evidence(const findings::BisectFindings& f, const std::optional<size_t>& step, const std::string& commit,
                     bool bad_side) {
    if (step) {
        const findings::BisectStepView& v = f.views[*step];
        return short_commit_id(commit) + " " + step_estimate(v) + " against good after " +
               std::to_string(v.step->values.size()) + " runs (" + v.step->call + ", step " +
               std::to_string(*step + 1) + ")";
    }
    return short_commit_id(commit) + " is the bisection's " + (bad_side ? "bad" : "good") + " commit (" +
           (bad_side ? signed_percent(f.refs.change) + " against good, " + std::to_string(f.refs.bad_runs) + " runs"
                     : std::to_string(f.refs.good_runs) + " runs") +
           ")";
}

}  // namespace

std::string bisect_report_json(const findings::BisectFindings& f) {
    using nlohmann::json;
    const data::BisectLog& log = f.log;
    const analysis::BisectReferences& refs = f.refs;
    const auto& views = f.views;
    const auto num = [](double x) { return std::isfinite(x) ? json(x) : json(); };
    json steps = json::array();
    for (size_t i = 0; i < views.size(); ++i) {
        const auto& s = *views[i].step;
        steps.push_back({{"step", i + 1},
                         {"commit", s.commit},
                         {"subject", s.subject},
                         {"build", s.build},
                         {"runs", s.values.size()},
                         {"failed_runs", s.failed_runs},
                         {"estimate", s.values.empty() ? json() : num(views[i].look.estimate)},
                         {"interval", {num(views[i].look.lower), num(views[i].look.upper)}},
                         {"position", s.values.empty() ? json() : num(views[i].look.position)},
                         {"evidence", s.values.empty() ? json() : num(views[i].look.evidence)},
                         {"call", s.call},
                         {"exit", s.exit},
                         {"reason", s.reason}});
    }
    json j = {{"metric", log.plan.metric},
              {"unit", log.plan.unit},
              {"good", {{"file", log.plan.good.file}, {"variant", log.plan.good.variant}, {"runs", refs.good_runs},
                        {"center", refs.good_center}}},
              {"bad", {{"file", log.plan.bad.file}, {"variant", log.plan.bad.variant}, {"runs", refs.bad_runs},
                       {"center", refs.bad_center}}},
              {"change", refs.change},
              {"change_interval", {num(refs.change_lower), num(refs.change_upper)}},
              {"confidence", log.plan.confidence},
              {"expected_steps", log.plan.expected_steps},
              {"step_alpha", refs.step_alpha},
              {"evidence_needed", refs.evidence_needed},
              {"steps", steps},
              {"over_budget", f.over_budget}};
    if (f.first) {
        j["first_bad"] = {{"commit", f.first->commit}, {"subject", f.subject_of(f.first->commit)},
                          {"good_parent", f.first->parent}, {"candidates", f.first->candidates}};
    } else {
        j["first_bad"] = nullptr;
    }
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string bisect_report_text(const findings::BisectFindings& f, bool md) {
    const data::BisectLog& log = f.log;
    const auto& views = f.views;
    std::string out;
    std::vector<std::string> head = bisect_reference_lines(log.plan, f.refs);
    if (md) {
        out += "**gfxstat bisect** — " + head[0] + "\n\n";
        for (size_t i = 1; i < head.size(); ++i) out += "- " + head[i].substr(head[i].find_first_not_of(' ')) + "\n";
        out += "\n| step | commit | runs | against good | evidence | call | subject |\n|---:|---|---:|---|---:|---|---|\n";
    } else {
        out += "gfxstat bisect: " + head[0] + "\n";
        for (size_t i = 1; i < head.size(); ++i) out += head[i] + "\n";
        out += "\nstep  commit        runs  against good                 evidence  call  subject\n";
    }
    for (size_t i = 0; i < views.size(); ++i) {
        const auto& s = *views[i].step;
        std::string est = step_estimate(views[i]);
        if (s.build == "failed") est = "build failed";
        char ev[32] = "";
        if (!s.values.empty()) std::snprintf(ev, sizeof ev, "%+.1f", views[i].look.evidence);
        std::string subj = escape_text(s.subject);
        if (md) {
            // '|' would end the cell.
            std::string cell;
            for (char c : subj) cell += c == '|' ? std::string("\\|") : std::string(1, c);
            out += "| " + std::to_string(i + 1) + " | `" + short_commit_id(s.commit) + "` | " +
                   std::to_string(s.values.size()) + " | " + est + " | " + ev + " | " + s.call + " | " + cell + " |\n";
        } else {
            char buf[160];
            std::snprintf(buf, sizeof buf, "%4zu  %-12s  %4zu  %-27s  %8s  %-4s  ", i + 1,
                          short_commit_id(s.commit).c_str(), s.values.size(), est.c_str(), ev, s.call.c_str());
            out += buf + subj + "\n";
        }
    }
    out += "\n";
    if (f.over_budget) {
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "note: %zu steps against a budget made for %zu: the chance that one was wrong is up to "
                      "%.3g%%, not %.3g%%\n",
                      log.steps.size(), log.plan.expected_steps,
                      100 * f.refs.step_alpha * static_cast<double>(log.steps.size() + 1),
                      100 * (1 - log.plan.confidence));
        out += buf;
    }
    if (const auto& first = f.first) {
        const std::string subj = f.subject_of(first->commit);
        out += std::string(md ? "**first bad commit:** `" : "first bad commit: ") + first->commit +
               (md ? "`" : "") + (subj.empty() ? "" : " \"" + escape_text(subj) + "\"") + "\n";
        out += std::string(md ? "- " : "  ") + "bad:  " + evidence(f, first->commit_step, first->commit, true) + "\n";
        out += std::string(md ? "- " : "  ") + "good: " + evidence(f, first->parent_step, first->parent, false) + "\n";
        if (first->candidates > 1)
            out += "warning: " + std::to_string(first->candidates) +
                   " commits called bad have a parent called good: the steps disagree (a merge, or a wrong "
                   "call); the last one tested is shown\n";
    } else {
        out += "first bad commit: not shown by the steps yet (" + std::to_string(f.tested) + " commit" +
               (f.tested == 1 ? "" : "s") + " called, " + std::to_string(log.steps.size() - f.tested) +
               " skipped)\n";
    }
    return out;
}

}  // namespace gfxstat::report
