// SPDX-License-Identifier: MIT
// The CI reports of runs that failed (runs_failed_report.h). The shapes
// follow the comparison reports' (junit_export, kcidb_export,
// openmetrics_export): the same suite and test names, paths, checkouts and
// builds (report/ci/ci_names.h), so that a CI system tracks one test going
// from passed to error and back.
#include "report/ci/runs_failed_report.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "report/ci/ci_names.h"
#include "report/json_version.h"
#include "data/gfxstat_version.h"
#include "data/safe_files.h"
#include "text/text_escape.h"
#include "text/xml_escape.h"

namespace gfxstat::cli {

namespace {

using Json = nlohmann::ordered_json;

// XML character data or an attribute value (text/xml_escape.h).
std::string xml(std::string_view raw) { return text::xml_message(raw); }

std::string seconds(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", std::isfinite(s) && s > 0 ? s : 0.0);
    return buf;
}


// The name the comparisons' tests have, "runs" when no run gave a metric.
std::string metric_or_runs(const RunsFailed& f) { return f.metric.empty() ? "runs" : f.metric; }

// One line per variant: what its runs gave.
std::string variant_line(const RunsFailedVariant& v) {
    std::string t = v.label + ": " + std::to_string(v.usable) + " measured run" + (v.usable == 1 ? "" : "s") +
                    " with a value, " + std::to_string(v.failed) + " failed";
    if (!v.last_failure.empty()) t += " (last: " + v.last_failure + ")";
    return t;
}

std::string variants_text(const RunsFailed& f) {
    std::string t;
    for (const RunsFailedVariant& v : f.variants) t += variant_line(v) + "\n";
    return t;
}



}  // namespace

std::string render_runs_failed_junit(const RunsFailed& f, const ExportContext& ctx) {
    const std::string metric = metric_or_runs(f);
    const std::string group = benchmark_group(metric);
    const size_t cases = f.variants.size() > 1 ? f.variants.size() - 1 : 1;
    const std::string counts = "tests=\"" + std::to_string(cases) + "\" failures=\"0\" errors=\"" +
                               std::to_string(cases) + "\" skipped=\"0\" time=\"" + seconds(ctx.seconds) + "\"";
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += "<testsuites name=\"" + xml(ctx.program) + "\" " + counts + ">\n";
    out += "  <testsuite name=\"" + xml(group) + "\" " + counts + ">\n";
    const std::string body = variants_text(f);
    const std::string& baseline = f.variants.empty() ? std::string() : f.variants[0].label;
    for (size_t c = 0; c < cases; ++c) {
        const std::string candidate = c + 1 < f.variants.size() ? f.variants[c + 1].label : baseline;
        out += "    <testcase classname=\"" + xml("gfxstat." + group) + "\" name=\"" +
               xml(metric + ": " + candidate + " vs " + baseline) + "\" time=\"" + seconds(0) + "\">\n";
        out += "      <error type=\"runs-failed\" message=\"" + xml("the runs failed: " + f.message) + "\">" +
               xml(body) + "</error>\n";
        out += "    </testcase>\n";
    }
    out += "    <system-out>" + xml(f.message + "\nno comparison was made\n" + body) + "</system-out>\n";
    out += "  </testsuite>\n</testsuites>\n";
    return out;
}

std::string render_runs_failed_kcidb(const RunsFailed& f, const ExportContext& ctx) {
    const std::string& origin = ctx.kcidb_origin;
    const std::string metric = metric_or_runs(f);
    Json checkouts = Json::array(), builds = Json::array(), tests = Json::array();
    for (size_t i = 0; i < f.variants.size(); ++i) {
        const RunsFailedVariant& v = f.variants[i];
        const std::string id = origin + ":gfxstat-" + kcidb_hex(kcidb_fingerprint(v.label, kcidb_fingerprint(ctx.generated_at)));
        const std::string comment = text::escape_text("gfxstat variant " + v.label);
        checkouts.push_back(
            {{"id", id}, {"origin", origin}, {"comment", comment}, {"misc", {{"variant", text::escape_text(v.label)}}}});
        Json b = {{"id", id},
                  {"origin", origin},
                  {"checkout_id", id},
                  {"comment", comment},
                  {"misc", {{"variant", text::escape_text(v.label)}}}};
        if (!ctx.generated_at.empty()) b["start_time"] = ctx.generated_at;
        builds.push_back(b);
        Json t = {{"id", origin + ":gfxstat-" + kcidb_hex(kcidb_fingerprint("runs-failed", kcidb_fingerprint(v.label, kcidb_fingerprint(ctx.generated_at))))},
                  {"build_id", id},
                  {"origin", origin},
                  {"path", kcidb_test_path(metric)},
                  {"status", "ERROR"},
                  {"comment", text::escape_text("the runs failed: " + f.message)}};
        if (!ctx.generated_at.empty()) t["start_time"] = ctx.generated_at;
        Json misc = {{"benchmark", text::escape_text(metric)},
                     {"variant", text::escape_text(v.label)},
                     {"role", i == 0 ? "baseline" : "candidate"},
                     {"n", v.usable},
                     {"failed", v.failed},
                     {"runs_failed", text::escape_text(f.message)},
                     {"gfxstat_version", data::gfxstat_version()}};
        if (!v.last_failure.empty()) misc["last_failure"] = text::escape_text(v.last_failure);
        t["misc"] = misc;
        tests.push_back(t);
    }
    Json doc = {{"version", {{"major", 5}, {"minor", 3}}},
                {"checkouts", checkouts},
                {"builds", builds},
                {"tests", tests}};
    return doc.dump(1) + "\n";
}

std::string render_runs_failed_openmetrics(const RunsFailed& f, const ExportContext&) {
    const std::string metric = metric_or_runs(f);
    const auto number = [](size_t n) { return std::to_string(n); };
    std::string out;
    out += "# TYPE gfxstat_runs_failed gauge\n";
    out += "# HELP gfxstat_runs_failed runs of each variant that failed; the runs stopped before a comparison\n";
    for (const RunsFailedVariant& v : f.variants)
        out += "gfxstat_runs_failed{metric=\"" + openmetrics_label_value(metric) + "\",variant=\"" + openmetrics_label_value(v.label) +
               "\"} " + number(v.failed) + "\n";
    out += "# TYPE gfxstat_values gauge\n";
    out += "# HELP gfxstat_values values each side's mean counts (a suite's: benchmarks)\n";
    for (const RunsFailedVariant& v : f.variants)
        out += "gfxstat_values{metric=\"" + openmetrics_label_value(metric) + "\",variant=\"" + openmetrics_label_value(v.label) + "\"} " +
               number(v.usable) + "\n";
    out += "# EOF\n";
    return out;
}

std::string render_runs_failed_markdown(const RunsFailed& f, const ExportContext& ctx) {
    const auto md = [](const std::string& s) { return text::escape_markdown(s); };
    std::string out = "## " + md(ctx.program) + ": the runs failed\n\n";
    out += md(f.message) + "\n\nNo comparison was made (exit status 4).\n\n";
    out += "| variant | measured runs with a value | failed runs | last failure |\n| --- | ---: | ---: | --- |\n";
    for (const RunsFailedVariant& v : f.variants)
        out += "| " + md(v.label) + " | " + std::to_string(v.usable) + " | " + std::to_string(v.failed) + " | " +
               md(v.last_failure) + " |\n";
    return out;
}

std::string render_runs_failed_json(const RunsFailed& f, const ExportContext&) {
    Json doc;
    doc["format"] = "gfxstat-compare";
    doc["version"] = 1;
    add_gfxstat_version(doc);
    Json variants = Json::array();
    for (size_t i = 0; i < f.variants.size(); ++i) {
        const RunsFailedVariant& v = f.variants[i];
        variants.push_back({{"label", v.label},
                            {"role", i == 0 ? "baseline" : "candidate"},
                            {"measured", v.usable},
                            {"failed", v.failed},
                            {"last_failure", v.last_failure.empty() ? Json(nullptr) : Json(v.last_failure)}});
    }
    doc["runs_failed"] = {{"message", f.message},
                          {"metric", f.metric.empty() ? Json(nullptr) : Json(f.metric)},
                          {"variants", variants}};
    doc["comparisons"] = Json::array();
    return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

void write_runs_failed_exports(const std::vector<ExportRequest>& requests, const RunsFailed& f,
                               const ExportContext& ctx) {
    bool markdown = false;
    for (const ExportRequest& q : requests) {
        std::string bytes;
        if (q.kind == "junit") bytes = render_runs_failed_junit(f, ctx);
        else if (q.kind == "openmetrics") bytes = render_runs_failed_openmetrics(f, ctx);
        else if (q.kind == "kcidb") bytes = render_runs_failed_kcidb(f, ctx);
        else if (q.kind == "markdown") bytes = render_runs_failed_markdown(f, ctx), markdown = true;
        else if (q.kind == "json") bytes = render_runs_failed_json(f, ctx);
        else continue;  // "rows": the caller's
        data::write_file_atomically(q.path, bytes, 0644, true);
    }
    if (const char* summary = std::getenv("GITHUB_STEP_SUMMARY"); markdown && summary && *summary)
        append_step_summary(summary, render_runs_failed_markdown(f, ctx));
}

}  // namespace gfxstat::cli
