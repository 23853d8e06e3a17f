// SPDX-License-Identifier: MIT
// Frame checksums from apitrace's retracers, for a checking run
// (data/image_check.h): `glretrace --snapshot-format=MD5 -s - TRACE` (or
// eglretrace, or `apitrace replay` with the same options) reads each
// snapshot back and prints its MD5 on stdout, one line a snapshot, 32
// upper-case hex digits, in the order taken, and nothing else there: the
// "Rendered N frames" line is not printed when stdout holds snapshots
// (apitrace 11; the traced program's path goes to stderr). Recorded output
// in tests/data/images/.
//
// Frame numbers: the lines carry none. Without -S every frame is taken, at
// its end, so line i is frame i, counted from 0 (as glretrace numbers the
// snapshot files it writes with --call-nos=no). With -S CALLSET only the
// chosen calls are taken, in call order, and the caller, who chose them,
// gives their numbers (the call numbers, as --call-nos names files).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace gfxstat::formats {

struct FrameChecksums {
    std::map<uint64_t, std::string> frames;  // frame number -> lower-case hex
    std::string error;                       // "" when read; else why not, with the line
};

// `numbers`: empty (every frame: 0, 1, 2, ...), or one number a snapshot
// (-S CALLSET), increasing. A line that is not an MD5 is an error, as is a
// count of lines other than `numbers` holds, or no snapshot at all. Blank
// lines and a "Rendered ..." line (should a retracer print one) are
// passed over.
FrameChecksums parse_apitrace_md5_snapshots(std::string_view stdout_text,
                                            std::span<const uint64_t> numbers = {});

}  // namespace gfxstat::formats

namespace gfxstat::formats {

// The number in the name of a snapshot file glretrace wrote with
// `-s PREFIX` ("PREFIX0000001370.png" -> 1370: PREFIX, ten or more digits,
// ".png"; a snapshot file is PNG whatever --snapshot-format says, which
// applies to stdout only), or nullopt for another name. The number is the
// snapshot's index from 0 with --call-nos=no, else the call's.
std::optional<uint64_t> apitrace_snapshot_file_number(std::string_view file_name, std::string_view prefix);

}  // namespace gfxstat::formats
