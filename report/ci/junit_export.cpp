// SPDX-License-Identifier: MIT
// compare's verdicts as JUnit XML, the way GitLab's test report reads it
// (artifacts:reports:junit): a <testsuite> per benchmark group (a metric's
// name up to its last '/': IGT's "4KiB" of "4KiB/upload_linear"), a
// <testcase> per comparison whose classname GitLab shows as the suite and
// name as the name, a <failure> exactly where the gate trips, <skipped>
// for an inconclusive comparison under --strict, the comparison's text in
// <system-out>, and the whole text report in the first suite's <system-out>.
// The report never fails the job: the exit status is the gate.
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "report/ci/ci_exports.h"
#include "report/settling_advice_words.h"
#include "text/text_escape.h"
#include "text/xml_escape.h"
#include "text/number_format.h"

namespace gfxstat::cli {

namespace {

// Text as XML character data or an attribute value: escaped for people
// line by line (a newline stays a newline in <system-out>), then XML by
// text/xml_escape.h: markup characters as references, and what XML 1.0
// cannot hold at all (C0 controls, U+FFFE, U+FFFF) in gfxstat's visible form.
std::string xml(std::string_view raw, bool already_escaped = false) {
    return already_escaped ? text::xml_escape(raw) : text::xml_message(raw);
}

std::string seconds(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", std::isfinite(s) && s > 0 ? s : 0.0);
    return buf;
}

struct Suite {
    std::vector<const VerdictRow*> rows;
    size_t failures = 0, skipped = 0;
};

// What a comparison's testcase says in <system-out>: its line and why.
std::string case_text(const VerdictRow& row) {
    std::string t = row.line + "\n" + report::verdict_reason(row.verdict) + "\n";
    t += "baseline " + row.baseline + ": mean " + text::number_g(row.baseline_centre, 6) + " (" +
         std::to_string(row.baseline_n) + (row.paired_suite ? " benchmarks" : " values") + ")\n";
    t += "candidate " + row.candidate + ": mean " + text::number_g(row.candidate_centre, 6) + " (" +
         std::to_string(row.candidate_n) + (row.paired_suite ? " benchmarks" : " values") + ")\n";
    if (!row.primary) t += "secondary metric: reported, never gated\n";
    return t;
}

// The frames an image check found differing, for a failure's body: every
// one up to 100, then how many more.
std::string differing_frames(const findings::ImageComparison& c) {
    std::string t = "differing frames:";
    for (size_t i = 0; i < c.differing.size() && i < 100; ++i) t += " " + std::to_string(c.differing[i]);
    if (c.differing.size() > 100) t += " ... (" + std::to_string(c.differing.size() - 100) + " more)";
    return t + "\n";
}

}  // namespace

std::string render_junit(const CompareReport& r, const ExportContext& ctx) {
    const std::vector<VerdictRow> rows = verdict_rows(r, ctx.gate);
    const std::vector<ImageCheckRow> images = image_check_rows(r, ctx.gate);
    std::map<std::string, Suite> suites;  // by group, in name order (stable across runs)
    size_t failures = 0, skipped = 0;
    for (const ImageCheckRow& row : images) failures += row.fails ? 1 : 0;
    for (const VerdictRow& row : rows) {
        Suite& s = suites[row.group];
        s.rows.push_back(&row);
        if (row.fails) ++s.failures, ++failures;
        else if (row.inconclusive_fails) ++s.skipped, ++skipped;
    }
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += "<testsuites name=\"" + xml(ctx.program) + "\" tests=\"" + std::to_string(rows.size() + images.size()) +
           "\" failures=\"" +
           std::to_string(failures) + "\" errors=\"0\" skipped=\"" + std::to_string(skipped) + "\" time=\"" +
           seconds(ctx.seconds) + "\">\n";
    for (const auto& [group, s] : suites) {
        out += "  <testsuite name=\"" + xml(group) + "\" tests=\"" + std::to_string(s.rows.size()) + "\" failures=\"" +
               std::to_string(s.failures) + "\" errors=\"0\" skipped=\"" + std::to_string(s.skipped) + "\" time=\"" +
               seconds(ctx.seconds) + "\">\n";
        for (const VerdictRow* row : s.rows) {
            const std::string name = row->metric + ": " + row->candidate + " vs " + row->baseline;
            out += "    <testcase classname=\"" + xml("gfxstat." + row->group) + "\" name=\"" + xml(name) +
                   "\" time=\"" + seconds(0) + "\">\n";
            if (row->fails)
                out += "      <failure type=\"regression\" message=\"" + xml(row->line) + "\">" +
                       xml(report::verdict_reason(row->verdict)) + "</failure>\n";
            else if (row->inconclusive_fails)
                out += "      <skipped message=\"" + xml("inconclusive (--strict): " + row->line) + "\"/>\n";
            out += "      <system-out>" + xml(case_text(*row)) + "</system-out>\n";
            out += "    </testcase>\n";
        }
        // The whole text report once, in the first suite (GitLab shows a
        // testcase's output; other readers show a suite's).
        if (group == suites.begin()->first)
            out += "    <system-out>" + xml(ctx.text_report, true) + "</system-out>\n";
        out += "  </testsuite>\n";
    }
    // The image checks: a testcase per candidate, failed where its frames
    // differ from the baseline's and that trips --gate (no
    // --allow-image-change).
    if (!images.empty()) {
        size_t failed = 0;
        for (const ImageCheckRow& row : images) failed += row.fails ? 1 : 0;
        out += "  <testsuite name=\"images\" tests=\"" + std::to_string(images.size()) + "\" failures=\"" +
               std::to_string(failed) + "\" errors=\"0\" skipped=\"0\" time=\"" + seconds(ctx.seconds) + "\">\n";
        for (const ImageCheckRow& row : images) {
            const findings::ImageComparison& c = *row.comparison;
            out += "    <testcase classname=\"gfxstat.images\" name=\"" +
                   xml("images: " + c.candidate + " vs " + c.baseline) + "\" time=\"" + seconds(0) + "\">\n";
            if (row.fails)
                out += "      <failure type=\"images\" message=\"" + xml(row.line) + "\">" + xml(differing_frames(c)) +
                       "</failure>\n";
            out += "      <system-out>" + xml(row.line + "\n" + (c.differing.empty() ? "" : differing_frames(c))) +
                   "</system-out>\n";
            out += "    </testcase>\n";
        }
        out += "  </testsuite>\n";
    }
    out += "</testsuites>\n";
    return out;
}

}  // namespace gfxstat::cli
