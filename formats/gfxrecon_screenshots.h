// SPDX-License-Identifier: MIT
// Frame checksums from GFXReconstruct's replayer, for a checking run
// (data/image_check.h): `gfxrecon-replay --screenshot-all --screenshot-dir
// DIR CAPTURE` (or --screenshots N1-N2,...) writes one image a frame into
// DIR, named PREFIX_frame_N.EXT: PREFIX is "screenshot" unless
// --screenshot-prefix says otherwise, N the frame number as the replayer
// counts (from 1: a 5-frame capture gives screenshot_frame_1.bmp to
// screenshot_frame_5.bmp, "framerange 1-5"), EXT the --screenshot-format
// ("bmp", the default and, in 0.9.18, the only one). A listing of a real
// replay is in tests/data/images/gfxrecon/.
//
// gfxstat checksums each image file with SHA-256 (data/digest.h): method
// "sha256-file", the file's bytes, header included.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "formats/apitrace_snapshots.h"

namespace gfxstat::formats {

inline constexpr std::string_view kGfxreconScreenshotPrefix = "screenshot";

// The frame number of a screenshot file's name ("screenshot_frame_12.bmp"
// -> 12), or nullopt for a name that is not one of `prefix`'s (another
// prefix, no number, a leading zero, a temporary file).
std::optional<uint64_t> gfxrecon_screenshot_frame(std::string_view file_name,
                                                  std::string_view prefix = kGfxreconScreenshotPrefix);

// Each screenshot in `dir` (files of other names are passed over) hashed
// with SHA-256, by frame number. An error when `dir` cannot be read, a
// screenshot cannot be read, or none is there.
FrameChecksums gfxrecon_screenshot_checksums(const std::string& dir,
                                             std::string_view prefix = kGfxreconScreenshotPrefix);

}  // namespace gfxstat::formats
