// SPDX-License-Identifier: MIT
// The names results files hold that a command line may give: variant
// labels (--baseline, --variant) and the metrics compare and summary
// accept (--metric), for `gfxstat __complete variants|metrics FILE...`.
#pragma once

#include <string>
#include <vector>

namespace gfxstat::findings {

// The variants of every results file among `paths`, in file order. Only
// regular files are read (a FIFO or a device named on the line must not
// hang or feed the completion); column files, plans and results files
// that cannot be read are passed over: their errors are the command's to
// tell, not the shell's.
std::vector<std::string> results_variants(const std::vector<std::string>& paths);

// Their metrics, within-run metrics (per-frame times) left out: those are
// refused when named.
std::vector<std::string> results_metrics(const std::vector<std::string>& paths);

}  // namespace gfxstat::findings
