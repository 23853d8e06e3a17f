// SPDX-License-Identifier: MIT
// The results file attached to a LAVA job's log: LAVA keeps one number per
// test case, so `gfxstat run`/`ab`/`campaign` inside a LAVA test shell
// also print the whole results file on the console, where LAVA logs it
// (`lvl: target` lines), and `gfxstat import --from lava` reads it back
// from the log. Debian 12's lava-test-case has no `--output FILE` to
// attach a file; this block is what works on every LAVA.
//
//   <GFXSTAT_RESULTS_BEGIN v1 name=results.json bytes=1234 sha256=HEX>
//   eyJmb3JtYXQiOiJnZnhzdGF0LXJlc3VsdHMi...   (base64, 76 columns a line)
//   <GFXSTAT_RESULTS_END v1>
//
// Why base64: no line of it can read as a `<LAVA_SIGNAL_...>` line (LAVA
// would act on it) or carry a control character to the console, and 76
// columns keep serial consoles' lines short. Why bytes and sha256: a
// serial console drops and mixes characters; a reader proves it decoded
// what was written, or says which line to look at.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "data/digest.h"

namespace gfxstat::formats {

inline constexpr std::string_view kResultsBlockBegin = "<GFXSTAT_RESULTS_BEGIN ";
inline constexpr std::string_view kResultsBlockEnd = "<GFXSTAT_RESULTS_END v1>";
inline constexpr size_t kResultsBlockColumns = 76;

struct ResultsBlockHeader {
    std::string name;  // the results file's base name, in LAVA's name characters
    uint64_t bytes = 0;
    std::string sha256;  // 64 lower-case hex digits
};

// The begin line (without a newline). `name` is made safe: characters
// outside [-_a-zA-Z0-9.] become '_'.
std::string results_block_begin_line(const ResultsBlockHeader& h);

// Writes the whole block (begin line, base64 lines, end line, each ending
// in '\n') for `bytes` to `out`. Returns false when a write failed.
bool write_results_block(const std::string& name, std::string_view bytes, FILE* out);

// Reads a begin line (already stripped of the console's trailing '\r' and
// blanks). nullopt with `why` set when it is not one, or is malformed
// (`why` then says what was expected; empty `why`: not a begin line).
std::optional<ResultsBlockHeader> parse_results_block_begin(std::string_view line, std::string& why);

// Decodes a block line by line, checking as it goes.
class ResultsBlockDecoder {
public:
    explicit ResultsBlockDecoder(ResultsBlockHeader header) : header_(std::move(header)) {}
    // A base64 line of the block; false (and `why`) when it is not one.
    bool add_line(std::string_view line, std::string& why);
    // At the end line: the file's bytes, or nullopt and `why` when their
    // count or digest is not the begin line's.
    std::optional<std::string> finish(std::string& why);
    const ResultsBlockHeader& header() const { return header_; }

private:
    ResultsBlockHeader header_;
    std::string bytes_;
    data::Sha256 sha_;
    bool ended_ = false;  // a line with '=' padding was the last one
};

}  // namespace gfxstat::formats
