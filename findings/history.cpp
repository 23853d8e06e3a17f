// SPDX-License-Identifier: MIT
// gfxstat history's analysis (findings/history.h): the builds of the files
// read, their order, and per metric the change points over the builds
// (analysis/change_points.h), each with the `git bisect` command that
// finds its commit.
#include "findings/history.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <set>
#include <unordered_map>

#include "data/input_error.h"
#include "findings/git_order.h"
#include "drivers/run_loop.h"
#include "text/nearest_word.h"
#include "text/number_format.h"
#include "text/plural.h"
#include "text/shell_quote.h"

namespace gfxstat::findings::history {

using text::plural;
using text::shell_quote;

namespace {

// An RFC 3339 time as a string that sorts as the time does: the seconds
// part, then the fraction padded to nine digits ("...:05Z" before
// "...:05.5Z", which plain text comparison gets wrong).
std::string sortable_time(const std::string& t) {
    const size_t dot = t.find('.');
    const size_t end = t.find_first_of("Z+", 0);
    std::string head = t.substr(0, std::min(dot, end));
    std::string frac;
    if (dot != std::string::npos)
        for (size_t i = dot + 1; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) frac += t[i];
    frac.resize(9, '0');
    return head + "." + frac;
}

std::string tag_key(const data::Environment* env, const std::string& key_tag, std::string* tag = nullptr) {
    if (!env) return "";
    for (const std::string& name : key_tag.empty() ? std::vector<std::string>{"commit", "build"}
                                                   : std::vector<std::string>{key_tag})
        if (const auto it = env->tags.find(name); it != env->tags.end() && !it->second.empty()) {
            if (tag) *tag = name;
            return it->second;
        }
    return "";
}

bool metric_wanted(const data::MetricInfo& m) { return !m.within_run(); }

Loaded load(const Settings& s, std::vector<Input> inputs, const std::vector<data::ResultsFile>& files) {
    Loaded L;
    L.inputs = std::move(inputs);
    // A variant label several files hold (every `gfxstat run` names its
    // variant after the command) says nothing about the build: the file does.
    std::map<std::string, size_t> files_of_variant;
    for (const auto& f : files)
        for (const auto& v : f.variants()) ++files_of_variant[v];

    // The metrics: every one declared, in order of first declaration,
    // declared alike everywhere.
    std::unordered_map<std::string, size_t> metric_at;
    for (size_t i = 0; i < files.size(); ++i)
        for (const data::MetricInfo& m : files[i].metrics()) {
            const auto it = metric_at.find(m.name);
            if (it == metric_at.end()) {
                metric_at.emplace(m.name, L.metrics.size());
                L.metrics.push_back({m, {}});
            } else if (!L.metrics[it->second].info.same_declaration(m)) {
                throw data::input_error(L.inputs[i].name, 0,
                                        "declares metric '" + m.name + "' with another unit or direction than " +
                                            "an earlier file");
            }
        }

    std::unordered_map<std::string, size_t> build_at;
    for (size_t i = 0; i < files.size(); ++i) {
        const data::ResultsFile& f = files[i];
        const bool several = f.variants().size() > 1;
        for (const data::RunRecord& r : f.runs()) {
            const data::Environment* env = r.environment.empty() ? nullptr : f.find_environment(r.environment);
            std::string tag;
            std::string key = tag_key(env, s.key, &tag);
            if (key.empty()) {
                if (!L.inputs[i].label.empty()) key = L.inputs[i].label;
                else if (files_of_variant[r.variant] > 1) key = L.inputs[i].name + (several ? ":" + r.variant : "");
                else key = r.variant;
            }
            auto [it, fresh] = build_at.emplace(key, L.builds.size());
            if (fresh) {
                L.builds.push_back({});
                L.builds.back().key = key;
                L.builds.back().tag = tag;
                for (auto& m : L.metrics) m.values.emplace_back();
            }
            const size_t b = it->second;
            Build& build = L.builds[b];
            build.sources.insert({i, r.variant});
            L.builds_of_source[{i, r.variant}].insert(b);
            if (!r.start.empty()) {
                const std::string t = sortable_time(r.start);
                if (build.first_start.empty() || t < build.first_start) build.first_start = t;
            }
            if (!build.workload && env && env->workload) build.workload = env->workload;
            if (r.warmup || r.exit_class != data::ExitClass::ok) {
                ++build.left_out;
                continue;
            }
            ++build.runs;
            // A run's value: its one value, or the median of the repetitions
            // it printed, as run's --target-ci counts a run.
            for (const data::MetricValues& mv : r.metrics) {
                const auto m = metric_at.find(mv.name);
                if (m == metric_at.end() || mv.values.empty() || !metric_wanted(L.metrics[m->second].info)) continue;
                L.metrics[m->second].values[b].push_back(drivers::run_median(mv));
            }
        }
    }
    if (L.builds.empty()) throw data::InputError("no runs in " + plural(files.size(), "file"));
    return L;
}

std::string name_list(const std::vector<std::string>& names) {
    std::string s;
    for (size_t i = 0; i < names.size() && i < 5; ++i) s += (i ? ", " : "") + names[i];
    if (names.size() > 5) s += " and " + std::to_string(names.size() - 5) + " more";
    return s;
}

// The builds' order: a permutation of indices into L.builds.
std::vector<size_t> build_order(const Settings& s, Loaded& L) {
    std::vector<size_t> order(L.builds.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    if (s.order == "date") {
        std::vector<std::string> undated;
        for (const Build& b : L.builds)
            if (b.first_start.empty()) undated.push_back(b.key);
        if (!undated.empty())
            throw data::InputError("--order date: no run of " + plural(undated.size(), "build") +
                                   " has a start time: " + name_list(undated));
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return L.builds[a].first_start < L.builds[b].first_start; });
    } else if (s.order == "git") {
        std::vector<std::string> keys;
        for (const Build& b : L.builds) keys.push_back(b.key);
        const GitPlaces g = place_in_git(s.git_dir, keys, "--order git");
        for (size_t i = 0; i < L.builds.size(); ++i) L.builds[i].commit = g.commit[i];
        const std::vector<size_t>& position = g.position;
        if (!g.ambiguous.empty())
            throw data::InputError("--order git: " + name_list(g.ambiguous) + " name" +
                                   (g.ambiguous.size() == 1 ? "s" : "") + " more than one commit in " + s.git_dir +
                                   "; give longer commit ids");
        if (!g.not_found.empty())
            throw data::InputError("--order git: " + plural(g.not_found.size(), "build") + " not in the history of HEAD in " +
                                   s.git_dir + ": " + name_list(g.not_found));
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return position[a] < position[b]; });
    }
    if (!s.since.empty()) {
        size_t at = SIZE_MAX, matches = 0;
        for (size_t i = 0; i < order.size(); ++i)
            if (L.builds[order[i]].key == s.since) {
                at = i;
                matches = 1;
                break;
            }
        if (at == SIZE_MAX)
            for (size_t i = 0; i < order.size(); ++i) {
                const Build& b = L.builds[order[i]];
                if ((s.since.size() >= 4 && b.key.rfind(s.since, 0) == 0) ||
                    (s.since.size() >= 4 && !b.commit.empty() && b.commit.rfind(s.since, 0) == 0)) {
                    if (!matches) at = i;
                    ++matches;
                }
            }
        if (matches != 1) {
            std::vector<std::string> keys;
            for (size_t i : order) keys.push_back(L.builds[i].key);
            throw data::InputError("--since: " + std::string(matches ? "more than one build begins with '"
                                                                      : "no build '") +
                                   s.since + "'" + text::did_you_mean(s.since, keys) + " (builds: " + name_list(keys) + ")");
        }
        order.erase(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(at));
    }
    return order;
}

std::vector<size_t> chosen_metrics(const Settings& s, const Loaded& L) {
    std::vector<size_t> out;
    std::vector<std::string> known;
    for (const auto& m : L.metrics)
        if (metric_wanted(m.info)) known.push_back(m.info.name);
    for (const std::string& name : s.metrics) {
        const auto it = std::find_if(L.metrics.begin(), L.metrics.end(),
                                     [&](const MetricSeries& m) { return m.info.name == name; });
        if (it == L.metrics.end() || !metric_wanted(it->info))
            throw data::InputError("--metric: no file declares a metric '" + name + "' with one value per run" +
                                   text::did_you_mean(name, known) + " (metrics: " + name_list(known) + ")");
        if (std::find(out.begin(), out.end(), static_cast<size_t>(it - L.metrics.begin())) != out.end())
            throw data::InputError("--metric: '" + name + "' given twice");
        out.push_back(static_cast<size_t>(it - L.metrics.begin()));
    }
    if (!out.empty()) return out;
    // As compare: the metrics that can get better or worse (a direction),
    // when there are any; else all.
    bool directed = false;
    for (const auto& m : L.metrics) directed |= metric_wanted(m.info) && m.info.direction != data::Direction::unknown;
    for (size_t i = 0; i < L.metrics.size(); ++i)
        if (metric_wanted(L.metrics[i].info) && (!directed || L.metrics[i].info.direction != data::Direction::unknown))
            out.push_back(i);
    if (out.empty()) throw data::InputError("the files declare no metric with one value per run");
    return out;
}

// ------------------------------------------------------------------ analysis


// Every command history prints is words from data (file names, build
// keys, variants, metric names, the recorded workload) that the user pastes
// into a shell: each word is quoted for it (shell_quote), and no value can
// be taken for an option.

std::vector<std::string> quoted_words(const std::vector<std::string>& words) {
    std::vector<std::string> q;
    for (const std::string& w : words) q.push_back(shell_quote(w));
    return q;
}

std::string spaced(const std::vector<std::string>& quoted) {
    std::string s;
    for (const std::string& w : quoted) s += (s.empty() ? "" : " ") + w;
    return s;
}

std::string command_line(const std::vector<std::string>& words) { return spaced(quoted_words(words)); }

void append(std::vector<std::string>& to, const std::vector<std::string>& more) {
    to.insert(to.end(), more.begin(), more.end());
}

// An option and its value: "--good F", or "--good=-F" when the value starts
// with '-', which the option parser would otherwise read as an option.
void add_option(std::vector<std::string>& words, const std::string& option, const std::string& value) {
    if (!value.empty() && value[0] == '-') words.push_back(option + "=" + value);
    else words.insert(words.end(), {option, value});
}

// `key:value` in the filter language, each quoted where it must be.
std::string selection_term(const std::string& key, const std::string& value) {
    const auto plain = [](const std::string& t) {
        if (t.empty() || t[0] == '-' || t[0] == '"' || t[0] == '/' || t == "AND" || t == "OR" || t == "NOT")
            return false;
        return std::none_of(t.begin(), t.end(), [](char c) {
            return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '(' || c == ')' || c == ':' || c == '"' ||
                   c == '\\';
        });
    };
    const auto quoted = [&](const std::string& t) {
        if (plain(t)) return t;
        std::string q = "\"";
        for (char c : t) {
            if (c == '"' || c == '\\') q += '\\';
            q += c;
        }
        return q + "\"";
    };
    return quoted(key) + ":" + quoted(value);
}

// `--good FILE [--good-variant V]` for a build whose runs are exactly one
// variant of one file; else a placeholder the user replaces, and why.
std::vector<std::string> reference_words(const Loaded& L, size_t b, const char* side, std::vector<std::string>& notes) {
    const Build& build = L.builds[b];
    const std::string opt = std::string("--") + side;
    std::vector<std::string> w;
    if (build.sources.size() == 1) {
        const Source& src = *build.sources.begin();
        if (L.builds_of_source.at(src).size() == 1) {
            const Input& in = L.inputs[src.first];
            add_option(w, opt, in.path);
            bool several = false;
            for (const auto& [other, keys] : L.builds_of_source) several |= other.first == src.first && other != src;
            if (several) add_option(w, opt + "-variant", src.second);
            return w;
        }
    }
    // Stored runs (store:SELECTION, docs/store.md): the build's runs are
    // the selection narrowed to the tag that names it.
    if (build.sources.size() == 1 && !build.tag.empty()) {
        const Input& in = L.inputs[build.sources.begin()->first];
        if (in.path.starts_with("store:") && in.label.empty()) {
            add_option(w, opt, in.path + " " + selection_term(build.tag, build.key));
            return w;
        }
    }
    const std::string placeholder = side == std::string("good") ? "GOOD.json" : "BAD.json";
    notes.push_back("build " + build.key + " shares its file's variant with other builds: measure it alone as " +
                    placeholder + " (" +
                    command_line({"gfxstat", "run", "--tag", "commit=" + build.key, "-o", placeholder, "--"}) +
                    " ...)");
    add_option(w, opt, placeholder);
    return w;
}

// git bisect start reads options first, then revisions up to "--", then
// paths: "BAD GOOD --" makes a word that names no commit an error, where
// without "--" git would take it, and the rest, for paths to bisect
// within. A revision that starts with '-' would still be read as an
// option: git bisect bad and good take their one word as a revision, always.
// The quoted words, with "&&" between the commands.
std::vector<std::string> git_bisect_start(const std::string& bad, const std::string& good) {
    if (bad.starts_with('-') || good.starts_with('-')) {
        std::vector<std::string> w = {"git", "bisect", "start", "&&"};
        append(w, quoted_words({"git", "bisect", "bad", bad}));
        w.push_back("&&");
        append(w, quoted_words({"git", "bisect", "good", good}));
        return w;
    }
    return quoted_words({"git", "bisect", "start", bad, good, "--"});
}

BisectCommand bisect_command(const Loaded& L, const MetricHistory& h, const analysis::BuildChange& c) {
    BisectCommand cmd;
    const size_t good = h.builds[c.before], bad = h.builds[c.after];
    const auto rev = [&](size_t b) { return L.builds[b].commit.empty() ? L.builds[b].key : L.builds[b].commit; };
    std::vector<std::string> refs = reference_words(L, good, "good", cmd.notes);
    const std::vector<std::string> bad_refs = reference_words(L, bad, "bad", cmd.notes);
    refs.insert(refs.end(), bad_refs.begin(), bad_refs.end());
    add_option(refs, "--target-metric", h.series->info.name);
    std::vector<std::string> check = {"gfxstat", "bisect", "check"};
    check.insert(check.end(), refs.begin(), refs.end());
    cmd.check = command_line(check);
    std::vector<std::string> step = {"gfxstat", "bisect", "step"};
    step.insert(step.end(), refs.begin(), refs.end());
    step.insert(step.end(), {"-o", "bisect-steps.json", "--"});
    // The workload as the runs recorded it; a placeholder word otherwise.
    const std::optional<data::WorkloadRecord>& w = L.builds[bad].workload ? L.builds[bad].workload
                                                                            : L.builds[good].workload;
    std::string tail;
    if (w && !w->argv.empty()) step.insert(step.end(), w->argv.begin(), w->argv.end());
    else {
        tail = "COMMAND";
        cmd.notes.push_back(w && !w->builtin.empty()
                                ? "the runs ran the built-in workload " + w->builtin + ": put its gfxstat run command line in place of COMMAND"
                                : "no run recorded its command: put the workload's command in place of COMMAND");
    }
    cmd.run_words = git_bisect_start(rev(bad), rev(good));
    append(cmd.run_words, {"&&", "git", "bisect", "run"});
    // An option and its value stay together on a line.
    const std::vector<std::string> quoted = quoted_words(step);
    for (size_t i = 0; i < quoted.size(); ++i) {
        static const std::set<std::string> with_value = {"--good", "--bad", "--good-variant", "--bad-variant",
                                                         "--target-metric", "-o"};
        if (i + 1 < quoted.size() && i + 1 < step.size() - (w && !w->argv.empty() ? w->argv.size() : 0) &&
            with_value.count(step[i])) {
            cmd.run_words.push_back(quoted[i] + " " + quoted[i + 1]);
            ++i;
        } else {
            cmd.run_words.push_back(quoted[i]);
        }
    }
    if (!tail.empty()) cmd.run_words.push_back(tail);
    cmd.run = spaced(cmd.run_words);
    return cmd;
}

MetricHistory analyse(const Settings& s, const Loaded& L, const std::vector<size_t>& order, size_t metric) {
    MetricHistory h;
    h.series = &L.metrics[metric];
    std::vector<std::vector<double>> values;
    std::vector<std::string> missing;
    for (size_t b : order) {
        if (h.series->values[b].empty()) {
            missing.push_back(L.builds[b].key);
            continue;
        }
        h.builds.push_back(b);
        values.push_back(h.series->values[b]);
    }
    if (!missing.empty())
        h.notes.push_back(plural(missing.size(), "build") + " without a value of it left out: " + name_list(missing));
    h.result = analysis::find_change_points(values, s.cp);
    if (h.result.too_few_builds)
        h.notes.push_back("too few builds to look for a change (" + std::to_string(h.builds.size()) + "; at least " +
                          std::to_string(2 * s.cp.min_segment) + ")");
    // A permutation test over few builds cannot reach alpha at all: say so
    // rather than let "0 change points" read as "no change".
    if (!h.result.too_few_builds && h.result.changes.empty() &&
        analysis::smallest_split_p(h.builds.size()) > s.cp.alpha)
    {
        char note[200];
        std::snprintf(note, sizeof note,
                      "with %zu builds the test cannot show a change at --alpha %g, however large (its smallest p "
                      "is about %.2g): %zu builds or more can",
                      h.builds.size(), s.cp.alpha, analysis::smallest_split_p(h.builds.size()),
                      analysis::builds_for_alpha(s.cp.alpha));
        h.notes.push_back(note);
    }
    if (h.result.hit_max_changes)
        h.notes.push_back("stopped after " + plural(s.cp.max_changes, "change") +
                          " (--max-changes): segments left untested");
    for (const auto& c : h.result.changes) h.bisect.push_back(bisect_command(L, h, c));
    return h;
}

}  // namespace

History find_history(const Settings& s, std::vector<Input> inputs, const std::vector<data::ResultsFile>& files) {
    History h;
    // The series point into h.loaded.metrics: built in place.
    h.loaded = load(s, std::move(inputs), files);
    const std::vector<size_t> metrics = chosen_metrics(s, h.loaded);
    h.order = build_order(s, h.loaded);
    for (size_t m : metrics) {
        h.metrics.push_back(analyse(s, h.loaded, h.order, m));
        h.changes += h.metrics.back().result.changes.size();
    }
    return h;
}

bool hex_word(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    });
}

// text::readable_number: four significant digits, no exponent between
// 0.001 and a million (10050 points, not 1.005e+04).
std::string number(double v) { return text::readable_number(v); }

}  // namespace gfxstat::findings::history
