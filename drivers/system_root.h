// SPDX-License-Identifier: MIT
// Where gfxstat reads and writes the machine's state (/sys, /proc): the
// real root, or another tree named by GFXSTAT_SYSFS_ROOT (or a --root
// option), for tests against fake sysfs trees and for dry runs of
// `gfxstat tune`. The workload's own processes are always read from the
// real /proc: they are real processes, whatever tree describes the machine.
#pragma once

#include <string>
#include <string_view>

namespace gfxstat::drivers {

// The prefix to put before an absolute path: "" for the real root, else
// the override without trailing slashes. The override set by
// set_system_root wins over GFXSTAT_SYSFS_ROOT; an empty value or "/"
// means the real root.
std::string system_root();

// Sets the override (a --root option); "" goes back to GFXSTAT_SYSFS_ROOT.
void set_system_root(std::string root);

// system_root() + path, for an absolute path such as "/sys/class/drm".
std::string system_path(std::string_view absolute_path);

}  // namespace gfxstat::drivers
