// SPDX-License-Identifier: MIT
#pragma once

namespace gfxstat::cli {
// gfxstat report RESULTS... -o report.html: compare's analysis drawn into
// one self-contained HTML page (docs/report.md).
int report_main(int argc, char** argv);
}  // namespace gfxstat::cli
