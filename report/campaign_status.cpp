// SPDX-License-Identifier: MIT
#include "report/campaign_status.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "report/json_version.h"
#include "text/plural.h"
#include "text/text_escape.h"

namespace gfxstat::report {

namespace {

using text::escape_message;
using text::escape_text;
using text::plural;

// A duration as [Dd ]H:MM:SS; "?" when unknown.
std::string clock_text(double seconds) {
    if (!(seconds >= 0) || !std::isfinite(seconds)) return "?";
    const long s = std::lround(seconds);
    char buf[48];
    if (s >= 86400) std::snprintf(buf, sizeof buf, "%ldd %ld:%02ld:%02ld", s / 86400, s / 3600 % 24, s / 60 % 60, s % 60);
    else std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    return buf;
}

// Measured steps done without a value, named by why: "" when none, else
// `lead` and "1 given up, 2 failed" (the counts that are not 0).
std::string not_measured_words(const drivers::MeasuredTally& t, const char* lead) {
    std::string w;
    if (t.given_up) w += std::to_string(t.given_up) + " given up";
    if (t.failed) w += (w.empty() ? "" : ", ") + std::to_string(t.failed) + " failed";
    return w.empty() ? w : lead + w;
}

}  // namespace

std::string campaign_status_json(const drivers::CampaignStatus& s) {
    const auto& st = s.state;
    const size_t remaining = st.done.size() - st.done_count;
    const auto slot = st.current_slot(s.plan);
    nlohmann::ordered_json j;
    cli::add_gfxstat_version(j);
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
    return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

void print_campaign_status(const drivers::CampaignStatus& s, const std::string& dir, FILE* out) {
    const auto& st = s.state;
    const size_t remaining = st.done.size() - st.done_count;
    const auto slot = st.current_slot(s.plan);
    // The plan's name and labels, halt reasons and anomalies' details (exit
    // reasons, boot ids) come from the campaign's files: escaped.
    std::fprintf(out, "campaign %s (%s): %s\n", escape_text(s.plan.name).c_str(), escape_text(dir).c_str(),
                      escape_message(s.phase).c_str());
    if (st.halted) std::fprintf(out, "  halted   %s\n", escape_message(st.halt_reason).c_str());
    std::fprintf(out, "  runs     %zu of %zu done (%zu of %zu measured%s), %zu to go\n", st.done_count, st.done.size(),
                      st.measured_done, s.plan.measured_steps(), not_measured_words(s.measured, "; ").c_str(), remaining);
    std::fprintf(out, "  boots    %s; %s used, %s of at most %zu%s\n",
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
        std::fprintf(out, "  ETA      %s\n", eta.c_str());
    }
    for (size_t v = 0; v < s.plan.variants.size(); ++v)
        std::fprintf(out, "  %-8s %zu of %s, %zu of %zu measured in %s\n", v == 0 ? "variants" : "", s.variant_done[v],
                          plural(s.variant_total[v], "run").c_str(), s.variant_measured[v].ok, s.variant_measured[v].total,
                          escape_text(plural(s.variant_boots[v].size(), "boot") +
                                      not_measured_words(s.variant_measured[v], ", ") + " (" + s.plan.variants[v].label + ")")
                              .c_str());
    if (!st.anomalies.empty()) {
        std::fprintf(out, "anomalies:\n");
        for (const auto& a : st.anomalies) {
            std::string where;
            if (a.slot) where += " slot " + std::to_string(*a.slot);
            if (a.step) where += " step " + std::to_string(*a.step);
            const std::string boot = a.boot.empty() ? "" : " boot " + drivers::boot_words(a.boot);
            std::fprintf(out, "  %s\n", escape_message(a.kind + where + boot + ": " + a.detail).c_str());
        }
    }
}

}  // namespace gfxstat::report
