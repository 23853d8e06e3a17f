// SPDX-License-Identifier: MIT
// Every JSON document gfxstat prints for machines (compare's, show's,
// summary's, devices', campaign status', tune show's, gfxstat version's)
// says which gfxstat wrote it, in one member at its top level:
// "gfxstat_version" (docs/compare-format.md). One call in each renderer.
// A template, so that this header needs no JSON library of its own: it
// serves nlohmann::json and nlohmann::ordered_json alike.
#pragma once

#include "data/gfxstat_version.h"

namespace gfxstat::cli {

template <class Json>
void add_gfxstat_version(Json& doc) {
    doc["gfxstat_version"] = data::gfxstat_version();
}

}  // namespace gfxstat::cli
