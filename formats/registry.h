// SPDX-License-Identifier: MIT
// Every format gfxstat knows, by name: the one table that `run --parser`,
// `import --from`, the help texts and the fuzz target read, so that a
// format added there is reachable everywhere at once.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/import_support.h"
#include "formats/format.h"

namespace gfxstat::formats {

// All formats, in the order help lists them.
std::span<const Format* const> all_formats();
const Format* find_format(std::string_view name);

// The parser of a run's output for `name`. Throws std::invalid_argument
// naming the formats that parse output when `name` is not one of them,
// and for options the format refuses.
std::unique_ptr<OutputParser> make_parser(std::string_view name, const ParserOptions& options = {});
// Names of the formats with a parser / with an import (native or saved output).
std::vector<std::string> parser_names();
std::vector<std::string> import_names();

// import --from `name`: the format's own importer, or its saved-output
// reading. Throws data::InputError for bad input, std::invalid_argument
// for an unknown name (listing import_names()).
void import_file(std::string_view name, const std::string& path, const ImportOptions& options,
                 data::ResultsFile& out);

}  // namespace gfxstat::formats
