// SPDX-License-Identifier: MIT
// gfxstat history's model, shared by its command (cli/history_command.cpp:
// loading, ordering, analysing) and its renderers (cli/history_render.cpp:
// text, markdown, JSON). Private to those two files.
#pragma once

#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/change_points.h"
#include "cli/sample_inputs.h"
#include "data/results_model.h"

namespace gfxstat::cli::history {

struct Settings {
    std::vector<std::string> files;
    std::string key, order = "given", git_dir, since, format = "text", json_path;
    std::vector<std::string> metrics;
    analysis::ChangePointOptions cp;
};

// Where a build's runs are: (input index, variant).
using Source = std::pair<size_t, std::string>;

struct Build {
    std::string key;
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
    std::vector<SampleInput> inputs;
    std::vector<Build> builds;                // in order of first appearance
    std::vector<MetricSeries> metrics;
    std::map<Source, std::set<size_t>> builds_of_source;
};

struct BisectCommand {
    std::string check, run;
    std::vector<std::string> notes;
};

struct MetricHistory {
    const MetricSeries* series = nullptr;
    std::vector<size_t> builds;  // indices into L.builds, in series order
    analysis::ChangePointResult result;
    std::vector<BisectCommand> bisect;  // one per change
    std::vector<std::string> notes;
};

// A run of hex digits (a commit id).
bool hex_word(const std::string& s);
// Four significant digits for people.
std::string number(double v);

void render_text(FILE* out, const Settings& s, const Loaded& L, const std::vector<MetricHistory>& hs);
void render_markdown(FILE* out, const Settings& s, const Loaded& L, const std::vector<MetricHistory>& hs);
// The JSON report (docs/history.md), indented, with a final newline.
std::string history_json(const Settings& s, const Loaded& L, const std::vector<size_t>& order,
                         const std::vector<MetricHistory>& hs);

}  // namespace gfxstat::cli::history
