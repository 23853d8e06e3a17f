// SPDX-License-Identifier: MIT
#include "findings/campaign_design.h"

namespace gfxstat::findings {

CampaignDesignFacts campaign_design_facts(const drivers::CampaignStatus& s) {
    const auto& st = s.state;
    CampaignDesignFacts d;
    d.name = s.plan.name;
    d.runs_done = st.done_count;
    d.runs_total = st.done.size();
    d.boots_per_variant = s.plan.boots_per_variant;
    d.runs_per_boot = s.plan.runs_per_boot;
    d.warmup_runs = s.plan.warmup_runs;
    for (const auto& v : s.plan.variants) d.reboot_variants |= v.reboot;
    for (size_t v = 0; v < s.plan.variants.size(); ++v) d.variants.push_back({s.plan.variants[v].label, s.variant_boots[v].size()});
    for (const auto& a : st.anomalies) {
        d.deploy_failed += a.kind == "deploy_failed";
        d.unexpected_reboots += a.kind == "unexpected_reboot";
        d.interrupted_runs += a.kind == "interrupted_run";
        d.failed_runs += a.kind == "failed_run" || a.kind == "given_up";
    }
    d.complete = st.complete();
    d.simulated_note = drivers::simulated_boots_note(s.simulated);
    return d;
}

}  // namespace gfxstat::findings
