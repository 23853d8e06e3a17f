// SPDX-License-Identifier: MIT
// The exit statuses a CI job tells apart, shared by run, ab and compare
// (man/exit_statuses.json lists every command's, as the docs state them):
//   0  done; no regression
//   1  with --gate: a regression beyond the threshold
//   2  usage or input error (nothing run, or nothing compared)
//   3  with --gate --strict: an inconclusive comparison
//   4  the runs failed: the workload could not give the runs a comparison
//      needs (--max-failures failed runs in a row, an IGT abort, a variant
//      with fewer than 2 usable runs): a broken build or machine, not a
//      slow one
//   77 the workload skipped (it cannot run here); 128 + N a signal
#pragma once

namespace gfxstat::cli {

inline constexpr int kExitRegression = 1;
inline constexpr int kExitRunsFailed = 4;

}  // namespace gfxstat::cli
