// SPDX-License-Identifier: MIT
#include "findings/results_names.h"

#include <sys/stat.h>

#include <optional>

#include "data/results_reader.h"

namespace gfxstat::findings {

namespace {

std::optional<data::ResultsFile> read_results(const std::string& path) {
    struct stat st {};
    if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    try {
        return data::read_results_path(path, path);
    } catch (...) {
        return std::nullopt;
    }
}

}  // namespace

std::vector<std::string> results_variants(const std::vector<std::string>& paths) {
    std::vector<std::string> words;
    for (const auto& path : paths)
        if (const auto file = read_results(path)) {
            const auto v = file->variants();
            words.insert(words.end(), v.begin(), v.end());
        }
    return words;
}

std::vector<std::string> results_metrics(const std::vector<std::string>& paths) {
    std::vector<std::string> words;
    for (const auto& path : paths)
        if (const auto file = read_results(path))
            for (const auto& m : file->metrics())
                if (!m.within_run()) words.push_back(m.name);
    return words;
}

}  // namespace gfxstat::findings
