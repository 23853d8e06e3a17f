// SPDX-License-Identifier: MIT
// The charts' colours and type, as CSS: Okabe-Ito's colour-blind-safe
// palette (Okabe and Ito, "Color Universal Design", 2008), a light and a
// prefers-color-scheme: dark variant. Marks take their colour from the
// `color` of their group (class v0.. for variants, b0.. for boots, a
// verdict's name for a forest row) through currentColor, so that dark
// mode changes a handful of rules, not every mark.
//
// Every rule is scoped under .gfxstat-chart (the class of each chart's
// <svg>): several charts inlined in one HTML page share one set of rules
// and never restyle the page around them.
#pragma once

#include <cstddef>
#include <string>

namespace gfxstat::plot {

inline constexpr size_t kVariantColours = 8;
inline constexpr size_t kBootColours = 7;

// "v0".."v7", cycling: the i-th variant's colour class.
std::string variant_class(size_t i);
// "b0".."b6", cycling: the i-th boot's colour class.
std::string boot_class(size_t i);

// The style sheet every chart embeds.
const std::string& chart_css();
// The rules of runs drawn as bins (plot/run_bins.h), added after
// chart_css() only by a chart that draws bins.
const std::string& run_bins_css();

}  // namespace gfxstat::plot
