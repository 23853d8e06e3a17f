// SPDX-License-Identifier: MIT
// Where a run's output goes: captured in memory files while the workload
// runs, parsed in place, and kept in the log directory (created there,
// under its checked descriptor, without following links) when not empty.
// Log names: the results file's id, the label made file-safe, the index.
#pragma once

#include <string>
#include <string_view>

#include "drivers/output_capture.h"
#include "drivers/run_loop.h"

namespace gfxstat::drivers {

// A variant label as a file name: letters, digits, '.', '_', '-' kept, at
// most kFileSafeMax of them, and a hash of the label when anything was
// replaced or cut.
constexpr size_t kFileSafeMax = 96;
std::string file_safe(const std::string& s);

// The start of a log's name from the results file's id: "" without one.
std::string log_name_prefix(const std::string& id);

// Writes `text` to the new file `name` in the run's log directory when not
// empty; true when a file was kept. A name already taken is never followed
// or truncated, and that or a failed write is a warning in `report`.
bool keep_output(const Execution& ex, const std::string& name, std::string_view text, RunReport& report);

}  // namespace gfxstat::drivers
