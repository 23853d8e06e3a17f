// SPDX-License-Identifier: MIT
#include "report/ci/ci_names.h"

#include <cstdio>

#include "text/text_escape.h"

namespace gfxstat::cli {

std::string benchmark_group(const std::string& metric) {
    const size_t slash = metric.rfind('/');
    return slash == std::string::npos || slash == 0 ? "gfxstat" : metric.substr(0, slash);
}

uint64_t kcidb_fingerprint(std::string_view s, uint64_t seed) {
    uint64_t h = seed;
    for (const char c : s) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ull;
    }
    return h;
}

std::string kcidb_hex(uint64_t h) {
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

std::string kcidb_test_path(const std::string& metric) {
    std::string path = "gfxstat", part;
    const auto flush = [&] {
        path += "." + (part.empty() ? std::string("_") : part);
        part.clear();
    };
    for (const char c : metric) {
        if (c == '/') {
            flush();
            continue;
        }
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                        c == '-';
        part += ok ? c : '_';
    }
    flush();
    return path;
}

std::string openmetrics_label_value(std::string_view raw) {
    std::string out;
    for (const char c : text::escape_text(raw)) {
        if (c == '\\') out += "\\\\";
        else if (c == '"') out += "\\\"";
        else if (c == '\n') out += "\\n";
        else out += c;
    }
    return out;
}

}  // namespace gfxstat::cli
