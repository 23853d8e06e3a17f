// SPDX-License-Identifier: MIT
// gfxstat show: what a results file holds (findings/show_overview.h), as
// text (report/show_text.h) or JSON (report/show_json.h).
#include "cli/command_line.h"
#include "cli/show_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/store_option.h"
#include "data/input_error.h"
#include "data/results_reader.h"
#include "findings/show_overview.h"
#include "report/show_json.h"
#include "report/show_text.h"
#include "text/text_escape.h"
#include "text/text_width.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;

int show_main(int argc, char** argv) {
    CLI::App app{"What a results file holds: variants, metrics, runs per boot, runs left out, "
                 "and environment differences between variants.",
                 "gfxstat show"};
    std::string file;
    bool json = false;
    int width = text::kDefaultWidth;
    app.add_option("file", file, "results file ('-': standard input; store:SELECTION: stored runs, docs/store.md)")
        ->required();
    std::string store;
    add_store_option(app, store);
    app.add_flag("--json", json, "machine output");
    app.add_option("--width", width, "text: lines at most this many columns, 40 to 1000 (default 72: a mail reply)")
        ->check(CLI::Range(text::kMinWidth, text::kMaxWidth));
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    const std::string name = file == "-" ? "<stdin>" : file;
    try {
        use_store_option(store);
        data::ReadReport report;
        std::vector<std::string> notes;
        const data::ResultsFile f = read_results_argument(file, name, &report, notes);
        for (const std::string& n : notes) std::fprintf(stderr, "gfxstat show: note: %s\n", escape_message(n).c_str());
        if (report.torn_tail)
            std::fprintf(stderr, "gfxstat show: warning: %s\n",
                         escape_message(data::torn_tail_message(name, report)).c_str());
        for (const std::string& w : data::skipped_record_messages(name, report))
            std::fprintf(stderr, "gfxstat show: warning: %s\n", escape_message(w).c_str());
        const findings::ShowOverview show = findings::show_overview(f, name);
        for (const std::string& w : show.workload_warnings)
            std::fprintf(stderr, "gfxstat show: warning: %s: %s\n", escape_text(name).c_str(), escape_text(w).c_str());
        if (json)
            std::printf("%s\n", report::show_json(name, f, report, show).c_str());
        else
            report::print_show_text(stdout, static_cast<size_t>(width), name, f, show);
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "gfxstat show: %s\n", escape_message(e.what()).c_str());
        return 2;
    }
    return 0;
}

void render_show_text(const std::string& name, const data::ResultsFile& f, FILE* out) {
    // As in show_main: what throws does so before anything is printed.
    report::print_show_text(out, text::kDefaultWidth, name, f, findings::show_overview(f, name));
}

}  // namespace gfxstat::cli
