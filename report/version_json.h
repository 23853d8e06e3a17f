// SPDX-License-Identifier: MIT
// gfxstat version --json: {"gfxstat_version": "VERSION"} for scripts.
#pragma once

#include <string>

namespace gfxstat::report {

// The document, indented by 2, without a final newline.
std::string version_json();

}  // namespace gfxstat::report
