// SPDX-License-Identifier: MIT
// compare's inputs: which samples a comparison is made of. One results
// file compared within itself (variant against variant, with its blocked
// design when it has one), several results files of one variant each, and
// --filter/--row/--col applied to them first.
#include "findings/compare_inputs.h"

#include <algorithm>
#include <unordered_map>

#include "data/bench_filter.h"
#include "data/blocked_pairs.h"
#include "data/input_error.h"
#include "data/projection.h"
#include "data/results_select.h"
#include "findings/metric_selection.h"
#include "text/plural.h"

namespace gfxstat::cli {

namespace {

analysis::Better better_of(data::Direction d) {
    switch (d) {
        case data::Direction::lower_is_better: return analysis::Better::lower;
        case data::Direction::higher_is_better: return analysis::Better::higher;
        case data::Direction::unknown: return analysis::Better::unknown;
    }
    return analysis::Better::unknown;
}

// The design both variants' runs come from: every run of either that
// names a design names the same one, which lists both, and each variant
// has such runs. Otherwise (no design, runs of two experiments) none.
const data::DesignRecord* shared_design(const data::ResultsFile& file, const std::string& baseline,
                                        const std::string& candidate) {
    std::string id;
    bool base_in = false, cand_in = false;
    for (const data::RunRecord& run : file.runs()) {
        if (run.variant != baseline && run.variant != candidate) continue;
        if (run.design.empty() || !run.block) {
            // A measured run outside the design: not one experiment. Warm-ups
            // and failed runs are no samples (gfxstat ab declares its design
            // with the first run that measured the watched metric, so runs
            // that failed before it carry none).
            if (!run.warmup && run.exit_class == data::ExitClass::ok) return nullptr;
            continue;
        }
        if (id.empty()) id = run.design;
        else if (id != run.design) return nullptr;
        (run.variant == baseline ? base_in : cand_in) = true;
    }
    if (!base_in || !cand_in) return nullptr;
    return file.find_design(id);
}

ReportSample from_selection(data::VariantSample&& v, const std::string& label, const data::ResultsFile& file) {
    ReportSample r;
    r.recorded = recorded_series(file, v.layout);
    r.label = label;
    r.sample = std::move(v.sample);
    r.counts = v.counts;
    r.from_results = true;
    r.layout = std::move(v.layout);
    return r;
}

// Each of `metrics` selected from `file`: one pass over the runs for all of
// them when there are several (a suite of 10,000 benchmarks would otherwise
// read the runs 10,000 times), select_metric's errors for a name the file
// lacks.
std::vector<data::MetricSelection> select_metrics(const data::ResultsFile& file, const std::string& name,
                                                  const std::vector<std::string>& metrics,
                                                  const std::vector<std::string>& variants) {
    std::vector<data::MetricSelection> out;
    if (metrics.size() < 2) {
        for (const std::string& m : metrics) out.push_back(select_metric_suggesting(file, name, m, variants));
        return out;
    }
    std::vector<data::MetricSelection> all = data::select_all_metrics(file, name, variants);
    std::unordered_map<std::string, size_t> at;
    for (size_t i = 0; i < all.size(); ++i) at.emplace(all[i].metric.name, i);
    out.reserve(metrics.size());
    for (const std::string& m : metrics) {
        const auto it = at.find(m);
        const data::MetricInfo* info = file.find_metric(m);
        // Unknown and within-run metrics get select_metric's own error.
        if (it == at.end() || !info || info->within_run())
            out.push_back(select_metric_suggesting(file, name, m, variants));
        else
            out.push_back(all[it->second]);
    }
    return out;
}

}  // namespace

std::vector<MetricReport> within_one_file(const std::string& name, const data::ResultsFile& file,
                                          const CompareChoices& ch) {
    const std::vector<std::string> all = file.variants();
    if (all.size() < 2 && ch.variants.empty())
        throw data::input_error(name, 0, "holds one variant ('" + (all.empty() ? "" : all[0]) +
                                              "'); give a second file to compare with");
    std::string base = ch.baseline.empty() ? all[0] : ch.baseline;
    // A blocked design names its baseline first (gfxstat ab's order of
    // variants), whichever variant ran first in block 0.
    if (ch.baseline.empty() && !file.designs().empty()) {
        const std::string& first = file.designs()[0].variants[0];
        if (std::find(all.begin(), all.end(), first) != all.end()) base = first;
    }
    std::vector<std::string> wanted = {base};
    if (ch.variants.empty()) {
        for (const auto& v : all)
            if (v != base) wanted.push_back(v);
    } else {
        for (const auto& v : ch.variants)
            if (v != base) wanted.push_back(v);
    }
    if (wanted.size() < 2) throw data::input_error(name, 0, "no candidate variant besides the baseline '" + base + "'");
    std::vector<std::string> metrics = ch.metrics;
    // Within-run metrics (frame times) are left out: their values are not
    // samples of runs; the per-run summaries beside them are compared.
    if (metrics.empty())
        for (const auto& m : file.metrics())
            if (!m.within_run()) metrics.push_back(m.name);
    if (metrics.empty() && !file.metrics().empty()) throw data::input_error(name, 0, "holds no metric with one sample per run");
    std::vector<MetricReport> out;
    std::vector<data::MetricSelection> selections = select_metrics(file, name, metrics, wanted);
    for (data::MetricSelection& sel : selections) {
        MetricReport r;
        r.metric = sel.metric.name;
        r.unit = sel.metric.unit;
        r.better = better_of(sel.metric.direction);
        r.exact = sel.metric.exact || ch.exact;
        r.declared_primary = sel.metric.primary;
        r.baseline = from_selection(std::move(sel.variants[0]), sel.variants[0].variant, file);
        for (size_t i = 1; i < sel.variants.size(); ++i)
            r.candidates.push_back(from_selection(std::move(sel.variants[i]), sel.variants[i].variant, file));
        bool any = false;
        std::vector<std::optional<DesignUse>> designs;
        for (const ReportSample& c : r.candidates) {
            const data::DesignRecord* d = shared_design(file, r.baseline.label, c.label);
            if (!d) {
                designs.emplace_back();
                continue;
            }
            any = true;
            designs.push_back(DesignUse{*d, data::blocked_pairs(file, d->id, r.metric, r.baseline.label, c.label)});
        }
        if (any) r.designs = std::move(designs);
        out.push_back(std::move(r));
    }
    // A sequential design's stop rule watched one metric: that one is the
    // primary metric (the gate's); the others are secondary.
    for (MetricReport& m : out)
        for (size_t k = 0; k < m.candidates.size(); ++k)
            if (const DesignUse* u = m.design(k); u && u->design.stopping == "sequential" && !u->design.metric.empty()) {
                m.design_role = true;
                m.primary = m.metric == u->design.metric;
                if (!m.primary) m.secondary_why = "not the metric the design's stop rule watched";
                break;
            }
    return out;
}

std::vector<std::string> input_names(const std::vector<SampleInput>& inputs) {
    std::vector<std::string> names;
    for (const auto& in : inputs) names.push_back(in.name);
    return names;
}

namespace {

// Several results files, one variant each: BASELINE's metrics against each
// candidate file's, for the metrics they all hold.
std::vector<MetricReport> across_files(const std::vector<SampleInput>& inputs,
                                       const std::vector<data::ResultsFile>& files, const CompareChoices& ch) {
    std::vector<std::string> labels;
    for (size_t i = 0; i < files.size(); ++i) {
        const auto vs = files[i].variants();
        if (vs.size() != 1)
            throw data::input_error(inputs[i].name, 0,
                                    "holds " + std::to_string(vs.size()) +
                                        " variants; with several files each must hold one "
                                        "(compare a single file within itself, or gfxstat merge)");
        labels.push_back(inputs[i].label.empty() ? vs[0] : inputs[i].label);
    }
    // Labels that repeat across files are told apart by the file name.
    const std::vector<std::string> plain = labels;
    for (size_t i = 0; i < labels.size(); ++i)
        if (std::count(plain.begin(), plain.end(), plain[i]) > 1) labels[i] = inputs[i].name + ":" + plain[i];
    std::vector<std::string> metrics = ch.metrics;
    if (metrics.empty()) {
        for (const auto& m : files[0].metrics()) {
            bool everywhere = true;
            for (const auto& f : files) everywhere &= f.find_metric(m.name) != nullptr;
            if (everywhere && !m.within_run()) metrics.push_back(m.name);
        }
        if (metrics.empty()) throw data::input_error(inputs[0].name, 0, "shares no metric with the other files");
    }
    std::vector<std::vector<data::MetricSelection>> selections;
    for (size_t i = 0; i < files.size(); ++i) selections.push_back(select_metrics(files[i], inputs[i].name, metrics, {}));
    std::vector<MetricReport> out;
    for (size_t k = 0; k < metrics.size(); ++k) {
        const std::string& metric = metrics[k];
        MetricReport r;
        for (size_t i = 0; i < files.size(); ++i) {
            data::MetricSelection& sel = selections[i][k];
            if (i == 0) {
                r.metric = sel.metric.name;
                r.unit = sel.metric.unit;
                r.better = better_of(sel.metric.direction);
                r.exact = sel.metric.exact || ch.exact;
                r.declared_primary = sel.metric.primary;
                r.baseline = from_selection(std::move(sel.variants[0]), labels[i], files[i]);
            } else {
                if (!sel.metric.same_declaration(*files[0].find_metric(metric)))
                    throw data::input_error(inputs[i].name, 0,
                                            "declares metric '" + metric + "' with another unit or direction than " +
                                                inputs[0].name);
                r.candidates.push_back(from_selection(std::move(sel.variants[0]), labels[i], files[i]));
            }
        }
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace

std::vector<MetricReport> results_metrics(const std::vector<SampleInput>& inputs,
                                          const std::vector<data::ResultsFile>& files, const CompareChoices& ch) {
    if (files.size() == 1) {
        if (!inputs[0].label.empty())
            throw data::input_error(inputs[0].name, 0,
                                    "is compared within itself, variant against variant: a label names one data "
                                    "set (give each variant its own file, or use --baseline)");
        return within_one_file(inputs[0].name, files[0], ch);
    }
    return across_files(inputs, files, ch);
}


void forget_split_runs(const findings::CompareOptions& s, std::vector<MetricReport>& metrics) {
    if (s.row.empty() && s.col.empty()) return;
    for (MetricReport& m : metrics) {
        m.baseline.counts.without_metric = 0;
        for (ReportSample& c : m.candidates) c.counts.without_metric = 0;
    }
}

void select_benchmarks(const findings::CompareOptions& s, const std::vector<SampleInput>& inputs,
                       std::vector<data::ResultsFile>& files, std::vector<std::string>& notes) {
    if (s.filter.empty() && s.row.empty() && s.col.empty()) return;
    data::BenchFilter filter;
    try {
        filter = data::BenchFilter::parse(s.filter);
    } catch (const data::FilterSyntaxError& e) {
        throw data::InputError(e.what());  // "--filter: at column N: ..."
    }
    const data::Projection row = s.row.empty() ? data::Projection::rows() : data::Projection::parse(s.row, "--row");
    const data::Projection col =
        s.col.empty() ? data::Projection::columns() : data::Projection::parse(s.col, "--col");
    // A key no run has would make one pooled row or column of everything:
    // most likely a typo.
    for (const data::Projection* p : {&row, &col})
        for (const std::string& key : p->keys) {
            if (key == "name" || key == "variant" || key == "unit") continue;
            std::vector<std::string> known;
            bool found = false;
            for (const data::ResultsFile& f : files)
                for (const data::Environment& env : f.environments()) {
                    for (const auto* m : {&env.tags, &env.fields})
                        for (const auto& [k, v] : *m) {
                            found |= k == key;
                            if (std::find(known.begin(), known.end(), k) == known.end()) known.push_back(k);
                        }
                }
            if (!found) {
                std::string list = "name, variant, unit";
                for (const std::string& k : known) list += ", " + k;
                throw data::InputError(std::string(p == &row ? "--row" : "--col") + ": no run has the key '" + key +
                                       "' (keys: " + list + ")");
            }
        }
    if (files.size() > 1 && !s.col.empty())
        throw data::InputError("--col projects the runs of one results file; with several files the columns are "
                               "the files (gfxstat merge them first)");
    for (size_t i = 0; i < files.size(); ++i) {
        data::ProjectedResults p = data::project_results(files[i], filter, row, col);
        if (p.kept == 0)
            throw data::InputError(inputs[i].name + ": --filter '" + s.filter + "' keeps none of its " +
                                   gfxstat::text::plural(p.dropped, "value"));
        for (auto& n : p.notes) notes.push_back((files.size() > 1 ? inputs[i].name + ": " : "") + n);
        files[i] = std::move(p.file);
    }
}

}  // namespace gfxstat::cli
