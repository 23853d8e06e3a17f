// SPDX-License-Identifier: MIT
// import --from NAME for a format that is a program's output (IGT's,
// glmark2's, a replayer's): each saved file, or each section of one that
// holds several runs (Format::sections), is one run, read by the same
// parser `gfxstat run --parser NAME` uses, so that a run recorded live and
// one imported from a mailing-list paste give the same metrics.
#pragma once

#include <string>

#include "formats/import_support.h"
#include "formats/format.h"

namespace gfxstat::formats {

// Adds one run per section of `path` to `out`, in order. Throws
// data::InputError naming the file and the line where the run that cannot
// be read starts, with the parser's reason; nothing is added then.
void import_saved_output(const Format& format, const std::string& path, const ImportOptions& options,
                         data::ResultsFile& out);

}  // namespace gfxstat::formats
