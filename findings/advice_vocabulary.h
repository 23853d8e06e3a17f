// SPDX-License-Identifier: MIT
// How a report's advice names the knobs that change a measurement. The
// same finding ("the first value differs: leave it out as a warm-up")
// points at `gfxstat run --warmup` for a results file made by run, ab or
// an import, but at the plan's `warmup_runs` inside a campaign, where the
// runs are set by the plan and not by options. The default is run's
// wording; `gfxstat campaign analyze` passes the plan's member names.
#pragma once

#include <string>

namespace gfxstat::cli {

struct AdviceVocabulary {
    std::string warmup = "gfxstat run --warmup";  // runs left out at the start
    // Each "" leaves the advice unqualified ("a cooldown between runs"); a
    // name is added in parentheses ("a cooldown between runs (the plan's
    // cooldown_s)").
    std::string cooldown;    // a pause between runs
    std::string more_boots;  // measuring over more boots
    std::string more_runs;   // more runs within a boot
    // How to get the whole report from the short one: compare's and
    // campaign analyze's own option; ab, whose runs are done, names the
    // compare command on its results file.
    std::string full_report = "--full";
};

// " (NAME)", or "" when the knob is not named.
inline std::string knob_words(const std::string& name) { return name.empty() ? "" : " (" + name + ")"; }

}  // namespace gfxstat::cli
