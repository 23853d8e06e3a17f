// SPDX-License-Identifier: MIT
// What another command (gfxstat ab) uses of compare: add_report_options
// on its own CLI::App, and a results file with a design read, compared
// (findings::compare) and reported (report_comparison) with compare's
// exit status.
#include <unistd.h>

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/compare_command.h"
#include "cli/compare_output.h"
#include "cli/compare_reading.h"
#include "findings/compare_diagnostics.h"
#include "findings/show_overview.h"

namespace gfxstat::cli {
namespace {

std::string temp_dir() {
    std::string tmpl = testing::TempDir() + "gfxstat_compare_api_XXXXXX";
    const char* made = ::mkdtemp(tmpl.data());
    EXPECT_NE(made, nullptr) << std::strerror(errno);
    return tmpl;
}

// A sequential design of A and B, B `change` relative to A, 20 blocks.
std::string design_file(const std::string& dir, double change) {
    const std::string path = dir + "/ab.json";
    std::ofstream f(path);
    f << R"({"format":"gfxstat-results","version":1,"id":"0123456789abcdef0123456789abcdef"})" << "\n"
      << R"({"type":"design","id":"design-00112233aabbccdd","kind":"ab","variants":["A","B"],"order":"random","seed":42,"stopping":"sequential","method":"t-mixture confidence sequence","metric":"fps","confidence":0.95,"threshold":0.01,"max_runs":50})"
      << "\n"
      << R"({"type":"metric","name":"fps","unit":"fps","direction":"higher"})" << "\n";
    for (int b = 0; b < 20; ++b) {
        const double drift = 60 * (1 + 0.01 * std::sin(b));
        const double noise = 0.002 * std::cos(3.0 * b);
        const double a = drift, c = drift * (1 + change + noise);
        for (int pos = 0; pos < 2; ++pos) {
            const bool first_a = b % 2 == 0;
            const bool is_a = (pos == 0) == first_a;
            char line[320];
            std::snprintf(line, sizeof line,
                          R"({"type":"run","variant":"%s","run":%d,"exit":{"class":"ok"},"metrics":{"fps":%.6f},"design":"design-00112233aabbccdd","block":%d,"position":%d})",
                          is_a ? "A" : "B", b, is_a ? a : c, b, pos);
            f << line << "\n";
        }
    }
    return path;
}

std::string run_to_string(const std::string& path, const CompareSettings& s, int& rc) {
    FILE* out = std::tmpfile();
    rc = with_compare_errors(s.program, [&] {
        const auto started = std::chrono::steady_clock::now();
        return report_comparison(
            findings::compare(read_compare_inputs({path}, s), analysis_options(s), compare_notes(s.program)), s, out,
            started);
    });
    std::fflush(out);
    std::rewind(out);
    std::string text;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, out)) > 0) text.append(buf, n);
    std::fclose(out);
    return text;
}

TEST(CompareApi, ReportOptionsParseIntoSettings) {
    CLI::App app{"ab"};
    CompareSettings s;
    std::string metric;
    app.add_option("--metric", metric);  // the caller's own
    add_report_options(app, s);
    std::vector<std::string> args = {"--no-diagnostics", "--strict", "--gate", "--width", "80", "--format",
                                     "json",             "--threshold", "2", "--fdr", "--metric", "fps"};
    std::vector<const char*> argv = {"ab"};
    for (const auto& a : args) argv.push_back(a.c_str());
    app.parse(static_cast<int>(argv.size()), argv.data());
    EXPECT_FALSE(s.diagnostics);
    EXPECT_TRUE(s.strict && s.gate && s.fdr);
    EXPECT_EQ(s.width, 80);
    EXPECT_EQ(s.format, "json");
    EXPECT_TRUE(s.threshold_given);
    EXPECT_DOUBLE_EQ(s.threshold_pct, 2);
    EXPECT_FALSE(s.confidence_given);
    EXPECT_EQ(metric, "fps");
    // --metric, --baseline and --variant are the caller's.
    CLI::App other{"x"};
    CompareSettings t;
    add_report_options(other, t);
    EXPECT_EQ(other.get_option_no_throw("--metric"), nullptr);
    EXPECT_EQ(other.get_option_no_throw("--baseline"), nullptr);
    EXPECT_EQ(other.get_option_no_throw("--variant"), nullptr);
    EXPECT_NE(other.get_option_no_throw("--confidence"), nullptr);
}

TEST(CompareApi, ComparingAResultsFileGivesTheVerdictAndStatus) {
    const std::string dir = temp_dir();
    CompareSettings s;
    s.resamples = 0;
    s.format = "json";
    s.gate = true;
    int rc = -1;
    const std::string better = run_to_string(design_file(dir, 0.03), s, rc);
    EXPECT_EQ(rc, 0);
    const auto j = nlohmann::json::parse(better);
    ASSERT_EQ(j["comparisons"].size(), 1u);
    EXPECT_EQ(j["comparisons"][0]["verdict"]["primary_test"], "sequential_blocks");
    EXPECT_EQ(j["comparisons"][0]["verdict"]["outcome"], "improvement");
    EXPECT_EQ(j["comparisons"][0]["design"]["kind"], "blocked");
    s.format = "text";
    s.full = true;  // the whole report: every field of the verdict
    const std::string worse = run_to_string(design_file(dir, -0.03), s, rc);
    EXPECT_EQ(rc, 1) << worse;
    EXPECT_NE(worse.find("REGRESSION by t-mixture confidence sequence on blocks"), std::string::npos) << worse;
    EXPECT_NE(worse.find("design       blocked, 20 blocks"), std::string::npos) << worse;
    // A file that is not there: compare's status for bad input.
    EXPECT_EQ(run_to_string(dir + "/missing.json", s, rc), "");
    EXPECT_EQ(rc, 2);
}

// gfxstat report shows each results file as show describes it beside
// compare's report: show asks for compare's diagnostics first, and runs
// none of its own for a sample compare diagnosed.
TEST(CompareApi, ShowTakesCompareDiagnosticsInsteadOfRunningThemAgain) {
    const std::string dir = temp_dir();
    const std::string path = design_file(dir, 0.03);
    CompareSettings s;
    s.resamples = 0;
    findings::CompareOptions o = analysis_options(s);
    o.keep_run_order = true;
    const findings::CompareFindings found =
        findings::compare(read_compare_inputs({path}, s), o, [](const char*, const std::string&) {});
    ASSERT_EQ(found.files.size(), 1u);
    const findings::KnownDiagnostics known = findings::compare_diagnostics(found);
    size_t asked = 0, answered = 0;
    const findings::KnownDiagnostics counting = [&](const std::string& metric, const std::string& unit,
                                                    const std::string& variant, const std::vector<double>& values,
                                                    const data::BootLayout& layout) {
        ++asked;
        const analysis::SampleDiagnostics* d = known(metric, unit, variant, values, layout);
        answered += d != nullptr;
        return d;
    };
    const findings::ShowOverview shown = findings::show_overview(found.files[0], path, true, counting);
    EXPECT_EQ(shown.diagnostics.size(), 2u);
    EXPECT_EQ(asked, 2u);
    EXPECT_EQ(answered, 2u);  // A's and B's: none diagnosed twice
    // What show would have found on its own.
    const findings::ShowOverview alone = findings::show_overview(found.files[0], path);
    ASSERT_EQ(alone.diagnostics.size(), shown.diagnostics.size());
    for (size_t i = 0; i < alone.diagnostics.size(); ++i) {
        EXPECT_EQ(alone.diagnostics[i].diagnostics.n, shown.diagnostics[i].diagnostics.n);
        EXPECT_EQ(alone.diagnostics[i].diagnostics.bimodality.bimodal, shown.diagnostics[i].diagnostics.bimodality.bimodal);
    }
    // --no-diagnostics: nothing asked, nothing run.
    asked = 0;
    EXPECT_TRUE(findings::show_overview(found.files[0], path, false, counting).diagnostics.empty());
    EXPECT_EQ(asked, 0u);
}

}  // namespace
}  // namespace gfxstat::cli
