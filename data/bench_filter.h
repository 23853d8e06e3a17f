// SPDX-License-Identifier: MIT
// `--filter EXPR` of `gfxstat compare` and `gfxstat ministat`: which
// observations of a results file take part. An observation is one metric's
// values in one run: the metric (what benchstat calls the benchmark: a
// GfxBench test, an IGT subtest's figure), its unit, the run's variant and
// the run's environment (the user's --tag key=value pairs, and the fields
// gfxstat probed: kernel_release, gpu_driver, ...). The language is Go
// benchstat's, adapted (docs/filter-language.md has it with examples):
//
//   key:value       the key's value is exactly `value`
//   key:/regex/     the key's value matches the regex anywhere in it (RE2:
//                   linear time; `\/` is a slash; bytes, as --metric)
//   key:(a OR b)    any of the values (each a value, "quoted" or /regex/)
//   key:*           the key is there, whatever its value
//   word            the metric is named exactly `word`
//   /regex/         the metric's name matches the regex
//   *               everything
//   x y, x AND y    both
//   x OR y          either (binds less tightly than AND)
//   -x, NOT x       not x
//   ( ... )         grouping
//
// Keys: `name` (also `.name`, `metric`) is the metric's name, `unit`
// (`.unit`) its unit, `variant` (`.variant`) the run's variant, `machine`
// the run's machine (machine_name: its hostname, else its machine id, as
// the results store keys machines); any other
// key is one of the run's environment tags or, when no tag has that key,
// one of its fields. A key the run does not have matches nothing, so
// `-gpu:x` keeps the runs without a `gpu`. Values and keys may be written
// "in double quotes" (with \" and \\ inside) to hold blanks, parentheses,
// colons or a leading '-'. An unquoted value may hold ':' (gpu_pci_id:8086:56a0);
// an unquoted bare word may not (it would be a key). AND, OR and NOT are
// operators only when written in capitals and alone. Empty text matches
// everything.
//
// A filter that cannot be read throws FilterSyntaxError whose message
// names the column (1-based, in bytes) and what was expected there:
// "--filter: at column 19: expected ')' after 'gl_4 OR gl_5'".
#pragma once

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gfxstat::data {

struct Observation {
    std::string_view name;     // the metric (benchmark) name
    std::string_view unit;
    std::string_view variant;
    const std::map<std::string, std::string>* tags = nullptr;    // the run's environment tags (may be null)
    const std::map<std::string, std::string>* fields = nullptr;  // the run's environment fields (may be null)
};

// "--filter: at column 12: expected ')' after 'gl_4 OR gl_5'": what, where,
// what was expected.
struct FilterSyntaxError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// The key a filter or a --row/--col projection means: "name" for `name`,
// `.name` and `metric`; "unit" for `unit` and `.unit`; "variant" for
// `variant` and `.variant`; any other key as it is (a tag or field key).
std::string_view canonical_key(std::string_view key);

// A top-level AND term of a filter that names exact values (`key:value`,
// `key:(a OR b)`, a bare metric name): every observation the filter keeps
// has one of `values` under `key` (canonical: "name", "unit", "variant",
// "machine" or a tag/field key). What a store selection narrows its query
// by (data/store_select.cpp).
struct ExactTerm {
    std::string key;
    std::vector<std::string> values;
};

class BenchFilter {
public:
    BenchFilter();                                    // matches everything
    static BenchFilter parse(std::string_view text);  // throws FilterSyntaxError
    bool matches(const Observation& o) const;
    // Whether some metric of a run could be kept, judged on the run alone
    // (its variant, tags and fields; `o.name` and `o.unit` are ignored):
    // false only when those rule every metric out. A run that failed or
    // was a warm-up often has no values, yet reports count it as left out
    // of the comparisons the filter keeps: `/upload/` keeps such a run of
    // any variant, `variant:baseline` drops those of other variants.
    bool may_match_run(const Observation& run) const;
    // Matches everything: no filter was given (empty or blank text), or `*`.
    bool empty() const;
    std::string text() const;  // as given, for messages

    // The top-level AND terms with exact values (ExactTerm), in order.
    // `all_exact`, if given, tells whether those are all the filter is
    // (every other top-level term matches everything).
    std::vector<ExactTerm> exact_terms(bool* all_exact = nullptr) const;
    // A store selection (docs/store.md): the filter with the top-level AND
    // terms on `reserved` (`last`) taken out, their values appended to
    // `taken`. Throws FilterSyntaxError when `reserved` is used anywhere
    // else (inside OR, NOT or parentheses) or with a regex, `*` or a list.
    static BenchFilter parse_taking(std::string_view text, std::string_view reserved, std::vector<std::string>& taken);

    struct Program;  // the parsed expression (bench_filter.cpp)

private:
    std::string text_;
    // Immutable once parsed, so copies share it (and its compiled regexes,
    // which RE2 lets several threads use at once).
    std::shared_ptr<const Program> program_;
};

}  // namespace gfxstat::data
