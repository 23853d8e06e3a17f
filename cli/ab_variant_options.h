// SPDX-License-Identifier: MIT
// gfxstat ab's per-variant options: --env, --command, --prepare, --cleanup,
// --load and --tag, each "VARIANT:VALUE" for one variant or, where a
// shared value makes sense, plain VALUE for every variant; read into one
// setting per variant, with the usage error when they do not add up.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace gfxstat::cli {

// "" when the --variant labels can be told apart and addressed (two or
// more, none empty, none with ':', none twice), else the usage error.
std::string check_variant_labels(const std::vector<std::string>& variants);

// The option values as given, in order.
struct AbVariantOptions {
    std::vector<std::string> envs, commands, prepares, cleanups, loads, tags;
};

struct AbVariantSettings {
    std::map<std::string, std::vector<std::string>> env_of, argv_of;
    std::map<std::string, std::string> prepare_of, cleanup_of, load_of;
    std::map<std::string, std::map<std::string, std::string>> tags_of;
    // Without VARIANT:, every variant's.
    std::string prepare_all, cleanup_all, load_shared;
    std::map<std::string, std::string> tags_all;
};

// "" when the options add up (`out` filled), else the usage error.
std::string read_variant_settings(const AbVariantOptions& given, const std::vector<std::string>& variants,
                                  AbVariantSettings& out);

}  // namespace gfxstat::cli
