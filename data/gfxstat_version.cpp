// SPDX-License-Identifier: MIT
#include "data/gfxstat_version.h"

// GFXSTAT_VERSION, written at every build by cmake/version.cmake into the
// build directory (and rewritten only when it changed, so that a new
// commit recompiles this file alone).
#include "gfxstat_version_string.h"

#ifndef GFXSTAT_VERSION
#error "gfxstat_version_string.h defines GFXSTAT_VERSION"
#endif

namespace gfxstat::data {

const char* gfxstat_version() { return GFXSTAT_VERSION; }

}  // namespace gfxstat::data
