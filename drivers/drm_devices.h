// SPDX-License-Identifier: MIT
// The DRM devices of this machine, as libdrm sees them (drmGetDevices2,
// drmGetVersion, drmGetCap), for `gfxstat devices` and for choosing the
// node a native workload (drivers/drm_workloads.h) runs on. Nodes libdrm
// does not report (a bus it does not know) are found in /dev/dri and
// listed too, with the bus type sysfs gives.
//
// Nothing here throws for a missing or unreadable device: a node that
// cannot be opened is listed with the reason, and the workloads that need
// it are marked not runnable, with the reason.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gfxstat::drivers {

struct DrmDriverInfo {
    std::string name;         // "i915", "vgem", "amdgpu"
    std::string version;      // "1.6.0": major.minor.patchlevel
    std::string date;         // "20201103"
    std::string description;  // "Intel Graphics"
};

struct DrmBusInfo {
    // "pci", "usb", "platform", "host1x"; for a node libdrm did not report,
    // the sysfs subsystem name ("faux", ...); "" when unknown.
    std::string type;
    // PCI: 4 lower-case hex digits each (revision: 2). USB: vendor and
    // device are the vendor and product ids. Empty when not known.
    std::string vendor, device, subsystem_vendor, subsystem_device, revision;
    // PCI "0000:00:02.0"; USB "BUS:DEV"; platform/host1x the device name.
    std::string address;
};

// Whether one native workload can run on a device, and why not.
struct DrmWorkloadSupport {
    std::string workload;  // "drm-ioctl", "drm-gem", "i915-exec-nop"
    bool runnable = false;
    std::string why;       // empty when runnable
};

struct DrmDeviceInfo {
    std::string primary;  // "/dev/dri/card0"; "" when the device has none
    std::string render;   // "/dev/dri/renderD128"; "" when none
    // Why a node could not be opened ("no permission to open NODE (add
    // yourself to the video/render group)"); empty when it opened or is absent.
    std::string primary_error, render_error;
    std::optional<DrmDriverInfo> driver;  // from the first node that opened (render first)
    // DRM_CAP_DUMB_BUFFER; for drivers without KMS (vgem), whose GET_CAP
    // refuses the capability, whether a small dumb buffer could be created
    // on the primary node. Unset when no node opened.
    std::optional<bool> dumb_buffers;
    DrmBusInfo bus;
    std::vector<DrmWorkloadSupport> workloads;  // drm_workload_names(), in order
};

// "drm-ioctl", "drm-gem", "i915-exec-nop".
const std::vector<std::string>& drm_workload_names();

// Which workloads can run on `d`, from its fields only (no I/O):
//   drm-ioctl      a node that opens (render, else primary);
//   drm-gem        a node that opens and dumb-buffer support, and a primary
//                  node that opens (the dumb-buffer ioctls are refused on
//                  render nodes);
//   i915-exec-nop  the driver is i915 and a node opens.
std::vector<DrmWorkloadSupport> drm_workload_support(const DrmDeviceInfo& d);

// "no permission to open NODE (add yourself to the video/render group)".
std::string drm_permission_message(const std::string& node);

// Every DRM device, primary nodes by number, then render-only devices;
// `workloads` filled in. Empty when there is no /dev/dri.
std::vector<DrmDeviceInfo> list_drm_devices();

// The device in `devices` one of whose nodes is `node` (compared after
// resolving symlinks), or nullptr.
const DrmDeviceInfo* find_drm_device(const std::vector<DrmDeviceInfo>& devices, const std::string& node);

}  // namespace gfxstat::drivers
