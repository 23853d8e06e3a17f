// SPDX-License-Identifier: MIT
// The SQLite backend of the results store (data/store.h, docs/store.md):
// WAL (readers never wait for a push), a busy timeout (writers queue), one
// transaction per push, SQL with bound parameters only -- no statement is
// ever built from data.
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <ctime>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <variant>

#include "data/image_check.h"
#include "data/input_error.h"
#include "data/results_json.h"
#include "data/results_writer.h"
#include "data/store.h"
#include "data/store_backend.h"

namespace gfxstat::data {

namespace {

constexpr int kBusyTimeoutMs = 60000;

// Schema v1. Each record of a pushed file is a row of `records` holding its
// canonical line; runs and image checks carry their identity (unique) and
// selection columns; `samples` holds every value of every run, as printed
// and as a REAL, indexed by metric for one-metric histories.
constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    file_id TEXT NOT NULL UNIQUE,
    header TEXT NOT NULL,
    created TEXT NOT NULL,
    name TEXT NOT NULL,
    pushed_at TEXT NOT NULL
);
CREATE TABLE records (
    id INTEGER PRIMARY KEY,
    file INTEGER NOT NULL REFERENCES files(id),
    kind TEXT NOT NULL,
    key TEXT NOT NULL DEFAULT '',
    line TEXT NOT NULL,
    origin TEXT,
    variant TEXT,
    idx INTEGER,
    machine TEXT,
    boot TEXT,
    build TEXT,
    start TEXT
);
CREATE UNIQUE INDEX records_declaration ON records(file, kind, key)
    WHERE kind IN ('metric', 'environment', 'design');
CREATE UNIQUE INDEX records_identity ON records(kind, origin, variant, idx)
    WHERE kind IN ('run', 'image_check');
CREATE INDEX records_file ON records(file, id);
CREATE INDEX records_machine_build ON records(machine, build) WHERE kind = 'run';
CREATE INDEX records_variant ON records(variant) WHERE kind = 'run';
CREATE TABLE metric_names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE run_metrics (
    record INTEGER NOT NULL REFERENCES records(id),
    metric INTEGER NOT NULL REFERENCES metric_names(id),
    PRIMARY KEY (metric, record)
) WITHOUT ROWID;
CREATE TABLE samples (
    record INTEGER NOT NULL REFERENCES records(id),
    metric INTEGER NOT NULL REFERENCES metric_names(id),
    position INTEGER NOT NULL,
    text TEXT NOT NULL,
    value REAL,
    PRIMARY KEY (record, metric, position)
) WITHOUT ROWID;
CREATE INDEX samples_metric ON samples(metric, record);
INSERT INTO schema_version (version) VALUES (1);
)sql";

// Schema v2: each run's skeleton (its line with the metrics member
// emptied) and which of its metrics print as a lone number, so that a
// one-metric read rebuilds its lines from them and that metric's samples
// without reading whole run lines. The step's C++ fills them for the runs
// already stored (fill_skeletons).
constexpr const char* kSchemaV2 = R"sql(
ALTER TABLE records ADD COLUMN skeleton TEXT;
ALTER TABLE run_metrics ADD COLUMN scalar INTEGER NOT NULL DEFAULT 0;
)sql";

// The migrations, in order: step k takes a store of schema v(k) to v(k+1)
// (v0: an empty database). A new schema adds one step.
// (data/store_backend.h: the steps' shape and words are the backends'.)
constexpr StoreStep kSteps[] = {
    {1, kStoreStepV1, kSchemaV1},
    {2, kStoreStepV2, kSchemaV2, true},
};
static_assert(sizeof(kSteps) / sizeof(kSteps[0]) == kStoreSchemaVersion, "one step per schema version");

class Statement {
public:
    Statement(sqlite3* db, const char* sql, const std::string& shown) : shown_(shown) {
        if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK)
            throw InputError(shown + ": " + sqlite3_errmsg(db));
    }
    ~Statement() { sqlite3_finalize(stmt_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int i, std::string_view s) {
        sqlite3_bind_text(stmt_, i, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Statement& bind(int i, int64_t v) {
        sqlite3_bind_int64(stmt_, i, v);
        return *this;
    }
    Statement& bind_double(int i, double v) {
        sqlite3_bind_double(stmt_, i, v);
        return *this;
    }
    // True while there is a row.
    bool step() {
        const int rc = sqlite3_step(stmt_);
        if (rc == SQLITE_ROW) return true;
        if (rc == SQLITE_DONE) return false;
        throw InputError(shown_ + ": " + sqlite3_errmsg(sqlite3_db_handle(stmt_)));
    }
    void run() {
        step();
        reset();
    }
    void reset() {
        sqlite3_reset(stmt_);
        sqlite3_clear_bindings(stmt_);
    }
    std::string text(int col) const {
        const auto* p = sqlite3_column_text(stmt_, col);
        return p ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(stmt_, col)))
                 : std::string();
    }
    int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }
    bool null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
    double real(int col) const { return sqlite3_column_double(stmt_, col); }

private:
    sqlite3_stmt* stmt_ = nullptr;
    std::string shown_;
};

class SqliteStore final : public Store {
public:
    SqliteStore(const StoreUrl& url, StoreOpen mode) : Store(url) {
        // Several jobs making the same new store at once: the switch to WAL
        // can answer "database is locked" at once, without the busy
        // timeout; such an open is tried again, for as long as that timeout.
        for (int waited_ms = 0;; waited_ms += 20) {
            try {
                open(mode);
                return;
            } catch (...) {
                const bool busy = db_ && (sqlite3_extended_errcode(db_) & 0xff) == SQLITE_BUSY;
                sqlite3_close(db_);
                db_ = nullptr;
                if (!busy || waited_ms >= kBusyTimeoutMs) throw;
            }
            ::usleep(20000);
        }
    }
    ~SqliteStore() override { sqlite3_close(db_); }

    void open(StoreOpen mode) {
        const StoreUrl& url = this->url();
        const std::string& path = url.path;
        struct stat st {};
        const bool exists = ::lstat(path.c_str(), &st) == 0;
        if (exists && S_ISLNK(st.st_mode)) throw InputError(url.shown + ": a symbolic link; refusing to open it");
        if (exists && !S_ISREG(st.st_mode)) throw InputError(url.shown + ": not a regular file; refusing to open it");
        // Results anyone on the machine could have changed are no results
        // to gate a merge on (a shared store is shared through its group).
        if (exists && (st.st_mode & S_IWOTH))
            throw InputError(url.shown + ": writable by every user, so anyone could have changed its results; "
                             "refusing to open it (chmod o-w it once you trust it)");
        if (!exists && mode != StoreOpen::create)
            throw InputError(url.shown + ": no store there (gfxstat store init makes one)");
        if (!exists && url.shown == default_store_url()) make_parent_directories(path);
        int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_FULLMUTEX;
        if (mode == StoreOpen::create) flags |= SQLITE_OPEN_CREATE;
        if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
            const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
            sqlite3_close(db_);
            db_ = nullptr;
            throw InputError(url.shown + ": cannot open: " + why);
        }
        sqlite3_busy_timeout(db_, kBusyTimeoutMs);
        exec("PRAGMA foreign_keys = ON");
        int version = read_version();
        if (version > kStoreSchemaVersion)
            throw InputError(store_newer_schema(url.shown, version));
        // A database of something else is never made into a store. Tables
        // but no version may also be a store another job made between the
        // two reads: the version is read again.
        if (version == 0 && scalar("SELECT count(*) FROM sqlite_master") > 0 && (version = read_version()) == 0)
            throw InputError(store_not_a_store(url.shown));
        if (version == 0 && mode == StoreOpen::existing)
            throw InputError(store_empty_database(url.shown));
        // WAL: readers never wait for a push (it needs a file system with
        // shared memory: a local one, not NFS).
        exec("PRAGMA journal_mode = WAL");
        exec("PRAGMA synchronous = NORMAL");
        if (version == 0 && mode == StoreOpen::create) {
            migrate();  // (upgrade() makes an empty database a store too)
        } else if (version < kStoreSchemaVersion && mode != StoreOpen::upgrade) {
            throw InputError(store_older_schema(url.shown, version));
        }
    }

    int schema_version() override { return read_version(); }

    PushOutcome push(const ResultsFile& file, const std::string& name, const PushProgress& progress) override {
        const PreparedPush p = prepare_push(file);
        PushOutcome out;
        metric_rows_.clear();
        Transaction tx(*this);
        int64_t file_row = 0;
        {
            Statement find(db_, "SELECT id FROM files WHERE file_id = ?1", shown());
            find.bind(1, p.file_id);
            if (find.step()) file_row = find.integer(0);
        }
        if (file_row == 0) {
            Statement ins(db_,
                          "INSERT INTO files (file_id, header, created, name, pushed_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                          shown());
            ins.bind(1, p.file_id).bind(2, p.header_line).bind(3, p.created).bind(4, name).bind(5, utc_now_rfc3339());
            ins.run();
            file_row = sqlite3_last_insert_rowid(db_);
            out.new_file = true;
        }
        // The kind IN (...) terms repeat the partial indexes' WHERE: without
        // them SQLite cannot use those indexes for a bound kind, and every
        // lookup scanned all records (a push of 100,000 runs took minutes).
        Statement find_decl(db_,
                            "SELECT 1 FROM records WHERE kind IN ('metric', 'environment', 'design') AND file = ?1 "
                            "AND kind = ?2 AND key = ?3",
                            shown());
        Statement find_identity(db_,
                                "SELECT r.line, f.file_id, f.name, f.pushed_at FROM records r JOIN files f ON f.id = "
                                "r.file WHERE r.kind IN ('run', 'image_check') AND r.kind = ?1 AND r.origin = ?2 "
                                "AND r.variant = ?3 AND r.idx = ?4",
                                shown());
        Statement insert(db_,
                         "INSERT INTO records (file, kind, key, line, origin, variant, idx, machine, boot, build, start, "
                         "skeleton) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                         shown());
        Statement metric_id(db_, "SELECT id FROM metric_names WHERE name = ?1", shown());
        Statement metric_new(db_, "INSERT INTO metric_names (name) VALUES (?1)", shown());
        Statement run_metric(db_, "INSERT OR IGNORE INTO run_metrics (record, metric, scalar) VALUES (?1, ?2, ?3)",
                             shown());
        Statement sample(db_, "INSERT INTO samples (record, metric, position, text, value) VALUES (?1, ?2, ?3, ?4, ?5)",
                         shown());
        size_t written = 0;
        for (const StoreRecord& r : p.records) {
            const char* kind = store_record_kind_name(r.kind);
            const bool identified = r.kind == StoreRecord::Kind::run || r.kind == StoreRecord::Kind::image_check;
            if (!identified) {
                find_decl.bind(1, file_row).bind(2, kind).bind(3, r.key);
                const bool present = find_decl.step();
                find_decl.reset();
                if (present) continue;
            } else {
                find_identity.bind(1, kind).bind(2, r.origin).bind(3, r.variant).bind(4, static_cast<int64_t>(r.index));
                if (find_identity.step()) {
                    const std::string msg =
                        store_identity_conflict(r, name, find_identity.text(0), find_identity.text(1),
                                                find_identity.text(2), find_identity.text(3));
                    if (!msg.empty()) {
                        find_identity.reset();
                        throw InputError(msg);  // the transaction rolls back
                    }
                    find_identity.reset();
                    (r.kind == StoreRecord::Kind::run ? out.runs_present : out.checks_present)++;
                    continue;
                }
                find_identity.reset();
            }
            insert.bind(1, file_row).bind(2, kind).bind(3, r.key).bind(4, r.line);
            if (identified) {
                insert.bind(5, r.origin).bind(6, r.variant).bind(7, static_cast<int64_t>(r.index));
                insert.bind(9, r.boot).bind(11, r.start);
            }
            if (r.kind == StoreRecord::Kind::run) insert.bind(8, r.machine).bind(10, r.build);
            if (r.skeleton) insert.bind(12, *r.skeleton);
            insert.run();
            const int64_t row = sqlite3_last_insert_rowid(db_);
            if (r.kind == StoreRecord::Kind::run) {
                ++out.runs_added;
                for (const std::string& m : r.metrics) {
                    const bool scalar = std::count(r.scalar_metrics.begin(), r.scalar_metrics.end(), m) > 0;
                    run_metric.bind(1, row).bind(2, metric_row(metric_id, metric_new, m));
                    run_metric.bind(3, static_cast<int64_t>(scalar)).run();
                }
                for (const StoreRecord::Sample& s : r.samples) {
                    sample.bind(1, row).bind(2, metric_row(metric_id, metric_new, s.metric));
                    sample.bind(3, static_cast<int64_t>(s.position)).bind(4, s.text).bind_double(5, s.value);
                    sample.run();
                    ++out.samples_added;
                }
            } else if (r.kind == StoreRecord::Kind::image_check) {
                ++out.checks_added;
            }
            ++written;
            if (progress) progress(written);
        }
        tx.commit();
        return out;
    }

    StoreListing list() override {
        const ReadSnapshot snapshot(*this);
        StoreListing l;
        l.files = static_cast<size_t>(scalar("SELECT count(*) FROM files"));
        l.runs = static_cast<size_t>(scalar("SELECT count(*) FROM records WHERE kind = 'run'"));
        l.image_checks = static_cast<size_t>(scalar("SELECT count(*) FROM records WHERE kind = 'image_check'"));
        l.samples = static_cast<size_t>(scalar("SELECT count(*) FROM samples"));
        // One pass over the samples per section (a correlated count per
        // build scanned every run once per build: quadratic in a farm's
        // store of thousands of builds).
        const auto counts = [&](const std::string& grouped) {
            std::vector<StoreCount> out;
            const std::string sql =
                "WITH run_samples AS (SELECT record, count(*) AS samples FROM samples GROUP BY record) " + grouped;
            Statement q(db_, sql.c_str(), shown());
            while (q.step())
                out.push_back({q.text(0), static_cast<size_t>(q.integer(1)), static_cast<size_t>(q.integer(2))});
            return out;
        };
        l.builds = counts(
            "SELECT r.build, count(*), coalesce(sum(n.samples), 0) FROM records r LEFT JOIN run_samples n "
            "ON n.record = r.id WHERE r.kind = 'run' GROUP BY r.build ORDER BY r.build");
        l.machines = counts(
            "SELECT r.machine, count(*), coalesce(sum(n.samples), 0) FROM records r LEFT JOIN run_samples n "
            "ON n.record = r.id WHERE r.kind = 'run' GROUP BY r.machine ORDER BY r.machine");
        l.variants = counts(
            "SELECT r.variant, count(*), coalesce(sum(n.samples), 0) FROM records r LEFT JOIN run_samples n "
            "ON n.record = r.id WHERE r.kind = 'run' GROUP BY r.variant ORDER BY r.variant");
        l.metrics = counts(
            "SELECT m.name, (SELECT count(*) FROM run_metrics rm WHERE rm.metric = m.id), "
            "(SELECT count(*) FROM samples s WHERE s.metric = m.id) FROM metric_names m ORDER BY m.name");
        return l;
    }

    std::vector<StoredFile> files() override {
        const ReadSnapshot snapshot(*this);
        std::vector<StoredFile> out;
        std::vector<int64_t> rows;
        {
            Statement q(db_, "SELECT id, file_id, name, pushed_at, header FROM files ORDER BY id", shown());
            while (q.step()) {
                rows.push_back(q.integer(0));
                out.push_back({q.text(1), q.text(2), q.text(3), q.text(4), {}, {}});
            }
        }
        Statement q(db_, "SELECT line, kind FROM records WHERE file = ?1 ORDER BY id", shown());
        for (size_t i = 0; i < rows.size(); ++i) {
            q.bind(1, rows[i]);
            while (q.step()) {
                out[i].lines.push_back(q.text(0));
                out[i].kinds.push_back(store_record_kind_of(q.text(1)));
            }
            q.reset();
        }
        return out;
    }

    std::vector<StoredFile> select_files(const StoreQuery& query) override {
        const ReadSnapshot snapshot(*this);
        std::vector<std::string> values;
        const std::string where = store_run_conditions(query, values, '?');
        // The kept runs, by file: row ids (push order) and lines.
        struct Row {
            int64_t id;
            StoreRecord::Kind kind;
            std::string line;
        };
        std::map<int64_t, std::vector<Row>> by_file;
        std::map<int64_t, std::set<std::string>> variants_of;
        {
            const std::string sql = "SELECT r.id, r.file, r.line, r.variant FROM records r WHERE " + where + " ORDER BY r.id";
            Statement q(db_, sql.c_str(), shown());
            for (size_t i = 0; i < values.size(); ++i) q.bind(static_cast<int>(i + 1), values[i]);
            while (q.step()) {
                by_file[q.integer(1)].push_back({q.integer(0), StoreRecord::Kind::run, q.text(2)});
                variants_of[q.integer(1)].insert(q.text(3));
            }
        }
        std::vector<StoredFile> out;
        Statement head(db_, "SELECT file_id, name, pushed_at, header FROM files WHERE id = ?1", shown());
        Statement rest(db_,
                       "SELECT id, kind, line, variant FROM records WHERE file = ?1 AND kind <> 'run' ORDER BY id",
                       shown());
        for (auto& [file, rows] : by_file) {
            head.bind(1, file);
            if (!head.step()) throw InputError(shown() + ": a run refers to a missing file (gfxstat store check)");
            StoredFile f{head.text(0), head.text(1), head.text(2), head.text(3), {}, {}};
            head.reset();
            rest.bind(1, file);
            const std::set<std::string>& variants = variants_of[file];
            while (rest.step()) {
                const StoreRecord::Kind kind = store_record_kind_of(rest.text(1));
                if (kind == StoreRecord::Kind::image_check && !variants.count(rest.text(3))) continue;
                rows.push_back({rest.integer(0), kind, rest.text(2)});
            }
            rest.reset();
            std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.id < b.id; });
            for (Row& r : rows) {
                f.lines.push_back(std::move(r.line));
                f.kinds.push_back(r.kind);
            }
            out.push_back(std::move(f));
        }
        return out;
    }

    std::vector<StoredFile> select_metric_files(const StoreQuery& query, const std::string& metric) override {
        const ReadSnapshot snapshot(*this);
        std::vector<std::string> values;
        const std::string where = store_run_conditions(query, values, '?');
        values.push_back(metric);
        const std::string m = "?" + std::to_string(values.size());
        int64_t metric_id = -1;
        {
            Statement q(db_, "SELECT id FROM metric_names WHERE name = ?1", shown());
            q.bind(1, metric);
            if (q.step()) metric_id = q.integer(0);
        }
        // The kept runs: skeleton, and whether (and how) they print the metric.
        struct Run {
            int64_t id;
            std::optional<std::string> skeleton;
            int scalar;
        };
        std::map<int64_t, std::vector<Run>> by_file;
        std::map<int64_t, std::set<std::string>> variants_of;
        {
            const std::string sql =
                "SELECT r.id, r.file, r.variant, r.skeleton, rm.scalar FROM records r LEFT JOIN run_metrics rm "
                "ON rm.record = r.id AND rm.metric = (SELECT id FROM metric_names WHERE name = " + m + ") WHERE " +
                where + " ORDER BY r.id";
            Statement q(db_, sql.c_str(), shown());
            for (size_t i = 0; i < values.size(); ++i) q.bind(static_cast<int>(i + 1), values[i]);
            while (q.step()) {
                std::optional<std::string> skeleton;
                if (!q.null(3)) skeleton = q.text(3);
                by_file[q.integer(1)].push_back({q.integer(0), std::move(skeleton), q.null(4) ? -1 : int(q.integer(4))});
                variants_of[q.integer(1)].insert(q.text(2));
            }
        }
        std::vector<StoredFile> out;
        Statement head(db_, "SELECT file_id, name, pushed_at, header FROM files WHERE id = ?1", shown());
        Statement declares(db_,
                           "SELECT 1 FROM records WHERE kind IN ('metric', 'environment', 'design') AND file = ?1 "
                           "AND kind = 'metric' AND key = ?2",
                           shown());
        Statement rest(db_,
                       "SELECT id, kind, line, variant FROM records WHERE file = ?1 AND kind <> 'run' "
                       "AND (?3 = 0 OR kind <> 'metric' OR key = ?2) ORDER BY id",
                       shown());
        Statement line(db_, "SELECT line FROM records WHERE id = ?1", shown());
        Statement samples(db_, "SELECT text FROM samples WHERE record = ?1 AND metric = ?2 ORDER BY position", shown());
        std::vector<std::string> name_token(1);
        append_json_string(name_token[0], metric);
        for (auto& [file, runs] : by_file) {
            head.bind(1, file);
            if (!head.step()) throw InputError(shown() + ": a run refers to a missing file (gfxstat store check)");
            StoredFile f{head.text(0), head.text(1), head.text(2), head.text(3), {}, {}};
            head.reset();
            declares.bind(1, file).bind(2, metric);
            const bool project = declares.step();
            declares.reset();
            std::vector<std::tuple<int64_t, StoreRecord::Kind, std::string>> rows;
            for (const Run& r : runs) {
                std::string text;
                if (project && r.skeleton) {
                    std::vector<std::string> texts;
                    if (r.scalar >= 0) {
                        samples.bind(1, r.id).bind(2, metric_id);
                        while (samples.step()) texts.push_back(samples.text(0));
                        samples.reset();
                    }
                    text = store_rebuilt_run(*r.skeleton, metric, r.scalar, texts);
                } else {
                    line.bind(1, r.id);
                    if (line.step()) text = line.text(0);
                    line.reset();
                    if (project) text = store_projected_run(text, name_token);
                }
                rows.emplace_back(r.id, StoreRecord::Kind::run, std::move(text));
            }
            rest.bind(1, file).bind(2, metric).bind(3, static_cast<int64_t>(project));
            const std::set<std::string>& variants = variants_of[file];
            while (rest.step()) {
                const StoreRecord::Kind kind = store_record_kind_of(rest.text(1));
                if (kind == StoreRecord::Kind::image_check && !variants.count(rest.text(3))) continue;
                rows.emplace_back(rest.integer(0), kind, rest.text(2));
            }
            rest.reset();
            std::sort(rows.begin(), rows.end(),
                      [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
            for (auto& [id, kind, text] : rows) {
                f.lines.push_back(std::move(text));
                f.kinds.push_back(kind);
            }
            out.push_back(std::move(f));
        }
        return out;
    }

    std::vector<StoredBuild> builds(const StoreQuery& query) override {
        const ReadSnapshot snapshot(*this);
        std::vector<std::string> values;
        const std::string where = store_run_conditions(query, values, '?');
        const std::string sql =
            "SELECT r.build, coalesce(min(nullif(r.start, '')), '') AS first, count(*) FROM records r WHERE " + where +
            " GROUP BY r.build ORDER BY first, r.build";
        Statement q(db_, sql.c_str(), shown());
        for (size_t i = 0; i < values.size(); ++i) q.bind(static_cast<int>(i + 1), values[i]);
        std::vector<StoredBuild> out;
        while (q.step()) out.push_back({q.text(0), q.text(1), static_cast<size_t>(q.integer(2))});
        return out;
    }

    StoreCheck check() override {
        StoreCheck c;
        {
            Statement q(db_, "PRAGMA integrity_check", shown());
            while (q.step())
                if (q.text(0) != "ok") c.problems.push_back("SQLite: " + q.text(0));
        }
        {
            Statement q(db_, "PRAGMA foreign_key_check", shown());
            while (q.step()) c.problems.push_back("SQLite: a row of table " + q.text(0) + " refers to a missing row");
        }
        c.files = static_cast<size_t>(scalar("SELECT count(*) FROM files"));
        c.records = static_cast<size_t>(scalar("SELECT count(*) FROM records"));
        c.runs = static_cast<size_t>(scalar("SELECT count(*) FROM records WHERE kind = 'run'"));
        c.samples = static_cast<size_t>(scalar("SELECT count(*) FROM samples"));
        // The store's own invariants (data/store_backend.h), record by record.
        Statement q(db_,
                    "SELECT r.id, r.kind, r.line, f.file_id, "
                    "(SELECT count(*) FROM samples s WHERE s.record = r.id), "
                    "(SELECT count(*) FROM run_metrics m WHERE m.record = r.id), "
                    "r.origin, r.variant, r.idx, r.skeleton, "
                    "(SELECT count(*) FROM run_metrics m WHERE m.record = r.id AND m.scalar = 1) "
                    "FROM records r JOIN files f ON f.id = r.file ORDER BY r.id",
                    shown());
        // A run's samples.
        Statement sq(db_,
                     "SELECT m.name, s.position, s.text, s.value FROM samples s JOIN metric_names m ON m.id = s.metric "
                     "WHERE s.record = ?1 ORDER BY m.name, s.position",
                     shown());
        const auto samples = [&](int64_t record) {
            std::vector<CheckedSample> out;
            sq.bind(1, record);
            while (sq.step()) out.push_back({sq.text(0), sq.integer(1), sq.text(2), sq.real(3)});
            sq.reset();
            return out;
        };
        while (q.step()) {
            CheckedRecord r{q.integer(0), q.text(1), q.text(2), q.text(3), q.text(6), q.text(7), q.integer(8),
                            q.integer(4), q.integer(5), std::nullopt, q.integer(10)};
            if (!q.null(9)) r.skeleton = q.text(9);
            check_stored_record(c, r, samples);
        }
        Statement h(db_, "SELECT file_id, header FROM files ORDER BY id", shown());
        while (h.step()) check_stored_header(c, h.text(0), h.text(1));
        return c;
    }

    UpgradeOutcome upgrade() override {
        UpgradeOutcome out;
        out.from = read_version();
        migrate(&out.steps);
        out.to = read_version();
        return out;
    }

private:
    const std::string& shown() const { return url().shown; }

    // One read transaction around a read's statements: all of them see the
    // same snapshot (a push committing in between cannot show half of a
    // file), and the file's locks are taken once for the read, not once a
    // statement (thousands of fcntl calls for a farm's history).
    class ReadSnapshot {
    public:
        explicit ReadSnapshot(SqliteStore& s) : s_(s) { s_.exec("BEGIN"); }
        ~ReadSnapshot() { sqlite3_exec(s_.db_, "COMMIT", nullptr, nullptr, nullptr); }
        ReadSnapshot(const ReadSnapshot&) = delete;
        ReadSnapshot& operator=(const ReadSnapshot&) = delete;

    private:
        SqliteStore& s_;
    };

    class Transaction {
    public:
        explicit Transaction(SqliteStore& s) : s_(s) { s_.exec("BEGIN IMMEDIATE"); }
        ~Transaction() {
            if (!done_) sqlite3_exec(s_.db_, "ROLLBACK", nullptr, nullptr, nullptr);
        }
        void commit() {
            s_.exec("COMMIT");
            done_ = true;
        }

    private:
        SqliteStore& s_;
        bool done_ = false;
    };

    static void make_parent_directories(const std::string& path) {
        for (size_t slash = path.find('/', 1); slash != std::string::npos; slash = path.find('/', slash + 1)) {
            const std::string dir = path.substr(0, slash);
            if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
                throw InputError(dir + ": cannot make the store's directory: " + std::strerror(errno));
        }
    }

    void exec(const char* sql) {
        char* err = nullptr;
        if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
            const std::string why = err ? err : sqlite3_errmsg(db_);
            sqlite3_free(err);
            throw InputError(shown() + ": " + why);
        }
    }

    int64_t scalar(const char* sql) {
        Statement q(db_, sql, shown());
        return q.step() ? q.integer(0) : 0;
    }

    int read_version() {
        Statement t(db_, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'", shown());
        if (!t.step() || t.integer(0) == 0) return 0;
        return static_cast<int>(scalar("SELECT max(version) FROM schema_version"));
    }

    // Applies the steps after the stored version, in one transaction.
    void migrate(std::vector<std::string>* done = nullptr) {
        Transaction tx(*this);
        const int from = read_version();  // again, now that no other writer can
        if (from == 0 && scalar("SELECT count(*) FROM sqlite_master") > 0) throw InputError(store_not_a_store(shown()));
        apply_store_steps(kSteps, std::size(kSteps), from, [&](const StoreStep& s) {
            exec(s.sql);
            if (s.fill_skeletons) fill_skeletons();
            Statement v(db_, "UPDATE schema_version SET version = ?1", shown());
            v.bind(1, static_cast<int64_t>(s.to)).run();
        }, done);
        tx.commit();
    }

    // Schema v2's columns for the runs stored before it, from their lines,
    // a thousand runs at a time (read, then written: no update under the
    // read, and a large store's lines are never all in memory).
    void fill_skeletons() {
        Statement runs(db_, "SELECT id, line FROM records WHERE kind = 'run' AND id > ?1 ORDER BY id LIMIT 1000",
                       shown());
        Statement set(db_, "UPDATE records SET skeleton = ?2 WHERE id = ?1", shown());
        Statement scalar(db_,
                         "UPDATE run_metrics SET scalar = 1 WHERE record = ?1 "
                         "AND metric = (SELECT id FROM metric_names WHERE name = ?2)",
                         shown());
        for (int64_t after = 0;;) {
            std::vector<std::pair<int64_t, RunSkeleton>> filled;
            runs.bind(1, after);
            while (runs.step()) filled.emplace_back(runs.integer(0), store_run_skeleton(runs.text(1)));
            runs.reset();
            if (filled.empty()) return;
            for (const auto& [id, sk] : filled) {
                if (sk.skeleton) set.bind(1, id).bind(2, *sk.skeleton).run();
                for (const std::string& m : sk.scalar_metrics) scalar.bind(1, id).bind(2, m).run();
            }
            after = filled.back().first;
        }
    }

    int64_t metric_row(Statement& find, Statement& add, const std::string& name) {
        if (auto it = metric_rows_.find(name); it != metric_rows_.end()) return it->second;
        find.bind(1, name);
        int64_t row = 0;
        if (find.step()) row = find.integer(0);
        find.reset();
        if (row == 0) {
            add.bind(1, name).run();
            row = sqlite3_last_insert_rowid(db_);
        }
        metric_rows_[name] = row;
        return row;
    }

    sqlite3* db_ = nullptr;
    std::map<std::string, int64_t> metric_rows_;  // within one push (rolled back with it)
};

}  // namespace

std::unique_ptr<Store> open_sqlite_store(const StoreUrl& url, StoreOpen mode) {
    return std::make_unique<SqliteStore>(url, mode);
}

}  // namespace gfxstat::data
