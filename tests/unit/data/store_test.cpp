// SPDX-License-Identifier: MIT
// The results store (data/store.h) on both backends, the same tests on
// each: push, idempotent re-push, a conflicting push refused whole, hostile
// labels round-tripping, schema versions, and a push killed midway leaving
// the store as it was. SQLite on a temporary file; PostgreSQL on a real
// server that ctest starts once for this program (tests/store/pg_server.py,
// its directory in GFXSTAT_TEST_PG_DIR), a new database per test. Where
// no server can be started, the PostgreSQL tests skip saying why.
#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sys/stat.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "data/input_error.h"
#include "data/results_reader.h"
#include "data/results_writer.h"
#include "data/store.h"

namespace gfxstat::data {
namespace {

std::string first_line(const std::string& path) {
    std::ifstream f(path);
    std::string line;
    std::getline(f, line);
    return line;
}

// Runs one statement on the test server's database `url`; "" or libpq's
// error.
std::string pg_exec(const std::string& url, const std::string& sql) {
    PGconn* c = PQconnectdb(url.c_str());
    std::string err;
    if (PQstatus(c) != CONNECTION_OK) {
        err = PQerrorMessage(c);
    } else {
        PQsetNoticeProcessor(c, [](void*, const char*) {}, nullptr);
        PGresult* r = PQexec(c, sql.c_str());
        if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK) err = PQresultErrorMessage(r);
        PQclear(r);
    }
    PQfinish(c);
    return err;
}

// A store of its own for one test: a new SQLite file, or a new database on
// the PostgreSQL test server. `skip` says why there is none.
struct TempStore {
    explicit TempStore(const std::string& backend = "sqlite") {
        char tmpl[] = "/tmp/gfxstat_store_test.XXXXXX";
        dir = ::mkdtemp(tmpl);
        if (backend == "sqlite") {
            url = parse_store_url("sqlite:" + dir + "/results.sqlite");
            return;
        }
        const char* pg_dir = std::getenv("GFXSTAT_TEST_PG_DIR");
        if (!pg_dir || !*pg_dir) {
            skip = "GFXSTAT_TEST_PG_DIR is not set: ctest starts the PostgreSQL test server (tests/store/pg_server.py)";
            return;
        }
        if (std::filesystem::exists(std::string(pg_dir) + "/unavailable")) {
            skip = "no PostgreSQL server: " + first_line(std::string(pg_dir) + "/unavailable");
            return;
        }
        server = first_line(std::string(pg_dir) + "/url");
        static std::atomic<int> counter{0};
        database = "t_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
        std::string err = pg_exec(server, "DROP DATABASE IF EXISTS " + database);
        if (err.empty()) err = pg_exec(server, "CREATE DATABASE " + database);
        if (!err.empty()) ADD_FAILURE() << "the PostgreSQL test server: " << err;
        // postgresql:///gfxstat?host=... with this test's database.
        const size_t q = server.find('?');
        const std::string head = server.substr(0, q);
        url = parse_store_url(head.substr(0, head.rfind('/') + 1) + database + server.substr(q));
    }
    ~TempStore() {
        if (!database.empty()) pg_exec(server, "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        std::filesystem::remove_all(dir);
    }
    std::string dir, skip, server, database;
    StoreUrl url;
};

// The tests that run on both backends.
class StoreBackend : public testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        t_ = std::make_unique<TempStore>(GetParam());
        if (!t_->skip.empty()) GTEST_SKIP() << t_->skip;
    }
    TempStore& temp() { return *t_; }

private:
    std::unique_ptr<TempStore> t_;
};

// A results file with `runs` runs of each variant, one metric "fps"
// (values base+run, printed as 3 decimals), on machine `host`.
std::string results_text(const std::string& id, const std::vector<std::string>& variants, size_t runs,
                         const std::string& host = "dut-1", const std::string& metric = "fps", double base = 60) {
    using nlohmann::json;
    std::string text = json{{"format", "gfxstat-results"}, {"version", 1}, {"id", id},
                            {"created", "2026-12-01T00:00:00Z"}, {"generator", "store_test"}}
                           .dump() +
                       "\n";
    text += json{{"type", "metric"}, {"name", metric}, {"unit", "fps"}, {"direction", "higher"}}.dump() + "\n";
    text += json{{"type", "environment"}, {"id", "env-0000000000000001"}, {"hostname", host},
                 {"tags", {{"commit", "abc123"}}}}
                .dump() +
            "\n";
    for (const std::string& v : variants)
        for (size_t r = 0; r < runs; ++r) {
            char value[32];
            std::snprintf(value, sizeof value, "%.3f", base + static_cast<double>(r) + 0.125);
            text += "{\"type\":\"run\",\"variant\":" + json(v).dump() + ",\"run\":" + std::to_string(r) +
                    ",\"boot\":\"b1\",\"environment\":\"env-0000000000000001\",\"exit\":{\"class\":\"ok\"},"
                    "\"metrics\":{" +
                    json(metric).dump() + ":" + value + "}}\n";
        }
    return text;
}

ResultsFile parsed(const std::string& text) { return parse_results(text, "test.json"); }

// The file as the store keeps it: its header, then each record's line as
// prepare_push makes it.
std::string serialize_in_push_order(const ResultsFile& f) {
    const PreparedPush p = prepare_push(f);
    std::string text = p.header_line + "\n";
    for (const StoreRecord& r : p.records) text += r.line + "\n";
    EXPECT_EQ(serialize_results(parse_results(text, "pushed")), serialize_results(f));
    return text;
}

TEST(StoreUrls, UrlsAndDefaults) {
    const StoreUrl u = parse_store_url("sqlite:/tmp/x.sqlite");
    EXPECT_EQ(u.kind, StoreUrl::Kind::sqlite);
    EXPECT_EQ(u.path, "/tmp/x.sqlite");
    EXPECT_EQ(u.shown, "sqlite:/tmp/x.sqlite");
    const StoreUrl pg = parse_store_url("postgresql://ci:secret@db/gfx");
    EXPECT_EQ(pg.kind, StoreUrl::Kind::postgresql);
    EXPECT_EQ(pg.shown.find("secret"), std::string::npos);
    EXPECT_EQ(parse_store_url("service=farm").kind, StoreUrl::Kind::postgresql);
    EXPECT_THROW(parse_store_url("mysql://x"), InputError);
    EXPECT_THROW(parse_store_url("sqlite:"), InputError);
    EXPECT_EQ(pg.path, "postgresql://ci:secret@db/gfx");  // for libpq, never shown
    // A server that is not there: the message says why, never the password.
    try {
        open_store(parse_store_url("postgresql://ci:secret@/gfx?host=/nonexistent-gfxstat-dir&port=1"),
                   StoreOpen::create);
        FAIL() << "a PostgreSQL store opened where there is no server";
    } catch (const InputError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("PostgreSQL store: cannot connect"), std::string::npos) << m;
        EXPECT_EQ(m.find("secret"), std::string::npos) << m;
    }
    ::setenv("XDG_DATA_HOME", "/xdg", 1);
    ::unsetenv("GFXSTAT_STORE");
    EXPECT_EQ(store_url_from(""), "sqlite:/xdg/gfxstat/results.sqlite");
    ::setenv("GFXSTAT_STORE", "sqlite:/env.sqlite", 1);
    EXPECT_EQ(store_url_from(""), "sqlite:/env.sqlite");
    EXPECT_EQ(store_url_from("sqlite:/opt.sqlite"), "sqlite:/opt.sqlite");
    ::unsetenv("GFXSTAT_STORE");
    ::unsetenv("XDG_DATA_HOME");
}

TEST_P(StoreBackend, MissingStoreIsRefusedUnlessCreated) {
    TempStore& t = temp();
    // (PostgreSQL: an empty database, which store init makes a store.)
    EXPECT_THROW(open_store(t.url, StoreOpen::existing), InputError);
    auto s = open_store(t.url, StoreOpen::create);
    EXPECT_EQ(s->schema_version(), kStoreSchemaVersion);
    EXPECT_NO_THROW(open_store(t.url, StoreOpen::existing));
}

TEST_P(StoreBackend, PushListGetAndIdempotentRepush) {
    TempStore& t = temp();
    auto s = open_store(t.url, StoreOpen::create);
    const ResultsFile a = parsed(results_text("aaaa0000aaaa0000aaaa0000aaaa0000", {"main", "mr"}, 5));
    PushOutcome o = s->push(a, "a.json");
    EXPECT_TRUE(o.new_file);
    EXPECT_EQ(o.runs_added, 10u);
    EXPECT_EQ(o.samples_added, 10u);
    o = s->push(a, "a.json");
    EXPECT_FALSE(o.new_file);
    EXPECT_EQ(o.runs_added, 0u);
    EXPECT_EQ(o.runs_present, 10u);
    const StoreListing l = s->list();
    EXPECT_EQ(l.files, 1u);
    EXPECT_EQ(l.runs, 10u);
    EXPECT_EQ(l.samples, 10u);
    ASSERT_EQ(l.variants.size(), 2u);
    EXPECT_EQ(l.variants[0].name, "main");
    EXPECT_EQ(l.variants[0].runs, 5u);
    ASSERT_EQ(l.machines.size(), 1u);
    EXPECT_EQ(l.machines[0].name, "dut-1");
    ASSERT_EQ(l.builds.size(), 1u);
    EXPECT_EQ(l.builds[0].name, "abc123");
    ASSERT_EQ(l.metrics.size(), 1u);
    EXPECT_EQ(l.metrics[0].name, "fps");
    EXPECT_EQ(l.metrics[0].samples, 10u);

    // Everything back: the same file, record for record.
    EXPECT_EQ(select_stored_runs(*s, "*"), serialize_in_push_order(a));
    size_t runs = 0;
    const ResultsFile main_only = parsed(select_stored_runs(*s, "variant:main", &runs));
    EXPECT_EQ(runs, 5u);
    for (const RunRecord& r : main_only.runs()) EXPECT_EQ(r.variant.str(), "main");
    EXPECT_THROW(select_stored_runs(*s, "variant:none"), InputError);
    EXPECT_TRUE(s->check().problems.empty());
}

TEST_P(StoreBackend, GrownFileAddsOnlyItsNewRuns) {
    TempStore& t = temp();
    auto s = open_store(t.url, StoreOpen::create);
    const std::string id = "bbbb0000bbbb0000bbbb0000bbbb0000";
    s->push(parsed(results_text(id, {"main"}, 3)), "b.json");
    const PushOutcome o = s->push(parsed(results_text(id, {"main"}, 5)), "b.json");
    EXPECT_EQ(o.runs_added, 2u);
    EXPECT_EQ(o.runs_present, 3u);
    EXPECT_EQ(s->list().runs, 5u);
}

TEST_P(StoreBackend, ConflictingPushIsRefusedWholeNamingBoth) {
    TempStore& t = temp();
    auto s = open_store(t.url, StoreOpen::create);
    const std::string id = "cccc0000cccc0000cccc0000cccc0000";
    s->push(parsed(results_text(id, {"main"}, 3)), "first.json");
    // Same file id: runs 0-2 now hold other values, and runs 3-9 are new.
    const ResultsFile other = parsed(results_text(id, {"main"}, 10, "dut-1", "fps", 70));
    try {
        s->push(other, "second.json");
        FAIL() << "a conflicting push was accepted";
    } catch (const InputError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("second.json"), std::string::npos) << m;
        EXPECT_NE(m.find("first.json"), std::string::npos) << m;
        EXPECT_NE(m.find("nothing of this push is written"), std::string::npos) << m;
    }
    const StoreListing l = s->list();
    EXPECT_EQ(l.runs, 3u);
    EXPECT_EQ(l.samples, 3u);
    EXPECT_TRUE(s->check().problems.empty());
}

TEST_P(StoreBackend, HostileLabelsRoundTrip) {
    TempStore& t = temp();
    auto s = open_store(t.url, StoreOpen::create);
    std::string long_utf8;
    for (int i = 0; i < 500; ++i) long_utf8 += "\xc3\xa9\xe2\x82\xac";  // é€
    const std::vector<std::string> labels = {"it's \"quoted\"", "'; DROP TABLE records; --",
                                             std::string("ctl\x01\x1b[31m\ttab\nnl"), long_utf8};
    const std::string host = "host'); DELETE FROM files; --";
    const std::string metric = "m\"'; DROP TABLE samples; --";
    const ResultsFile f = parsed(results_text("dddd0000dddd0000dddd0000dddd0000", labels, 2, host, metric));
    s->push(f, "hostile.json");
    const StoreListing l = s->list();
    EXPECT_EQ(l.runs, 8u);
    ASSERT_EQ(l.machines.size(), 1u);
    EXPECT_EQ(l.machines[0].name, host);
    ASSERT_EQ(l.metrics.size(), 1u);
    EXPECT_EQ(l.metrics[0].name, metric);
    size_t found = 0;
    for (const StoreCount& v : l.variants)
        for (const std::string& label : labels) found += v.name == label;
    EXPECT_EQ(found, labels.size());
    EXPECT_EQ(select_stored_runs(*s, "*"), serialize_in_push_order(f));
    EXPECT_TRUE(s->check().problems.empty());
}

TEST_P(StoreBackend, UpgradeOfTheCurrentSchemaIsANoOp) {
    TempStore& t = temp();
    open_store(t.url, StoreOpen::create);
    auto s = open_store(t.url, StoreOpen::upgrade);
    const UpgradeOutcome u = s->upgrade();
    EXPECT_EQ(u.from, 2);
    EXPECT_EQ(u.to, 2);
    EXPECT_TRUE(u.steps.empty());
}

TEST_P(StoreBackend, KilledPushLeavesTheStoreAsBefore) {
    TempStore& t = temp();
    {
        auto s = open_store(t.url, StoreOpen::create);
        s->push(parsed(results_text("eeee0000eeee0000eeee0000eeee0000", {"main"}, 4)), "before.json");
    }
    const ResultsFile big = parsed(results_text("ffff0000ffff0000ffff0000ffff0000", {"a", "b", "c", "d"}, 2000));
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        auto s = open_store(t.url, StoreOpen::existing);
        // kill -9 itself halfway through the push's records.
        s->push(big, "big.json", [](size_t written) {
            if (written == 4000) ::kill(::getpid(), SIGKILL);
        });
        ::_exit(0);  // not reached: the push is killed first
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status));
    EXPECT_EQ(WTERMSIG(status), SIGKILL);
    auto s = open_store(t.url, StoreOpen::existing);
    const StoreListing l = s->list();
    EXPECT_EQ(l.files, 1u);
    EXPECT_EQ(l.runs, 4u);
    EXPECT_EQ(l.samples, 4u);
    EXPECT_TRUE(s->check().problems.empty());
    // And the push goes through whole when it is not killed.
    EXPECT_EQ(s->push(big, "big.json").runs_added, 8000u);
}

TEST_P(StoreBackend, ImageChecksOfAVariantWithNoRunComeBack) {
    // A checking pass (--check-images) of a variant that made no timed run:
    // nothing lost, so '*' gives its checks back.
    TempStore& t = temp();
    auto s = open_store(t.url, StoreOpen::create);
    std::string text = results_text("abab0000abab0000abab0000abab0000", {"main"}, 2);
    text += "{\"type\":\"image_check\",\"variant\":\"checked\",\"check\":0,\"boot\":\"b1\","
            "\"exit\":{\"class\":\"ok\"},\"tool\":\"glretrace\",\"method\":\"md5\","
            "\"images\":{\"1\":\"a84e3ad90ba90bf4f4a69ae935ec53b6\"}}\n";
    const ResultsFile f = parsed(text);
    ASSERT_EQ(f.image_checks().size(), 1u);
    EXPECT_EQ(s->push(f, "checked.json").checks_added, 1u);
    EXPECT_EQ(select_stored_runs(*s, "*"), serialize_in_push_order(f));
    // A selection of runs keeps the checks of the variants it keeps only.
    EXPECT_TRUE(parsed(select_stored_runs(*s, "variant:main")).image_checks().empty());
}

// SQLite only: a PostgreSQL store is no file; its server keeps its files
// and decides who may write them.
TEST(SqliteStore, WorldWritableOrNonRegularStoreIsRefused) {
    TempStore t;
    open_store(t.url, StoreOpen::create);
    ASSERT_EQ(::chmod(t.url.path.c_str(), 0666), 0);
    for (StoreOpen mode : {StoreOpen::existing, StoreOpen::create, StoreOpen::upgrade}) {
        try {
            open_store(t.url, mode);
            ADD_FAILURE() << "a world-writable store was opened";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("writable by every user"), std::string::npos) << e.what();
        }
    }
    ASSERT_EQ(::chmod(t.url.path.c_str(), 0664), 0);  // group-shared: fine
    EXPECT_NO_THROW(open_store(t.url, StoreOpen::existing));
    const StoreUrl dir = parse_store_url("sqlite:" + t.dir);
    try {
        open_store(dir, StoreOpen::create);
        ADD_FAILURE() << "a directory was opened as a store";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
    }
}

// The indexed query under selections: runs narrowed by variant, machine,
// build and metric, each file with its declarations and the image checks
// of the kept variants only; builds counted and ordered by first start.
TEST_P(StoreBackend, SelectFilesAndBuildsNarrowByColumns) {
    TempStore& t = temp();
    auto store = open_store(t.url, StoreOpen::create);
    store->push(parsed(results_text("11111111-1111-4111-8111-111111111111", {"main", "mr"}, 2, "dut-1")), "a.json");
    store->push(parsed(results_text("22222222-2222-4222-8222-222222222222", {"main"}, 3, "dut-2", "ms")), "b.json");
    StoreQuery q;
    q.variants = {"main"};
    q.machines = {"dut-1"};
    std::vector<StoredFile> files = store->select_files(q);
    ASSERT_EQ(files.size(), 1u);
    EXPECT_EQ(files[0].file_id, "11111111-1111-4111-8111-111111111111");
    size_t runs = 0, declarations = 0;
    for (size_t i = 0; i < files[0].lines.size(); ++i) {
        if (files[0].kinds[i] == StoreRecord::Kind::run) {
            ++runs;
            EXPECT_NE(files[0].lines[i].find("\"variant\":\"main\""), std::string::npos) << files[0].lines[i];
        } else {
            EXPECT_EQ(runs, 0u) << "declarations come first, in push order";
            ++declarations;
        }
    }
    EXPECT_EQ(runs, 2u);
    EXPECT_EQ(declarations, 2u);  // the metric and the environment
    StoreQuery by_metric;
    by_metric.metrics = {"ms"};
    files = store->select_files(by_metric);
    ASSERT_EQ(files.size(), 1u);
    EXPECT_EQ(files[0].name, "b.json");
    StoreQuery none;
    none.builds = {"no-such-build"};
    EXPECT_TRUE(store->select_files(none).empty());
    const std::vector<StoredBuild> builds = store->builds(StoreQuery{});
    ASSERT_EQ(builds.size(), 1u);  // both files are of commit abc123
    EXPECT_EQ(builds[0].build, "abc123");
    EXPECT_EQ(builds[0].runs, 7u);
    const std::vector<StoredBuild> mr = store->builds(StoreQuery{{"mr"}, {}, {}, {}});
    ASSERT_EQ(mr.size(), 1u);
    EXPECT_EQ(mr[0].runs, 2u);
}

// A label may hold a NUL byte (escaped as u0000 in its file). SQLite keeps it in its
// columns and gives it back; PostgreSQL's text cannot hold one, so the push
// is refused naming the label, before anything is written (the line would
// keep it escaped, the identity and selection columns could not).
TEST_P(StoreBackend, LabelWithANulByte) {
    TempStore& t = temp();
    auto s = open_store(t.url, StoreOpen::create);
    const std::string label("nul\0byte", 8);
    const ResultsFile f = parsed(results_text("acac0000acac0000acac0000acac0000", {label}, 2));
    ASSERT_EQ(f.runs().size(), 2u);
    ASSERT_EQ(f.runs()[0].variant.str(), label);
    if (GetParam() == "sqlite") {
        EXPECT_EQ(s->push(f, "nul.json").runs_added, 2u);
        EXPECT_EQ(select_stored_runs(*s, "*"), serialize_in_push_order(f));
        EXPECT_NE(select_stored_runs(*s, "*").find("nul\\u0000byte"), std::string::npos);
        ASSERT_EQ(s->list().variants.size(), 1u);
        EXPECT_EQ(s->list().variants[0].name, label);
        EXPECT_TRUE(s->check().problems.empty());
        return;
    }
    try {
        s->push(f, "nul.json");
        FAIL() << "a label with a NUL byte went into a PostgreSQL store";
    } catch (const InputError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("nul.json: the variant"), std::string::npos) << m;
        EXPECT_NE(m.find("NUL byte"), std::string::npos) << m;
        EXPECT_NE(m.find("nothing of this push is written"), std::string::npos) << m;
    }
    EXPECT_EQ(s->list().files, 0u);
    EXPECT_EQ(s->list().runs, 0u);
}

// Jobs opening one empty database at once (threads here, processes in
// store_cli_test.py): each finds the schema made once, and all their pushes
// are there. On PostgreSQL, also where the database's default isolation
// is serializable: gfxstat's transactions choose their own.
TEST_P(StoreBackend, ConcurrentCreationAndPushes) {
    TempStore& t = temp();
    if (GetParam() == "postgresql")
        ASSERT_EQ(pg_exec(t.server, "ALTER DATABASE " + t.database + " SET default_transaction_isolation = 'serializable'"),
                  "");
    std::vector<std::thread> jobs;
    std::atomic<int> failed{0};
    for (int w = 0; w < 8; ++w)
        jobs.emplace_back([&, w] {
            try {
                char id[40];
                std::snprintf(id, sizeof id, "%032x", 0xfeed0 + w);
                auto s = open_store(t.url, StoreOpen::create);
                s->push(parsed(results_text(id, {"w" + std::to_string(w)}, 20)), "w.json");
            } catch (const std::exception& e) {
                ++failed;
                ADD_FAILURE() << "job " << w << ": " << e.what();
            }
        });
    for (std::thread& j : jobs) j.join();
    EXPECT_EQ(failed.load(), 0);
    auto s = open_store(t.url, StoreOpen::existing);
    const StoreListing l = s->list();
    EXPECT_EQ(l.files, 8u);
    EXPECT_EQ(l.runs, 160u);
    ASSERT_EQ(l.variants.size(), 8u);
    for (const StoreCount& v : l.variants) EXPECT_EQ(v.runs, 20u) << v.name;
    EXPECT_EQ(s->schema_version(), kStoreSchemaVersion);
    EXPECT_TRUE(s->check().problems.empty());
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreBackend, testing::Values(std::string("sqlite"), std::string("postgresql")),
                         [](const testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace gfxstat::data
