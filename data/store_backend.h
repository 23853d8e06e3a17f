// SPDX-License-Identifier: MIT
// What the store's backends (sqlite_store.cpp, postgres_store.cpp) share,
// defined once: the shape of the migration steps and their words, the
// sentences that refuse a store or a push, the identity comparison of a
// pushed run with a stored one, the WHERE clause of a store query, and the
// store's own invariants that `store check` verifies on every backend.
// For the backends only: nothing outside data/ includes it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "data/store.h"

namespace gfxstat::data {

// A migration step: it takes a store of schema v(to-1) to v(to) (v0: an
// empty database). Each backend lists its steps, one per version, with its
// own SQL and these words.
struct StoreStep {
    int to;
    const char* what;
    const char* sql;
    // After its SQL: each stored run's skeleton and lone-number metrics are
    // filled from its line (store_run_skeleton), by the backend's C++.
    bool fill_skeletons = false;
};
inline constexpr const char* kStoreStepV1 =
    "created the v1 tables (files, records, metric_names, run_metrics, samples)";

inline constexpr const char* kStoreStepV2 =
    "added each run's skeleton (its line with the metrics member emptied) and which of its metrics it prints as "
    "a lone number, filled from the stored runs' lines";

// Applies the steps after `from` in order: `apply` runs a step's SQL and
// records its version; `done` gets "vN: what" for each.
void apply_store_steps(const StoreStep* steps, size_t count, int from, const std::function<void(const StoreStep&)>& apply,
                       std::vector<std::string>* done);

// Schema v2: what a one-metric read rebuilds a run's line from. The
// skeleton is the line with its metrics member emptied; `scalar_metrics`
// are the metrics the line prints as a lone number rather than an array.
// No skeleton (nullopt) when the line is not one the skeleton and the
// samples rebuild exactly: such a run is read whole.
struct RunSkeleton {
    std::optional<std::string> skeleton;
    std::vector<std::string> scalar_metrics;
};
RunSkeleton store_run_skeleton(const std::string& line, const RunRecord& run);
RunSkeleton store_run_skeleton(const std::string& line);  // parses it; a line that does not parse has none

// A canonical run line with only the metrics whose JSON string tokens are
// `names`; the line as it is when it is not one gfxstat's writer prints.
// The JSON string token of a canonical line at `at` (a quote): its end
// (past the closing quote), or npos. Lines are matched without parsing.
size_t string_end(std::string_view s, size_t at);
std::string store_projected_run(const std::string& line, const std::vector<std::string>& names);

// The run line store_projected_run gives for one metric, rebuilt from the
// skeleton: `scalar` -1 when the run has no such metric, 1 when it prints
// it as a lone number, 0 as an array; `texts` its samples as printed, in
// position order.
std::string store_rebuilt_run(const std::string& skeleton, const std::string& metric, int scalar,
                              const std::vector<std::string>& texts);

// The sentences both backends refuse with (`shown`: StoreUrl::shown).
std::string store_newer_schema(const std::string& shown, int version);
std::string store_older_schema(const std::string& shown, int version);
std::string store_not_a_store(const std::string& shown);        // tables, but no schema_version
std::string store_empty_database(const std::string& shown);     // opened as existing, and empty

// A stored run or image check (its line, the file id it is stored under)
// against the pushed record of the same identity: "" when they are the same,
// else the refusal naming both files (`name`: the path pushed; the stored
// file's name and push time).
std::string store_identity_conflict(const StoreRecord& pushed, const std::string& name, const std::string& stored_line,
                                    const std::string& stored_file_id, const std::string& stored_name,
                                    const std::string& stored_pushed_at);

// A stored record's kind column back as a kind; throws InputError.
StoreRecord::Kind store_record_kind_of(const std::string& name);

// The WHERE clause of a query's runs over `records r` (placeholders only,
// the values appended to `values` in their order): `placeholder` is '?'
// (SQLite, ?N) or '$' (PostgreSQL, $N).
std::string store_run_conditions(const StoreQuery& query, std::vector<std::string>& values, char placeholder);

// One stored record as `store check` reads it, and a run's samples.
struct CheckedRecord {
    int64_t id = 0;
    std::string kind, line, file_id, origin, variant;
    int64_t idx = 0;
    int64_t samples = 0, metrics = 0;  // rows in samples and run_metrics
    std::optional<std::string> skeleton;  // runs: the skeleton column
    int64_t scalar_metrics = 0;           // runs: run_metrics rows marked scalar
};
struct CheckedSample {
    std::string metric;
    int64_t position = 0;
    std::string text;
    double value = 0;
};
// The store's own invariants for one record: its line parses as the kind
// it is stored as; a run's sample and metric counts, identity columns and
// every sample's text and number agree with its line (`samples` reads the
// run's sample rows, only for runs); an image check's identity columns
// agree with its line. Problems are appended to `c`.
void check_stored_record(StoreCheck& c, const CheckedRecord& r,
                         const std::function<std::vector<CheckedSample>(int64_t record)>& samples);
// A file's header names its id.
void check_stored_header(StoreCheck& c, const std::string& file_id, const std::string& header);

}  // namespace gfxstat::data
