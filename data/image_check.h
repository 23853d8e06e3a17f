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
//    "frames":{"1":"a84e3ad90ba90bf4f4a69ae935ec53b6","2":"…"},
//    "design":"design-…","block":3}
//
// `frames` maps a frame number (the replayer's numbering, from 0 or 1 as it
// counts, as a decimal string) to the lowercase hex checksum of that
// frame's image; a run that did not end ok holds none.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

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
    std::string design;        // the design record of an ab run ("" when none)
    std::optional<uint64_t> block;  // the block after which it ran
};

}  // namespace gfxstat::data
