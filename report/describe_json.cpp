// SPDX-License-Identifier: MIT
#include "report/describe_json.h"

#include <nlohmann/json.hpp>

#include "data/gfxstat_version.h"

namespace gfxstat::report {
namespace {

nlohmann::json option_json(const OptionDescription& o) {
    return {{"names", o.names},
            {"positional", o.positional},
            {"type", o.type},
            {"expected_min", o.expected_min},
            {"expected_max", o.expected_max},
            {"required", o.required},
            {"default", o.default_text},
            {"group", o.group},
            {"description", o.description},
            {"choices", o.choices}};
}

}  // namespace

std::string description_json(const CommandDescription& d) {
    nlohmann::json j;
    j["name"] = d.name;
    j["description"] = d.description;
    j["footer"] = d.footer;
    j["options"] = nlohmann::json::array();
    for (const auto& o : d.options) j["options"].push_back(option_json(o));
    j["subcommands"] = nlohmann::json::array();
    for (const auto& s : d.subcommands) j["subcommands"].push_back({{"name", s.name}, {"summary", s.summary}});
    j["options_from"] = d.options_from;
    return j.dump(2);
}

std::string command_list_json(const std::vector<SubcommandSummary>& commands) {
    nlohmann::json j;
    j["name"] = "gfxstat";
    j["version"] = data::gfxstat_version();
    j["commands"] = nlohmann::json::array();
    for (const auto& c : commands) j["commands"].push_back({{"name", c.name}, {"summary", c.summary}});
    return j.dump(2);
}

}  // namespace gfxstat::report
