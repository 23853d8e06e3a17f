// SPDX-License-Identifier: MIT
// amdgpu's binary device/gpu_metrics file: the layouts gfxstat reads of it
// (the kernel's struct gpu_metrics_v1_1 to v1_3, for discrete GPUs, and
// v2_1 and v2_2, for APUs, in drivers/gpu/drm/amd/include/
// kgd_pp_interface.h). Each begins with {uint16 structure_size, uint8
// format_revision, uint8 content_revision}; from v1_4 on (and v2_3 on)
// the members moved, so those, and anything else, are not read: a layout
// misread would report throttling that did not happen.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace gfxstat::drivers {

struct GpuMetricsReading {
    // current_gfxclk (MHz) and throttle_status (ASIC-dependent bits: any
    // set is a throttle); absent when the firmware leaves them all ones,
    // its "not supported".
    std::optional<uint32_t> current_gfxclk_mhz;
    std::optional<uint32_t> throttle_status;
};

// nullopt for a layout gfxstat does not read, or bytes too short for the
// size the header claims.
std::optional<GpuMetricsReading> parse_gpu_metrics(std::string_view bytes);

}  // namespace gfxstat::drivers
