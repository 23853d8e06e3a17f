// SPDX-License-Identifier: MIT
#pragma once
namespace gfxstat::cli {
// gfxstat lava testdef: a LAVA test definition (and a job) that runs a
// gfxstat command inside a LAVA test shell (docs/ci-reports.md, "LAVA").
int lava_main(int argc, char** argv);
}  // namespace gfxstat::cli
