// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <vector>

#include "drivers/drm_devices.h"

namespace gfxstat::cli {
// gfxstat devices [--json]: the DRM devices of this machine (libdrm), their
// nodes, driver, bus, and which native workloads can run on each.
int devices_main(int argc, char** argv);

// The renderings devices_main prints, for tests: a table per device, or
// "no DRM devices found (no /dev/dri)\n"; and the JSON document
// {"devices": [...]} (docs/workloads.md), indented by 2.
std::string devices_text(const std::vector<drivers::DrmDeviceInfo>& devices);
std::string devices_json(const std::vector<drivers::DrmDeviceInfo>& devices);
}  // namespace gfxstat::cli
