// SPDX-License-Identifier: MIT
// gfxstat bisect: check, step (for git bisect run) and report.
#pragma once

namespace gfxstat::cli {

int bisect_main(int argc, char** argv);

}  // namespace gfxstat::cli
