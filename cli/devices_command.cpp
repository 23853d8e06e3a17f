// SPDX-License-Identifier: MIT
// gfxstat devices: the DRM devices libdrm finds, as a table or JSON
// (report/devices_render.h).
#include "cli/devices_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>

#include "cli/command_line.h"
#include "drivers/drm_devices.h"
#include "report/devices_render.h"
#include "text/text_width.h"

namespace gfxstat::cli {

int devices_main(int argc, char** argv) {
    CLI::App app{"The DRM devices of this machine (libdrm): nodes, driver, bus, and which native "
                 "workloads (drm-ioctl, drm-gem, i915-exec-nop) can run on each.",
                 "gfxstat devices"};
    bool as_json = false;
    int width = text::kDefaultWidth;
    app.add_flag("--json", as_json, "JSON for machines: {\"devices\": [...]}");
    app.add_option("--width", width, "text: lines at most this many columns, 40 to 1000 (default 72: a mail reply)")
        ->check(CLI::Range(text::kMinWidth, text::kMaxWidth));
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    const auto devices = drivers::list_drm_devices();
    std::string out = as_json ? report::devices_json(devices) : report::devices_text(devices, static_cast<size_t>(width));
    std::error_code ec;
    if (devices.empty() && !as_json && std::filesystem::exists("/dev/dri", ec))
        out = report::no_devices_text(static_cast<size_t>(width));
    std::fputs(out.c_str(), stdout);
    return 0;
}

}  // namespace gfxstat::cli
