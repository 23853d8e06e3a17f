// SPDX-License-Identifier: MIT
// The PostgreSQL backend of the results store (data/store.h,
// docs/store.md): the tables, identities and words of the SQLite backend
// (data/sqlite_store.cpp; what they share is data/store_backend.h) in
// PostgreSQL's types. One transaction per push, pushes queued by a table
// lock (readers never wait), the schema made under an advisory lock (jobs
// pushing into an empty database at once), SQL with bound parameters only
// -- no statement is ever built from data. The connection string is never
// shown: messages say "PostgreSQL store", and a password given in it is
// cut out of every message libpq or the server writes.
#include <libpq-fe.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>

#include "data/input_error.h"
#include "data/results_json.h"
#include "data/results_writer.h"
#include "data/store.h"
#include "data/store_backend.h"

namespace gfxstat::data {

namespace {

// How long a push waits for another push's lock (SQLite's busy timeout).
constexpr const char* kLockTimeout = "SET lock_timeout = 60000";
// The advisory lock held while the schema is made or upgraded (per
// database, so stores in other databases of a server never wait on it).
constexpr int64_t kSchemaLock = 0x6766787374617453;  // "gfxstatS"

// Schema v1: the SQLite backend's tables in PostgreSQL's types. Text
// columns compare and sort byte by byte (COLLATE "C"), as SQLite's do,
// whatever the database's locale: names are listed in the same order and
// builds ordered alike on both backends.
constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE files (
    id BIGSERIAL PRIMARY KEY,
    file_id TEXT COLLATE "C" NOT NULL UNIQUE,
    header TEXT NOT NULL,
    created TEXT NOT NULL,
    name TEXT NOT NULL,
    pushed_at TEXT NOT NULL
);
CREATE TABLE records (
    id BIGSERIAL PRIMARY KEY,
    file BIGINT NOT NULL REFERENCES files(id),
    kind TEXT COLLATE "C" NOT NULL,
    key TEXT COLLATE "C" NOT NULL DEFAULT '',
    line TEXT NOT NULL,
    origin TEXT COLLATE "C",
    variant TEXT COLLATE "C",
    idx BIGINT,
    machine TEXT COLLATE "C",
    boot TEXT COLLATE "C",
    build TEXT COLLATE "C",
    start TEXT COLLATE "C"
);
CREATE UNIQUE INDEX records_declaration ON records(file, kind, key)
    WHERE kind IN ('metric', 'environment', 'design');
CREATE UNIQUE INDEX records_identity ON records(kind, origin, variant, idx)
    WHERE kind IN ('run', 'image_check');
CREATE INDEX records_file ON records(file, id);
CREATE INDEX records_machine_build ON records(machine, build) WHERE kind = 'run';
CREATE INDEX records_variant ON records(variant) WHERE kind = 'run';
CREATE TABLE metric_names (id BIGSERIAL PRIMARY KEY, name TEXT COLLATE "C" NOT NULL UNIQUE);
CREATE TABLE run_metrics (
    record BIGINT NOT NULL REFERENCES records(id),
    metric BIGINT NOT NULL REFERENCES metric_names(id),
    PRIMARY KEY (metric, record)
);
CREATE INDEX run_metrics_record ON run_metrics(record);
CREATE TABLE samples (
    record BIGINT NOT NULL REFERENCES records(id),
    metric BIGINT NOT NULL REFERENCES metric_names(id),
    position BIGINT NOT NULL,
    text TEXT NOT NULL,
    value DOUBLE PRECISION,
    PRIMARY KEY (record, metric, position)
);
CREATE INDEX samples_metric ON samples(metric, record);
INSERT INTO schema_version (version) VALUES (1);
)sql";

// Schema v2 (the SQLite backend's v2): each run's skeleton and which of
// its metrics print as a lone number; the step's C++ fills them.
constexpr const char* kSchemaV2 = R"sql(
ALTER TABLE records ADD COLUMN skeleton TEXT;
ALTER TABLE run_metrics ADD COLUMN scalar INTEGER NOT NULL DEFAULT 0;
)sql";

// The migrations, in order (data/store_backend.h): the same steps as the
// SQLite backend's, in PostgreSQL's SQL.
constexpr StoreStep kSteps[] = {
    {1, kStoreStepV1, kSchemaV1},
    {2, kStoreStepV2, kSchemaV2, true},
};
static_assert(sizeof(kSteps) / sizeof(kSteps[0]) == kStoreSchemaVersion, "one step per schema version");

// A bound parameter: text, or NULL.
using Param = std::optional<std::string>;

std::string number(int64_t v) { return std::to_string(v); }

// A bound array's text: each element quoted, '"' and '\\' escaped, as
// PostgreSQL reads array input (any text but NUL, which push refuses first).
std::string array(const std::vector<std::string>& items) {
    std::string out = "{";
    for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += ',';
        out += '"';
        for (char c : items[i]) {
            if (c == '"' || c == '\\') out += '\\';
            out += c;
        }
        out += '"';
    }
    return out + "}";
}

// A double as text that reads back as the same double.
std::string exact(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

class Result {
public:
    explicit Result(PGresult* r) : r_(r) {}
    Result(Result&& o) noexcept : r_(o.r_) { o.r_ = nullptr; }
    ~Result() { PQclear(r_); }
    Result(const Result&) = delete;
    Result& operator=(const Result&) = delete;
    int rows() const { return PQntuples(r_); }
    bool null(int row, int col) const { return PQgetisnull(r_, row, col); }
    std::string text(int row, int col) const {
        return std::string(PQgetvalue(r_, row, col), static_cast<size_t>(PQgetlength(r_, row, col)));
    }
    int64_t integer(int row, int col) const { return std::strtoll(PQgetvalue(r_, row, col), nullptr, 10); }
    double real(int row, int col) const { return std::strtod(PQgetvalue(r_, row, col), nullptr); }

private:
    PGresult* r_;
};

class PostgresStore final : public Store {
public:
    PostgresStore(const StoreUrl& url, StoreOpen mode) : Store(url) {
        password_ = password_in(url.path);
        // The connection string as the user wrote it (a URI or key=value
        // pairs), expanded by libpq; credentials come from libpq's own
        // means (PGPASSFILE, service files, the socket's peer auth).
        const char* keys[] = {"dbname", "fallback_application_name", "client_encoding", nullptr};
        const char* values[] = {url.path.c_str(), "gfxstat", "UTF8", nullptr};
        conn_ = PQconnectdbParams(keys, values, 1);
        if (!conn_) throw InputError(shown() + ": cannot connect: out of memory");
        try {
            open(mode);
        } catch (...) {
            PQfinish(conn_);
            throw;
        }
    }
    ~PostgresStore() override { PQfinish(conn_); }

    void open(StoreOpen mode) {
        if (PQstatus(conn_) != CONNECTION_OK) throw InputError(shown() + ": cannot connect: " + libpq_error());
        // The server's notices are not gfxstat's output.
        PQsetNoticeProcessor(conn_, [](void*, const char*) {}, nullptr);
        exec(kLockTimeout);
        int version = read_version();
        if (version > kStoreSchemaVersion) throw InputError(store_newer_schema(shown(), version));
        // A database of something else is never made into a store (tables
        // another job is making are not seen before it commits them).
        if (version == 0 && table_count() > 0 && (version = read_version()) == 0)
            throw InputError(store_not_a_store(shown()));
        if (version == 0 && mode == StoreOpen::existing) throw InputError(store_empty_database(shown()));
        if (version == 0 && mode == StoreOpen::create) {
            migrate();  // (upgrade() makes an empty database a store too)
        } else if (version < kStoreSchemaVersion && mode != StoreOpen::upgrade) {
            throw InputError(store_older_schema(shown(), version));
        }
    }

    int schema_version() override { return read_version(); }

    PushOutcome push(const ResultsFile& file, const std::string& name, const PushProgress& progress) override {
        const PreparedPush p = prepare_push(file);
        refuse_nul(p, name);
        PushOutcome out;
        std::map<std::string, int64_t> metric_rows;  // within this push (rolled back with it)
        Transaction tx(*this);
        // Pushes queue here, as SQLite's BEGIN IMMEDIATE queues them: what
        // a push finds stored stays so until it commits, so a concurrent
        // identical push finds this one's runs instead of adding them again.
        // Readers (plain SELECTs) never wait on this lock.
        exec("LOCK TABLE files IN SHARE ROW EXCLUSIVE MODE");
        prepare_statements();
        int64_t file_row = 0;
        std::string file_name = name, file_pushed_at;
        {
            const Result r = query("SELECT id, name, pushed_at FROM files WHERE file_id = $1", {p.file_id});
            if (r.rows()) {
                file_row = r.integer(0, 0);
                file_name = r.text(0, 1);
                file_pushed_at = r.text(0, 2);
            }
        }
        if (file_row == 0) {
            file_pushed_at = utc_now_rfc3339();
            const Result r = query(
                "INSERT INTO files (file_id, header, created, name, pushed_at) VALUES ($1, $2, $3, $4, $5) RETURNING id",
                {p.file_id, p.header_line, p.created, name, file_pushed_at});
            file_row = r.integer(0, 0);
            out.new_file = true;
        }
        // The stored runs and image checks of the push's origins, read in
        // one query (not one per record): what each pushed one is compared
        // with. Those this push adds join them, as the SQLite backend's
        // lookups find them.
        struct Stored {
            std::string line, file_id, name, pushed_at;
        };
        std::map<std::tuple<std::string, std::string, std::string, int64_t>, Stored> stored;
        {
            std::set<std::string> origins;
            for (const StoreRecord& r : p.records)
                if (r.kind == StoreRecord::Kind::run || r.kind == StoreRecord::Kind::image_check) origins.insert(r.origin);
            const Result q = query(
                "SELECT r.kind, r.origin, r.variant, r.idx, r.line, f.file_id, f.name, f.pushed_at FROM records r "
                "JOIN files f ON f.id = r.file WHERE r.kind IN ('run', 'image_check') AND r.origin = ANY($1::text[])",
                {array({origins.begin(), origins.end()})});
            for (int i = 0; i < q.rows(); ++i)
                stored[{q.text(i, 0), q.text(i, 1), q.text(i, 2), q.integer(i, 3)}] = {q.text(i, 4), q.text(i, 5),
                                                                                      q.text(i, 6), q.text(i, 7)};
        }
        const auto metric_row = [&](const std::string& metric) {
            if (auto it = metric_rows.find(metric); it != metric_rows.end()) return it->second;
            Result found = prepared("metric_id", {metric});
            const int64_t row = found.rows() ? found.integer(0, 0) : prepared("metric_new", {metric}).integer(0, 0);
            metric_rows[metric] = row;
            return row;
        };
        size_t written = 0;
        for (const StoreRecord& r : p.records) {
            const char* kind = store_record_kind_name(r.kind);
            const bool identified = r.kind == StoreRecord::Kind::run || r.kind == StoreRecord::Kind::image_check;
            if (!identified) {
                if (prepared("find_decl", {number(file_row), kind, r.key}).rows()) continue;
            } else {
                const auto key = std::make_tuple(std::string(kind), r.origin, r.variant, static_cast<int64_t>(r.index));
                if (const auto found = stored.find(key); found != stored.end()) {
                    const Stored& st = found->second;
                    const std::string msg = store_identity_conflict(r, name, st.line, st.file_id, st.name, st.pushed_at);
                    if (!msg.empty()) throw InputError(msg);  // the transaction rolls back
                    (r.kind == StoreRecord::Kind::run ? out.runs_present : out.checks_present)++;
                    continue;
                }
            }
            std::vector<Param> values = {number(file_row), kind, r.key, r.line, {}, {}, {}, {}, {}, {}, {}, r.skeleton};
            if (identified) {
                values[4] = r.origin;
                values[5] = r.variant;
                values[6] = number(static_cast<int64_t>(r.index));
                values[8] = r.boot;
                values[10] = r.start;
            }
            if (r.kind == StoreRecord::Kind::run) {
                values[7] = r.machine;
                values[9] = r.build;
            }
            if (identified)
                stored[std::make_tuple(std::string(kind), r.origin, r.variant, static_cast<int64_t>(r.index))] = {
                    r.line, p.file_id, file_name, file_pushed_at};
            if (r.kind == StoreRecord::Kind::run) {
                // The run, its metric names and its samples in one statement
                // (one round trip per run, not one per sample), the lists
                // as bound arrays.
                std::vector<std::string> metrics, scalars, sample_metrics, positions, texts, numbers;
                for (const std::string& m : r.metrics) {
                    metrics.push_back(number(metric_row(m)));
                    scalars.push_back(std::count(r.scalar_metrics.begin(), r.scalar_metrics.end(), m) ? "1" : "0");
                }
                for (const StoreRecord::Sample& s : r.samples) {
                    sample_metrics.push_back(number(metric_row(s.metric)));
                    positions.push_back(number(static_cast<int64_t>(s.position)));
                    texts.push_back(s.text);
                    numbers.push_back(exact(s.value));
                }
                for (const auto* list : {&metrics, &sample_metrics, &positions, &texts, &numbers, &scalars})
                    values.push_back(array(*list));
                prepared("insert_run", values);
                ++out.runs_added;
                out.samples_added += r.samples.size();
            } else {
                prepared("insert", values);
            }
            if (r.kind == StoreRecord::Kind::image_check) {
                ++out.checks_added;
            }
            ++written;
            if (progress) progress(written);
        }
        tx.commit();
        return out;
    }

    StoreListing list() override {
        StoreListing l;
        l.files = static_cast<size_t>(scalar("SELECT count(*) FROM files"));
        l.runs = static_cast<size_t>(scalar("SELECT count(*) FROM records WHERE kind = 'run'"));
        l.image_checks = static_cast<size_t>(scalar("SELECT count(*) FROM records WHERE kind = 'image_check'"));
        l.samples = static_cast<size_t>(scalar("SELECT count(*) FROM samples"));
        // One pass over the samples per section, as the SQLite backend.
        const auto counts = [&](const std::string& grouped) {
            std::vector<StoreCount> out;
            const Result r =
                query("WITH run_samples AS (SELECT record, count(*) AS samples FROM samples GROUP BY record) " + grouped, {});
            for (int i = 0; i < r.rows(); ++i)
                out.push_back({r.text(i, 0), static_cast<size_t>(r.integer(i, 1)), static_cast<size_t>(r.integer(i, 2))});
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
        std::vector<StoredFile> out;
        std::vector<int64_t> rows;
        {
            const Result r = query("SELECT id, file_id, name, pushed_at, header FROM files ORDER BY id", {});
            for (int i = 0; i < r.rows(); ++i) {
                rows.push_back(r.integer(i, 0));
                out.push_back({r.text(i, 1), r.text(i, 2), r.text(i, 3), r.text(i, 4), {}, {}});
            }
        }
        for (size_t i = 0; i < rows.size(); ++i) {
            const Result r = query("SELECT line, kind FROM records WHERE file = $1 ORDER BY id", {number(rows[i])});
            for (int k = 0; k < r.rows(); ++k) {
                out[i].lines.push_back(r.text(k, 0));
                out[i].kinds.push_back(store_record_kind_of(r.text(k, 1)));
            }
        }
        return out;
    }

    std::vector<StoredFile> select_files(const StoreQuery& query_) override {
        std::vector<std::string> values;
        const std::string where = store_run_conditions(query_, values, '$');
        // The kept runs, by file: row ids (push order) and lines.
        struct Row {
            int64_t id;
            StoreRecord::Kind kind;
            std::string line;
        };
        std::map<int64_t, std::vector<Row>> by_file;
        std::map<int64_t, std::set<std::string>> variants_of;
        {
            const Result r = query("SELECT r.id, r.file, r.line, r.variant FROM records r WHERE " + where + " ORDER BY r.id",
                                   {values.begin(), values.end()});
            for (int i = 0; i < r.rows(); ++i) {
                by_file[r.integer(i, 1)].push_back({r.integer(i, 0), StoreRecord::Kind::run, r.text(i, 2)});
                variants_of[r.integer(i, 1)].insert(r.text(i, 3));
            }
        }
        std::vector<StoredFile> out;
        for (auto& [file, rows] : by_file) {
            const Result head = query("SELECT file_id, name, pushed_at, header FROM files WHERE id = $1", {number(file)});
            if (!head.rows()) throw InputError(shown() + ": a run refers to a missing file (gfxstat store check)");
            StoredFile f{head.text(0, 0), head.text(0, 1), head.text(0, 2), head.text(0, 3), {}, {}};
            const Result rest = query(
                "SELECT id, kind, line, coalesce(variant, '') FROM records WHERE file = $1 AND kind <> 'run' ORDER BY id",
                {number(file)});
            const std::set<std::string>& variants = variants_of[file];
            for (int i = 0; i < rest.rows(); ++i) {
                const StoreRecord::Kind kind = store_record_kind_of(rest.text(i, 1));
                if (kind == StoreRecord::Kind::image_check && !variants.count(rest.text(i, 3))) continue;
                rows.push_back({rest.integer(i, 0), kind, rest.text(i, 2)});
            }
            std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.id < b.id; });
            for (Row& r : rows) {
                f.lines.push_back(std::move(r.line));
                f.kinds.push_back(r.kind);
            }
            out.push_back(std::move(f));
        }
        return out;
    }

    std::vector<StoredFile> select_metric_files(const StoreQuery& query_, const std::string& metric) override {
        std::vector<std::string> values;
        const std::string where = store_run_conditions(query_, values, '$');
        values.push_back(metric);
        const std::string m = "$" + std::to_string(values.size());
        // The kept runs: skeleton, how they print the metric, and its
        // samples as printed, in position order (numbers: no comma inside).
        struct Run {
            int64_t id;
            std::optional<std::string> skeleton;
            int scalar;
            std::string texts;
        };
        std::map<int64_t, std::vector<Run>> by_file;
        std::map<int64_t, std::set<std::string>> variants_of;
        {
            const Result r = query(
                "WITH mid AS (SELECT id FROM metric_names WHERE name = " + m + ") "
                "SELECT r.id, r.file, r.variant, r.skeleton, rm.scalar, (SELECT string_agg(s.text, ',' ORDER BY "
                "s.position) FROM samples s WHERE s.record = r.id AND s.metric = rm.metric) FROM records r "
                "LEFT JOIN run_metrics rm ON rm.record = r.id AND rm.metric = (SELECT id FROM mid) WHERE " + where +
                " ORDER BY r.id",
                {values.begin(), values.end()});
            for (int i = 0; i < r.rows(); ++i) {
                std::optional<std::string> skeleton;
                if (!r.null(i, 3)) skeleton = r.text(i, 3);
                by_file[r.integer(i, 1)].push_back({r.integer(i, 0), std::move(skeleton),
                                                    r.null(i, 4) ? -1 : static_cast<int>(r.integer(i, 4)), r.text(i, 5)});
                variants_of[r.integer(i, 1)].insert(r.text(i, 2));
            }
        }
        std::vector<std::string> name_token(1);
        append_json_string(name_token[0], metric);
        std::vector<StoredFile> out;
        for (auto& [file, runs] : by_file) {
            const Result head = query("SELECT file_id, name, pushed_at, header FROM files WHERE id = $1", {number(file)});
            if (!head.rows()) throw InputError(shown() + ": a run refers to a missing file (gfxstat store check)");
            StoredFile f{head.text(0, 0), head.text(0, 1), head.text(0, 2), head.text(0, 3), {}, {}};
            const bool project =
                query("SELECT 1 FROM records WHERE kind IN ('metric', 'environment', 'design') AND file = $1 "
                      "AND kind = 'metric' AND key = $2",
                      {number(file), metric})
                    .rows() > 0;
            std::vector<std::tuple<int64_t, StoreRecord::Kind, std::string>> rows;
            for (const Run& r : runs) {
                std::string text;
                if (project && r.skeleton) {
                    std::vector<std::string> texts;
                    for (size_t at = 0; r.scalar >= 0 && at < r.texts.size();) {
                        const size_t comma = std::min(r.texts.find(',', at), r.texts.size());
                        texts.push_back(r.texts.substr(at, comma - at));
                        at = comma + 1;
                    }
                    text = store_rebuilt_run(*r.skeleton, metric, r.scalar, texts);
                } else {
                    const Result l = query("SELECT line FROM records WHERE id = $1", {number(r.id)});
                    if (l.rows()) text = l.text(0, 0);
                    if (project) text = store_projected_run(text, name_token);
                }
                rows.emplace_back(r.id, StoreRecord::Kind::run, std::move(text));
            }
            const Result rest = query(
                "SELECT id, kind, line, coalesce(variant, '') FROM records WHERE file = $1 AND kind <> 'run' "
                "AND ($3 = 0 OR kind <> 'metric' OR key = $2) ORDER BY id",
                {number(file), metric, number(project)});
            const std::set<std::string>& variants = variants_of[file];
            for (int i = 0; i < rest.rows(); ++i) {
                const StoreRecord::Kind kind = store_record_kind_of(rest.text(i, 1));
                if (kind == StoreRecord::Kind::image_check && !variants.count(rest.text(i, 3))) continue;
                rows.emplace_back(rest.integer(i, 0), kind, rest.text(i, 2));
            }
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

    std::vector<StoredBuild> builds(const StoreQuery& query_) override {
        std::vector<std::string> values;
        const std::string where = store_run_conditions(query_, values, '$');
        const Result r = query(
            "SELECT r.build, coalesce(min(nullif(r.start, '')), '') AS first, count(*) FROM records r WHERE " + where +
                " GROUP BY r.build ORDER BY first, r.build",
            {values.begin(), values.end()});
        std::vector<StoredBuild> out;
        for (int i = 0; i < r.rows(); ++i) out.push_back({r.text(i, 0), r.text(i, 1), static_cast<size_t>(r.integer(i, 2))});
        return out;
    }

    // PostgreSQL has no integrity_check: its pages and constraints are its
    // own to keep (foreign keys are always enforced), so check is the
    // store's own invariants, as on SQLite after SQLite's checks.
    StoreCheck check() override {
        StoreCheck c;
        // One snapshot: a push committing meanwhile is all seen or not at all.
        exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
        try {
            c.files = static_cast<size_t>(scalar("SELECT count(*) FROM files"));
            c.records = static_cast<size_t>(scalar("SELECT count(*) FROM records"));
            c.runs = static_cast<size_t>(scalar("SELECT count(*) FROM records WHERE kind = 'run'"));
            c.samples = static_cast<size_t>(scalar("SELECT count(*) FROM samples"));
            const Result q = query(
                "SELECT r.id, r.kind, r.line, f.file_id, "
                "(SELECT count(*) FROM samples s WHERE s.record = r.id), "
                "(SELECT count(*) FROM run_metrics m WHERE m.record = r.id), "
                "coalesce(r.origin, ''), coalesce(r.variant, ''), coalesce(r.idx, 0), r.skeleton, "
                "(SELECT count(*) FROM run_metrics m WHERE m.record = r.id AND m.scalar = 1) "
                "FROM records r JOIN files f ON f.id = r.file ORDER BY r.id",
                {});
            const auto samples = [&](int64_t record) {
                std::vector<CheckedSample> out;
                const Result s = query(
                    "SELECT m.name, s.position, s.text, s.value FROM samples s JOIN metric_names m ON m.id = s.metric "
                    "WHERE s.record = $1 ORDER BY m.name, s.position",
                    {number(record)});
                for (int i = 0; i < s.rows(); ++i)
                    out.push_back({s.text(i, 0), s.integer(i, 1), s.text(i, 2), s.null(i, 3) ? 0.0 : s.real(i, 3)});
                return out;
            };
            for (int i = 0; i < q.rows(); ++i) {
                CheckedRecord r{q.integer(i, 0), q.text(i, 1), q.text(i, 2), q.text(i, 3), q.text(i, 6), q.text(i, 7),
                                q.integer(i, 8), q.integer(i, 4), q.integer(i, 5), std::nullopt, q.integer(i, 10)};
                if (!q.null(i, 9)) r.skeleton = q.text(i, 9);
                check_stored_record(c, r, samples);
            }
            const Result h = query("SELECT file_id, header FROM files ORDER BY id", {});
            for (int i = 0; i < h.rows(); ++i) check_stored_header(c, h.text(i, 0), h.text(i, 1));
        } catch (...) {
            PQclear(PQexec(conn_, "ROLLBACK"));
            throw;
        }
        exec("COMMIT");
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

    class Transaction {
    public:
        // READ COMMITTED whatever the server's default: each statement
        // after a lock sees what was committed before the lock was granted.
        explicit Transaction(PostgresStore& s) : s_(s) { s_.exec("BEGIN ISOLATION LEVEL READ COMMITTED"); }
        ~Transaction() {
            if (!done_) PQclear(PQexec(s_.conn_, "ROLLBACK"));
        }
        void commit() {
            s_.exec("COMMIT");
            done_ = true;
        }

    private:
        PostgresStore& s_;
        bool done_ = false;
    };

    // The password a connection string holds, if any (to cut it out of
    // messages).
    static std::string password_in(const std::string& conninfo) {
        std::string found;
        char* err = nullptr;
        PQconninfoOption* opts = PQconninfoParse(conninfo.c_str(), &err);
        PQfreemem(err);
        if (!opts) return found;
        for (PQconninfoOption* o = opts; o->keyword; ++o)
            if (std::strcmp(o->keyword, "password") == 0 && o->val) found = o->val;
        PQconninfoFree(opts);
        return found;
    }

    // libpq's or the server's message, on one line, with the connection
    // string's password (if it was given there) cut out: libpq's messages
    // name hosts, users and databases, never the password, and this keeps
    // it so whatever a server answers.
    std::string scrub(std::string msg) const {
        while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
        for (char& c : msg)
            if (c == '\n') c = ' ';
        if (!password_.empty())
            for (size_t at; (at = msg.find(password_)) != std::string::npos;) msg.replace(at, password_.size(), "***");
        return msg;
    }
    std::string libpq_error() const { return scrub(PQerrorMessage(conn_)); }

    Result checked(PGresult* r) {
        const ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
        if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return Result(r);
        std::string why = r ? scrub(PQresultErrorMessage(r)) : libpq_error();
        if (why.empty()) why = libpq_error();
        PQclear(r);
        throw InputError(shown() + ": " + why);
    }

    // PostgreSQL's text cannot hold a NUL byte, and a parameter would be cut
    // at one: push refuses such text by name first (refuse_nul), and this
    // stops any other.
    void refuse_nul_param(const std::string& v) const {
        if (v.find('\0') != std::string::npos)
            throw InputError(shown() + ": a value holding a NUL byte (\\u0000), which PostgreSQL text cannot hold");
    }

    Result query(const std::string& sql, const std::vector<Param>& params) {
        std::vector<const char*> values;
        for (const Param& p : params) {
            if (p) refuse_nul_param(*p);
            values.push_back(p ? p->c_str() : nullptr);
        }
        return checked(PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr,
                                    nullptr, 0));
    }

    Result prepared(const char* name, const std::vector<Param>& params) {
        std::vector<const char*> values;
        for (const Param& p : params) {
            if (p) refuse_nul_param(*p);
            values.push_back(p ? p->c_str() : nullptr);
        }
        return checked(PQexecPrepared(conn_, name, static_cast<int>(values.size()), values.data(), nullptr, nullptr, 0));
    }

    // The statements of a push, prepared once per connection.
    void prepare_statements() {
        if (prepared_) return;
        const std::pair<const char*, const char*> statements[] = {
            {"find_decl",
             "SELECT 1 FROM records WHERE kind IN ('metric', 'environment', 'design') AND file = $1 AND kind = $2 "
             "AND key = $3"},
            {"insert",
             "INSERT INTO records (file, kind, key, line, origin, variant, idx, machine, boot, build, start, skeleton) "
             "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id"},
            {"metric_id", "SELECT id FROM metric_names WHERE name = $1"},
            {"metric_new", "INSERT INTO metric_names (name) VALUES ($1) RETURNING id"},
            {"insert_run",
             "WITH r AS (INSERT INTO records (file, kind, key, line, origin, variant, idx, machine, boot, build, start, "
             "skeleton) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id), "
             "m AS (INSERT INTO run_metrics (record, metric, scalar) SELECT DISTINCT r.id, x.metric, x.scalar FROM r, "
             "unnest($13::bigint[], $18::integer[]) AS x(metric, scalar) ON CONFLICT DO NOTHING) "
             "INSERT INTO samples (record, metric, position, text, value) SELECT r.id, x.metric, x.position, x.text, "
             "x.value FROM r, unnest($14::bigint[], $15::bigint[], $16::text[], $17::double precision[]) "
             "AS x(metric, position, text, value)"},
        };
        for (const auto& [name, sql] : statements) checked(PQprepare(conn_, name, sql, 0, nullptr));
        prepared_ = true;
    }

    // Text of a push that PostgreSQL cannot keep in a column: a NUL byte
    // (a label may hold one, escaped in its file). The record's line
    // keeps it escaped, but its identity and selection columns cannot:
    // the push is refused by name, before anything is written.
    void refuse_nul(const PreparedPush& p, const std::string& name) const {
        const auto refuse = [&](const std::string& what, const std::string& value) {
            if (value.find('\0') == std::string::npos) return;
            throw InputError(name + ": " + what + " " + quote_token(value) +
                             " holds a NUL byte (\\u0000), which a PostgreSQL store cannot keep in its columns; "
                             "nothing of this push is written (an sqlite: store keeps it)");
        };
        refuse("the file id", p.file_id);
        refuse("the creation time", p.created);
        for (const StoreRecord& r : p.records) {
            refuse(std::string("the ") + store_record_kind_name(r.kind) + " key", r.key);
            refuse("the origin", r.origin);
            refuse("the variant", r.variant);
            refuse("the machine", r.machine);
            refuse("the boot", r.boot);
            refuse("the build", r.build);
            refuse("the start", r.start);
            for (const std::string& m : r.metrics) refuse("the metric", m);
        }
    }

    void exec(const char* sql) { checked(PQexec(conn_, sql)); }

    int64_t scalar(const char* sql) {
        const Result r = query(sql, {});
        return r.rows() && !r.null(0, 0) ? r.integer(0, 0) : 0;
    }

    // Tables (and views, sequences) of the schema the store's tables would
    // be made in.
    int64_t table_count() {
        return scalar(
            "SELECT count(*) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')");
    }

    // Read from the catalog with this statement's snapshot (to_regclass
    // could answer from a cache that another job's new schema has not yet
    // reached).
    int read_version() {
        if (scalar("SELECT count(*) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
                   "WHERE n.nspname = current_schema() AND c.relname = 'schema_version'") == 0)
            return 0;
        return static_cast<int>(scalar("SELECT max(version) FROM schema_version"));
    }

    // Applies the steps after the stored version, in one transaction, under
    // the schema's advisory lock: jobs making one store at once wait for
    // the first, then find its schema made.
    void migrate(std::vector<std::string>* done = nullptr) {
        Transaction tx(*this);
        query("SELECT pg_advisory_xact_lock($1)", {number(kSchemaLock)});
        const int from = read_version();  // again, now that no other job can change it
        if (from > kStoreSchemaVersion) throw InputError(store_newer_schema(shown(), from));
        if (from == 0 && table_count() > 0) throw InputError(store_not_a_store(shown()));
        apply_store_steps(kSteps, std::size(kSteps), from, [&](const StoreStep& s) {
            exec(s.sql);
            if (s.fill_skeletons) fill_skeletons();
            query("UPDATE schema_version SET version = $1", {number(s.to)});
        }, done);
        tx.commit();
    }

    // Schema v2's columns for the runs stored before it, from their lines.
    // A thousand runs at a time: a large store's lines are never all in memory.
    void fill_skeletons() {
        for (std::string after = "0";;) {
            const Result runs =
                query("SELECT id, line FROM records WHERE kind = 'run' AND id > $1 ORDER BY id LIMIT 1000", {after});
            if (runs.rows() == 0) return;
            after = runs.text(runs.rows() - 1, 0);
            fill_skeletons(runs);
        }
    }
    void fill_skeletons(const Result& runs) {
        for (int i = 0; i < runs.rows(); ++i) {
            const RunSkeleton sk = store_run_skeleton(runs.text(i, 1));
            if (sk.skeleton) query("UPDATE records SET skeleton = $2 WHERE id = $1", {runs.text(i, 0), *sk.skeleton});
            if (!sk.scalar_metrics.empty())
                query("UPDATE run_metrics SET scalar = 1 WHERE record = $1 AND metric IN "
                      "(SELECT id FROM metric_names WHERE name = ANY($2::text[]))",
                      {runs.text(i, 0), array(sk.scalar_metrics)});
        }
    }

    PGconn* conn_ = nullptr;
    std::string password_;
    bool prepared_ = false;
};

}  // namespace

std::unique_ptr<Store> open_postgres_store(const StoreUrl& url, StoreOpen mode) {
    return std::make_unique<PostgresStore>(url, mode);
}

}  // namespace gfxstat::data
