// SPDX-License-Identifier: MIT
// Where the commands that make a results file (import, merge) write it:
// "-" is standard output, anything else a file replaced whole under the
// results lock (data/results_writer.h).
#pragma once

#include <string>

#include "data/results_writer.h"

namespace gfxstat::cli {

// The file `build` makes, written to `output`. For standard output it is
// built without a current file and written before the command's success
// line, so that a lost write is the one message; a file is rewritten by
// data::rewrite_results_file, `existing` saying what becomes of one
// already there. 0, or 2 when standard output could not be written; the
// errors of `build` and of the file are thrown.
int write_results_output(const std::string& prog, const std::string& output, data::ExistingFile existing,
                         const std::function<data::ResultsFile(const data::ResultsFile* current,
                                                               const data::ReadReport& report)>& build);

}  // namespace gfxstat::cli
