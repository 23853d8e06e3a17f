// SPDX-License-Identifier: MIT
// The last steps of every command that compares (compare, ab, campaign
// analyze): what findings::compare found, shown with one renderer of
// report/ on stdout, the CI exports and pictures written beside it, and
// the exit status the gate decides (findings/compare_gate.h).
#pragma once

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>

#include "cli/compare_command.h"
#include "findings/compare.h"

namespace gfxstat::cli {

// Whether the report is the suite table: a suite (2+ benchmarks of one
// unit) unless a report per benchmark is asked for; always for a suite
// tested as pairs, which has no report per benchmark.
bool suite_table_shown(const CompareReport& report, const CompareSettings& s);

// The notes on stderr about what the comparison left out or pooled (the
// suite table prints the selection's itself).
void print_compare_notes(const CompareReport& report, const CompareSettings& s, bool table);

// The notes, the report in s.format to `out`, the exports (--junit ...),
// the pictures (--plot); returns the gate's exit status. `started`: when
// the command began reading, for the JUnit time.
int report_comparison(const findings::CompareFindings& found, const CompareSettings& s, FILE* out,
                      std::chrono::steady_clock::time_point started);

// Runs `body` (reading, comparing, reporting), a bad input or a statistic
// refusing its arguments reported as "PROG: ..." on stderr and exit 2.
int with_compare_errors(const std::string& program, const std::function<int()>& body);

}  // namespace gfxstat::cli
