// SPDX-License-Identifier: MIT
// Which kernel log lines say that a run cannot be trusted: a GPU hang or
// reset, a GPU driver's error, or the kernel's own WARN, BUG, Oops or hung
// task. One table (kernel_trouble.cpp) holds every rule, each written from
// the message as the driver prints it, so that adding a driver is one row
// and one test.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gfxstat::drivers {

struct KernelTrouble {
    std::string driver;  // "i915", "xe", "amdgpu", ..., "drm", "kernel"
    std::string what;    // "GPU hang", "engine reset", "kernel warning"
};

// One row of the table: who prints it, what it means, and the RE2 pattern
// matched anywhere in the message (the text after the kmsg header, as the
// kernel wrote it: dev_printk lines begin with "DRIVER DEVICE: ").
struct KernelTroubleRule {
    const char* driver;
    const char* what;
    const char* pattern;
};

// The table, in the order it is tried (the first match names the trouble).
const std::vector<KernelTroubleRule>& kernel_trouble_rules();

// The trouble `message` reports, or nothing when it is an ordinary line.
std::optional<KernelTrouble> match_kernel_trouble(std::string_view message);

}  // namespace gfxstat::drivers
