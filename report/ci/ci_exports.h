// SPDX-License-Identifier: MIT
// Reports for CI systems, written beside the text on stdout from the same
// analysis, in one pass (hyperfine's export manager, in shape): compare and
// ab take any of
//   --junit FILE        JUnit XML as GitLab reads it (report/ci/junit_export.cpp)
//   --openmetrics FILE  GitLab's metrics report (openmetrics_export.cpp)
//   --kcidb FILE        KernelCI's KCIDB v5 JSON (kcidb_export.cpp)
//   --markdown FILE     the markdown report; also appended to the file
//                       $GITHUB_STEP_SUMMARY names, when that is set
//   --json FILE         the JSON report (docs/compare-format.md)
// The gate stays the exit status; a report only mirrors it (a JUnit
// failure, a KCIDB FAIL exactly where the gate trips).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "findings/compare_findings.h"
#include "report/verdict_rows.h"

namespace gfxstat::cli {

struct ExportRequest {
    ExportRequest() = default;
    ExportRequest(std::string kind_, std::string path_) : kind(std::move(kind_)), path(std::move(path_)) {}
    std::string kind;  // junit, openmetrics, kcidb, markdown, json; rows (no file)
    std::string path;
    // kind "rows": called with the verdict rows instead of writing a file,
    // for a caller that reports them elsewhere (gfxstat ab inside a LAVA
    // test shell: a test case per comparison). The rows point into the
    // report: copy what is needed before returning.
    std::function<void(const std::vector<VerdictRow>&)> rows;
};

// What every exporter is given besides the report.
struct ExportContext {
    GateSettings gate;
    std::string program = "gfxstat compare";
    std::string text_report;      // what stdout got (the whole report for the short default), escaped
    double seconds = 0;           // how long the comparison took, for JUnit's time
    std::string kcidb_origin = "gfxstat";
    std::string generated_at;     // RFC 3339 UTC, for KCIDB's start_time
    bool table = false;           // the text report is a suite table
};

// Each exporter: the whole file's bytes.
std::string render_junit(const CompareReport& r, const ExportContext& ctx);
std::string render_openmetrics(const CompareReport& r, const ExportContext& ctx);
std::string render_kcidb(const CompareReport& r, const ExportContext& ctx);

// Renders what a FILE* renderer writes, as a string.
std::string render_to_string(void (*render)(const CompareReport&, FILE*), const CompareReport& r);

// Appends `text` to the file $GITHUB_STEP_SUMMARY names (opened for
// appending, never through a link), as each step of a GitHub Actions job
// does. Throws InputError naming it.
void append_step_summary(const std::string& path, const std::string& text);

// Writes every requested report, each file atomically and never through a
// symbolic link (data/safe_files.h); the markdown report is appended to
// $GITHUB_STEP_SUMMARY too when that is set. `markdown` and `json` render
// those two formats as compare would on stdout. Throws data::InputError
// naming the file that could not be written.
void write_exports(const std::vector<ExportRequest>& requests, const CompareReport& r, const ExportContext& ctx,
                   void (*markdown)(const CompareReport&, FILE*), void (*json)(const CompareReport&, FILE*));

}  // namespace gfxstat::cli
