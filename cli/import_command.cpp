// SPDX-License-Identifier: MIT
// gfxstat import: other tools' output into a results file. The new file
// (or, with --append, the old file plus the new runs, under the results
// lock) is written whole and renamed into place, so an interrupted import
// leaves nothing behind and never a half-written results file.
#include "cli/command_line.h"
#include "cli/import_command.h"
#include "cli/results_output.h"
#include "text/nearest_word.h"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "formats/import_files.h"
#include "formats/registry.h"
#include "data/input_error.h"
#include "data/results_reader.h"
#include "data/results_writer.h"
#include "report/import_outcome.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;

namespace {

std::string join(const std::vector<std::string>& v, const char* sep) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
    return s;
}

}  // namespace

int import_main(int argc, char** argv) {
    CLI::App app{"Import other tools' results into a gfxstat results file.", "gfxstat import"};
    std::string format, output;
    std::vector<std::string> files, labels, tags, units;
    formats::ImportOptions opt;
    formats::CsvColumnRoles roles;
    bool lower = false, higher = false, append = false;
    app.add_option("--from", format, "input format: " + join(formats::import_names(), ", "))
        ->required();
    app.add_option("files", files, "input files ('-': standard input)")->required();
    app.add_option("-o,--output", output, "results file to write ('-': standard output)")
        ->required();
    app.add_option("--label", labels,
                   "variant label: once for every file, or once per file in order "
                   "(default: each format's own, else the file name)")
        ->allow_extra_args(false);  // one value per --label; the rest are files
    app.add_option("--metric", opt.metric,
                   "metric name (lines: default 'value'); formats with several metrics keep "
                   "only this one");
    app.add_option("--unit", units,
                   "unit of metrics whose format does not say; CSV with several --value-col: "
                   "COL=UNIT, once per value column")
        ->allow_extra_args(false);
    auto* lo = app.add_flag("--lower-is-better", lower, "metrics without a direction: lower is better");
    app.add_flag("--higher-is-better", higher, "metrics without a direction: higher is better")
        ->excludes(lo);
    app.add_option("-C,--column", opt.column.column, "lines: column to read (1-based)")
        ->check(CLI::Range(1, 1000000));
    app.add_option("-d,--delimiters", opt.column.delimiters, "lines: field delimiter characters")
        ->check([](const std::string& s) { return s.empty() ? "empty delimiter string" : ""; });
    app.add_option("--tag", tags, "KEY=VALUE recorded with every imported run (a git sha, ...)")
        ->allow_extra_args(false);
    app.add_flag("--append", append, "add the runs to OUT, which must be a results file");
    // A suite's table (formats/csv_suite.h): long with --value-col, wide without.
    app.add_option("--bench-col", roles.bench,
                   "CSV: the column of benchmark names, each benchmark a metric (a suite's table: "
                   "long with --value-col, else wide, a column per variant)");
    app.add_option("--variant-col", roles.variant, "CSV, long table: the column of variant labels");
    app.add_option("--value-col", roles.values,
                   "CSV, long table: a column of values (repeatable; with several, metrics are BENCH/COL)")
        ->allow_extra_args(false);
    app.add_option("--variant-cols", roles.variant_cols,
                   "CSV, wide table: the variant columns to read, A,B,... (default: every other column)")
        ->delimiter(',')
        ->allow_extra_args(false);
    app.add_option("--run-col", roles.run,
                   "CSV, suite table: the column of run indices (default: the k-th row of a benchmark is run k)");
    app.add_option("--boot-col", roles.boot, "CSV, suite table: the column of boot ids");
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    const char* prog = "gfxstat import";
    if (const std::string problem = formats::import_format_problem(format); !problem.empty()) {
        std::fprintf(stderr, "%s: %s\n", prog, problem.c_str());
        return 2;
    }
    if (!labels.empty() && labels.size() != 1 && labels.size() != files.size()) {
        std::fprintf(stderr, "%s: %zu --label for %zu files: give one for all, or one per file\n",
                     prog, labels.size(), files.size());
        return 2;
    }
    // --unit: one unit, or with a suite's several value columns COL=UNIT each.
    for (const std::string& u : units) {
        const size_t eq = u.find('=');
        if (format == "csv" && roles.any() && eq != std::string::npos) {
            roles.units[u.substr(0, eq)] = u.substr(eq + 1);
        } else if (!opt.unit.empty()) {
            std::fprintf(stderr, "%s: --unit given twice ('%s', '%s'): give one unit%s\n", prog,
                         escape_text(opt.unit).c_str(), escape_text(u).c_str(),
                         format == "csv" && roles.values.size() > 1 ? ", or COL=UNIT for each --value-col" : "");
            return 2;
        } else {
            opt.unit = u;
        }
    }
    if (roles.any()) {
        if (format != "csv") {
            std::fprintf(stderr, "%s: --bench-col, --variant-col, --value-col, --variant-cols, --run-col and "
                                 "--boot-col describe a CSV table: use them with --from csv\n",
                         prog);
            return 2;
        }
        if (const std::string problem = formats::column_roles_problem(roles); !problem.empty()) {
            std::fprintf(stderr, "%s: %s\n", prog, escape_text(problem).c_str());
            return 2;
        }
        roles.suggest = [](std::string_view typed, const std::vector<std::string>& header) {
            return text::did_you_mean(typed, header);
        };
    }
    if (lower) opt.direction = data::Direction::lower_is_better;
    if (higher) opt.direction = data::Direction::higher_is_better;
    for (const std::string& t : tags) {
        const size_t eq = t.find('=');
        if (eq == std::string::npos || eq == 0) {
            std::fprintf(stderr, "%s: --tag '%s': expected KEY=VALUE\n", prog, escape_text(t).c_str());
            return 2;
        }
        opt.tags[t.substr(0, eq)] = t.substr(eq + 1);
    }
    if (append && output == "-") {
        std::fprintf(stderr, "%s: --append needs a file, not standard output\n", prog);
        return 2;
    }

    try {
        formats::ImportedRuns added;
        // With --append, the old file and the new runs are built with the
        // results lock held, so that no run appended by another gfxstat
        // between our read and our rename is lost.
        const auto build = [&](const data::ResultsFile* current, const data::ReadReport& report) {
            data::ResultsFile results;
            if (current) {
                results = *current;
                if (report.torn_tail)
                    std::fprintf(stderr, "%s: warning: %s; it is dropped\n", prog,
                                 escape_message(data::torn_tail_message(output, report)).c_str());
                for (const std::string& w : data::skipped_record_messages(output, report))
                    std::fprintf(stderr, "%s: warning: %s; it is dropped\n", prog, escape_message(w).c_str());
            } else {
                results.header = data::new_results_header();
            }
            added = formats::import_files(format, files, labels, opt, roles, results);
            return results;
        };
        if (const int status = write_results_output(
                prog, output, append ? data::ExistingFile::update : data::ExistingFile::refuse, build))
            return status;
        report::print_import_outcome(prog, added, files.size(), append, output, stderr);
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s: %s\n", prog, escape_message(e.what()).c_str());
        return 2;
    }
    return 0;
}

}  // namespace gfxstat::cli
