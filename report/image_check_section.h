// SPDX-License-Identifier: MIT
// gfxstat report's "Image checks" section (docs/image-checks.md, "In the
// report page"): per candidate its image verdict and notes
// (report/image_check_words.h) and, for a candidate whose frames differ,
// the kept images of the first few differing frames: baseline |
// candidate | difference, as PNG data URIs (report/png_image.h). The page
// stays one file of reasonable size: pictures wider than `max_width` are
// shrunk, and once the section's embedded bytes would pass `max_bytes`
// the frames left are named, with the files that hold them, instead.
#pragma once

#include <cstddef>
#include <cstdint>

#include "findings/frame_pictures.h"
#include "report/html_report.h"

namespace gfxstat::report {

struct PictureLimits {
    uint32_t max_width = 512;       // pixels, per picture on the page
    size_t max_bytes = 6'000'000;   // of data URIs (base64) in the section
};

HtmlSection image_check_section(const findings::ImageCheckPictures& pictures, const PictureLimits& limits = {});

}  // namespace gfxstat::report
