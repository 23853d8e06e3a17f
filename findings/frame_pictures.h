// SPDX-License-Identifier: MIT
// The pictures beside the image checks (findings/image_checks.h) in
// gfxstat report's page: for a candidate whose frames differ from its
// baseline's, the kept images (`--keep-images DIR`, data/image_check.h's
// `kept`) of the first few differing frames, both sides, and their
// difference. What could not be shown (nothing kept, a file missing, an
// image gfxstat cannot read) is a gap the page words; it never fails the
// page.
//
// Kept images come from files the results name: the directory `kept` is
// walked one component at a time without following a symbolic link
// (relative to the results file's directory unless absolute), and each
// image is opened without following one either, and only when it is a
// regular file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "data/results_model.h"
#include "findings/image_checks.h"
#include "formats/frame_images.h"

namespace gfxstat::findings {

// The page shows at most this many differing frames a candidate.
inline constexpr size_t kMaxPicturedFrames = 4;

// A pixel that differs is drawn in this colour (magenta) in a difference
// image, over the baseline in dimmed grey.
inline constexpr uint8_t kDifferenceColour[3] = {255, 0, 255};

struct ImageDifference {
    uint64_t pixels = 0;            // in each image
    uint64_t differing_pixels = 0;  // pixels where any channel differs
    int largest_channel_difference = 0;  // 0..255
    formats::RgbImage image;        // the baseline dimmed to grey, differing pixels in kDifferenceColour
};

// Two images of one size, pixel by pixel (the caller checks the sizes).
ImageDifference image_difference(const formats::RgbImage& baseline, const formats::RgbImage& candidate);

// The grey a pixel of the baseline becomes in a difference image: its
// luma (BT.601 weights), dimmed to 16..111 so that any colour stands out.
uint8_t dimmed_grey(const uint8_t* rgb);

struct FramePicture {
    uint64_t frame = 0;
    std::string baseline_file, candidate_file;  // the paths read, as shown to people
    formats::RgbImage baseline, candidate;
    std::optional<ImageDifference> difference;  // nullopt when the sizes differ
};

// A differing frame that is not shown, and why.
struct PictureGap {
    enum class Why {
        not_kept,    // no ok checking run of `variant` kept images (frame 0, whole candidate)
        no_file,     // no kept directory of `variant` holds the frame's image
        unreadable   // the image or its directory could not be read: `error`
    };
    Why why = Why::no_file;
    uint64_t frame = 0;
    std::string variant;
    std::vector<std::string> looked_in;  // no_file: the kept directories, as shown
    std::string error;                   // unreadable: the error, naming the file
};

struct CandidatePictures {
    std::vector<FramePicture> frames;  // in frame order, at most kMaxPicturedFrames
    std::vector<PictureGap> gaps;
};

struct ImageCheckPictures {
    ImageChecks checks;
    std::vector<CandidatePictures> candidates;  // one per checks.comparisons
    // The kept directories of each variant as shown (baseline first, then
    // the candidates), for the notes of frames the page leaves out.
    std::vector<std::vector<std::string>> kept_dirs;
};

// The image checks of `files` for `baseline` against `candidates`, with
// pictures of differing frames; nullopt when the files hold no
// image_check record. `dirs[i]`: the directory of files[i] (kept
// directories are relative to it). One file: its checks grouped by their
// variant; one file a variant (baseline first, as the labels given): each
// file's checks are its variant's.
std::optional<ImageCheckPictures> image_check_pictures(const std::vector<data::ResultsFile>& files,
                                                       const std::vector<std::string>& dirs,
                                                       const std::string& baseline,
                                                       const std::vector<std::string>& candidates,
                                                       size_t max_frames = kMaxPicturedFrames);

}  // namespace gfxstat::findings
