// SPDX-License-Identifier: MIT
// What the machine looked like when a run was made, for the results file's
// environment records: kernel, command line, CPU model, governor and turbo,
// load average, DRM devices (libdrm), GPU frequencies and throttle reasons
// (i915, xe, amdgpu sysfs), temperatures (hwmon). A source that is missing
// on this machine is simply absent, never an error.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "data/results_model.h"

namespace gfxstat::drivers {

// The current boot's id: the file named by the GFXSTAT_BOOT_ID_FILE
// environment variable when it is set and non-empty (tests simulate reboots
// with it), else /proc/sys/kernel/random/boot_id; its contents with
// surrounding whitespace trimmed. "" when that file cannot be read.
std::string current_boot_id();

struct ProbeOptions {
    // Prefix for every path read (/proc, /sys): tests point it at a fake
    // tree. Empty (or "/"): the real root. Under a non-empty root, the
    // uname(2) fields come from the tree too (see below) and libdrm is not
    // asked (it can only see this machine's /dev/dri).
    std::string root;
    bool drm = true;  // ask libdrm for devices
};

// Fields (data::Environment::fields) use the names of docs/results-format.md.
// A field is present only when its source exists and reads cleanly; a
// missing file, a read error or content that does not parse leaves it out.
// Never throws. `id` and `tags` are left empty.
//
//   hostname, kernel_release   uname(2) nodename, release; under a root:
//                              proc/sys/kernel/hostname, osrelease
//   kernel_cmdline             /proc/cmdline, trimmed
//   machine                    "m-" + 16 hex digits: a digest of
//                              /etc/machine-id (32 hex digits, not all 0),
//                              else of DMI product_name and product_serial
//                              (root only; placeholder serials ignored);
//                              the key of a machine in a fleet
//   load_average               /proc/loadavg, first three fields "0.12 0.30 0.25"
//   cpu_model                  /proc/cpuinfo, the first "model name"
//   cpu_count                  /sys/devices/system/cpu/online ("0-3" → "4")
//   cpu_governor               cpu<N>/cpufreq/scaling_governor of every CPU:
//                              the distinct values, sorted, comma-separated
//   cpu_turbo                  "on"/"off": intel_pstate/no_turbo (1 = off)
//                              if it reads 0 or 1, else cpufreq/boost (1 = on)
//   temp_<chip>                /sys/class/hwmon/hwmon*/name = <chip> (lower
//                              case, other than [a-z0-9_] → '_'): the highest
//                              temp*_input (millidegrees) of all hwmon devices
//                              of that name, in degrees C with one decimal
//
// DRM devices: the cards /sys/class/drm/card<N> (connectors such as
// card0-eDP-1 are not cards), joined with libdrm's drmGetDevices2() when
// `drm` is on (matched by primary node name; a render-only device is placed
// after the cards as renderD<N>). Ordered by card number, the first device's
// fields are named gpu_*, the next ones gpu1_*, gpu2_*, ... For each:
//   gpu_driver           drmGetVersion() name on the render node, else the
//                        primary node (opened O_RDONLY; a node we may not
//                        open is skipped); otherwise the basename of the
//                        sysfs device/driver symlink (the bound kernel
//                        driver: the same name for i915, xe, amdgpu, radeon,
//                        nouveau, but not for every driver)
//   gpu_driver_version   drmGetVersion() "major.minor.patchlevel" (libdrm only)
//   gpu_pci_id           "8086:162b": libdrm's PCI device info, else sysfs
//                        device/vendor and device/device
//   gpu_{min,max,boost,cur,act}_freq_mhz
//                        i915 card<N>/gt_<x>_freq_mhz; when none of those
//                        exists, xe device/tile0/gt0/freq0/<x>_freq (no boost)
//   gpu_throttle         non-zero reasons, sorted, comma-separated ("pl1,thermal"),
//                        "none" when all read 0: i915 gt/gt0/throttle_reason_<r>,
//                        else xe device/tile0/gt0/freq0/throttle/reason_<r>;
//                        "status" only when it alone is set
//   gpu_sclk_mhz         amdgpu device/pp_dpm_sclk, the level marked '*'
//   gpu_performance_level amdgpu device/power_dpm_force_performance_level
// Only the first GT (gt0) of i915 and xe is read.
data::Environment probe_environment(const ProbeOptions& options = {});

// The probe of a run loop: the same fields as probe_environment, with what
// cannot change while the machine stays up read once and only the rest at
// every run (at the real root through descriptors kept open: the load
// average, the CPUs online, the CPUs' directory, the boot id). Once per
// boot (per `boot_id` given) and per set of devices:
// kernel_release (under a root; at the real root uname(2) is one system
// call and runs each time), kernel_cmdline, machine, cpu_model, and which
// DRM devices and hwmon sensors there are with their driver, version, PCI
// id and sensor names. At every run: hostname, load_average, cpu_count,
// cpu_governor, cpu_turbo (tunables: `gfxstat tune` and --prepare hooks
// change them), the GPUs' clocks, throttle reasons and DPM state, and the
// temperatures. The set of devices is told by the entries of
// /sys/class/drm, /sys/class/hwmon and /sys/class/thermal with their inode
// numbers, listed at every run: sysfs makes new nodes for a device
// registered again (a driver rebound, a module reloaded), so its identity
// is read again then.
class EnvironmentProbe {
public:
    explicit EnvironmentProbe(const ProbeOptions& options = {});
    ~EnvironmentProbe();
    EnvironmentProbe(EnvironmentProbe&&) noexcept;
    EnvironmentProbe& operator=(EnvironmentProbe&&) noexcept;

    // What probe_environment(options) would give now. Never throws.
    data::Environment probe(const std::string& boot_id = "");

    // current_boot_id(), read through a descriptor kept open at the real
    // root (drivers/kept_files.h). Never throws.
    std::string boot_id();

    // At the real root, after a probe: whether /sys/class/drm held a card
    // or render node then (machine_has_drm_devices, from the listing the
    // probe makes anyway). nullopt under a root, or before a probe.
    std::optional<bool> drm_device_listed() const;

    // How many times the fields that stay were read: 1 in a loop on one
    // boot whose devices stay. What else depends on the devices (the GPU
    // clock sampler's files) is found again when it grows.
    size_t static_probes() const { return static_probes_; }

private:
    struct Facts;
    struct Kept;
    std::string root_;
    bool drm_ = true;
    std::unique_ptr<Facts> facts_;
    // At the real root: the files read at every run, kept open.
    std::unique_ptr<Kept> kept_;
    size_t static_probes_ = 0;
};

}  // namespace gfxstat::drivers
