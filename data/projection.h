// SPDX-License-Identifier: MIT
// `--row KEYS` and `--col KEYS` of `gfxstat compare` (with --filter,
// data/bench_filter.h): a results file seen through other keys, as Go
// benchstat's projections do. By default a comparison's rows are the
// metrics and its columns the variants; `--col kernel` compares kernels
// whatever the variants were called, `--row name,gpu` splits each metric
// by GPU. The result is an ordinary results file whose variants are the
// column labels and whose metrics are the row labels, so that everything
// that reads results files (compare, ministat, show) reads it unchanged.
//
// Labels: with one key, its value ("6.9" for --col kernel); with several,
// the values joined by a blank, each written key=value except the name's
// and the variant's ("gl_4 kernel=6.9" for --row name,kernel). A key a run
// does not have, or has empty, is written "key=" (so a label is never
// empty).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "data/bench_filter.h"
#include "data/results_model.h"

namespace gfxstat::data {

struct Projection {
    // "name", "variant", "unit", or a tag/field key (tags win, as in
    // --filter); aliases (.name, metric, .unit, .variant) are read as the
    // key they stand for.
    std::vector<std::string> keys;
    // "name,gpu": keys separated by ',' (blanks around them ignored),
    // aliases read as the key they stand for (".name" is "name").
    // Throws std::invalid_argument naming `option` ("--row: ...") for an
    // empty list, an empty key or a key given twice.
    static Projection parse(std::string_view text, std::string_view option);
    static Projection rows();     // {"name"}
    static Projection columns();  // {"variant"}
};

struct ProjectedResults {
    ResultsFile file;                // runs relabelled: variant = the column key, metric = the row key
    std::vector<std::string> notes;  // e.g. keys that vary within a cell and were pooled
    size_t kept = 0, dropped = 0;    // observations kept by / dropped by the filter
};

// For each run in file order and each metric it reports, the observation
// (bench_filter.h) is kept or dropped by `filter`; a kept one goes to the
// cell (row label, column label). The output holds one run per original
// run and column label, with the run's values of each row (the values of
// several metrics of one row, when the row does not hold the name, are one
// metric's values there); run indices are renumbered from 0 per column, in
// file order. A run keeps its boot, start, duration, exit, warm-up flag,
// environment, origin, source, log, campaign step and throttle record; its
// design, block and position only when the columns are exactly {variant}
// (other columns are not the design's variants). Runs that did not end ok
// or were warm-ups are carried with whatever values the filter keeps when
// the columns depend on the run alone (variant, tags, fields) and the
// filter does not rule the run out (BenchFilter::may_match_run), so that
// reports still count them as left out; otherwise they are dropped, and a
// note says how many.
//
// Notes name what a cell pools, among the runs that ended ok and were not
// warm-ups (the values a comparison uses): a tag or field whose value
// differs among the runs of one cell (never a volatile field, such as the
// load average: data/volatile_facts.h), the variants when --row and --col
// do not hold `variant` and a cell mixes them, the metrics when they do
// not hold `name` and a cell mixes them.
//
// Throws std::invalid_argument when two metrics declared differently (unit,
// direction, exactness, per-frame values) fall in one row: a row is one
// metric of the output.
ProjectedResults project_results(const ResultsFile& in, const BenchFilter& filter,
                                 const Projection& row = Projection::rows(),
                                 const Projection& col = Projection::columns());

}  // namespace gfxstat::data
