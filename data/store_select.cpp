// SPDX-License-Identifier: MIT
// Stored runs back out as a results file (data/store_select.h; data/store.h:
// select_stored_runs).
#include "data/store_select.h"

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <iterator>
#include <set>

#include "data/image_check.h"
#include "data/input_error.h"
#include "data/results_json.h"
#include "data/results_merge.h"
#include "data/results_reader.h"
#include "data/results_writer.h"
#include "data/store_backend.h"

namespace gfxstat::data {

namespace {

constexpr size_t kMaxLast = 1000000000;

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

// The projection (select_runs' `metrics`): each name as a canonical line
// writes it (a JSON string), so that lines are matched without parsing.
struct Projection {
    std::vector<std::string> names;  // JSON strings
    bool empty() const { return names.empty(); }
    bool wants(std::string_view token) const { return std::find(names.begin(), names.end(), token) != names.end(); }
};

Projection projection_of(const std::vector<std::string>& metrics) {
    Projection p;
    for (const std::string& m : metrics) {
        p.names.emplace_back();
        append_json_string(p.names.back(), m);
    }
    return p;
}

// A metric declaration's name token, or "" (not a canonical declaration).
std::string_view declared_name(std::string_view line) {
    constexpr std::string_view head = "{\"type\":\"metric\",\"name\":";
    if (line.substr(0, head.size()) != head) return {};
    const size_t end = string_end(line, head.size());
    return end == std::string_view::npos ? std::string_view() : line.substr(head.size(), end - head.size());
}

// A canonical run line with only the wanted metrics' values; the line as
// it is when it is not one gfxstat's writer prints.
std::string projected_run(const std::string& line, const Projection& p) { return store_projected_run(line, p.names); }

// Whether the projection applies to `f`: it declares every wanted metric.
bool declares_all(const StoredFile& f, const Projection& p) {
    if (p.empty()) return false;
    size_t declared = 0;
    for (size_t i = 0; i < f.lines.size(); ++i)
        if (f.kinds[i] == StoreRecord::Kind::metric) declared += p.wants(declared_name(f.lines[i]));
    return declared >= p.names.size();
}

// `f` with only the projection's metrics, when it declares them all.
void project(StoredFile& f, const Projection& p) {
    if (!declares_all(f, p)) return;
    std::vector<std::string> lines;
    std::vector<StoreRecord::Kind> kinds;
    for (size_t i = 0; i < f.lines.size(); ++i) {
        if (f.kinds[i] == StoreRecord::Kind::metric && !p.wants(declared_name(f.lines[i]))) continue;
        lines.push_back(f.kinds[i] == StoreRecord::Kind::run ? projected_run(f.lines[i], p) : std::move(f.lines[i]));
        kinds.push_back(f.kinds[i]);
    }
    f.lines = std::move(lines);
    f.kinds = std::move(kinds);
}

// One stored file as the filter judges it: the file parsed, and per run
// whether it is kept and its build.
struct Judged {
    const StoredFile* stored = nullptr;
    std::optional<ResultsFile> parsed;
    std::vector<bool> keep;
};

Judged judge(const StoredFile& stored, const BenchFilter& filter) {
    Judged j;
    j.stored = &stored;
    j.parsed.emplace(parse_results(text_of(stored), "the store's file " + stored.file_id));
    for (const RunRecord& run : j.parsed->runs()) j.keep.push_back(run_selected(filter, *j.parsed, run));
    return j;
}

// The file as stored, records in the order pushed, less the runs not kept
// and (`checks_of_kept`) the image checks of variants with no run kept.
// "": nothing kept.
std::string selected_part(const Judged& j, bool checks_of_kept, size_t* runs, const Projection& projection) {
    const StoredFile& stored = *j.stored;
    const std::string name = "the store's file " + stored.file_id;
    const ResultsFile& whole = *j.parsed;
    std::set<std::string> variants;
    for (size_t r = 0; r < whole.runs().size(); ++r)
        if (j.keep[r]) variants.insert(whole.runs()[r].variant.str());
    *runs = static_cast<size_t>(std::count(j.keep.begin(), j.keep.end(), true));
    size_t checks = 0;
    const bool project = declares_all(stored, projection);
    std::string text = stored.header_line + "\n";
    size_t r = 0, c = 0;
    for (size_t i = 0; i < stored.lines.size(); ++i) {
        if (stored.kinds[i] == StoreRecord::Kind::run) {
            if (r >= j.keep.size()) throw InputError(name + ": more run records than runs (gfxstat store check)");
            if (!j.keep[r++]) continue;
        } else if (stored.kinds[i] == StoreRecord::Kind::image_check) {
            if (c >= whole.image_checks().size())
                throw InputError(name + ": more image check records than checks (gfxstat store check)");
            // Everything kept: the checks too, also those of a variant
            // that made no timed run (a checking pass alone).
            if (checks_of_kept && !variants.count(whole.image_checks()[c].variant)) {
                ++c;
                continue;
            }
            ++c;
            ++checks;
        }
        if (project && stored.kinds[i] == StoreRecord::Kind::metric && !projection.wants(declared_name(stored.lines[i])))
            continue;
        text += (project && stored.kinds[i] == StoreRecord::Kind::run ? projected_run(stored.lines[i], projection)
                                                                      : stored.lines[i]) +
                "\n";
    }
    return *runs + checks > 0 ? text : std::string();
}

size_t stored_runs(const StoredFile& f) {
    return static_cast<size_t>(std::count(f.kinds.begin(), f.kinds.end(), StoreRecord::Kind::run));
}

// The last `n` of `builds` in `order` (empty: as they come).
std::set<std::string> last_builds(const std::vector<StoredBuild>& builds, size_t n, const BuildOrder& order,
                                  std::vector<std::string>& notes) {
    std::vector<std::string> ordered;
    if (order) {
        ordered = order(builds, notes);
    } else {
        for (const StoredBuild& b : builds) ordered.push_back(b.build);
    }
    const size_t from = ordered.size() > n ? ordered.size() - n : 0;
    return std::set<std::string>(ordered.begin() + static_cast<std::ptrdiff_t>(from), ordered.end());
}

[[noreturn]] void nothing_selected(Store& store, const StoreSelection& sel, const std::vector<std::string>& notes) {
    std::string why = store.url().shown + ": no stored run matches " +
                      (sel.filter.empty() && !sel.last ? std::string("(the store is empty)") : quote_token(sel.text));
    for (const std::string& n : notes) why += " (" + n + ")";
    throw InputError(why);
}

}  // namespace

std::string store_build_of(const ResultsFile& file, const RunRecord& run) {
    if (const Environment* env = file.find_environment(run.environment.str())) {
        if (auto t = env->tags.find("commit"); t != env->tags.end()) return t->second;
        if (auto b = env->tags.find("build"); b != env->tags.end()) return b->second;
    }
    return run.variant.str();
}

StoreSelection parse_store_selection(std::string_view text) {
    StoreSelection s;
    s.text = std::string(text);
    std::vector<std::string> lasts;
    s.filter = BenchFilter::parse_taking(text, "last", lasts);
    if (lasts.size() > 1) throw FilterSyntaxError("last:N is given " + std::to_string(lasts.size()) + " times; give it once");
    if (!lasts.empty()) {
        const std::string& n = lasts.front();
        size_t v = 0;
        bool ok = !n.empty() && n.size() <= 10;
        for (char c : n) {
            if (c < '0' || c > '9') ok = false;
            else v = v * 10 + static_cast<size_t>(c - '0');
        }
        if (!ok || v == 0 || v > kMaxLast)
            throw FilterSyntaxError("last:" + n + ": N is a number of builds, a whole number from 1 to " +
                                    std::to_string(kMaxLast));
        s.last = v;
    }
    bool all_exact = false;
    const std::vector<ExactTerm> terms = s.filter.exact_terms(&all_exact);
    s.exact = all_exact;
    // Each key's values: the intersection of its terms' (every kept run
    // has a value of each term).
    std::map<std::string, std::set<std::string>> narrowed;
    for (const ExactTerm& t : terms) {
        // The store's columns: the variant; the machine (machine_name, as
        // `machine:` reads it); the build, which is the `commit` tag when
        // a run has one -- so a commit term narrows the build column but
        // does not decide alone (a run tagged build=X has build X too).
        const bool column = t.key == "variant" || t.key == "machine" || t.key == "commit";
        if (!column) {
            s.exact = false;
            continue;
        }
        if (t.key == "commit") s.exact = false;
        // `machine:""` also keeps runs that have a machine column of ""
        // but no environment: the filter judges those.
        if (t.key == "machine" && std::find(t.values.begin(), t.values.end(), "") != t.values.end()) s.exact = false;
        const std::set<std::string> values(t.values.begin(), t.values.end());
        auto [it, fresh] = narrowed.emplace(t.key, values);
        if (!fresh) {
            std::set<std::string> both;
            std::set_intersection(it->second.begin(), it->second.end(), values.begin(), values.end(),
                                  std::inserter(both, both.end()));
            it->second = std::move(both);
        }
    }
    for (const auto& [key, values] : narrowed) {
        if (values.empty()) s.contradictory = true;
        std::vector<std::string>& list =
            key == "variant" ? s.query.variants : key == "machine" ? s.query.machines : s.query.builds;
        list.assign(values.begin(), values.end());
    }
    return s;
}

SelectedRuns select_runs(Store& store, const StoreSelection& sel, const BuildOrder& order,
                         const std::vector<std::string>& metrics) {
    SelectedRuns out;
    const Projection projection = projection_of(metrics);
    if (sel.contradictory) nothing_selected(store, sel, out.notes);
    std::vector<std::string> texts, names;
    size_t total = 0;
    const auto add = [&](const StoredFile& stored, std::string text, size_t kept) {
        if (text.empty()) return;
        total += kept;
        texts.push_back(std::move(text));
        names.push_back(stored.name + " (file " + stored.file_id + ")");
    };
    std::vector<StoredFile> stored;
    if (sel.filter.empty() && !sel.last) {
        // Everything, each file as pushed (image checks of variants that
        // made no timed run too).
        stored = store.files();
        for (StoredFile& f : stored) project(f, projection);
        for (const StoredFile& f : stored)
            if (stored_runs(f) > 0 ||
                std::count(f.kinds.begin(), f.kinds.end(), StoreRecord::Kind::image_check) > 0)
                add(f, text_of(f), stored_runs(f));
    } else if (sel.exact) {
        // The database decides: what it gives back is the selection.
        StoreQuery q = sel.query;
        if (sel.last) {
            const std::set<std::string> chosen = last_builds(store.builds(q), sel.last, order, out.notes);
            if (chosen.empty()) nothing_selected(store, sel, out.notes);
            q.builds.assign(chosen.begin(), chosen.end());
        }
        // One metric: the database gives the files already projected, read
        // as the runs' skeletons and that metric's samples.
        const bool one = metrics.size() == 1;
        stored = one ? store.select_metric_files(q, metrics.front()) : store.select_files(q);
        for (StoredFile& f : stored) {
            if (!one) project(f, projection);
            add(f, text_of(f), stored_runs(f));
        }
    } else {
        stored = store.select_files(sel.query);
        std::vector<Judged> judged;
        for (const StoredFile& f : stored) judged.push_back(judge(f, sel.filter));
        if (sel.last) {
            // The builds of the kept runs, as Store::builds orders them.
            std::map<std::string, StoredBuild> by_name;
            std::vector<std::vector<std::string>> build_of(judged.size());
            for (size_t i = 0; i < judged.size(); ++i) {
                const ResultsFile& f = *judged[i].parsed;
                for (size_t r = 0; r < f.runs().size(); ++r) {
                    build_of[i].push_back(store_build_of(f, f.runs()[r]));
                    if (!judged[i].keep[r]) continue;
                    StoredBuild& b = by_name[build_of[i].back()];
                    b.build = build_of[i].back();
                    const std::string& start = f.runs()[r].start;
                    if (!start.empty() && (b.first_start.empty() || start < b.first_start)) b.first_start = start;
                    ++b.runs;
                }
            }
            std::vector<StoredBuild> builds;
            for (auto& [name, b] : by_name) builds.push_back(std::move(b));
            std::stable_sort(builds.begin(), builds.end(),
                             [](const StoredBuild& a, const StoredBuild& b) { return a.first_start < b.first_start; });
            const std::set<std::string> chosen = last_builds(builds, sel.last, order, out.notes);
            for (size_t i = 0; i < judged.size(); ++i)
                for (size_t r = 0; r < judged[i].keep.size(); ++r)
                    if (!chosen.count(build_of[i][r])) judged[i].keep[r] = false;
        }
        for (Judged& j : judged) {
            size_t kept = 0;
            // Judged whole (the filter may name any metric), read projected.
            std::string text = selected_part(j, true, &kept, projection);
            add(*j.stored, std::move(text), kept);
        }
    }
    if (texts.empty()) nothing_selected(store, sel, out.notes);
    out.runs = total;
    if (texts.size() == 1) {
        out.text = std::move(texts.front());
        return out;
    }
    std::deque<ResultsFile> parts;
    std::vector<MergeInput> inputs;
    for (size_t i = 0; i < texts.size(); ++i) {
        parts.push_back(parse_results(texts[i], names[i]));
        inputs.push_back({names[i], &parts.back(), nullptr});
    }
    MergeOutcome m = merge_results(inputs, new_results_header());
    out.runs = m.merged.runs().size();
    out.merged.emplace(std::move(m.merged));
    return out;
}

std::string results_text(const SelectedRuns& s) { return s.merged ? serialize_results(*s.merged) : s.text; }

ResultsFile results_file(SelectedRuns&& s, const std::string& name, ReadReport* report) {
    if (s.merged) return std::move(*s.merged);
    return parse_results(s.text, name, report);
}

std::string select_stored_runs(Store& store, std::string_view selection, size_t* runs) {
    SelectedRuns s = select_runs(store, parse_store_selection(selection));
    if (runs) *runs = s.runs;
    return results_text(s);
}

}  // namespace gfxstat::data
