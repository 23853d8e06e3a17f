// SPDX-License-Identifier: MIT
// Small reads of sysfs shared by the environment probe and the GPU clock
// sampler, and where the GPU drivers keep their frequency and throttle
// files: one table of paths, so the two never disagree about a driver.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gfxstat::drivers {

std::string_view trim_space(std::string_view s);

// The contents of `path`, read with plain read(2) (sysfs and procfs report
// a size of 0 or 4096 whatever they hold), at most `limit` bytes. nullopt
// when the file cannot be opened or a read fails (sysfs attributes answer
// EIO, ENODATA, ... when the hardware cannot say).
std::optional<std::string> read_sysfs_text(const std::string& path, size_t limit = 64 * 1024);
// The trimmed, non-empty contents of `path`.
std::optional<std::string> read_sysfs_trimmed(const std::string& path);
// A non-negative decimal integer ("300\n", "0300").
std::optional<uint64_t> parse_sysfs_unsigned(std::string_view text);
std::optional<uint64_t> read_sysfs_unsigned(const std::string& path);

// Entries of `dir` named prefix + digits ("card0", "hwmon3"), sorted by
// number. Empty when the directory cannot be listed.
std::vector<std::pair<unsigned, std::string>> numbered_entries(const std::string& dir, std::string_view prefix);

// ---- the drivers' files, under a card's directory /sys/class/drm/cardN --

// i915: cardN/gt_<which>_freq_mhz, which = min, max, boost, cur (requested),
// act (actual), of the first GT.
std::string i915_freq_file(const std::string& card_dir, std::string_view which);
// xe: cardN/device/tile0/gt0/freq0/<which>_freq (MHz): min, max, cur, act.
std::string xe_freq_file(const std::string& card_dir, std::string_view which);

// Throttle reasons: i915 cardN/gt/gt0/throttle_reason_<r> with
// throttle_reason_status (the OR of all); xe freq0/throttle/reason_<r>
// with status.
struct ThrottleFiles {
    std::string dir;
    std::string prefix;       // "throttle_reason_" / "reason_"
    std::string status_file;  // "throttle_reason_status" / "status"
};
ThrottleFiles i915_throttle_files(const std::string& card_dir);
ThrottleFiles xe_throttle_files(const std::string& card_dir);
// The named reasons that exist in `t.dir`, (reason, path), sorted by
// reason; the status file is not one.
std::vector<std::pair<std::string, std::string>> throttle_reason_files(const ThrottleFiles& t);

// amdgpu: cardN/device/pp_dpm_sclk, one line per shader-clock level,
// the current one marked '*' ("1: 1800Mhz *").
std::string amdgpu_sclk_file(const std::string& card_dir);
// amdgpu: cardN/device/gpu_metrics, binary (drivers/amdgpu_gpu_metrics.h).
std::string amdgpu_gpu_metrics_file(const std::string& card_dir);
// The MHz of the level marked '*'; nullopt when none is or it does not parse.
std::optional<uint64_t> current_sclk_mhz(std::string_view pp_dpm_sclk);

}  // namespace gfxstat::drivers
