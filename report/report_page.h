// SPDX-License-Identifier: MIT
// gfxstat report's HTML page (docs/report.md), built from compare's
// findings and each results file's overview as `gfxstat show` describes
// it; report/html_report.h writes it out.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "findings/compare.h"
#include "findings/frame_pictures.h"
#include "findings/show_overview.h"
#include "report/html_report.h"

namespace gfxstat::report {

// The page of what compare found (`found.report` holds a metric at least;
// its samples' run order kept). `table`: compare showed the suite table,
// which the page shows too. `title`: "" for "CANDIDATES against BASELINE".
// `shows`: per results file of `found.files`, its overview (nullopt for a
// file show refuses). `images`: the files' image checks with the pictures
// of differing frames (nullptr or none: no "Image checks" section).
HtmlPage report_page(const findings::CompareFindings& found, bool table, const std::string& title,
                     const std::vector<std::optional<findings::ShowOverview>>& shows,
                     const findings::ImageCheckPictures* images = nullptr);

}  // namespace gfxstat::report
