// SPDX-License-Identifier: MIT
#pragma once

namespace gfxstat::cli {
// gfxstat devices [--json]: the DRM devices of this machine (libdrm), their
// nodes, driver, bus, and which native workloads can run on each.
int devices_main(int argc, char** argv);
}  // namespace gfxstat::cli
