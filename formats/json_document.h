// SPDX-License-Identifier: MIT
// One JSON text (hyperfine's export, Google Benchmark's output) parsed into
// an nlohmann::json, refusing what nlohmann's own parse resolves silently:
// a member name given twice in one object (it keeps the last, so which
// value counts depends on the parser) and a number that is not zero as
// written but too close to 0 for a double (it stores 0). Results files and
// every other importer refuse both (data/number_token's `underflow`,
// data/results_json's member names), so a value never enters a results
// file through one door that another door refuses. Errors name the file,
// the line, the JSON path and the value. Included only by .cpp files
// (nlohmann_json is a heavy header).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

namespace gfxstat::formats {

// Parses `text`, read from `path` (a file, or "stdout" for a run's
// output). Throws InputError "PATH:LINE: ...": invalid JSON, a member
// name twice in one object, a number beyond the double range or one that
// underflows to 0.
nlohmann::json parse_json_file(const std::string& path, std::string_view text);

}  // namespace gfxstat::formats
