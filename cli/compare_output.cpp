// SPDX-License-Identifier: MIT
#include "cli/compare_output.h"

#include <stdexcept>

#include "cli/compare_reading.h"
#include "data/input_error.h"
#include "data/results_writer.h"
#include "findings/compare_gate.h"
#include "report/ci/ci_exports.h"
#include "report/left_out_notes.h"
#include "report/plot_files.h"
#include "report/suite_table.h"
#include "report/volatile_words.h"
#include "text/text_escape.h"
#include "report/compare_renderers.h"

namespace gfxstat::cli {

bool suite_table_shown(const CompareReport& report, const CompareSettings& s) {
    return report.paired_by_benchmark || (suite_shape(report) && !s.full && (!s.brief || s.table));
}

void print_compare_notes(const CompareReport& report, const CompareSettings& s, bool table) {
    for (const std::string& note : gfxstat::report::left_out_notes(report)) print_compare_note(s.program, "note", note);
    if (report.paired_by_benchmark && (s.full || s.brief) && s.format != "json" && s.format != "csv")
        print_compare_note(s.program, "note",
                           std::string(s.full ? "--full" : "--brief") +
                               ": no benchmark of a suite measured once a side is compared on its own; the suite's "
                               "table is the report");
    // Outside the table (which prints them), what the selection pooled or
    // left out is said on stderr.
    if (!table && s.format != "json")
        for (const std::string& note : report.selection_notes)
            print_compare_note(s.program, "note", text::escape_text(note));
}

int report_comparison(const findings::CompareFindings& found, const CompareSettings& s, FILE* out,
                      std::chrono::steady_clock::time_point started) {
    const CompareReport& report = found.report;
    const bool table = suite_table_shown(report, s);
    print_compare_notes(report, s, table);
    // A candidate that ran under systematically different load, heat or
    // clocks (findings/volatile_context.h): said beside the verdict, on
    // stderr where the report has no sentence for it (the text reports
    // and JSON have their own).
    if (s.format == "markdown" || s.format == "csv" || (s.format == "text" && s.brief && !table))
        for (const auto& shift : found.context.shifts)
            print_compare_note(s.program, "note", text::escape_text(gfxstat::report::volatile_shift_line(shift)));
    void (*const text)(const CompareReport&, FILE*) =
        table ? render_suite_text : s.brief ? render_brief_text : s.full ? render_text : render_short_text;
    void (*const markdown)(const CompareReport&, FILE*) =
        table ? render_suite_markdown : s.brief ? render_brief_markdown : render_markdown;
    if (s.format == "json") render_json(report, out);
    else if (s.format == "csv") render_suite_csv(report, out);
    else if (s.format == "markdown") markdown(report, out);
    else text(report, out);
    if (!s.exports.empty()) {
        ExportContext ctx;
        ctx.gate = {s.gate, s.strict};
        ctx.program = s.program;
        // A CI report keeps the whole text where stdout got the short one:
        // its reader opens a failed test to see why, not to paste it.
        ctx.text_report = render_to_string(text == render_short_text ? render_text : text, report);
        ctx.kcidb_origin = s.kcidb_origin;
        ctx.generated_at = data::utc_now_rfc3339();
        ctx.table = table;
        ctx.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        std::fflush(out);
        write_exports(s.exports, report, ctx, markdown, render_json);
    }
    if (!s.plot.empty()) {
        std::fflush(out);
        write_plots(s.plot, s.plot_kind, report, found.files);
    }
    return findings::gate_status(report, s.gate, s.strict);
}

int with_compare_errors(const std::string& program, const std::function<int()>& body) {
    try {
        return body();
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s: %s\n", program.c_str(), text::escape_message(e.what()).c_str());
        return 2;
    } catch (const std::invalid_argument& e) {  // a statistic refused its arguments
        std::fprintf(stderr, "%s: %s\n", program.c_str(), text::escape_message(e.what()).c_str());
        return 2;
    }
}

}  // namespace gfxstat::cli
