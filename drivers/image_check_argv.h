// SPDX-License-Identifier: MIT
// The command of a checking run (data/image_check.h): the variant's timed
// command turned into one that reads its frames back, as the parser's
// replayer does it.
//
//   apitrace (glretrace, eglretrace, `apitrace replay`): the timing options
//       the apitrace parser reads (-b/--benchmark, --pcpu, --pgpu,
//       --pframe-times, --ppd, --pmem, the --p*/--list-metrics/--gen-passes
//       selections, --min-cpu-time) are dropped, and
//       `--snapshot-format=MD5 -s -` is added after the program (with
//       `--check-frames CALLSET`: `-S CALLSET` too): one MD5 a frame on
//       stdout (formats/apitrace_snapshots.h). To keep the images:
//       `--snapshot-format=PNM -s PREFIX --call-nos=no` instead, one
//       PREFIX%010u.pnm file a frame (or, with -S, a call, named after
//       the call: --call-nos=yes).
//   gfxrecon (gfxrecon-replay): `--screenshot-all --screenshot-dir DIR`
//       after the program (formats/gfxrecon_screenshots.h).
//
// A command that already takes snapshots of its own (-s, -S,
// --snapshot-format, --screenshot-*) is refused: the checking run decides
// what is read back.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gfxstat::drivers {

// The replayers whose frames a checking run can read, by parser name.
enum class ImageCheckFamily { none, apitrace, gfxrecon };
ImageCheckFamily image_check_family(std::string_view parser_name);
// "apitrace or gfxrecon": the parsers that can check images, for messages.
std::string image_check_parsers_words();
// The refusal for a parser that cannot: "--check-images reads frames from
// apitrace's and GFXReconstruct's replayers: --parser apitrace or gfxrecon
// (this command's parser: glmark2)".
std::string image_check_refusal(std::string_view parser_name);

// `--check-frames CALLSET`: call numbers (12) and ranges (10-20, and
// 10-40/10 for every 10th), separated by commas, increasing and without
// repeats, so that the lines of the replayer's output can be numbered.
// Returns the numbers, in order; throws std::invalid_argument naming the
// part that is not one (apitrace's other forms, such as frame or draw
// sets, `*` or a file of calls, are refused: their calls are not known
// before the replay).
std::vector<uint64_t> parse_check_frames(std::string_view callset);

struct CheckArgvOptions {
    std::string callset;          // --check-frames, "" for every frame (apitrace only)
    // apitrace: PNM files with this prefix instead of MD5 lines on stdout
    // (--keep-images); gfxrecon: the directory for the screenshots.
    std::string snapshot_prefix;
    std::string screenshot_dir;
};

struct CheckCommand {
    std::vector<std::string> argv;
    std::string tool;    // argv[0]'s base name, or "apitrace" for `apitrace replay`
    std::string method;  // "md5" (apitrace's own) or "sha256-file" (gfxstat's of each file)
    bool files = false;  // the frames are files (gfxrecon, apitrace PNM), not stdout lines
};

// The checking command for `argv`, the variant's timed command. Throws
// std::invalid_argument when it cannot be made: a program of another
// name than the family's replayers, snapshot options of its own, a
// CALLSET for gfxrecon.
CheckCommand image_check_command(const std::vector<std::string>& argv, ImageCheckFamily family,
                                 const CheckArgvOptions& options);

}  // namespace gfxstat::drivers
