// SPDX-License-Identifier: MIT
#include "drivers/system_root.h"

#include <cstdlib>
#include <mutex>
#include <optional>

namespace gfxstat::drivers {
namespace {

std::mutex g_mutex;
std::optional<std::string> g_override;

std::string normalised(std::string root) {
    while (!root.empty() && root.back() == '/') root.pop_back();  // "/" is the real root
    return root;
}

}  // namespace

std::string system_root() {
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        if (g_override) return *g_override;
    }
    const char* env = std::getenv("GFXSTAT_SYSFS_ROOT");
    return normalised(env ? env : "");
}

void set_system_root(std::string root) {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (root.empty())
        g_override.reset();
    else
        g_override = normalised(std::move(root));
}

std::string system_path(std::string_view absolute_path) { return system_root() + std::string(absolute_path); }

}  // namespace gfxstat::drivers
