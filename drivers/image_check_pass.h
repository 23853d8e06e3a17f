// SPDX-License-Identifier: MIT
// Checking runs (data/image_check.h): a variant's trace replayed once more
// to read its frames back and checksum them, never timed and never a
// sample. The command is the variant's, turned by its parser's replayer
// (drivers/image_check_argv.h); it runs with the variant's environment,
// --prepare, --cleanup and --timeout, its output kept in the log
// directory as LOG_DIR/ID-VARIANT-check-NNNN.stdout/.stderr. It is
// classified like a run (ok, fail, timeout, crash), its frames read
// (formats/apitrace_snapshots.h, formats/gfxrecon_screenshots.h), and one
// record of type "image_check" appended. A check that fails is recorded
// with its exit class and no frames, and said in a warning: it never
// stops the timed runs.
//
// Screenshots go to a private directory gfxstat makes (mkdtemp, 0700) and
// removes once they are hashed, without following a link it did not
// make. With --keep-images DIR each check's images are kept in
// DIR/ID-VARIANT-check-NNNN/frame-N.EXT (EXT as the replayer wrote them:
// "png" for glretrace's snapshot files, "bmp" for gfxrecon-replay's), DIR
// made private as the log directory is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "data/image_check.h"
#include "data/results_writer.h"
#include "drivers/image_check_argv.h"
#include "drivers/run_loop.h"

namespace gfxstat::drivers {

// `--check-images [every:K]` and its companions, as the commands read them.
struct ImageCheckSettings {
    bool enabled = false;
    size_t every = 0;           // every:K; 0: one pass after the timed runs
    std::string parser;         // the variants' parser name
    std::string callset;        // --check-frames, "" for every frame
    std::string keep_dir;       // --keep-images, "" for none
};

// Parses the value of --check-images: "" (a pass at the end) or every:K
// (K from 1). Throws std::invalid_argument for another.
size_t parse_check_images_every(const std::string& value);

// Refuses (std::invalid_argument) what cannot be checked, before anything
// runs: a parser that cannot check images, a command that is not its
// replayer, a bad CALLSET. Makes (private) the --keep-images directory.
void check_image_settings(const ImageCheckSettings& s, const std::vector<std::vector<std::string>>& commands);

// The checking runs `done` so far and a plan's end: how many more a
// variant needs to reach the pass's 2.
inline size_t image_checks_to_top_up(size_t done) { return done < 2 ? 2 - done : 0; }

// One checking run of `plan`'s variant, appended to `appender` (after
// the variant's environment). `design`/`block`: an ab experiment's,
// "" / nullopt for gfxstat run. Throws only for what stops the runs too
// (the results file cannot be written).
// `boot`: a simulated boot's id to record instead of the real one
// (campaigns with --simulate-reboots), "" for the real one.
data::ImageCheck run_image_check(const RunPlan& plan, const Execution& ex, const ImageCheckSettings& s,
                                 data::ResultsAppender& appender, RunReport& report, ImageCheckTally& tally,
                                 const std::string& design = "", std::optional<uint64_t> block = std::nullopt,
                                 const std::string& boot = "");

// "checking pass: 4 replays in 7.9 s, not timed" (and how many did not
// end ok): the checking runs' time, said apart from the timed runs'.
std::string image_check_pass_line(const ImageCheckTally& t);

// How many checking runs the variant has in the file (this file's own).
size_t image_checks_of(const data::ResultsFile& file, const std::string& variant);

// The checking runs of `variant` made in `boot` (this file's own) that a
// campaign's resume counts as made: one the user interrupted (Ctrl-C,
// SIGTERM while it ran) is not its replay's failure, and is made again.
size_t image_checks_in_boot(const data::ResultsFile& file, const std::string& variant, const std::string& boot);

}  // namespace gfxstat::drivers
