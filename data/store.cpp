// SPDX-License-Identifier: MIT
#include "data/store.h"
#include "data/store_backend.h"

#include <cstdlib>

#include "data/image_check.h"
#include "data/input_error.h"
#include "data/results_json.h"

namespace gfxstat::data {

namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// A libpq connection string: a URI, or keyword=value pairs.
bool looks_like_libpq(std::string_view url) {
    if (starts_with(url, "postgresql://") || starts_with(url, "postgres://")) return true;
    for (std::string_view k : {"service=", "host=", "dbname=", "user=", "port=", "hostaddr="})
        if (starts_with(url, k) || url.find(" " + std::string(k)) != std::string_view::npos) return true;
    return false;
}

template <typename T, typename F>
std::string one_line(F append, const T& record) {
    std::string s;
    append(s, record);
    if (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
}

}  // namespace

StoreUrl parse_store_url(std::string_view url) {
    StoreUrl u;
    if (starts_with(url, "sqlite:")) {
        u.kind = StoreUrl::Kind::sqlite;
        u.path = std::string(url.substr(7));
        if (starts_with(u.path, "//")) u.path = u.path.substr(2);  // sqlite:///abs/path
        if (u.path.empty()) throw InputError("store URL 'sqlite:' names no file (sqlite:PATH)");
        u.shown = "sqlite:" + u.path;
        return u;
    }
    if (looks_like_libpq(url)) {
        u.kind = StoreUrl::Kind::postgresql;
        u.path = std::string(url);     // for libpq only
        u.shown = "PostgreSQL store";  // the text may hold a password: never shown
        return u;
    }
    throw InputError("store URL " + quote_token(url) +
                     " is neither sqlite:PATH nor a PostgreSQL connection string (postgresql://..., service=NAME)");
}

std::string default_store_url() {
    std::string base;
    if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x == '/') {
        base = x;
    } else {
        const char* home = std::getenv("HOME");
        base = std::string(home && *home ? home : ".") + "/.local/share";
    }
    return "sqlite:" + base + "/gfxstat/results.sqlite";
}

std::string store_url_from(const std::string& option) {
    if (!option.empty()) return option;
    if (const char* env = std::getenv("GFXSTAT_STORE"); env && *env) return env;
    return default_store_url();
}

const char* store_record_kind_name(StoreRecord::Kind kind) {
    switch (kind) {
        case StoreRecord::Kind::metric: return "metric";
        case StoreRecord::Kind::environment: return "environment";
        case StoreRecord::Kind::design: return "design";
        case StoreRecord::Kind::run: return "run";
        case StoreRecord::Kind::image_check: return "image_check";
    }
    return "run";
}

PreparedPush prepare_push(const ResultsFile& file) {
    PreparedPush p;
    p.file_id = file.header.id;
    p.created = file.header.created;
    p.header_line = one_line<ResultsHeader>(
        [](std::string& s, const ResultsHeader& h) { append_header_line(s, h); }, file.header);
    for (const MetricInfo& m : file.metrics()) {
        StoreRecord r;
        r.kind = StoreRecord::Kind::metric;
        r.key = m.name;
        r.line = one_line<MetricInfo>([](std::string& s, const MetricInfo& x) { append_metric_line(s, x); }, m);
        p.records.push_back(std::move(r));
    }
    for (const Environment& e : file.environments()) {
        StoreRecord r;
        r.kind = StoreRecord::Kind::environment;
        r.key = e.id;
        r.line = one_line<Environment>([](std::string& s, const Environment& x) { append_environment_line(s, x); }, e);
        p.records.push_back(std::move(r));
    }
    for (const DesignRecord& d : file.designs()) {
        StoreRecord r;
        r.kind = StoreRecord::Kind::design;
        r.key = d.id;
        r.line = one_line<DesignRecord>([](std::string& s, const DesignRecord& x) { append_design_line(s, x); }, d);
        p.records.push_back(std::move(r));
    }
    for (const RunRecord& run : file.runs()) {
        StoreRecord r;
        r.kind = StoreRecord::Kind::run;
        r.line = one_line<RunRecord>([](std::string& s, const RunRecord& x) { append_run_line(s, x); }, run);
        RunRecord identified = run;
        if (identified.origin.empty()) identified.origin = file.header.id;
        r.identity_line =
            one_line<RunRecord>([](std::string& s, const RunRecord& x) { append_run_line(s, x); }, identified);
        r.origin = identified.origin.str();
        r.variant = run.variant.str();
        r.index = run.run;
        r.boot = run.boot.str();
        r.start = run.start;
        r.build = r.variant;
        if (const Environment* env = file.find_environment(run.environment.str())) {
            r.machine = machine_name(*env);
            if (auto t = env->tags.find("commit"); t != env->tags.end()) {
                r.build = t->second;
            } else if (auto b = env->tags.find("build"); b != env->tags.end()) {
                r.build = b->second;
            }
        }
        RunSkeleton sk = store_run_skeleton(r.line, run);
        r.skeleton = std::move(sk.skeleton);
        r.scalar_metrics = std::move(sk.scalar_metrics);
        for (const MetricValues& mv : run.metrics) {
            r.metrics.push_back(mv.name.str());
            for (size_t k = 0; k < mv.values.size(); ++k) {
                StoreRecord::Sample s;
                s.metric = mv.name.str();
                s.position = k;
                append_json_number(s.text, mv.values[k]);
                s.value = std::strtod(s.text.c_str(), nullptr);
                r.samples.push_back(std::move(s));
            }
        }
        p.records.push_back(std::move(r));
    }
    for (const ImageCheck& c : file.image_checks()) {
        StoreRecord r;
        r.kind = StoreRecord::Kind::image_check;
        r.line = one_line<ImageCheck>([](std::string& s, const ImageCheck& x) { append_image_check_line(s, x); }, c);
        ImageCheck identified = c;
        if (identified.origin.empty()) identified.origin = file.header.id;
        r.identity_line =
            one_line<ImageCheck>([](std::string& s, const ImageCheck& x) { append_image_check_line(s, x); }, identified);
        r.origin = identified.origin;
        r.variant = c.variant;
        r.index = c.check;
        r.boot = c.boot;
        r.start = c.start;
        p.records.push_back(std::move(r));
    }
    return p;
}

std::unique_ptr<Store> open_store(const StoreUrl& url, StoreOpen mode) {
    if (url.kind == StoreUrl::Kind::postgresql) return open_postgres_store(url, mode);
    return open_sqlite_store(url, mode);
}

}  // namespace gfxstat::data
