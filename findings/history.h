// SPDX-License-Identifier: MIT
// gfxstat history's model: the builds of a series of results files, their
// order, and each metric's change points with the `git bisect` commands
// that find them (docs/history.md). Built here from the files the command
// read (cli/history_command.cpp); read by its renderers (report/
// history_render.h: text, markdown, JSON; report/history_page.h: HTML).
//
// Builds: a run's build is its environment's tag `commit`, else `build`
// (--key TAG: that tag), else its results file's build: the file's label
// (LABEL=FILE), else its variant, else (when several files hold that
// variant) the file's name. Runs of one build in several files are one
// build.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/change_points.h"
#include "data/results_model.h"

namespace gfxstat::findings::history {

// What the analysis takes from the command line.
struct Settings {
    std::string key, order = "given", git_dir, since;
    std::vector<std::string> metrics;
    analysis::ChangePointOptions cp;
};

// A results file as given: its path, the name it is shown by, and its
// label (LABEL=FILE: the build of all its runs), "" when none.
struct Input {
    std::string path, name, label;
};

// Where a build's runs are: (input index, variant).
using Source = std::pair<size_t, std::string>;

struct Build {
    std::string key;
    std::string tag;         // the environment tag whose value the key is ("" when a file, label or variant)
    std::string commit;      // the full sha (--order git), else ""
    std::string first_start; // sortable, of its earliest run; "" when none has one
    std::set<Source> sources;
    size_t runs = 0, left_out = 0;  // runs read; failed or warm-up runs left out
    std::optional<data::WorkloadRecord> workload;
};

struct MetricSeries {
    data::MetricInfo info;
    std::vector<std::vector<double>> values;  // per build (in load order): one value per run
};

struct Loaded {
    std::vector<Input> inputs;
    std::vector<Build> builds;                // in order of first appearance
    std::vector<MetricSeries> metrics;
    std::map<Source, std::set<size_t>> builds_of_source;
};

struct BisectCommand {
    std::string check, run;
    // run in pieces, each a word quoted already or an option with its
    // value ("--good b05.json"), "&&" between the commands: run is them
    // joined by spaces. A text report breaks a long run between these
    // pieces only, so that it can still be pasted.
    std::vector<std::string> run_words;
    std::vector<std::string> notes;
};

struct MetricHistory {
    const MetricSeries* series = nullptr;
    std::vector<size_t> builds;  // indices into L.builds, in series order
    analysis::ChangePointResult result;
    std::vector<BisectCommand> bisect;  // one per change
    std::vector<std::string> notes;
};

struct History {
    Loaded loaded;
    std::vector<size_t> order;            // indices into loaded.builds, the series' order
    std::vector<MetricHistory> metrics;   // each chosen metric (their series point into loaded)
    size_t changes = 0;                   // change points in all
};

// The builds of `files` (read from `inputs`, one each), ordered (--order
// git asks git for the commits of HEAD), and the change points of each
// metric chosen. Throws InputError: metrics declared unlike, no runs, a
// --metric or --since that names nothing, builds git does not know.
History find_history(const Settings& s, std::vector<Input> inputs, const std::vector<data::ResultsFile>& files);

// A run of hex digits (a commit id).
bool hex_word(const std::string& s);
// Four significant digits for people.
std::string number(double v);

}  // namespace gfxstat::findings::history
