// SPDX-License-Identifier: MIT
// gfxstat's own version, one string for every place that names it:
// `gfxstat --version`, the results file header's generator, the JSON
// outputs. Built from `git describe` in a git checkout, else the release
// (CMake's project version); the build system passes it to one .cpp so
// that a new commit recompiles one file only.
#pragma once

namespace gfxstat::data {

// "0.1.0", or "0.1.0-12-g6d28f1b" (a tag and commits since), or
// "0.1.0+g6d28f1b" in a checkout without a release tag; "-dirty" when the
// tree had changes. Never empty.
const char* gfxstat_version();

}  // namespace gfxstat::data
