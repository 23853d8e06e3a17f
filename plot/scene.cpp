// SPDX-License-Identifier: MIT
#include "plot/scene.h"

#include <sstream>

namespace gfxstat::plot {

namespace {

bool has_class(const std::string& list, const std::string& cls) {
    std::istringstream words(list);
    std::string w;
    while (words >> w)
        if (w == cls) return true;
    return false;
}

}  // namespace

size_t count_circles(const Scene& s) {
    size_t n = 0;
    for (const auto& g : s.groups)
        for (const auto& m : g.marks) n += std::holds_alternative<Circle>(m);
    return n;
}

size_t count_lines_with_class(const Scene& s, const std::string& cls) {
    size_t n = 0;
    for (const auto& g : s.groups)
        for (const auto& m : g.marks)
            if (const auto* l = std::get_if<Line>(&m)) n += has_class(l->cls, cls);
    return n;
}

}  // namespace gfxstat::plot
