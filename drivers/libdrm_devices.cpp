// SPDX-License-Identifier: MIT
#include "drivers/libdrm_devices.h"

#include <xf86drm.h>

#include <vector>

namespace gfxstat::drivers {

void for_each_libdrm_device(
    const std::function<void(const _drmDevice& device, const std::string& primary, const std::string& render)>& visit) {
    const int count = drmGetDevices2(0, nullptr, 0);
    if (count <= 0) return;
    std::vector<drmDevicePtr> devs(static_cast<size_t>(count), nullptr);
    const int got = drmGetDevices2(0, devs.data(), count);
    if (got <= 0) return;
    for (int i = 0; i < got; ++i) {
        const drmDevicePtr dev = devs[static_cast<size_t>(i)];
        if (!dev) continue;
        const auto node = [&](int kind) {
            return (dev->available_nodes & (1 << kind)) && dev->nodes[kind] ? std::string(dev->nodes[kind])
                                                                            : std::string();
        };
        const std::string primary = node(DRM_NODE_PRIMARY), render = node(DRM_NODE_RENDER);
        if (primary.empty() && render.empty()) continue;
        visit(*dev, primary, render);
    }
    drmFreeDevices(devs.data(), got);
}

}  // namespace gfxstat::drivers
