// SPDX-License-Identifier: MIT
// A campaign walked on one machine without rebooting
// (`campaign resume DIR --simulate-reboots`, docs/campaign.md "Trying a
// plan safely"): where resume would reboot, it goes on as if a new boot had
// begun. The state machine tells boots apart by their ids, so each
// simulated boot has one of its own, made of the real boot id and a
// counter: "5d1c0b2e-...-3c8a6b1f2e90:simulated:3". Run records carry it
// as their `boot`, so that a results file says by itself that its boots
// were simulated, and an analysis groups runs by simulated boot, as the
// plan laid them out — while every run really ran in one boot, so the
// boot-to-boot variation it sees says nothing about reboots.
//
// A campaign is simulated or real, never both: its first resume decides
// (the journal's `simulation` event), and a resume of the other kind is
// refused, so that simulated boots never mix with real ones.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "data/results_model.h"
#include "drivers/campaign_state.h"

namespace gfxstat::drivers {

// "REAL:simulated:N".
std::string simulated_boot_id(const std::string& real_boot, uint64_t n);
// N of a simulated boot id; nullopt for any other boot id.
std::optional<uint64_t> simulated_boot_number(std::string_view boot);
// The real boot id a simulated one was made from; `boot` itself otherwise.
std::string_view real_boot_of(std::string_view boot);

// A boot id for messages, short: "5d1c0b2e", "5d1c0b2e (simulated boot 3)".
std::string boot_words(const std::string& boot);

// Why a resume of this kind (simulated or not) must not go on in a
// campaign of the other kind; "" when it may. `dir` names the campaign in
// the advice.
std::string simulation_conflict(const CampaignState& state, bool simulate, const std::string& dir);

// The simulated boot a resume with --simulate-reboots is in when it starts
// a campaign that already began its simulation: the last simulated boot,
// when the machine has not really rebooted since (nothing happened that
// the simulation would call a reboot); else, after a real reboot, a new
// simulated boot of the new real one.
std::string simulated_boot_at_start(const CampaignState& state, const std::string& real_boot);

// What a results file's boot ids say about simulated boots: how many
// runs, in how many simulated boots, of how many real ones.
struct SimulatedBoots {
    size_t runs = 0, simulated_boots = 0, real_boots = 0;
    size_t other_runs = 0;  // runs with a boot id that is not simulated
};
SimulatedBoots count_simulated_boots(const data::ResultsFile& file);

// The note for an analysis of such runs ("" when none is simulated): that
// the boots are simulated, and what the boot-level analysis then measures.
std::string simulated_boots_note(const SimulatedBoots& boots);

}  // namespace gfxstat::drivers
