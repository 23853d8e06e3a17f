// SPDX-License-Identifier: MIT
// Errors that point the right way: when a command that reads results
// files (compare, show, summary, merge, ministat) cannot read one, and the
// file looks like one of the formats `gfxstat import` reads
// (formats/recognise.h), its error ends with the command that imports it:
//   x.json: line 2: ...; this looks like a hyperfine export:
//   gfxstat import --from hyperfine x.json -o results.json
// The guess is made here, in formats/ (which knows the foreign formats),
// only once reading failed: data/ reads results files and knows none.
#pragma once

#include <string>
#include <string_view>

#include "data/input_error.h"
#include "data/results_model.h"
#include "data/results_reader.h"

namespace gfxstat::formats {

// "; this looks like ...: gfxstat import --from NAME 'PATH' -o results.json"
// (PATH quoted for a shell where it needs it), or "" when the file at
// `path` is of no recognised format, cannot be read or is not a regular
// file. Standard input ("-") cannot be read twice: `stdin_head`, its first
// bytes as the command read them, is what is guessed from.
std::string import_hint(const std::string& path, std::string_view stdin_head = {});

// When the file at `path` looks like an import format: an error that leads
// with that, not with `e` (a valid hyperfine export is no "broken JSON"):
//   x.json is not a gfxstat results file: this looks like a hyperfine
//   export: gfxstat import --from hyperfine x.json -o results.json
// `e` itself when there is no hint.
data::InputError with_import_hint(const data::InputError& e, const std::string& path,
                                  std::string_view stdin_head = {});

// data::read_results_path, its errors with the hint; standard input ("-")
// is read whole first, so that its bytes can be guessed from too.
data::ResultsFile read_results_path_hinted(const std::string& path, const std::string& name,
                                           data::ReadReport* report);

}  // namespace gfxstat::formats
