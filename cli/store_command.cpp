// SPDX-License-Identifier: MIT
// gfxstat store: results files pushed into a results store and got back
// (docs/store.md). Exit statuses: 0 done; 1 store check found problems;
// 2 usage errors, bad input, a refused push (nothing of it written), a
// store that cannot be opened.
#include "cli/store_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/command_line.h"
#include "cli/subcommands.h"
#include "data/bench_filter.h"
#include "data/input_error.h"
#include "data/results_reader.h"
#include "data/results_writer.h"
#include "data/store.h"
#include "formats/import_hint.h"
#include "report/store_listing.h"
#include "text/plural.h"
#include "text/text_escape.h"
#include "text/text_width.h"

namespace gfxstat::cli {
namespace {

using text::escape_message;
using text::escape_text;

constexpr const char* kProg = "gfxstat store";
constexpr const char* kStoreHelp =
    "the store: sqlite:PATH, or postgresql://... or service=NAME (credentials through PGPASSFILE or a service "
    "file, never in the URL) (default: GFXSTAT_STORE, else sqlite:$XDG_DATA_HOME/gfxstat/results.sqlite)";

// Opens the store that --store (else GFXSTAT_STORE, else the default) names.
std::unique_ptr<data::Store> open(const std::string& option, data::StoreOpen mode) {
    return data::open_store(data::parse_store_url(data::store_url_from(option)), mode);
}

int fail(const std::string& prog, const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", prog.c_str(), escape_message(e.what()).c_str());
    return 2;
}

int init_main(int argc, char** argv) {
    CLI::App app{"Make a results store (nothing happens to one already there).", "gfxstat store init"};
    std::string store;
    app.add_option("--store", store, kStoreHelp);
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    const std::string prog = "gfxstat store init";
    try {
        const auto s = open(store, data::StoreOpen::create);
        std::fprintf(stderr, "%s: %s: schema v%d, ready\n", prog.c_str(), escape_text(s->url().shown).c_str(),
                     s->schema_version());
    } catch (const data::InputError& e) {
        return fail(prog, e);
    }
    return 0;
}

int push_main(int argc, char** argv) {
    CLI::App app{"Push results files into the store: each file in one transaction, all of it or nothing. Runs "
                 "already stored are kept once; a run that differs from the stored run of the same identity "
                 "refuses its file.",
                 "gfxstat store push"};
    std::string store;
    std::vector<std::string> files;
    app.add_option("files", files, "results files to push")->required()->expected(1, -1);
    app.add_option("--store", store, kStoreHelp);
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    const std::string prog = "gfxstat store push";
    try {
        const auto s = open(store, data::StoreOpen::create);
        for (const std::string& f : files) {
            data::ReadReport report;
            const data::ResultsFile file = formats::read_results_path_hinted(f, f, &report);
            if (report.torn_tail)
                std::fprintf(stderr, "%s: warning: %s\n", prog.c_str(),
                             escape_message(data::torn_tail_message(f, report)).c_str());
            for (const std::string& w : data::skipped_record_messages(f, report))
                std::fprintf(stderr, "%s: warning: %s; not stored\n", prog.c_str(), escape_message(w).c_str());
            const data::PushOutcome o = s->push(file, f);
            std::string line = escape_text(f) + ": " + text::plural(o.runs_added, "run") + " stored (" +
                               text::plural(o.samples_added, "sample") + ")";
            if (o.runs_present > 0) line += ", " + text::plural(o.runs_present, "run") + " already there";
            if (o.checks_added + o.checks_present > 0)
                line += ", " + text::plural(o.checks_added, "image check") + " stored";
            std::fprintf(stderr, "%s: %s\n", prog.c_str(), line.c_str());
        }
    } catch (const data::InputError& e) {
        return fail(prog, e);
    }
    return 0;
}

int ls_main(int argc, char** argv) {
    CLI::App app{"What the store holds: its builds, machines, metrics and variants, with their runs and samples.",
                 "gfxstat store ls"};
    std::string store;
    int width = text::kDefaultWidth;
    app.add_option("--store", store, kStoreHelp);
    app.add_option("--width", width, "lines at most this many columns, 40 to 1000 (default 72: a mail reply)")
        ->check(CLI::Range(text::kMinWidth, text::kMaxWidth));
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    const std::string prog = "gfxstat store ls";
    try {
        const auto s = open(store, data::StoreOpen::existing);
        const std::string out = report::store_listing_text(s->url().shown, s->list(), static_cast<size_t>(width));
        return write_stdout_now(prog, out);
    } catch (const data::InputError& e) {
        return fail(prog, e);
    }
}

int get_main(int argc, char** argv) {
    CLI::App app{"A results file of the stored runs a selection keeps (docs/filter-language.md: variant:main, "
                 "hostname:dut-3, a metric's name, '*' for all), which every command reads.",
                 "gfxstat store get"};
    std::string store, selection, output;
    bool replace = false;
    app.add_option("selection", selection, "which runs, in the filter language ('*': all)")->required();
    app.add_option("-o,--output", output, "the results file to write ('-': standard output)")->required();
    app.add_option("--store", store, kStoreHelp);
    app.add_flag("--replace", replace, "replace OUT if it exists");
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    const std::string prog = "gfxstat store get";
    try {
        const auto s = open(store, data::StoreOpen::existing);
        size_t runs = 0;
        const auto text = [&] { return data::select_stored_runs(*s, selection, &runs); };
        if (output == "-") {
            if (const int status = write_stdout_now(prog, text())) return status;
        } else {
            data::write_results_text(output, replace, text);
        }
        std::fprintf(stderr, "%s: %s\n", prog.c_str(), text::plural(runs, "run").c_str());
    } catch (const data::InputError& e) {
        return fail(prog, e);
    } catch (const data::FilterSyntaxError& e) {
        return fail(prog, e);
    }
    return 0;
}

int check_main(int argc, char** argv) {
    CLI::App app{"Check the store: SQLite's integrity check, and that every record parses and its counts agree "
                 "(exit 1: a problem).",
                 "gfxstat store check"};
    std::string store;
    app.add_option("--store", store, kStoreHelp);
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    const std::string prog = "gfxstat store check";
    try {
        const auto s = open(store, data::StoreOpen::existing);
        const data::StoreCheck c = s->check();
        if (const int status = write_stdout_now(prog, report::store_check_text(s->url().shown, c))) return status;
        return c.problems.empty() ? 0 : 1;
    } catch (const data::InputError& e) {
        return fail(prog, e);
    }
}

int upgrade_main(int argc, char** argv) {
    CLI::App app{"Bring the store's schema up to this gfxstat's, one step per version, in one transaction.",
                 "gfxstat store upgrade"};
    std::string store;
    app.add_option("--store", store, kStoreHelp);
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    const std::string prog = "gfxstat store upgrade";
    try {
        const auto s = open(store, data::StoreOpen::upgrade);
        const data::UpgradeOutcome u = s->upgrade();
        for (const std::string& step : u.steps) std::fprintf(stderr, "%s: %s\n", prog.c_str(), step.c_str());
        if (u.steps.empty())
            std::fprintf(stderr, "%s: %s: already schema v%d, nothing to do\n", prog.c_str(),
                         escape_text(s->url().shown).c_str(), u.to);
        else
            std::fprintf(stderr, "%s: %s: schema v%d -> v%d\n", prog.c_str(), escape_text(s->url().shown).c_str(),
                         u.from, u.to);
    } catch (const data::InputError& e) {
        return fail(prog, e);
    }
    return 0;
}

void usage(FILE* out) {
    std::fprintf(out,
                 "usage: gfxstat store init [--store URL]\n"
                 "       gfxstat store push FILE... [--store URL]\n"
                 "       gfxstat store ls [--store URL] [--width N]\n"
                 "       gfxstat store get SELECTION -o FILE [--replace] [--store URL]\n"
                 "       gfxstat store check [--store URL]\n"
                 "       gfxstat store upgrade [--store URL]\n"
                 "\n"
                 "  init     make a store (sqlite:PATH, or in a PostgreSQL database)\n"
                 "  push     results files in, each in one transaction\n"
                 "  ls       builds, machines, metrics and variants, with counts\n"
                 "  get      the runs a selection keeps, as a results file\n"
                 "  check    integrity: SQLite's, and the store's own counts\n"
                 "  upgrade  the schema brought up to this gfxstat's\n");
}

constexpr Subcommand kSubcommands[] = {
    {"init", "make a store (sqlite:PATH, or in a PostgreSQL database)", init_main},
    {"push", "results files in, each in one transaction", push_main},
    {"ls", "builds, machines, metrics and variants, with counts", ls_main},
    {"get", "the runs a selection keeps, as a results file", get_main},
    {"check", "integrity: SQLite's, and the store's own counts", check_main},
    {"upgrade", "the schema brought up to this gfxstat's", upgrade_main},
};

}  // namespace

int store_main(int argc, char** argv) {
    return run_subcommand({kProg, "A results store that CI jobs push results files to and get them back from.",
                           "See docs/store.md.", kSubcommands, usage},
                          argc, argv);
}

}  // namespace gfxstat::cli
