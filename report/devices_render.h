// SPDX-License-Identifier: MIT
// gfxstat devices' renderings of the DRM devices drivers/drm_devices.h lists.
#pragma once
#include <string>
#include <vector>

#include "drivers/drm_devices.h"

namespace gfxstat::report {
// A table per device, or "no DRM devices found (no /dev/dri)\n"; and the
// JSON document {"devices": [...]} (docs/workloads.md), indented by 2.
std::string devices_text(const std::vector<drivers::DrmDeviceInfo>& devices);
std::string devices_json(const std::vector<drivers::DrmDeviceInfo>& devices);
}  // namespace gfxstat::report
