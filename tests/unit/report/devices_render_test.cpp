// SPDX-License-Identifier: MIT
// gfxstat devices' renderings: the table and the JSON document, for no
// device, a vgem device (platform bus, both nodes) and an i915 device on
// PCI whose primary node may not be opened.
#include "report/devices_render.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "data/gfxstat_version.h"

namespace gfxstat::report {
namespace {

using drivers::DrmDeviceInfo;

std::vector<DrmDeviceInfo> two_devices() {
    DrmDeviceInfo i915;
    i915.primary = "/dev/dri/card0";
    i915.render = "/dev/dri/renderD128";
    i915.primary_error = drivers::drm_permission_message("/dev/dri/card0");
    i915.driver = drivers::DrmDriverInfo{"i915", "1.6.0", "20201103", "Intel Graphics"};
    i915.dumb_buffers = true;
    i915.bus = {"pci", "8086", "162b", "17aa", "2227", "09", "0000:00:02.0"};
    i915.workloads = drivers::drm_workload_support(i915);
    DrmDeviceInfo vgem;
    vgem.primary = "/dev/dri/card1";
    vgem.render = "/dev/dri/renderD129";
    vgem.driver = drivers::DrmDriverInfo{"vgem", "1.0.0", "20120112", "Virtual GEM provider"};
    vgem.dumb_buffers = true;
    vgem.bus.type = "platform";
    vgem.bus.address = "vgem";
    vgem.workloads = drivers::drm_workload_support(vgem);
    return {i915, vgem};
}

TEST(DevicesRender, NoDevice) {
    EXPECT_EQ(devices_text({}, 72), "no DRM devices found (no /dev/dri)\n");
    EXPECT_EQ(no_devices_text(72),
              "no DRM devices found (/dev/dri has no card or render node that libdrm or\n"
              "  a scan recognises)\n");
    const nlohmann::json none = {{"devices", nlohmann::json::array()}, {"gfxstat_version", data::gfxstat_version()}};
    EXPECT_EQ(nlohmann::json::parse(devices_json({})), none);
}

TEST(DevicesRender, Json) {
    const auto j = nlohmann::json::parse(devices_json(two_devices()));
    auto expected = nlohmann::json::parse(R"J({"devices": [
      {"nodes": {"primary": "/dev/dri/card0", "render": "/dev/dri/renderD128"},
       "driver": {"name": "i915", "version": "1.6.0", "date": "20201103", "description": "Intel Graphics"},
       "open_errors": {"primary": "no permission to open /dev/dri/card0 (add yourself to the video/render group)"},
       "dumb_buffers": true,
       "bus": {"type": "pci", "vendor": "8086", "device": "162b", "subsystem_vendor": "17aa",
               "subsystem_device": "2227", "revision": "09", "address": "0000:00:02.0"},
       "workloads": {"drm-ioctl": {"runnable": true},
                     "drm-gem": {"runnable": false, "why": "no permission to open /dev/dri/card0 (add yourself to the video/render group)"},
                     "i915-exec-nop": {"runnable": true}}},
      {"nodes": {"primary": "/dev/dri/card1", "render": "/dev/dri/renderD129"},
       "driver": {"name": "vgem", "version": "1.0.0", "date": "20120112", "description": "Virtual GEM provider"},
       "dumb_buffers": true,
       "bus": {"type": "platform", "address": "vgem"},
       "workloads": {"drm-ioctl": {"runnable": true}, "drm-gem": {"runnable": true},
                     "i915-exec-nop": {"runnable": false, "why": "the driver is vgem, not i915"}}}]})J");
    expected["gfxstat_version"] = data::gfxstat_version();  // every JSON output names its gfxstat
    EXPECT_EQ(j, expected) << j.dump(2);
}

TEST(DevicesRender, Table) {
    EXPECT_EQ(devices_text(two_devices(), 120),
              "PRIMARY         RENDER               DRIVER  VERSION  DATE      BUS\n"
              "/dev/dri/card0  /dev/dri/renderD128  i915    1.6.0    20201103  pci 8086:162b sub 17aa:2227 rev 09 (0000:00:02.0)\n"
              "  Intel Graphics\n"
              "  no permission to open /dev/dri/card0 (add yourself to the video/render group)\n"
              "  drm-ioctl     runnable\n"
              "  drm-gem       not runnable: no permission to open /dev/dri/card0 (add yourself to the video/render group)\n"
              "  i915-exec-nop runnable\n"
              "/dev/dri/card1  /dev/dri/renderD129  vgem    1.0.0    20120112  platform (vgem)\n"
              "  Virtual GEM provider\n"
              "  drm-ioctl     runnable\n"
              "  drm-gem       runnable\n"
              "  i915-exec-nop not runnable: the driver is vgem, not i915\n");
}

// What the kernel says of a driver (name, version, description) reaches
// the table escaped: an escape sequence cannot reach the terminal, a
// newline cannot split a row. JSON keeps the text as it is.
TEST(DevicesRender, TextFromTheKernelEscaped) {
    DrmDeviceInfo d;
    d.render = "/dev/dri/renderD128";
    d.driver = drivers::DrmDriverInfo{"evil\x1b]0;pwned\x07", "1.0\n2", "2024", "line one\nline two \xc2\x9b"};
    d.bus.type = "platform";
    d.bus.address = "x\x1b[2J";
    const std::string text = devices_text({d}, 100);
    EXPECT_EQ(text,
              "PRIMARY  RENDER               DRIVER                VERSION  DATE  BUS\n"
              "-        /dev/dri/renderD128  evil\\x1b]0;pwned\\x07  1.0\\n2   2024  platform (x\\x1b[2J)\n"
              "  line one\\nline two \\u009b\n");
    const auto j = nlohmann::json::parse(devices_json({d}));
    EXPECT_EQ(j["devices"][0]["driver"]["name"], "evil\x1b]0;pwned\x07");
    EXPECT_EQ(j["devices"][0]["driver"]["description"], "line one\nline two \xc2\x9b");
}

TEST(DevicesRender, NarrowWidth) {
    // 72 columns (a mail reply): the PCI row is 105 wide, so each device's
    // cells go on lines of their own; every line fits and nothing is cut.
    EXPECT_EQ(devices_text(two_devices(), 72),
              "primary /dev/dri/card0, render /dev/dri/renderD128\n"
              "  driver i915 1.6.0 (20201103)\n"
              "  bus pci 8086:162b sub 17aa:2227 rev 09 (0000:00:02.0)\n"
              "  Intel Graphics\n"
              "  no permission to open /dev/dri/card0 (add yourself to the video/render\n"
              "    group)\n"
              "  drm-ioctl     runnable\n"
              "  drm-gem       not runnable: no permission to open /dev/dri/card0 (add\n"
              "                yourself to the video/render group)\n"
              "  i915-exec-nop runnable\n"
              "primary /dev/dri/card1, render /dev/dri/renderD129\n"
              "  driver vgem 1.0.0 (20120112)\n"
              "  bus platform (vgem)\n"
              "  Virtual GEM provider\n"
              "  drm-ioctl     runnable\n"
              "  drm-gem       runnable\n"
              "  i915-exec-nop not runnable: the driver is vgem, not i915\n");
    // A device whose row fits the width: the table.
    auto vgem = two_devices();
    vgem.erase(vgem.begin());
    EXPECT_EQ(devices_text(vgem, 79),
              "PRIMARY         RENDER               DRIVER  VERSION  DATE      BUS\n"
              "/dev/dri/card1  /dev/dri/renderD129  vgem    1.0.0    20120112  platform (vgem)\n"
              "  Virtual GEM provider\n"
              "  drm-ioctl     runnable\n"
              "  drm-gem       runnable\n"
              "  i915-exec-nop not runnable: the driver is vgem, not i915\n");
    for (size_t width : {40u, 50u, 72u}) {
        std::istringstream in(devices_text(two_devices(), width));
        for (std::string l; std::getline(in, l);) EXPECT_LE(l.size(), width) << l;
    }
}

}  // namespace
}  // namespace gfxstat::report
