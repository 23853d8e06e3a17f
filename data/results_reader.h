// SPDX-License-Identifier: MIT
// Reads a results file (JSON Lines, docs/results-format.md) into memory,
// checking every rule of the format and naming file and line on error.
//
// A writer killed mid-append can leave an incomplete last line. That tail is
// not an error: it is reported (ReadReport::torn_tail) and ignored, and every
// record before it is intact because appends never rewrite earlier bytes.
// Anything malformed before the last line is corruption and an InputError.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "data/file_read.h"
#include "data/results_model.h"

namespace gfxstat::data {

struct ReadReport {
    size_t records = 0;       // lines read as records, header included
    bool torn_tail = false;   // the last line was incomplete and ignored
    size_t torn_line = 0;     // its line number
    size_t torn_bytes = 0;    // its length in bytes
    size_t good_bytes = 0;    // bytes up to and including the last good '\n'
    std::vector<size_t> run_lines;  // line of each run read, in file order
    std::vector<size_t> image_check_lines;  // line of each image check read, in file order
    // Records of a type this gfxstat does not know (a newer one wrote
    // them), skipped: one entry per type, in order of first appearance.
    struct Skipped {
        std::string type;
        size_t first_line = 0;
        size_t count = 0;
    };
    std::vector<Skipped> skipped;
};

// Called with each run as it is read, before it is checked: it may take the
// run's values. With a hook the file keeps the runs' identities, not the
// runs (runs() and variants() stay empty): a reader keeps what it takes.
using RunHook = std::function<void(RunRecord& run)>;

// `name` is used in messages. Throws InputError.
ResultsFile parse_results(std::string_view text, const std::string& name,
                          ReadReport* report = nullptr, const RunHook& hook = {});
// Reads the whole of `path` ("-" is standard input).
ResultsFile read_results_path(const std::string& path, const std::string& name,
                              ReadReport* report = nullptr);

// The rest of `fd` (not closed) after `prefix`, the bytes read from it
// already, a block at a time as read_results_path reads: the file's text
// is never held whole. Read errors name `name`.
ResultsFile read_results_fd(int fd, std::string prefix, const std::string& name,
                            ReadReport* report = nullptr);

// One warning per skipped type: "FILE:LINE: skipped 3 records of unknown
// type \"x\", the first here (a newer gfxstat's?)". Raw: the caller
// escapes them.
std::vector<std::string> skipped_record_messages(const std::string& name, const ReadReport& report);

// "FILE:LINE: incomplete last record (N bytes) ignored: ..." for a warning.
std::string torn_tail_message(const std::string& name, const ReadReport& report);

}  // namespace gfxstat::data
