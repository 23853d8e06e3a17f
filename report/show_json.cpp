// SPDX-License-Identifier: MIT
#include "report/show_json.h"

#include <nlohmann/json.hpp>

#include "report/diagnostic_words.h"
#include "report/json_version.h"
#include "report/volatile_words.h"

namespace gfxstat::report {
namespace {

// As the results file writes it (docs/results-format.md, "workload").
nlohmann::json workload_json(const data::WorkloadRecord& w) {
    nlohmann::json j = nlohmann::json::object();
    if (w.builtin.empty()) j["argv"] = w.argv;
    else j["builtin"] = w.builtin, j["options"] = w.options;
    if (!w.parser.empty()) j["parser"] = w.parser;
    if (!w.parser_options.empty()) j["parser_options"] = w.parser_options;
    if (!w.metrics.empty()) j["metrics"] = w.metrics;
    if (!w.env.empty()) j["env"] = w.env;
    for (const auto& [k, raw] : w.unknown) j[k] = nlohmann::json::parse(raw, nullptr, false);
    return j;
}

nlohmann::json to_json(const std::string& name, const data::ResultsFile& f, const data::ReadReport& read,
                       const findings::ShowOverview& show) {
    const data::ResultsOverview& o = show.overview;
    const std::vector<std::string>& warnings = show.workload_warnings;
    const std::vector<findings::VariantDiagnostics>& diagnostics = show.diagnostics;
    nlohmann::json j;
    j["file"] = name;
    j["version"] = f.header.version;
    j["id"] = f.header.id;
    j["created"] = f.header.created;
    j["generator"] = f.header.generator;
    cli::add_gfxstat_version(j);
    j["merged_from"] = nlohmann::json::array();
    for (const auto& s : f.header.merged_from)
        j["merged_from"].push_back({{"id", s.id}, {"path", s.path}, {"created", s.created}});
    j["torn_tail"] = read.torn_tail;
    j["metrics"] = nlohmann::json::array();
    for (const auto& m : f.metrics())
        j["metrics"].push_back({{"name", m.name},
                                {"unit", m.unit},
                                {"direction", data::direction_name(m.direction)},
                                {"exact", m.exact},
                                {"primary", m.primary ? nlohmann::json(*m.primary) : nlohmann::json(nullptr)},
                                {"per", m.within_run() ? nlohmann::json(m.per) : nlohmann::json("run")}});
    j["known_boots"] = o.known_boots;
    j["runs_of_unknown_boot"] = o.runs_of_unknown_boot;
    j["warnings"] = warnings;
    j["variants"] = nlohmann::json::array();
    for (const auto& v : o.variants) {
        nlohmann::json jv;
        jv["variant"] = v.variant;
        jv["runs"] = v.runs;
        jv["used"] = v.by_class[static_cast<size_t>(data::ExitClass::ok)];
        jv["throttled"] = v.throttled;  // measured runs the sampler saw throttled
        jv["warmup"] = v.warmup;
        nlohmann::json exits = nlohmann::json::object();
        for (data::ExitClass c : {data::ExitClass::ok, data::ExitClass::fail, data::ExitClass::skip,
                                  data::ExitClass::timeout, data::ExitClass::crash,
                                  data::ExitClass::invalid})
            exits[data::exit_class_name(c)] = v.by_class[static_cast<size_t>(c)];
        jv["exit"] = exits;
        jv["samples"] = v.samples;
        jv["runs_with_metric"] = v.runs_with_metric;
        jv["origins"] = v.origins;
        jv["workloads"] = nlohmann::json::array();
        for (const auto& [w, n] : v.workloads)
            jv["workloads"].push_back({{"workload", workload_json(w)}, {"text", data::workload_text(w)}, {"runs", n}});
        jv["runs_without_workload"] = v.runs_without_workload;
        jv["mixes_workloads"] = v.workloads.size() > 1;
        j["variants"].push_back(jv);
    }
    j["boots"] = nlohmann::json::array();
    for (const auto& [boot, counts] : o.boots)
        j["boots"].push_back({{"boot", boot.empty() ? nlohmann::json(nullptr) : nlohmann::json(boot)},
                              {"runs", counts}});
    j["machines"] = nlohmann::json::array();
    for (const auto& m : o.machines)
        j["machines"].push_back({{"machine", m.key}, {"name", m.name}, {"boots", m.boots}, {"runs", m.runs}});
    j["runs_of_unknown_machine"] = o.runs_of_unknown_machine;
    j["environment"] = nlohmann::json::array();
    for (const auto& e : o.environment)
        j["environment"].push_back({{"field", e.field},
                                    {"differs_between_variants", e.differs_between_variants},
                                    {"varies_within_variant", e.varies_within_variant},
                                    {"values", e.values}});
    // The facts of the moment (data/volatile_facts.h): ranges, and the
    // variants that met systematically different ones, with the sentence.
    const auto range_json = [](const findings::VolatileRange& r) {
        return nlohmann::json{{"runs", r.runs}, {"min", r.low}, {"max", r.high}, {"median", r.median}};
    };
    j["context"] = nlohmann::json::array();
    for (const auto& fact : show.context.facts) {
        nlohmann::json c = range_json(fact.all);
        c["field"] = fact.field;
        c["text"] = volatile_context_line(fact);
        c["variants"] = nlohmann::json::object();
        for (const auto& [variant, r] : fact.variants) c["variants"][variant] = range_json(r);
        j["context"].push_back(c);
    }
    j["context_differences"] = nlohmann::json::array();
    for (const auto& s : show.context.shifts)
        j["context_differences"].push_back({{"field", s.field},
                                            {"variant", s.variant},
                                            {"reference", s.reference},
                                            {"higher", s.higher},
                                            {"chance", s.chance},
                                            {"text", volatile_shift_line(s)}});
    j["diagnostics"] = nlohmann::json::array();
    for (const auto& d : diagnostics)
        j["diagnostics"].push_back(
            {{"metric", d.metric}, {"variant", d.variant}, {"diagnostics", cli::diagnostics_json(d.diagnostics)}});
    return j;
}

}  // namespace

std::string show_json(const std::string& name, const data::ResultsFile& f, const data::ReadReport& read,
                      const findings::ShowOverview& show) {
    return to_json(name, f, read, show).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace gfxstat::report
