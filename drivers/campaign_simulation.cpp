// SPDX-License-Identifier: MIT
#include "drivers/campaign_simulation.h"

#include <charconv>
#include <set>

namespace gfxstat::drivers {

namespace {

constexpr std::string_view kMark = ":simulated:";

}  // namespace

std::string simulated_boot_id(const std::string& real_boot, uint64_t n) {
    return real_boot + std::string(kMark) + std::to_string(n);
}

std::optional<uint64_t> simulated_boot_number(std::string_view boot) {
    const size_t at = boot.rfind(kMark);
    if (at == std::string_view::npos || at == 0) return std::nullopt;
    const std::string_view digits = boot.substr(at + kMark.size());
    if (digits.empty() || digits.size() > 19) return std::nullopt;
    uint64_t n = 0;
    const auto [end, err] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (err != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    return n;
}

std::string_view real_boot_of(std::string_view boot) {
    if (!simulated_boot_number(boot)) return boot;
    return boot.substr(0, boot.rfind(kMark));
}

std::string boot_words(const std::string& boot) {
    const std::string shown(real_boot_of(boot).substr(0, 8));
    if (const auto n = simulated_boot_number(boot)) return shown + " (simulated boot " + std::to_string(*n) + ")";
    return shown;
}

std::string simulation_conflict(const CampaignState& st, bool simulate, const std::string& dir) {
    if (simulate && !st.simulated && (st.real_activity || st.done_count > 0))
        return "this campaign has run for real (its journal holds real boots or runs); simulated boots would be "
               "mixed with them. To try the plan, lay it out again in a new directory "
               "(`gfxstat campaign init " + dir + "/plan.json -d NEW_DIR`) and `gfxstat campaign resume NEW_DIR "
               "--simulate-reboots` there";
    if (!simulate && st.simulated)
        return "this campaign's boots are simulated (it was started with `resume --simulate-reboots`); real boots "
               "would be mixed with them. Go on with `gfxstat campaign resume " + dir + " --simulate-reboots`, or "
               "lay the plan out again in a new directory for the real campaign (`gfxstat campaign init " + dir +
               "/plan.json -d NEW_DIR`)";
    return "";
}

std::string simulated_boot_at_start(const CampaignState& st, const std::string& real_boot) {
    const auto last = simulated_boot_number(st.last_simulated_boot);
    if (!last) return simulated_boot_id(real_boot, 0);
    if (real_boot_of(st.last_simulated_boot) == real_boot) return st.last_simulated_boot;
    return simulated_boot_id(real_boot, *last + 1);
}

SimulatedBoots count_simulated_boots(const data::ResultsFile& file) {
    SimulatedBoots b;
    std::set<std::string_view> simulated, real;
    for (const auto& r : file.runs()) {
        if (r.boot.empty()) continue;
        if (simulated_boot_number(r.boot)) {
            ++b.runs;
            simulated.insert(r.boot);
            real.insert(real_boot_of(r.boot));
        } else {
            ++b.other_runs;
        }
    }
    b.simulated_boots = simulated.size();
    b.real_boots = real.size();
    return b;
}

std::string simulated_boots_note(const SimulatedBoots& b) {
    if (b.runs == 0) return "";
    std::string note = std::to_string(b.runs) + (b.runs == 1 ? " run" : " runs") + " ran in " +
                       std::to_string(b.simulated_boots) + (b.simulated_boots == 1 ? " simulated boot" : " simulated boots") +
                       " (`campaign resume --simulate-reboots`), all in " +
                       (b.real_boots == 1 ? std::string("one real boot") : std::to_string(b.real_boots) + " real boots") +
                       ": the boot-level analysis (boot clustering, boot means, pairing by boot) groups runs as the "
                       "plan would, but measures nothing about reboots; a real campaign is needed for that";
    if (b.other_runs)
        note += "; " + std::to_string(b.other_runs) + (b.other_runs == 1 ? " run" : " runs") +
                " of real boots are mixed in, so boots compare unlike things";
    return note;
}

}  // namespace gfxstat::drivers
