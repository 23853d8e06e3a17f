// SPDX-License-Identifier: MIT
// formats/import_hint.h's errors that point to `gfxstat import --from`,
// under the names the commands not yet moved to formats/ call them by.
#pragma once

#include "formats/import_hint.h"

namespace gfxstat::cli {

using formats::import_hint;
using formats::read_results_path_hinted;
using formats::with_import_hint;

}  // namespace gfxstat::cli
