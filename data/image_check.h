// SPDX-License-Identifier: MIT
// A checking run: a replay of a trace made only to read its frames back
// and checksum them, never timed (reading frames back costs time, so a
// checked run is never a timed run). gfxstat records one or more per
// variant beside the timed runs (`--check-images`), so that a candidate
// that renders differently is never called an improvement
// (findings/image_checks.h). In a results file it is a record of type
// "image_check" (docs/results-format.md):
//
//   {"type":"image_check","variant":"patched","check":0,"boot":"…",
//    "start":"…","duration_s":1.9,"exit":{"class":"ok","code":0},
//    "environment":"env-…","tool":"glretrace","method":"md5",
//    "images":{"1":"a84e3ad90ba90bf4f4a69ae935ec53b6","2":"…"},
//    "design":"design-…","block":3}
//
// `images` (the model's `frames`) maps a frame number (the replayer's numbering, from 0 or 1 as it
// counts, as a decimal string) to the lowercase hex checksum of that
// frame's image; a run that did not end ok holds none.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "data/results_model.h"

namespace gfxstat::data {

struct ImageCheck {
    std::string variant;
    uint64_t check = 0;        // index among the variant's checking runs, from 0
    std::string boot;          // "" when unknown
    std::string start;         // RFC 3339 UTC; "" when unknown
    std::optional<double> duration_s;  // the checking pass's own time, never a timed run's
    ExitClass exit_class = ExitClass::ok;
    std::optional<int> exit_code;
    std::string exit_reason;   // "" when none
    std::string environment;   // id of an environment record; "" when none
    std::string tool;          // the replayer: "glretrace", "eglretrace", "gfxrecon-replay"
    std::string method;        // how frames were checksummed: "md5" (the replayer's), "sha256-file" (gfxstat's of each written image)
    std::map<uint64_t, std::string> frames;  // frame number -> lowercase hex checksum
    // Where the frames' images were kept (`--keep-images DIR`): a
    // directory holding one file a frame, named frame-N.EXT (N the frame
    // number, EXT "png" or "bmp" as the replayer wrote it), relative to
    // the results file's directory when under it, else absolute; "" when
    // none were kept.
    std::string kept;
    std::string design;        // the design record of an ab run ("" when none)
    std::optional<uint64_t> block;  // the block after which it ran
    // Provenance, as a run's: the id of the results file it was first
    // written to (set by merge; "" in the file that recorded it). The
    // identity of a checking run is (origin, variant, check).
    std::string origin;
    UnknownMembers unknown;    // members a newer gfxstat wrote, kept verbatim
    bool operator==(const ImageCheck&) const = default;
};

// Why `check` cannot join `file` (its identity aside): an empty variant, a
// checksum that is not lowercase hex of its method's length, frames in a
// check that did not end ok, an environment or design not recorded
// before. "" when none. ResultsFile::add_image_check applies it.
std::string image_check_conflict(const ResultsFile& file, const ImageCheck& check);

// The length in hex digits of a checksum made by `method`: 32 for "md5",
// 64 for "sha256-file"; 0 for a method this gfxstat does not know (a
// newer one's), whose checksums are then 32 or 64 digits.
size_t checksum_hex_digits(std::string_view method);

}  // namespace gfxstat::data
