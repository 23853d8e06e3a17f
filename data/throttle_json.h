// SPDX-License-Identifier: MIT
// The run record's "throttle" object <-> JSON (docs/results-format.md,
// "Throttling"). Kept apart from results_json.cpp: one record member, one
// file.
#pragma once

#include <string>

#include "data/json_cursor.h"
#include "data/throttle_record.h"

namespace gfxstat::data {

// Appends ,"throttle":{...} to a run line being written.
void append_throttle_member(std::string& out, const ThrottleRecord& t);

// Reads the value of "throttle" at the cursor. Throws RecordError (from
// results_json.h) naming the member that is wrong.
ThrottleRecord parse_throttle(JsonCursor& c);

}  // namespace gfxstat::data
