// SPDX-License-Identifier: MIT
// The results store (docs/store.md): results files pushed by CI jobs and
// campaigns into one database, and got back as results files that every
// command reads as today. One interface, a backend per database: SQLite
// (data/sqlite_store.cpp) and PostgreSQL (data/postgres_store.cpp).
//
// Nothing lost, nothing invented: a pushed file is kept record by record,
// each as the canonical JSON line gfxstat's writer prints for it
// (data/results_json.h), so that get gives back an equivalent file. Runs
// and image checks are identified as merge identifies them (origin: the id
// of the file they were first recorded in; variant; index): pushing a file
// twice adds nothing, and a run that differs from the stored run of the
// same identity refuses the whole push, naming both.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "data/results_model.h"

namespace gfxstat::data {

// The schema version this gfxstat writes and reads up to.
inline constexpr int kStoreSchemaVersion = 2;

// Where a store is: `sqlite:PATH`, or a libpq connection string
// (`postgresql://...`, `postgres://...`, `service=NAME`, `host=...` and
// libpq's other key=value pairs) for a PostgreSQL database.
struct StoreUrl {
    enum class Kind { sqlite, postgresql };
    Kind kind = Kind::sqlite;
    // sqlite: the database file; postgresql: the connection string as
    // given, for libpq only (never shown: it may hold a password).
    std::string path;
    // What messages and output may show: "sqlite:PATH"; for PostgreSQL,
    // never the connection string (it may hold a password): "PostgreSQL
    // store".
    std::string shown;
};

// Reads a store URL. Throws InputError for text that is no store URL.
StoreUrl parse_store_url(std::string_view url);
// The URL to open: `option` (--store) when given, else GFXSTAT_STORE when
// set and not empty, else sqlite:$XDG_DATA_HOME/gfxstat/results.sqlite
// (XDG_DATA_HOME defaulting to ~/.local/share).
std::string store_url_from(const std::string& option);
std::string default_store_url();

// One record of a pushed file, prepared for a backend (store_records.cpp):
// its line and what selections and identities need from it.
struct StoreRecord {
    enum class Kind { metric, environment, design, run, image_check };
    Kind kind = Kind::run;
    std::string line;  // the canonical JSON line, without its '\n'
    std::string key;   // a declaration's name or id; "" for runs and checks
    // Runs and image checks: the identity (origin filled in as merge does)
    // and the line with that origin, which identical duplicates share.
    std::string origin, variant;
    uint64_t index = 0;
    std::string identity_line;
    // Runs: the selection columns.
    std::string machine, boot, build, start;
    struct Sample {
        std::string metric;
        uint64_t position = 0;
        std::string text;  // as printed in the line
        double value = 0;
    };
    std::vector<std::string> metrics;  // the run's metric names
    // Schema v2 (data/store_backend.h, RunSkeleton): the line with its
    // metrics emptied (none: read whole), and the metrics printed as a
    // lone number.
    std::optional<std::string> skeleton;
    std::vector<std::string> scalar_metrics;
    std::vector<Sample> samples;
};
const char* store_record_kind_name(StoreRecord::Kind kind);

struct PreparedPush {
    std::string file_id, created, header_line;
    std::vector<StoreRecord> records;  // declarations first, then runs, then checks
};
// The records of `file`, in an order that reads back (declarations before
// the runs that use them). `machine` is machine_name() of a run's
// environment; `build` its tag commit, else build, else its variant.
PreparedPush prepare_push(const ResultsFile& file);

struct PushOutcome {
    bool new_file = false;
    size_t runs_added = 0, runs_present = 0;
    size_t checks_added = 0, checks_present = 0;
    size_t samples_added = 0;
};

// Called after each record a push writes (tests kill a push midway).
using PushProgress = std::function<void(size_t records_written)>;

struct StoreCount {
    std::string name;
    size_t runs = 0, samples = 0;
};
struct StoreListing {
    size_t files = 0, runs = 0, image_checks = 0, samples = 0;
    std::vector<StoreCount> builds, machines, metrics, variants;  // by name
};

// A stored file, records in push order, for get.
struct StoredFile {
    std::string file_id, name, pushed_at;
    std::string header_line;
    std::vector<std::string> lines;  // its records' lines
    std::vector<StoreRecord::Kind> kinds;  // and their kinds
};

struct StoreCheck {
    std::vector<std::string> problems;  // empty: sound
    size_t files = 0, records = 0, runs = 0, samples = 0;
};

struct UpgradeOutcome {
    int from = 0, to = 0;
    std::vector<std::string> steps;  // what each applied step did
};

// What a selection asks the database for before the filter language
// decides run by run (data/store_select.cpp), so that a one-machine,
// one-metric selection of a large store reads only its rows. Each list
// narrows; an empty list is any. Values are compared exactly (bound
// parameters, never SQL text).
struct StoreQuery {
    std::vector<std::string> variants;  // the run's variant column
    std::vector<std::string> machines;  // the run's machine column
    std::vector<std::string> builds;    // the run's build column
    std::vector<std::string> metrics;   // the run has a sample of one of these
};

// A build the query's runs belong to, for `last:N` (build order): its name
// (the build column), its first run's start ("" when no run has one) and
// how many runs the query keeps of it.
struct StoredBuild {
    std::string build, first_start;
    size_t runs = 0;
};

class Store {
public:
    virtual ~Store() = default;
    const StoreUrl& url() const { return url_; }
    virtual int schema_version() = 0;
    // One transaction: all of it or nothing. `name` (the path pushed) is
    // kept for messages. Throws InputError (a conflict, a busy store).
    virtual PushOutcome push(const ResultsFile& file, const std::string& name, const PushProgress& progress = {}) = 0;
    virtual StoreListing list() = 0;
    virtual std::vector<StoredFile> files() = 0;
    // The stored files holding a run the query keeps, in push order, each
    // as files() gives it but with only: its declarations (metric,
    // environment, design), the runs the query keeps, and the image checks
    // of those runs' variants in that file -- in push order.
    virtual std::vector<StoredFile> select_files(const StoreQuery& query) = 0;
    // select_files for a reader of one metric (select_runs' projection): a
    // file that declares `metric` comes back with that metric's declaration
    // only among its metric declarations and each kept run's line with only
    // that metric's values, rebuilt from the run's skeleton and the
    // metric's samples (a run without a skeleton: its line, projected);
    // another file as select_files gives it.
    virtual std::vector<StoredFile> select_metric_files(const StoreQuery& query, const std::string& metric) = 0;
    // The builds of the runs the query keeps, ordered by first_start then
    // name.
    virtual std::vector<StoredBuild> builds(const StoreQuery& query) = 0;
    virtual StoreCheck check() = 0;
    virtual UpgradeOutcome upgrade() = 0;

protected:
    explicit Store(StoreUrl url) : url_(std::move(url)) {}

private:
    StoreUrl url_;
};

enum class StoreOpen {
    existing,  // a missing store is an InputError (store init makes one)
    create,    // made when missing (init, push)
    upgrade,   // an older schema is opened, for upgrade()
};

// Opens the backend the URL names. Throws InputError: a missing store (a
// PostgreSQL database must exist: store init makes the store in it), a
// server that cannot be reached, a newer schema ("this store is schema v3;
// this gfxstat reads up to v2: upgrade gfxstat"), an older one (store
// upgrade).
std::unique_ptr<Store> open_store(const StoreUrl& url, StoreOpen mode);
// The SQLite backend (sqlite_store.cpp).
std::unique_ptr<Store> open_sqlite_store(const StoreUrl& url, StoreOpen mode);
// The PostgreSQL backend (postgres_store.cpp).
std::unique_ptr<Store> open_postgres_store(const StoreUrl& url, StoreOpen mode);

// The stored runs that `selection` (docs/filter-language.md) keeps, as the
// text of one results file: when they all come from one pushed file, that
// file's header and records in the order pushed, less the runs (and the
// image checks of variants) not kept -- the file itself when all are;
// from several, the files merged as gfxstat merge merges them. `runs` gets
// how many runs it holds. Throws InputError (no run selected) and
// FilterSyntaxError.
std::string select_stored_runs(Store& store, std::string_view selection, size_t* runs = nullptr);
// (data/store_select.h: the selection read once, last:N, build orders.)

}  // namespace gfxstat::data
