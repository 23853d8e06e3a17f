// SPDX-License-Identifier: MIT
// gfxstat version (and gfxstat --version): "gfxstat VERSION" on stdout;
// with --json, {"gfxstat_version": "VERSION"} for scripts.
#pragma once

namespace gfxstat::cli {

int version_main(int argc, char** argv);

}  // namespace gfxstat::cli
