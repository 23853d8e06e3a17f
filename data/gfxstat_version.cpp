#include "data/gfxstat_version.h"

#ifndef GFXSTAT_VERSION
#error "the build system defines GFXSTAT_VERSION for this file"
#endif

namespace gfxstat::data {

const char* gfxstat_version() { return GFXSTAT_VERSION; }

}  // namespace gfxstat::data
