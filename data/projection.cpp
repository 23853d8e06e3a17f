// SPDX-License-Identifier: MIT
// --row / --col (projection.h): one pass over the runs, building the
// output runs and, beside them, what each cell (row label, column label)
// pooled. Every lookup is a hash map keyed by label or id, so the work is
// linear in the observations: a table of 20,000 metrics per run projected
// by --col name makes 20,000 output runs per input run, not 20,000² steps.
#include "data/projection.h"

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "data/volatile_facts.h"

namespace gfxstat::data {

namespace {

constexpr std::string_view kKeyList = "name, variant, unit, or a tag or field key";
// Values a pooling note lists before it says how many there are.
constexpr size_t kNoteValues = 6;

std::string_view trimmed(std::string_view s) {
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; };
    while (!s.empty() && blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && blank(s.back())) s.remove_suffix(1);
    return s;
}

// The keys as project_results reads them: canonical, none empty, none twice.
std::vector<std::string> checked_keys(const Projection& p, std::string_view option) {
    if (p.keys.empty())
        throw std::invalid_argument(std::string(option) + ": expected one or more keys separated by ',' (" +
                                    std::string(kKeyList) + ")");
    std::vector<std::string> keys;
    for (const std::string& k : p.keys) {
        if (k.empty()) throw std::invalid_argument(std::string(option) + ": a key is empty");
        const std::string canonical(canonical_key(k));
        for (const std::string& seen : keys)
            if (seen == canonical)
                throw std::invalid_argument(std::string(option) + ": '" + k + "'" +
                                            (k == canonical ? "" : " ('" + canonical + "')") + " is given twice");
        keys.push_back(canonical);
    }
    return keys;
}

bool holds(const std::vector<std::string>& keys, std::string_view key) {
    for (const std::string& k : keys)
        if (k == key) return true;
    return false;
}

// Whether a label of these keys is the same for every value of a run.
bool run_level(const std::vector<std::string>& keys) { return !holds(keys, "name") && !holds(keys, "unit"); }

std::optional<std::string_view> environment_value(const Environment* env, const std::string& key) {
    if (!env) return std::nullopt;
    // Tags win, as in --filter (bench_filter.h).
    if (const auto it = env->tags.find(key); it != env->tags.end()) return std::string_view(it->second);
    if (const auto it = env->fields.find(key); it != env->fields.end()) return std::string_view(it->second);
    return std::nullopt;
}

std::optional<std::string_view> key_value(const std::string& key, const Observation& o, const Environment* env) {
    if (key == "name") return o.name;
    if (key == "unit") return o.unit;
    if (key == "variant") return o.variant;
    return environment_value(env, key);
}

std::string label(const std::vector<std::string>& keys, const Observation& o, const Environment* env) {
    if (keys.size() == 1) {
        const std::optional<std::string_view> v = key_value(keys[0], o, env);
        if (v && !v->empty()) return std::string(*v);
        return keys[0] + "=";
    }
    std::string s;
    for (size_t i = 0; i < keys.size(); ++i) {
        if (i) s += ' ';
        const std::optional<std::string_view> v = key_value(keys[i], o, env);
        const bool bare = (keys[i] == "name" || keys[i] == "variant") && v && !v->empty();
        if (!bare) s += keys[i] + "=";
        if (v) s += *v;
    }
    return s;
}

// "'gl_4' (fps)" for the declaration conflict, with what else differs.
std::string describe(const MetricInfo& m, const MetricInfo& other) {
    std::string s = "'" + m.name + "' (" + (m.unit.empty() ? std::string("no unit") : m.unit);
    if (m.direction != other.direction) s += std::string(", ") + direction_name(m.direction) + " is better";
    if (m.exact != other.exact) s += m.exact ? ", exact" : ", not exact";
    if (m.per != other.per) s += ", one value per " + (m.per.empty() ? std::string("run") : m.per);
    return s + ")";
}

struct Row {
    uint32_t id = 0;                    // in order of first appearance
    const MetricInfo* first = nullptr;  // the first metric that fell in it
};

// What one cell (row, column) holds, for the pooling notes.
struct Cell {
    std::string_view variant, name;  // the first observation's
    bool variants_mixed = false, names_mixed = false;
    std::vector<size_t> environments;  // distinct environment slots, in order
};

// The values one key took within cells where it was not constant, for its
// note: distinct, in order of first appearance.
struct PooledKey {
    std::vector<std::string> values;
    std::unordered_set<std::string> seen;
};

std::string pooled_note(const std::string& key, const PooledKey& k) {
    std::string list;
    for (size_t i = 0; i < k.values.size() && i < kNoteValues; ++i) list += (i ? ", " : "") + k.values[i];
    if (k.values.size() > kNoteValues) list += ", ... " + std::to_string(k.values.size()) + " values";
    return key + " varies within cells (" + list + ") and its runs are pooled: add it to --row or --col";
}

// A new run: `r` relabelled, its values and its place in a design left to
// the caller.
RunRecord relabelled(const RunRecord& r, const std::string& variant, uint64_t index) {
    RunRecord n;
    n.variant = variant;
    n.run = index;
    n.boot = r.boot;
    n.start = r.start;
    n.duration_s = r.duration_s;
    n.exit_class = r.exit_class;
    n.exit_code = r.exit_code;
    n.signal = r.signal;
    n.exit_reason = r.exit_reason;
    n.warmup = r.warmup;
    n.environment = r.environment;
    n.origin = r.origin;
    n.source = r.source;
    n.log = r.log;
    n.campaign_step = r.campaign_step;
    n.throttle = r.throttle;
    n.unknown = r.unknown;
    return n;
}

}  // namespace

Projection Projection::parse(std::string_view text, std::string_view option) {
    Projection p;
    if (trimmed(text).empty())
        throw std::invalid_argument(std::string(option) + ": expected one or more keys separated by ',' (" +
                                    std::string(kKeyList) + ")");
    size_t number = 0;
    for (size_t from = 0;;) {
        const size_t comma = text.find(',', from);
        const std::string_view key = trimmed(text.substr(from, comma == std::string_view::npos ? comma : comma - from));
        ++number;
        if (key.empty())
            throw std::invalid_argument(std::string(option) + ": key " + std::to_string(number) + " of '" +
                                        std::string(text) + "' is empty (expected " + std::string(kKeyList) + ")");
        p.keys.emplace_back(canonical_key(key));
        if (comma == std::string_view::npos) break;
        from = comma + 1;
    }
    checked_keys(p, option);  // a key given twice
    return p;
}

Projection Projection::rows() { return Projection{{"name"}}; }

Projection Projection::columns() { return Projection{{"variant"}}; }

ProjectedResults project_results(const ResultsFile& in, const BenchFilter& filter, const Projection& row,
                                 const Projection& col) {
    const std::vector<std::string> row_keys = checked_keys(row, "--row");
    const std::vector<std::string> col_keys = checked_keys(col, "--col");
    const bool col_by_run = run_level(col_keys), row_by_run = run_level(row_keys);
    // Only then are the design's variants the output's variants.
    const bool col_is_variant = col_keys.size() == 1 && col_keys[0] == "variant";
    const bool variant_projected = holds(row_keys, "variant") || holds(col_keys, "variant");
    const bool name_projected = holds(row_keys, "name") || holds(col_keys, "name");

    ProjectedResults out;
    ResultsFile& file = out.file;
    file.header = in.header;
    if (col_is_variant)
        for (const DesignRecord& d : in.designs())
            if (const std::string why = file.add_design(d); !why.empty()) throw std::logic_error(why);

    const std::vector<Environment>& environments = in.environments();
    std::vector<bool> environment_added(environments.size(), false);
    std::unordered_map<std::string, Row> rows;
    std::unordered_map<std::string, uint32_t> col_ids;
    std::unordered_map<std::string, uint64_t> next_index;  // by column label
    std::unordered_map<uint64_t, size_t> cell_ids;         // (row id, column id) -> index into cells
    std::vector<Cell> cells;
    std::unordered_set<uint64_t> cell_environments;  // cell index * (environments + 1) + slot
    std::unordered_set<std::string_view> variants_kept, names_kept;
    size_t unplaced = 0;

    for (const RunRecord& r : in.runs()) {
        const Environment* env = r.environment.empty() ? nullptr : in.find_environment(r.environment);
        // 0: no environment; i + 1: environments[i].
        const size_t slot = env ? static_cast<size_t>(env - environments.data()) + 1 : 0;
        Observation o;
        o.variant = r.variant;
        o.tags = env ? &env->tags : nullptr;
        o.fields = env ? &env->fields : nullptr;
        const bool usable = r.exit_class == ExitClass::ok && !r.warmup;
        // Labels that depend on the run alone, made once per run.
        const std::string run_col = col_by_run ? label(col_keys, o, env) : std::string();
        const std::string run_row = row_by_run ? label(row_keys, o, env) : std::string();

        // The output runs this one becomes, one per column label, in order
        // of first appearance; within each, one metric per row label.
        struct Part {
            std::string col;
            std::vector<MetricValues> metrics;
        };
        std::vector<Part> parts;
        std::unordered_map<uint32_t, size_t> part_of_col;
        std::unordered_map<uint64_t, size_t> metric_of;  // (part, row id) -> index into its metrics
        const bool placed = usable || col_by_run;
        size_t run_kept = 0;

        for (const MetricValues& mv : r.metrics) {
            const MetricInfo* info = in.find_metric(mv.name);
            o.name = mv.name;
            o.unit = info ? std::string_view(info->unit) : std::string_view();
            if (!filter.matches(o)) {
                ++out.dropped;
                continue;
            }
            ++out.kept;
            ++run_kept;
            if (!placed) continue;
            std::string row_label = row_by_run ? run_row : label(row_keys, o, env);
            std::string col_label = col_by_run ? run_col : label(col_keys, o, env);

            // One row is one metric of the output: one declaration.
            auto [row_it, new_row] = rows.try_emplace(row_label);
            if (new_row) {
                MetricInfo declared = info ? *info : MetricInfo(mv.name, "", Direction::unknown);
                declared.name = row_label;
                if (const std::string why = file.declare_metric(declared); !why.empty()) throw std::logic_error(why);
                row_it->second.id = static_cast<uint32_t>(rows.size() - 1);
                row_it->second.first = info;
            } else if (info && row_it->second.first && !row_it->second.first->same_declaration(*info)) {
                const MetricInfo& first = *row_it->second.first;
                throw std::invalid_argument("--row: metrics " + describe(first, *info) + " and " +
                                            describe(*info, first) + " fall in one row '" + row_label +
                                            "': add name to --row");
            }
            const uint32_t row_id = row_it->second.id;
            const uint32_t col_id = col_ids.emplace(col_label, static_cast<uint32_t>(col_ids.size())).first->second;

            auto [part_it, new_part] = part_of_col.try_emplace(col_id, parts.size());
            if (new_part) parts.push_back(Part{std::move(col_label), {}});
            const size_t part = part_it->second;
            auto [metric_it, new_metric] = metric_of.try_emplace((uint64_t{part} << 32) | row_id, parts[part].metrics.size());
            if (new_metric) {
                parts[part].metrics.emplace_back();
                parts[part].metrics.back().name = std::move(row_label);
            }
            MetricValues& values = parts[part].metrics[metric_it->second];
            values.values.insert(values.values.end(), mv.values.begin(), mv.values.end());
            values.array = values.array || mv.array || values.values.size() > 1;

            // What the cell pools: in the values a comparison uses.
            if (!usable) continue;
            auto [cell_it, new_cell] = cell_ids.try_emplace((uint64_t{row_id} << 32) | col_id, cells.size());
            if (new_cell) {
                cells.emplace_back();
                cells.back().variant = r.variant;
                cells.back().name = mv.name;
            }
            Cell& cell = cells[cell_it->second];
            cell.variants_mixed = cell.variants_mixed || cell.variant != std::string_view(r.variant);
            cell.names_mixed = cell.names_mixed || cell.name != std::string_view(mv.name);
            if (cell_environments.insert(cell_it->second * (environments.size() + 1) + slot).second)
                cell.environments.push_back(slot);
            variants_kept.insert(r.variant);
            names_kept.insert(mv.name);
        }

        if (!usable) {
            // Reports count such a run as left out of the comparisons the
            // filter keeps, values or not: carried unless the filter rules
            // out the run itself.
            Observation run_only;
            run_only.variant = r.variant;
            run_only.tags = o.tags;
            run_only.fields = o.fields;
            const bool wanted = run_kept > 0 || filter.may_match_run(run_only);
            if (!placed) {
                if (wanted) ++unplaced;
                continue;
            }
            if (parts.empty() && wanted) parts.push_back(Part{run_col, {}});
        }

        if (!parts.empty() && env && !environment_added[slot - 1]) {
            Environment copy = *env;
            if (const std::string why = file.add_environment(copy); !why.empty()) throw std::logic_error(why);
            environment_added[slot - 1] = true;
        }
        for (Part& part : parts) {
            RunRecord n = relabelled(r, part.col, next_index[part.col]++);
            if (col_is_variant) {
                n.design = r.design;
                n.block = r.block;
                n.position = r.position;
            }
            n.metrics = std::move(part.metrics);
            if (const std::string why = file.add_run(std::move(n)); !why.empty()) throw std::logic_error(why);
        }
    }

    bool variants_mixed = false, names_mixed = false;
    for (const Cell& c : cells) {
        variants_mixed = variants_mixed || c.variants_mixed;
        names_mixed = names_mixed || c.names_mixed;
    }
    if (!variant_projected && variants_mixed)
        out.notes.push_back("variant is not in --row or --col: runs of its " + std::to_string(variants_kept.size()) +
                            " variants are pooled");
    if (!name_projected && names_mixed)
        out.notes.push_back("name is not in --row or --col: values of its " + std::to_string(names_kept.size()) +
                            " metrics are pooled");

    // Keys whose value differs among the environments of one cell.
    std::map<std::string, PooledKey> pooled;
    for (const Cell& c : cells) {
        if (c.environments.size() < 2) continue;
        std::map<std::string_view, bool> keys;  // key -> whether it varies here
        for (size_t slot : c.environments) {
            if (slot == 0) continue;
            for (const auto& [k, v] : environments[slot - 1].tags) keys.emplace(k, false);
            for (const auto& [k, v] : environments[slot - 1].fields) keys.emplace(k, false);
        }
        for (auto& [key, varies] : keys) {
            const std::string k(key);
            if (holds(row_keys, k) || holds(col_keys, k)) continue;
            // A fact of the moment varies between any two runs: splitting
            // the table by it is no advice (data/volatile_facts.h).
            if (is_volatile_field(k)) continue;
            const auto value_in = [&](size_t slot) {
                return environment_value(slot ? &environments[slot - 1] : nullptr, k);
            };
            const std::optional<std::string_view> first = value_in(c.environments[0]);
            for (size_t slot : c.environments) varies = varies || value_in(slot) != first;
            if (!varies) continue;
            PooledKey& p = pooled[k];
            for (size_t slot : c.environments) {
                const std::optional<std::string_view> v = value_in(slot);
                std::string shown = v ? std::string(*v) : std::string("not set");
                if (p.seen.insert(shown).second) p.values.push_back(std::move(shown));
            }
        }
    }
    for (const auto& [key, p] : pooled) out.notes.push_back(pooled_note(key, p));

    if (unplaced > 0)
        out.notes.push_back("--col places values, not runs, when it holds name or unit: " + std::to_string(unplaced) +
                            (unplaced == 1 ? " run" : " runs") +
                            " that did not end ok or were warm-ups are left out of the columns, and reports do not "
                            "count them");
    return out;
}

}  // namespace gfxstat::data
