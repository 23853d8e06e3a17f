// SPDX-License-Identifier: MIT
// The names and ids the CI reports share, so that the comparison reports
// (junit_export, kcidb_export, openmetrics_export) and the reports of runs
// that failed (runs_failed_report) name one test alike: a CI system then
// tracks it going from passed to error and back.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gfxstat::cli {

// What a JUnit testsuite gathers: the metric's name up to its last '/',
// else "gfxstat".
std::string benchmark_group(const std::string& metric);

// FNV-1a, 64 bits: a stable, short fingerprint for KCIDB ids (not
// security), chained through `seed`; and its 16 hex digits.
uint64_t kcidb_fingerprint(std::string_view s, uint64_t seed = 14695981039346656037ull);
std::string kcidb_hex(uint64_t h);

// A KCIDB test path: "gfxstat." then the metric's '/'-separated parts,
// each in KCIDB's path characters ([A-Za-z0-9_-], others '_'), none empty.
std::string kcidb_test_path(const std::string& metric);

// An OpenMetrics label value: valid UTF-8 without controls (escape_text),
// then OpenMetrics' own escapes for backslash, quote and newline.
std::string openmetrics_label_value(std::string_view raw);

}  // namespace gfxstat::cli
