// SPDX-License-Identifier: MIT
// gfxstat devices' renderings of the DRM devices drivers/drm_devices.h lists.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "drivers/drm_devices.h"

namespace gfxstat::report {
// A table per device, its lines at most `width` columns (the devices'
// cells on lines of their own when the table is wider), or "no DRM devices
// found (no /dev/dri)\n"; and the JSON document {"devices": [...]}
// (docs/workloads.md), indented by 2.
std::string devices_text(const std::vector<drivers::DrmDeviceInfo>& devices, size_t width);
// What devices_text says instead when /dev/dri exists but holds no node
// that was recognised, wrapped at `width`.
std::string no_devices_text(size_t width);
std::string devices_json(const std::vector<drivers::DrmDeviceInfo>& devices);
}  // namespace gfxstat::report
