// SPDX-License-Identifier: MIT
// Which import format a file that is not a gfxstat results file looks
// like, so that a command refusing it can say what to do instead:
// "this looks like a hyperfine export: gfxstat import --from hyperfine
// FILE -o results.json". Only a guess for a message: it sniffs the first
// bytes (at most kSniffBytes) for the shapes each format's file has, and
// never reads or checks a file whole (import does that, with its errors).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace gfxstat::formats {

// How much of a file the guess looks at.
constexpr size_t kSniffBytes = 64 * 1024;

struct RecognisedFormat {
    std::string_view format;  // as `import --from` takes it: "hyperfine"
    std::string_view what;    // for the message: "a hyperfine export"
};

// The import format whose shape `head` (a file's first bytes: pass up to
// kSniffBytes + 1 of them, so that more than kSniffBytes says the file goes
// on and its last line may be cut anywhere) has: hyperfine's JSON export,
// Google Benchmark's JSON, a Phoronix Test Suite result XML, a saved
// program output that its format's parser reads (IGT, glmark2, apitrace,
// gfxrecon-replay, glxgears, vkmark, piglit replay, MangoHud, PresentMon),
// `go test -bench` output, EzBench output, or a CSV table with a header row. Nothing for a gfxstat results file, for
// text of none of these shapes, and for empty input. Looks at no more
// than kSniffBytes of `head`; linear in that.
std::optional<RecognisedFormat> recognise_import(std::string_view head);

}  // namespace gfxstat::formats
