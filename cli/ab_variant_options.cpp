// SPDX-License-Identifier: MIT
#include "cli/ab_variant_options.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <utility>

#include "drivers/workload_setup.h"
#include "text/text_escape.h"
#include "drivers/command_words.h"

namespace gfxstat::cli {

namespace {

// "lp2:VK_ICD_FILENAMES=..." -> ("lp2", "VK_ICD_FILENAMES=..."), when the
// text before the first ':' is one of the variants; else nullopt.
std::optional<std::pair<std::string, std::string>> split_variant(const std::string& s,
                                                                 const std::vector<std::string>& variants) {
    const size_t colon = s.find(':');
    if (colon == std::string::npos) return std::nullopt;
    const std::string v = s.substr(0, colon);
    if (std::find(variants.begin(), variants.end(), v) == variants.end()) return std::nullopt;
    return std::make_pair(v, s.substr(colon + 1));
}

std::string variant_list(const std::vector<std::string>& variants) {
    std::string out;
    for (const auto& v : variants) out += (out.empty() ? "" : ", ") + v;
    return out;
}

}  // namespace

std::string check_variant_labels(const std::vector<std::string>& variants) {
    if (variants.size() < 2) return "give two or more --variant (the first is the baseline)";
    for (size_t i = 0; i < variants.size(); ++i) {
        if (variants[i].empty()) return "a --variant label is empty";
        // VARIANT: prefixes address the variants; a label with ':' could not be.
        if (variants[i].find(':') != std::string::npos)
            return "--variant '" + variants[i] + "': a label cannot hold ':' (--env LABEL:KEY=VALUE names it)";
        for (size_t j = 0; j < i; ++j)
            if (variants[i] == variants[j]) return "--variant '" + text::escape_text(variants[i]) + "' is given twice";
    }
    return "";
}

std::string read_variant_settings(const AbVariantOptions& given, const std::vector<std::string>& variants,
                                  AbVariantSettings& out) {
    for (const auto& e : given.envs) {
        const auto vv = split_variant(e, variants);
        if (!vv) return "--env wants VARIANT:KEY=VALUE with VARIANT one of " + variant_list(variants) + ", not '" + e + "'";
        const size_t eq = vv->second.find('=');
        if (eq == 0 || eq == std::string::npos) return "--env wants VARIANT:KEY=VALUE, not '" + e + "'";
        out.env_of[vv->first].push_back(vv->second);
    }
    for (const auto& c : given.commands) {
        const auto vv = split_variant(c, variants);
        if (!vv) return "--command wants VARIANT:COMMAND with VARIANT one of " + variant_list(variants) + ", not '" + c + "'";
        if (out.argv_of.count(vv->first)) return "--command for variant '" + vv->first + "' is given twice";
        try {
            out.argv_of[vv->first] = drivers::split_command_words(vv->second);
        } catch (const std::invalid_argument& err) {
            return "--command " + vv->first + ": " + err.what();
        }
        if (out.argv_of[vv->first].empty()) return "--command for variant '" + vv->first + "' is empty";
    }
    const auto hooks = [&](const std::vector<std::string>& given_hooks, std::map<std::string, std::string>& of,
                           std::string& all, const char* name) -> std::string {
        for (const auto& h : given_hooks) {
            // --load cpu:N is every variant's load, even with a variant named cpu.
            const bool shared_load = std::string(name) == "--load" && h.rfind("cpu:", 0) == 0 &&
                                     h.size() > 4 && h.find_first_not_of("0123456789", 4) == std::string::npos;
            if (const auto vv = split_variant(h, variants); vv && !shared_load) {
                if (of.count(vv->first)) return std::string(name) + " for variant '" + vv->first + "' is given twice";
                of[vv->first] = vv->second;
            } else {
                if (!all.empty()) return std::string(name) + " without VARIANT: is given twice";
                all = h;
            }
        }
        return "";
    };
    if (auto e = hooks(given.prepares, out.prepare_of, out.prepare_all, "--prepare"); !e.empty()) return e;
    if (auto e = hooks(given.cleanups, out.cleanup_of, out.cleanup_all, "--cleanup"); !e.empty()) return e;
    if (auto e = hooks(given.loads, out.load_of, out.load_shared, "--load"); !e.empty()) return e;
    for (const auto& t : given.tags) {
        if (const auto vv = split_variant(t, variants)) {
            if (!parse_tag(vv->second, out.tags_of[vv->first])) return "--tag wants [VARIANT:]key=value, not '" + t + "'";
        } else if (!parse_tag(t, out.tags_all)) {
            return "--tag wants [VARIANT:]key=value, not '" + t + "'";
        }
    }
    return "";
}

}  // namespace gfxstat::cli
