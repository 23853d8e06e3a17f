// SPDX-License-Identifier: MIT
#include "report/version_json.h"

#include <nlohmann/json.hpp>

#include "report/json_version.h"

namespace gfxstat::report {

std::string version_json() {
    nlohmann::ordered_json doc = nlohmann::ordered_json::object();
    cli::add_gfxstat_version(doc);
    return doc.dump(2);
}

}  // namespace gfxstat::report
