// SPDX-License-Identifier: MIT
#include "cli/command_line.h"
#include "cli/merge_command.h"
#include "cli/results_output.h"
#include "formats/import_hint.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <deque>

#include "data/input_error.h"
#include "data/results_merge.h"
#include "data/results_reader.h"
#include "data/results_writer.h"
#include "text/plural.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

using text::escape_message;

int merge_main(int argc, char** argv) {
    CLI::App app{"Combine results files (from several machines or campaigns) into one, keeping "
                 "where each run came from.",
                 "gfxstat merge"};
    std::vector<std::string> files;
    std::string output;
    bool replace = false;
    app.add_option("files", files, "results files to merge")->required()->expected(1, -1);
    app.add_option("-o,--output", output, "the merged results file ('-': standard output)")->required();
    app.add_flag("--replace", replace, "replace OUT if it exists");
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    const char* prog = "gfxstat merge";
    try {
        // The inputs are read with the output's results lock held: OUT may
        // be one of them (merge --replace -o a.json a.json b.json), and a run
        // appended to it meanwhile would otherwise be lost.
        size_t merged_runs = 0, merged_checks = 0, duplicates_dropped = 0;
        const auto build = [&](const data::ResultsFile*, const data::ReadReport&) {
            std::deque<data::ResultsFile> read;  // stable addresses for MergeInput
            std::deque<data::ReadReport> reports;
            std::vector<data::MergeInput> inputs;
            for (const std::string& f : files) {
                reports.emplace_back();
                read.push_back(formats::read_results_path_hinted(f, f, &reports.back()));
                if (reports.back().torn_tail)
                    std::fprintf(stderr, "%s: warning: %s\n", prog,
                                 escape_message(data::torn_tail_message(f, reports.back())).c_str());
                for (const std::string& w : data::skipped_record_messages(f, reports.back()))
                    std::fprintf(stderr, "%s: warning: %s; not in the merged file\n", prog, escape_message(w).c_str());
                inputs.push_back({f, &read.back(), &reports.back()});
            }
            data::MergeOutcome m = data::merge_results(inputs, data::new_results_header(), output);
            merged_runs = m.merged.runs().size();
            merged_checks = m.merged.image_checks().size();
            duplicates_dropped = m.duplicates_dropped;
            return std::move(m.merged);
        };
        if (const int status = write_results_output(
                prog, output, replace ? data::ExistingFile::replace : data::ExistingFile::refuse, build))
            return status;
        // Image checks are never runs: counted apart, when there are any.
        const std::string checks =
            merged_checks ? " and " + gfxstat::text::plural(merged_checks, "image check") : std::string();
        std::fprintf(stderr, "%s: %s%s from %s", prog, gfxstat::text::plural(merged_runs, "run").c_str(),
                     checks.c_str(), gfxstat::text::plural(files.size(), "file").c_str());
        if (duplicates_dropped > 0)
            std::fprintf(stderr, "; %s kept once", gfxstat::text::plural(duplicates_dropped, "identical duplicate run").c_str());
        std::fprintf(stderr, "\n");
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s: %s\n", prog, escape_message(e.what()).c_str());
        return 2;
    }
    return 0;
}

}  // namespace gfxstat::cli
