// SPDX-License-Identifier: MIT
// DRM clients as /proc/PID/fdinfo/FD shows them (the kernel's
// Documentation/gpu/drm-usage-stats.rst): which processes hold which DRM
// device, and the GPU time and memory each client has used. Read by the
// pre-measure check ("Xorg (pid 812) and firefox (pid 1440) also use
// card0") and by the per-run GPU time sampler.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gfxstat::drivers {

// One open DRM file as its fdinfo describes it. Only the keys the kernel
// document names are read; others are ignored, and so is a line that does
// not parse (a newer kernel may add forms this code does not know).
struct DrmFdinfo {
    std::string driver;                   // drm-driver: "i915", "amdgpu", "xe", "msm"
    std::string pdev;                     // drm-pdev: "0000:00:02.0" (PCI), or a platform name
    std::optional<uint64_t> client_id;    // drm-client-id: unique per open DRM file, per device
    // drm-engine-<name>: <ns> ns, the busy time of each engine, cumulative.
    std::map<std::string, uint64_t> engine_ns;
    // drm-cycles-<name>: <cycles> (msm, xe, panfrost), cumulative; and xe's
    // drm-total-cycles-<name>, the engine's clock over the same span (the
    // busy share is cycles / total cycles).
    std::map<std::string, uint64_t> engine_cycles, engine_total_cycles;
    // drm-engine-capacity-<name>: how many engines of that class share the
    // busy time (i915: "video" may be 2); absent is 1.
    std::map<std::string, uint64_t> engine_capacity;
    // drm-total-<region>, drm-resident-<region> (and the older amdgpu form
    // drm-memory-<region>, counted as resident): bytes ("KiB"/"MiB" units
    // converted; no unit is bytes).
    std::map<std::string, uint64_t> memory_total, memory_resident;
};

// Parses one fdinfo file's text. Nothing when it is not a DRM file (no
// drm-driver line). Never throws.
std::optional<DrmFdinfo> parse_drm_fdinfo(std::string_view text);

// A process that holds a DRM device open.
struct DrmClient {
    int pid = 0;
    std::string comm;                     // /proc/PID/comm, trimmed
    int fd = -1;
    std::string node;                     // "/dev/dri/card0", "/dev/dri/renderD128" (the fd's link), "" unknown
    std::string card;                     // "card0": the sysfs card of the node or of pdev; "" unknown
    DrmFdinfo info;                       // empty fields when the kernel reports no fdinfo keys
};

// Every open DRM file of process `pid` (from ROOT/proc/PID/fd and fdinfo;
// ROOT is `root`, "" the real one), in fd order. A file is a DRM file when
// it is a character device of the DRM major (226), or when its link names
// /dev/dri/ (a fake tree's dangling links); only those files' fdinfo is
// read, so a process with thousands of sockets costs one stat each. Kernels
// before 5.19 print no drm-* keys: such a file is listed with an empty
// `info`. Files and processes that vanish while being read are skipped.
std::vector<DrmClient> drm_files_of(int pid, const std::string& root = "");

// Every process's DRM files (ROOT/proc/[0-9]*), in pid order; processes
// gfxstat may not read are skipped. The same client (a dup'd or inherited
// fd: same pdev and client id) is listed once per process.
std::vector<DrmClient> list_drm_clients(const std::string& root = "");

}  // namespace gfxstat::drivers
