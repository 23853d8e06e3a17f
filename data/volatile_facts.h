// SPDX-License-Identifier: MIT
// Which environment fields are facts of the moment rather than of the
// configuration: the one place that says so, for every command.
//
// Why a class of its own: the environment probe records, with each run,
// both what the developer set up (kernel, command line, governor, driver,
// the GPU's clock limits) and what the machine happened to read at that
// instant (the load average, temperatures, the clocks the GPU ran at, a
// throttle reason). Two runs of the same configuration seconds apart
// almost always differ in the second kind. Listing those as "differences
// between variants", or advising to split a table by them (--row, --col),
// makes every report cry wolf and hides the differences that matter. They
// are context: shown as ranges over the runs, and a finding only when
// they differ systematically between variants (findings/volatile_context.h).
#pragma once

#include <optional>
#include <string_view>

namespace gfxstat::data {

// load_average, temp_<chip>, gpu[N]_cur_freq_mhz, gpu[N]_act_freq_mhz,
// gpu[N]_sclk_mhz and gpu[N]_throttle (docs/results-format.md). The
// limits (gpu_min/max/boost_freq_mhz), the governor and the turbo state
// are configuration: a user or `gfxstat tune` sets them.
bool is_volatile_field(std::string_view field);

// A volatile field's value as one number: the load average's first figure
// (the last minute), degrees C, MHz; a throttle field reads 1 when a
// reason is set and 0 for "none". nullopt: not a volatile field, or a
// value that does not read as a number.
std::optional<double> volatile_reading(std::string_view field, std::string_view value);

}  // namespace gfxstat::data
