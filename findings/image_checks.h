// SPDX-License-Identifier: MIT
// Frame checksums beside the timings: what a variant's checking runs
// (data/image_check.h) say about its frames, and whether a candidate
// renders what its baseline renders. A faster candidate that draws
// something else is not an improvement; this model is what the verdicts
// and the gate read to say so (docs/image-checks.md).
//
// The rules, per variant, over its checking runs that ended ok (others are
// counted and left out):
//  - a frame is STABLE when every ok checking run holds it, all with one
//    and the same checksum;
//  - a frame is UNSTABLE when some ok checking run holds it but it is not
//    stable: its checksum differs between runs, or some run lacks it (a
//    trace replayed on llvmpipe can draw its first frame differently on
//    every replay). Unstable frames are reported, never compared, and
//    never fail anything;
//  - with fewer than 2 ok checking runs stable cannot be told from
//    unstable: the variant is not judged ("needs 2 checking runs");
//  - a variant whose ok checking runs hold frames but no stable one is
//    NONDETERMINISTIC: image checks do not judge it.
// Per candidate against the baseline, over the frames stable in both:
// EQUAL when every such frame has the same checksum, else DIFFER (how many
// differ of how many compared, the first that differs). Frames stable in
// one variant and held by no ok run of the other are listed, not
// compared. Checksums made by different methods ("md5", "sha256-file")
// are never compared.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "data/image_check.h"

namespace gfxstat::findings {

// Fewer ok checking runs than this cannot tell stable from unstable.
inline constexpr size_t kImageCheckRunsNeeded = 2;

// Frame numbers, increasing.
using FrameNumbers = std::vector<uint64_t>;

// One variant's ok checking runs, frame by frame.
struct VariantFrames {
    std::string variant;
    size_t runs = 0;     // ok checking runs, the ones that count
    size_t not_ok = 0;   // checking runs that did not end ok, left out
    std::set<std::string> methods;           // of the ok runs
    std::map<uint64_t, std::string> stable;  // frame -> the checksum of every ok run
    FrameNumbers unstable;                   // held by some ok run, not stable

    bool enough_runs() const { return runs >= kImageCheckRunsNeeded; }
    bool has_frames() const { return !stable.empty() || !unstable.empty(); }
    // Enough runs, frames, and not one of them stable.
    bool nondeterministic() const { return enough_runs() && has_frames() && stable.empty(); }
};

// `checks`: the checking runs of `variant` (their own variant field is
// not read: the caller grouped them). Only those whose exit class is ok
// count.
VariantFrames variant_frames(const std::string& variant, const std::vector<data::ImageCheck>& checks);

enum class ImageOutcome { equal, differ, not_judged };

// Why a candidate was not judged; `none` when it was.
enum class NotJudged {
    none,
    too_few_runs,      // `who` has fewer than 2 ok checking runs
    no_frames,         // `who`'s ok checking runs hold no frame at all
    nondeterministic,  // no frame of `who` is stable
    mixed_methods,     // `who`'s ok runs checksummed frames in more than one way
    methods_differ,    // the two variants checksummed frames in different ways
    nothing_in_common  // both have stable frames, none of them the same frame
};

struct ImageComparison {
    std::string baseline, candidate;
    ImageOutcome outcome = ImageOutcome::not_judged;
    NotJudged why = NotJudged::none;
    std::string who;     // the variant `why` is about ("" for methods_differ, nothing_in_common)
    size_t who_runs = 0; // its ok checking runs

    size_t compared = 0;           // frames stable in both
    FrameNumbers differing;        // of those, the ones whose checksums differ
    FrameNumbers only_baseline;    // stable in the baseline, in no ok run of the candidate
    FrameNumbers only_candidate;   // stable in the candidate, in no ok run of the baseline

    // The first differing frame; only when outcome is differ.
    uint64_t first_differing() const { return differing.empty() ? 0 : differing.front(); }
};

// The candidate against the baseline, by the rules above. The baseline's
// reasons for not judging come before the candidate's.
ImageComparison compare_images(const VariantFrames& baseline, const VariantFrames& candidate);

// Checking runs grouped by variant.
struct VariantChecks {
    std::string variant;
    std::vector<data::ImageCheck> checks;
};

// Every variant's frames and every candidate's comparison, in the order
// the candidates were given.
struct ImageChecks {
    VariantFrames baseline;
    std::vector<VariantFrames> candidates;
    std::vector<ImageComparison> comparisons;  // one per candidate
};

ImageChecks check_images(const VariantChecks& baseline, const std::vector<VariantChecks>& candidates);

// The rule the verdicts follow: a candidate whose images differ is never
// an improvement, whatever its timing (its verdict reads "renders
// differently").
bool image_rules_out_improvement(const ImageComparison& c);

// The rule the gate follows: a candidate whose images differ fails
// `--gate` (exit 1) whatever its timing, unless `--allow-image-change`.
// Unstable frames, nondeterministic variants and variants too short to
// judge never fail it.
bool image_gate_fails(const ImageComparison& c, bool allow_image_change);

}  // namespace gfxstat::findings
