// SPDX-License-Identifier: MIT
// What users hand `gfxstat compare` about a suite of benchmarks, fuzzed
// inside fuzz_output_parsers (so that they share its part of `make fuzz`'s
// time rather than adding a target): pasted summary statistics
// (formats/summary_table.h), the filter language and --row/--col
// (data/bench_filter.h, data/projection.h), and a suite's long and wide
// CSV with its column roles (formats/csv_suite.h). suite_inputs.cpp says
// what each input holds and which invariants it checks.
#pragma once

#include <cstdint>
#include <string_view>

namespace gfxstat::fuzz {

// First bytes from kSuiteSelector up pick these inputs; every other first
// byte picks an output parser, as before. No UTF-8 text holds 0xF8 to 0xFF,
// so the output parsers' seeds (saved program outputs) keep their meaning,
// and a seed for these inputs is its bytes after one such byte: 0xF8 a
// summary table, 0xF9 a filter, 0xFA a suite's CSV (then 0xFB again a
// summary table, and so on).
inline constexpr uint8_t kSuiteSelector = 0xF8;

// `selector` is the input's first byte (>= kSuiteSelector), `rest` the
// bytes after it. Returns normally, or aborts on a broken invariant; an
// exception other than the documented ones escapes to libFuzzer.
void fuzz_suite_input(uint8_t selector, std::string_view rest);

}  // namespace gfxstat::fuzz
