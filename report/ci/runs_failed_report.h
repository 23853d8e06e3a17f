// SPDX-License-Identifier: MIT
// The CI reports of `gfxstat ab` when its runs failed (exit status 4,
// cli/exit_statuses.h): no comparison was made, and each file says so in
// its own terms, so that a CI system shows a broken build as an error, not
// as a regression nor as a missing report:
//   --junit        a <testcase> per comparison the runs were for, with an
//                  <error type="runs-failed">
//   --kcidb        a test per variant, status ERROR
//   --openmetrics  gfxstat_runs_failed and gfxstat_values per variant
//   --markdown     a heading, the message, a table of the variants
//   --json         compare's document with no comparison and "runs_failed"
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "report/ci/ci_exports.h"

namespace gfxstat::cli {

struct RunsFailedVariant {
    std::string label;
    size_t usable = 0;          // measured runs that ended ok with the metric
    size_t failed = 0;          // runs that failed (fail, timeout, crash, invalid)
    std::string last_failure;   // why the last one failed; "" when none did
};

struct RunsFailed {
    std::string message;   // why the runs stopped, one line
    std::string metric;    // the metric compared; "" when no run gave one
    std::vector<RunsFailedVariant> variants;  // the baseline first
};

std::string render_runs_failed_junit(const RunsFailed& f, const ExportContext& ctx);
std::string render_runs_failed_kcidb(const RunsFailed& f, const ExportContext& ctx);
std::string render_runs_failed_openmetrics(const RunsFailed& f, const ExportContext& ctx);
std::string render_runs_failed_markdown(const RunsFailed& f, const ExportContext& ctx);
std::string render_runs_failed_json(const RunsFailed& f, const ExportContext& ctx);

// Writes every requested report as write_exports does (atomically, never
// through a link; the markdown appended to $GITHUB_STEP_SUMMARY too).
// Requests of kind "rows" are left to their caller. Throws InputError
// naming a file that could not be written.
void write_runs_failed_exports(const std::vector<ExportRequest>& requests, const RunsFailed& f,
                               const ExportContext& ctx);

}  // namespace gfxstat::cli
