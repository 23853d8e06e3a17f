// SPDX-License-Identifier: MIT
// The hint that follows "no numbers in the output" from the lines parser:
// a command that prints nothing (`gfxstat run -- true`) was most likely
// meant to be timed. `gfxstat run` names its option; a campaign's runs are
// set by its plan, so there the hint names the plan's key instead.
#pragma once

#include <string>
#include <string_view>

namespace gfxstat::formats {

inline constexpr std::string_view kTimeHintRun = "to time the command itself, use --parser time";
inline constexpr std::string_view kTimeHintPlan =
    "to time the command itself, set \"parser\": \"time\" in the plan's workload";

// `reason` (a run's exit reason) with run's wording of the hint replaced
// by the plan's.
inline std::string with_plan_time_hint(std::string reason) {
    if (const size_t at = reason.find(kTimeHintRun); at != std::string::npos)
        reason.replace(at, kTimeHintRun.size(), kTimeHintPlan);
    return reason;
}

}  // namespace gfxstat::formats
