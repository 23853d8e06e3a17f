// SPDX-License-Identifier: MIT
// compare's results as KernelCI's KCIDB I/O data, schema v5.3
// (kcidb-io's kcidb_io/schema/v05_03.py; the subset gfxstat writes is
// tests/data/kcidb/gfxstat-subset.schema.json). KCIDB keeps one number
// per test and does no regression analysis of its own, so gfxstat gives it
// both: one test per benchmark, metric and variant, whose number is that
// side's mean, with every raw value, its boot, and, for a candidate, the
// change, its interval, p and verdict in `misc`.
//   - Each variant is a checkout and a build of it (KCIDB links a test to
//     a build, a build to a checkout); their comment is the variant label.
//   - path: "gfxstat.<benchmark>.<metric>": the metric's name split at
//     '/' (IGT's "4KiB/upload_linear"), each part reduced to KCIDB's path
//     characters [A-Za-z0-9_-]; the name itself is in misc.
//   - status: DONE (a measurement, no pass or fail); with --gate, each
//     candidate's test PASS, or FAIL exactly where the gate trips (with
//     --strict, an inconclusive comparison too); a baseline's stays DONE.
//   - ids: "<origin>:gfxstat-" and a hash of what the object holds, so the
//     same data gives the same ids and a new run new ones.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "report/ci/ci_exports.h"
#include "report/ci/ci_names.h"
#include "report/image_check_words.h"
#include "report/settling_advice_words.h"
#include "data/gfxstat_version.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

namespace {

using Json = nlohmann::ordered_json;



// Text for KCIDB's strings, which may hold anything but NUL: escaped as
// gfxstat escapes text from data (no controls, valid UTF-8).
std::string text(std::string_view raw) { return text::escape_text(raw); }

Json number_or_null(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

// One side's values, in run order, and each one's boot, for misc. Without
// the run order (the analysis sorted the sample) the values are given in
// increasing order and without boots, and misc says so.
Json side_misc(const ReportSample& side) {
    Json values = Json::array();
    const bool in_order = side.run_order.size() == side.sample.size();
    if (in_order)
        for (double v : side.run_order) values.push_back(number_or_null(v));
    else {
        const auto view = side.sample.view();
        for (size_t i = 0; i < view.size(); ++i) values.push_back(number_or_null(view.at(i)));
    }
    Json m = {{"values", values}};
    if (!in_order) m["values_sorted"] = true;
    if (in_order && side.layout.boot_of_value.size() == side.run_order.size()) {
        Json boots = Json::array();
        for (uint32_t b : side.layout.boot_of_value) boots.push_back(text(side.layout.boots.at(b)));
        m["boots"] = boots;
    }
    return m;
}

std::string values_key(const ReportSample* side) {
    if (!side) return "";
    std::string k;
    char buf[40];
    for (double v : side->run_order) {
        std::snprintf(buf, sizeof buf, "%.17g,", v);
        k += buf;
    }
    return k;
}

}  // namespace

std::string render_kcidb(const CompareReport& r, const ExportContext& ctx) {
    const std::vector<VerdictRow> rows = verdict_rows(r, ctx.gate);
    const std::string& origin = ctx.kcidb_origin;
    Json checkouts = Json::array(), builds = Json::array(), tests = Json::array();
    std::map<std::string, std::string> build_of;  // variant label -> build id
    const auto build_id = [&](const std::string& label) -> const std::string& {
        auto it = build_of.find(label);
        if (it != build_of.end()) return it->second;
        const std::string suffix = "gfxstat-" + kcidb_hex(kcidb_fingerprint(label, kcidb_fingerprint(ctx.generated_at)));
        const std::string checkout = origin + ":" + suffix;
        checkouts.push_back({{"id", checkout},
                             {"origin", origin},
                             {"comment", text("gfxstat variant " + label)},
                             {"misc", {{"variant", text(label)}}}});
        Json b = {{"id", origin + ":" + suffix},
                  {"origin", origin},
                  {"checkout_id", checkout},
                  {"comment", text("gfxstat variant " + label)},
                  {"misc", {{"variant", text(label)}}}};
        if (!ctx.generated_at.empty()) b["start_time"] = ctx.generated_at;
        builds.push_back(b);
        return build_of.emplace(label, origin + ":" + suffix).first->second;
    };
    std::map<std::string, bool> done;  // (metric, variant) tests already written
    const auto add_test = [&](const VerdictRow& row, bool candidate) {
        const std::string& label = candidate ? row.candidate : row.baseline;
        const ReportSample* side = candidate ? row.candidate_side : row.baseline_side;
        const std::string key = row.metric + '\0' + label + (candidate ? '\0' + row.baseline : std::string());
        if (!done.emplace(key, true).second) return;
        const double centre = candidate ? row.candidate_centre : row.baseline_centre;
        Json t = {{"id", origin + ":gfxstat-" + kcidb_hex(kcidb_fingerprint(values_key(side), kcidb_fingerprint(key, kcidb_fingerprint(ctx.generated_at))))},
                  {"build_id", build_id(label)},
                  {"origin", origin},
                  {"path", kcidb_test_path(row.metric)}};
        t["status"] = !ctx.gate.gate || !candidate ? "DONE" : row.fails || row.inconclusive_fails ? "FAIL" : "PASS";
        if (std::isfinite(centre)) {
            Json number = {{"value", centre}};
            if (!row.unit.empty()) number["unit"] = text(row.unit);
            t["number"] = number;
        }
        if (!ctx.generated_at.empty()) t["start_time"] = ctx.generated_at;
        Json misc = {{"benchmark", text(row.metric)},
                     {"variant", text(label)},
                     {"role", candidate ? "candidate" : "baseline"},
                     {"n", candidate ? row.candidate_n : row.baseline_n},
                     {"gfxstat_version", data::gfxstat_version()}};
        if (side) misc.update(side_misc(*side));
        if (row.paired_suite) misc["paired_suite"] = true;
        if (candidate) {
            misc["baseline"] = text(row.baseline);
            misc["relative_change"] = number_or_null(row.relative_change);
            // Undefined (no interval, no p: constant sides, an exact metric)
            // is null, as in compare's JSON.
            misc["relative_change_ci"] =
                row.relative_ci ? Json{(*row.relative_ci)[0], (*row.relative_ci)[1]} : Json(nullptr);
            misc["p"] = row.p ? Json(*row.p) : Json(nullptr);
            misc["p_label"] = row.p_label;
            misc["verdict"] = analysis::outcome_name(row.verdict.outcome);
            if (row.renders_differently) misc["renders_differently"] = true;
            misc["reason"] = text(report::verdict_reason(row.verdict));
            misc["primary"] = row.primary;
            t["comment"] = text(row.line);
        }
        t["misc"] = misc;
        tests.push_back(t);
    };
    for (const VerdictRow& row : rows) {
        add_test(row, false);
        add_test(row, true);
    }
    // The image checks: a test per candidate, "gfxstat.images": SKIP
    // where its frames could not be judged; else DONE, and with --gate
    // FAIL exactly where they trip it (they differ, without
    // --allow-image-change), PASS otherwise.
    for (const ImageCheckRow& row : image_check_rows(r, ctx.gate)) {
        const findings::ImageComparison& c = *row.comparison;
        const std::string key = std::string("images") + '\0' + c.candidate + '\0' + c.baseline;
        Json t = {{"id", origin + ":gfxstat-" + kcidb_hex(kcidb_fingerprint(key, kcidb_fingerprint(ctx.generated_at)))},
                  {"build_id", build_id(c.candidate)},
                  {"origin", origin},
                  {"path", "gfxstat.images"}};
        t["status"] = c.outcome == findings::ImageOutcome::not_judged ? "SKIP"
                      : !ctx.gate.gate                                ? "DONE"
                      : row.fails                                     ? "FAIL"
                                                                      : "PASS";
        if (!ctx.generated_at.empty()) t["start_time"] = ctx.generated_at;
        t["comment"] = text(row.line);
        Json misc = {{"variant", text(c.candidate)},
                     {"baseline", text(c.baseline)},
                     {"role", "candidate"},
                     {"images", report::image_outcome_name(c.outcome)},
                     {"compared", c.compared},
                     {"differing", c.differing.size()},
                     {"first_differing", c.differing.empty() ? Json(nullptr) : Json(c.first_differing())},
                     {"gfxstat_version", data::gfxstat_version()}};
        if (c.outcome == findings::ImageOutcome::not_judged) misc["reason"] = text(row.words);
        if (row.allowed) misc["allowed"] = true;
        t["misc"] = misc;
        tests.push_back(t);
    }
    Json doc = {{"version", {{"major", 5}, {"minor", 3}}},
                {"checkouts", checkouts},
                {"builds", builds},
                {"tests", tests}};
    return doc.dump(1) + "\n";
}

}  // namespace gfxstat::cli
