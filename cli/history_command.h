// SPDX-License-Identifier: MIT
// gfxstat history RESULTS... : where each metric moved along a series of
// builds (docs/history.md). Exit statuses: 0 no change point, 1 change
// points found (CI can alert on it), 2 bad input or usage.
#pragma once

namespace gfxstat::cli {

int history_main(int argc, char** argv);

}  // namespace gfxstat::cli
