// SPDX-License-Identifier: MIT
// Records of a results file <-> lines of JSON (docs/results-format.md).
// Each record is one line; the serialisers append the line with its '\n'.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "data/image_check.h"
#include "data/packed_tokens.h"
#include "data/results_model.h"

namespace gfxstat::data {

void append_header_line(std::string& out, const ResultsHeader& header);
void append_metric_line(std::string& out, const MetricInfo& metric);
void append_environment_line(std::string& out, const Environment& env);
void append_run_line(std::string& out, const RunRecord& run);
// The same, with the values of run.metrics[i] taken from packed[i] when
// that is not empty (`run --parser lines` keeps them packed until written).
void append_run_line(std::string& out, const RunRecord& run, const std::vector<PackedTokens>& packed);
void append_design_line(std::string& out, const DesignRecord& design);
// {"type":"image_check","variant":...,"check":N,...,"images":{"1":"..."}}
void append_image_check_line(std::string& out, const ImageCheck& check);

// A number as canonical JSON text that reads back to the same exact decimal
// (or, for a binary token, the same double): "23.205", "5e-10", "-0".
void append_json_number(std::string& out, const NumberToken& value);
// A string as JSON text; invalid UTF-8 becomes U+FFFD rather than an error.
void append_json_string(std::string& out, std::string_view s);

// One parsed line. Throws JsonSyntaxError (with a byte offset) for broken
// JSON and RecordError for JSON that is not a valid record.
class RecordError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};
// A well-formed record of a type this gfxstat does not know (a newer one
// wrote it): readers skip it with a warning, so that such files still read.
struct UnknownRecord {
    std::string type;
};
using ResultsRecord = std::variant<MetricInfo, Environment, RunRecord, DesignRecord, ImageCheck, UnknownRecord>;
ResultsHeader parse_header_line(std::string_view line);
ResultsRecord parse_record_line(std::string_view line);

// True when `start` (the first bytes of a file) begins like a results file,
// with '{' after white space. Column files can never start with '{'.
bool looks_like_results(std::string_view start);

}  // namespace gfxstat::data
