// SPDX-License-Identifier: MIT
// DRM devices through libdrm, with /dev/dri as a fallback for nodes libdrm
// does not report. See drm_devices.h.
#include "drivers/drm_devices.h"
#include "drivers/libdrm_devices.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xf86drm.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace gfxstat::drivers {
namespace {

std::string hex(unsigned v, int digits) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%0*x", digits, v);
    return buf;
}

// The text of a name libdrm keeps in at most cap bytes, NUL-terminated or not.
std::string bounded(const char* s, size_t cap) { return std::string(s, strnlen(s, cap)); }

std::string canonical_or_self(const std::string& p) {
    std::error_code ec;
    const fs::path c = fs::canonical(p, ec);
    return ec ? p : c.string();
}

// Opens a node read-write (as the workloads do); on failure `error` says why.
int open_node(const std::string& node, std::string& error) {
    const int fd = ::open(node.c_str(), O_RDWR | O_CLOEXEC);
    if (fd >= 0) return fd;
    if (errno == EACCES || errno == EPERM) error = drm_permission_message(node);
    else error = "cannot open " + node + ": " + std::strerror(errno);
    return -1;
}

std::optional<DrmDriverInfo> driver_of(int fd) {
    drmVersionPtr v = drmGetVersion(fd);
    if (!v) return std::nullopt;
    DrmDriverInfo d;
    const auto text = [](const char* s, int len) {
        return s && len > 0 ? bounded(s, static_cast<size_t>(len)) : std::string();
    };
    d.name = text(v->name, v->name_len);
    d.date = text(v->date, v->date_len);
    d.description = text(v->desc, v->desc_len);
    d.version = std::to_string(v->version_major) + "." + std::to_string(v->version_minor) + "." +
                std::to_string(v->version_patchlevel);
    drmFreeVersion(v);
    return d;
}

// A 4x4, 32 bpp dumb buffer created and destroyed: for drivers without KMS
// (vgem), whose DRM_IOCTL_GET_CAP refuses DRM_CAP_DUMB_BUFFER.
bool can_create_dumb(int fd) {
    drm_mode_create_dumb create{};
    create.width = 4;
    create.height = 4;
    create.bpp = 32;
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create) != 0) return false;
    drm_mode_destroy_dumb destroy{};
    destroy.handle = create.handle;
    drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
    return true;
}

// Opens the nodes, asks for the driver and the dumb-buffer capability.
void probe(DrmDeviceInfo& d) {
    int render_fd = -1, primary_fd = -1;
    if (!d.render.empty()) render_fd = open_node(d.render, d.render_error);
    if (!d.primary.empty()) primary_fd = open_node(d.primary, d.primary_error);
    for (int fd : {render_fd, primary_fd})
        if (fd >= 0 && !d.driver) d.driver = driver_of(fd);
    const int any = render_fd >= 0 ? render_fd : primary_fd;
    if (any >= 0) {
        uint64_t value = 0;
        if (drmGetCap(any, DRM_CAP_DUMB_BUFFER, &value) == 0) d.dumb_buffers = value != 0;
        // Without KMS the cap is refused: try a buffer on the primary node,
        // and when that node does not open, leave it unknown (the reason
        // is then the permission, not the driver).
        else if (primary_fd >= 0) d.dumb_buffers = can_create_dumb(primary_fd);
    }
    if (render_fd >= 0) ::close(render_fd);
    if (primary_fd >= 0) ::close(primary_fd);
}

// "card3" -> 3 with prefix "card"; nullopt otherwise.
std::optional<unsigned> node_number(const std::string& name, const std::string& prefix) {
    if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size() || name.size() > prefix.size() + 6) return {};
    if (name.find_first_not_of("0123456789", prefix.size()) != std::string::npos) return {};
    return static_cast<unsigned>(std::stoul(name.substr(prefix.size())));
}

// Sort key: primary nodes by number, then render-only devices by number.
std::pair<int, unsigned> sort_key(const DrmDeviceInfo& d) {
    if (!d.primary.empty())
        if (auto n = node_number(fs::path(d.primary).filename().string(), "card")) return {0, *n};
    if (!d.render.empty())
        if (auto n = node_number(fs::path(d.render).filename().string(), "renderD")) return {1, *n};
    return {2, 0};
}

std::vector<DrmDeviceInfo> from_libdrm() {
    std::vector<DrmDeviceInfo> out;
    for_each_libdrm_device([&](const drmDevice& device, const std::string& primary, const std::string& render) {
        const drmDevice* dev = &device;
        DrmDeviceInfo d;
        d.primary = primary;
        d.render = render;
        switch (dev->bustype) {
            case DRM_BUS_PCI:
                d.bus.type = "pci";
                if (dev->deviceinfo.pci) {
                    const auto* p = dev->deviceinfo.pci;
                    d.bus.vendor = hex(p->vendor_id, 4);
                    d.bus.device = hex(p->device_id, 4);
                    d.bus.subsystem_vendor = hex(p->subvendor_id, 4);
                    d.bus.subsystem_device = hex(p->subdevice_id, 4);
                    d.bus.revision = hex(p->revision_id, 2);
                }
                if (dev->businfo.pci) {
                    const auto* b = dev->businfo.pci;
                    char buf[32];
                    std::snprintf(buf, sizeof buf, "%04x:%02x:%02x.%u", b->domain, b->bus, b->dev, b->func);
                    d.bus.address = buf;
                }
                break;
            case DRM_BUS_USB:
                d.bus.type = "usb";
                if (dev->deviceinfo.usb) {
                    d.bus.vendor = hex(dev->deviceinfo.usb->vendor, 4);
                    d.bus.device = hex(dev->deviceinfo.usb->product, 4);
                }
                if (dev->businfo.usb)
                    d.bus.address = std::to_string(dev->businfo.usb->bus) + ":" + std::to_string(dev->businfo.usb->dev);
                break;
            case DRM_BUS_PLATFORM:
                d.bus.type = "platform";
                if (dev->businfo.platform)
                    d.bus.address = bounded(dev->businfo.platform->fullname, DRM_PLATFORM_DEVICE_NAME_LEN);
                break;
            case DRM_BUS_HOST1X:
                d.bus.type = "host1x";
                if (dev->businfo.host1x)
                    d.bus.address = bounded(dev->businfo.host1x->fullname, DRM_HOST1X_DEVICE_NAME_LEN);
                break;
            default: break;
        }
        out.push_back(std::move(d));
    });
    return out;
}

// Nodes in /dev/dri that libdrm left out, grouped by their sysfs device.
void add_unreported_nodes(std::vector<DrmDeviceInfo>& out) {
    std::set<std::string> known;
    for (const auto& d : out)
        for (const std::string& n : {d.primary, d.render})
            if (!n.empty()) known.insert(canonical_or_self(n));
    std::error_code ec;
    std::map<std::string, DrmDeviceInfo> by_device;  // sysfs device path -> device
    for (const auto& e : fs::directory_iterator("/dev/dri", ec)) {
        const std::string name = e.path().filename().string();
        const bool card = node_number(name, "card").has_value();
        const bool render = node_number(name, "renderD").has_value();
        if (!card && !render) continue;
        const std::string node = e.path().string();
        if (known.count(canonical_or_self(node))) continue;
        std::error_code ec2;
        const fs::path sys = fs::canonical("/sys/class/drm/" + name + "/device", ec2);
        const std::string key = ec2 ? node : sys.string();
        DrmDeviceInfo& d = by_device[key];
        (card ? d.primary : d.render) = node;
        if (!ec2) {
            const fs::path subsystem = fs::canonical(sys / "subsystem", ec2);
            if (!ec2) d.bus.type = subsystem.filename().string();
            d.bus.address = sys.filename().string();
        }
    }
    for (auto& [key, d] : by_device) out.push_back(std::move(d));
}

}  // namespace

const std::vector<std::string>& drm_workload_names() {
    static const std::vector<std::string> names{"drm-ioctl", "drm-gem", "i915-exec-nop"};
    return names;
}

std::string drm_permission_message(const std::string& node) {
    return "no permission to open " + node + " (add yourself to the video/render group)";
}

std::vector<DrmWorkloadSupport> drm_workload_support(const DrmDeviceInfo& d) {
    // Why no node opened: the render node's reason first, as it is tried first.
    std::string closed = !d.render_error.empty() ? d.render_error : d.primary_error;
    if (closed.empty()) closed = "no node of this device could be opened";
    const bool opened = d.driver.has_value();
    const std::string driver = opened ? d.driver->name : "";

    std::vector<DrmWorkloadSupport> out;
    DrmWorkloadSupport ioctl{"drm-ioctl", opened, opened ? "" : closed};
    out.push_back(ioctl);

    DrmWorkloadSupport gem{"drm-gem", false, ""};
    if (!opened) gem.why = closed;
    else if (d.dumb_buffers && !*d.dumb_buffers)
        gem.why = driver + " does not support dumb buffers (DRM_CAP_DUMB_BUFFER)";
    else if (d.primary.empty())
        gem.why = "no primary node (the dumb-buffer ioctls need /dev/dri/cardN)";
    else if (!d.primary_error.empty())
        gem.why = d.primary_error;
    else if (!d.dumb_buffers)
        gem.why = driver + ": dumb-buffer support unknown";
    else
        gem.runnable = true;
    out.push_back(gem);

    DrmWorkloadSupport nop{"i915-exec-nop", false, ""};
    if (!opened) nop.why = closed;
    else if (driver != "i915") nop.why = "the driver is " + driver + ", not i915";
    else nop.runnable = true;
    out.push_back(nop);
    return out;
}

std::vector<DrmDeviceInfo> list_drm_devices() {
    std::error_code ec;
    if (!fs::exists("/dev/dri", ec)) return {};
    std::vector<DrmDeviceInfo> out = from_libdrm();
    add_unreported_nodes(out);
    for (auto& d : out) {
        probe(d);
        d.workloads = drm_workload_support(d);
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const DrmDeviceInfo& a, const DrmDeviceInfo& b) { return sort_key(a) < sort_key(b); });
    return out;
}

const DrmDeviceInfo* find_drm_device(const std::vector<DrmDeviceInfo>& devices, const std::string& node) {
    const std::string want = canonical_or_self(node);
    for (const auto& d : devices)
        for (const std::string& n : {d.primary, d.render})
            if (!n.empty() && (n == node || canonical_or_self(n) == want)) return &d;
    return nullptr;
}

}  // namespace gfxstat::drivers
