// SPDX-License-Identifier: MIT
// The DRM devices libdrm lists (drmGetDevices2), walked once for both who
// ask: `gfxstat devices` (drivers/drm_devices) and the environment probe
// (drivers/environment_probe). libdrm's own types stay out of the header.
#pragma once

#include <functional>
#include <string>

struct _drmDevice;  // xf86drm.h's drmDevice

namespace gfxstat::drivers {

// Calls `visit` for each device libdrm lists with a primary or a render
// node, with the nodes' paths ("/dev/dri/card0", "/dev/dri/renderD128";
// "" where the device has no such node). A device with neither is skipped;
// libdrm's list is freed after the walk.
void for_each_libdrm_device(
    const std::function<void(const _drmDevice& device, const std::string& primary, const std::string& render)>& visit);

}  // namespace gfxstat::drivers
