// SPDX-License-Identifier: MIT
// A foreign format, as gfxstat knows it: one program's output (IGT's,
// glmark2's, a trace replayer's) or one tool's saved file (hyperfine's
// JSON, a CSV). Each lives in one file of formats/ that knows its grammar,
// metric names, units, directions and primary metrics, and serves both
// ways in: `gfxstat run --parser NAME` parses each run's output, and
// `gfxstat import --from NAME` reads saved files (formats/registry.h).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "formats/import_support.h"
#include "formats/output_parser.h"

namespace gfxstat::formats {

struct ParserOptions {
    // `lines`: the name of its one metric (default "value"); refused by
    // every other format.
    std::string metric_name;
};

// Throws std::invalid_argument for options the format does not take.
using ParserFactory = std::unique_ptr<OutputParser> (*)(const ParserOptions&);

// Cuts a saved output that holds several runs (three glmark2 runs pasted
// into one file) into one view per run, in order, each a substring of
// `text`. Text before the first run (a shell prompt) is left out.
using SectionSplitter = std::vector<std::string_view> (*)(std::string_view text);

struct Format {
    std::string_view name;     // as --parser and --from take it
    std::string_view summary;  // one line, for help and docs
    // run --parser NAME; nullptr for formats that exist only as files.
    ParserFactory parser = nullptr;
    // import --from NAME for files that are the tool's own (hyperfine's
    // JSON, a CSV table), or whose saved form a parser reads too leniently
    // (ezbench: a saved file holds EzBench lines only). nullptr: the file
    // is a saved output of one or more runs, read with `parser`
    // (formats/saved_output.h), cut into runs by `sections` (nullptr: one
    // run per file).
    Importer importer = nullptr;
    // Also set where an importer cuts its files with it (ezbench), so that
    // the fuzz target checks every splitter.
    SectionSplitter sections = nullptr;
};

}  // namespace gfxstat::formats
