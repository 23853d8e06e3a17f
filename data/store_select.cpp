// SPDX-License-Identifier: MIT
// Stored runs back out as a results file (data/store.h: select_stored_runs).
#include <algorithm>
#include <deque>
#include <set>

#include "data/bench_filter.h"
#include "data/image_check.h"
#include "data/input_error.h"
#include "data/results_merge.h"
#include "data/results_reader.h"
#include "data/results_writer.h"
#include "data/store.h"

namespace gfxstat::data {

namespace {

bool run_selected(const BenchFilter& filter, const ResultsFile& f, const RunRecord& run) {
    if (filter.empty()) return true;
    const Environment* env = f.find_environment(run.environment.str());
    Observation o;
    o.variant = run.variant.view();
    o.tags = env ? &env->tags : nullptr;
    o.fields = env ? &env->fields : nullptr;
    if (run.metrics.empty()) return filter.may_match_run(o);
    for (const MetricValues& mv : run.metrics) {
        const MetricInfo* m = f.find_metric(mv.name.view());
        o.name = mv.name.view();
        o.unit = m ? std::string_view(m->unit) : std::string_view();
        if (filter.matches(o)) return true;
    }
    return false;
}

std::string text_of(const StoredFile& stored) {
    std::string text = stored.header_line + "\n";
    for (const std::string& line : stored.lines) text += line + "\n";
    return text;
}

// The file as stored, records in the order pushed, less the runs `filter`
// does not keep and (a filter given) the image checks of variants with no
// run kept. "": nothing kept.
std::string selected_part(const StoredFile& stored, const BenchFilter& filter, size_t* runs) {
    const std::string name = "the store's file " + stored.file_id;
    const ResultsFile whole = parse_results(text_of(stored), name);
    std::vector<bool> keep_run;
    std::set<std::string> variants;
    for (const RunRecord& run : whole.runs()) {
        keep_run.push_back(run_selected(filter, whole, run));
        if (keep_run.back()) variants.insert(run.variant.str());
    }
    *runs = static_cast<size_t>(std::count(keep_run.begin(), keep_run.end(), true));
    size_t checks = 0;
    std::string text = stored.header_line + "\n";
    size_t r = 0, c = 0;
    for (size_t i = 0; i < stored.lines.size(); ++i) {
        if (stored.kinds[i] == StoreRecord::Kind::run) {
            if (r >= keep_run.size()) throw InputError(name + ": more run records than runs (gfxstat store check)");
            if (!keep_run[r++]) continue;
        } else if (stored.kinds[i] == StoreRecord::Kind::image_check) {
            if (c >= whole.image_checks().size())
                throw InputError(name + ": more image check records than checks (gfxstat store check)");
            // Everything kept: the checks too, also those of a variant
            // that made no timed run (a checking pass alone).
            if (!filter.empty() && !variants.count(whole.image_checks()[c].variant)) {
                ++c;
                continue;
            }
            ++c;
            ++checks;
        }
        text += stored.lines[i] + "\n";
    }
    return *runs + checks > 0 ? text : std::string();
}

}  // namespace

std::string select_stored_runs(Store& store, std::string_view selection, size_t* runs) {
    const BenchFilter filter = BenchFilter::parse(selection);
    std::vector<std::string> texts, names;
    size_t total = 0;
    for (const StoredFile& stored : store.files()) {
        size_t kept = 0;
        std::string text = selected_part(stored, filter, &kept);
        if (text.empty()) continue;
        total += kept;
        texts.push_back(std::move(text));
        names.push_back(stored.name + " (file " + stored.file_id + ")");
    }
    if (texts.empty())
        throw InputError(store.url().shown + ": no stored run matches " +
                         (filter.empty() ? std::string("(the store is empty)") : quote_token(selection)));
    if (runs) *runs = total;
    if (texts.size() == 1) return texts.front();
    std::deque<ResultsFile> parts;
    std::vector<MergeInput> inputs;
    for (size_t i = 0; i < texts.size(); ++i) {
        parts.push_back(parse_results(texts[i], names[i]));
        inputs.push_back({names[i], &parts.back(), nullptr});
    }
    MergeOutcome m = merge_results(inputs, new_results_header());
    if (runs) *runs = m.merged.runs().size();
    return serialize_results(m.merged);
}

}  // namespace gfxstat::data
