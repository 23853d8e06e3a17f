// SPDX-License-Identifier: MIT
#include "plot/palette.h"

namespace gfxstat::plot {

std::string variant_class(size_t i) { return "v" + std::to_string(i % kVariantColours); }
std::string boot_class(size_t i) { return "b" + std::to_string(i % kBootColours); }

const std::string& chart_css() {
    // Okabe-Ito: orange #E69F00, sky blue #56B4E9, bluish green #009E73,
    // yellow #F0E442, blue #0072B2, vermillion #D55E00, reddish purple
    // #CC79A7, black. The baseline gets blue, the candidate orange: the
    // pair that stays apart under every common colour-vision deficiency.
    // On a dark background blue and black are too dark: dark mode swaps in
    // sky blue and a light grey, and yellow (too pale on white) is used
    // for the last boot colour only in dark mode.
    static const std::string css = R"(.gfxstat-chart { font-family: sans-serif; font-size: 12px; }
.gfxstat-chart .bg { fill: #ffffff; }
.gfxstat-chart text { fill: #222222; }
.gfxstat-chart .title { font-size: 14px; font-weight: bold; }
.gfxstat-chart .tick-label { font-size: 11px; fill: #555555; }
.gfxstat-chart .caption, .gfxstat-chart .note { font-size: 11px; fill: #444444; }
.gfxstat-chart .axis { stroke: #444444; stroke-width: 1; fill: none; }
.gfxstat-chart .grid { stroke: #e4e4e4; stroke-width: 1; }
.gfxstat-chart .v0 { color: #0072B2; } .gfxstat-chart .v1 { color: #E69F00; }
.gfxstat-chart .v2 { color: #009E73; } .gfxstat-chart .v3 { color: #D55E00; }
.gfxstat-chart .v4 { color: #CC79A7; } .gfxstat-chart .v5 { color: #56B4E9; }
.gfxstat-chart .v6 { color: #F0E442; } .gfxstat-chart .v7 { color: #000000; }
.gfxstat-chart .b0 { color: #E69F00; } .gfxstat-chart .b1 { color: #56B4E9; }
.gfxstat-chart .b2 { color: #009E73; } .gfxstat-chart .b3 { color: #D55E00; }
.gfxstat-chart .b4 { color: #CC79A7; } .gfxstat-chart .b5 { color: #0072B2; }
.gfxstat-chart .b6 { color: #000000; }
.gfxstat-chart .regression { color: #D55E00; } .gfxstat-chart .improvement { color: #009E73; }
.gfxstat-chart .inconclusive { color: #E69F00; } .gfxstat-chart .equivalent,
.gfxstat-chart .no-change, .gfxstat-chart .other { color: #666666; }
.gfxstat-chart .geomean { color: #000000; font-weight: bold; }
.gfxstat-chart .run { fill: currentColor; stroke: #ffffff; stroke-width: 0.6; }
.gfxstat-chart .run.warmup { fill: none; stroke: #999999; stroke-width: 1.2; }
.gfxstat-chart .run.invalid { fill: none; stroke: #D55E00; stroke-width: 1.2; }
.gfxstat-chart .run.dropped { fill: none; stroke: currentColor; stroke-width: 1.2; stroke-dasharray: 2 1.5; }
.gfxstat-chart .invalid-mark { stroke: #D55E00; stroke-width: 1.4; fill: none; }
.gfxstat-chart .bar { fill: currentColor; fill-opacity: 0.3; stroke: currentColor; stroke-width: 1; }
.gfxstat-chart .swatch, .gfxstat-chart .estimate, .gfxstat-chart .mean-bar { fill: currentColor; }
.gfxstat-chart .median { stroke: currentColor; stroke-width: 2; }
.gfxstat-chart .variant-median { stroke: currentColor; stroke-width: 1.2; stroke-dasharray: 6 4; }
.gfxstat-chart .interval { stroke: currentColor; stroke-width: 2.5; stroke-linecap: round; }
.gfxstat-chart .boot-change { stroke: #777777; stroke-width: 1; stroke-dasharray: 4 3; }
.gfxstat-chart .block { stroke: #d0d0d0; stroke-width: 1; }
.gfxstat-chart .band { fill: #888888; fill-opacity: 0.15; }
.gfxstat-chart .zero { stroke: #444444; stroke-width: 1; }
.gfxstat-chart .segment { stroke: #0072B2; stroke-width: 2; }
.gfxstat-chart .change { stroke: #D55E00; stroke-width: 1.5; stroke-dasharray: 5 3; }
.gfxstat-chart .change-label { fill: #D55E00; font-size: 11px; }
.gfxstat-chart .panel { fill: none; stroke: #d8d8d8; }
@media (prefers-color-scheme: dark) {
  .gfxstat-chart .bg { fill: #1b1b1d; }
  .gfxstat-chart text { fill: #e6e6e6; }
  .gfxstat-chart .tick-label { fill: #b0b0b0; }
  .gfxstat-chart .caption, .gfxstat-chart .note { fill: #c8c8c8; }
  .gfxstat-chart .axis { stroke: #c0c0c0; }
  .gfxstat-chart .grid { stroke: #3a3a3e; }
  .gfxstat-chart .v0 { color: #56B4E9; } .gfxstat-chart .v5 { color: #8fb8de; }
  .gfxstat-chart .v7 { color: #dddddd; }
  .gfxstat-chart .b5 { color: #8fb8de; } .gfxstat-chart .b6 { color: #F0E442; }
  .gfxstat-chart .equivalent, .gfxstat-chart .no-change, .gfxstat-chart .other { color: #aaaaaa; }
  .gfxstat-chart .geomean { color: #ffffff; }
  .gfxstat-chart .run { stroke: #1b1b1d; }
  .gfxstat-chart .run.warmup { stroke: #888888; }
  .gfxstat-chart .boot-change { stroke: #999999; }
  .gfxstat-chart .block { stroke: #444448; }
  .gfxstat-chart .band { fill: #aaaaaa; fill-opacity: 0.18; }
  .gfxstat-chart .zero { stroke: #c0c0c0; }
  .gfxstat-chart .segment { stroke: #56B4E9; }
  .gfxstat-chart .panel { stroke: #3a3a3e; }
}
)";
    return css;
}

const std::string& run_bins_css() {
    // Five shades of the group's colour, the marked runs' bins in grey as
    // their circles are.
    static const std::string css = R"(.gfxstat-chart .run-bin { fill: currentColor; stroke: none; }
.gfxstat-chart .run-bin.d1 { fill-opacity: 0.2; } .gfxstat-chart .run-bin.d2 { fill-opacity: 0.4; }
.gfxstat-chart .run-bin.d3 { fill-opacity: 0.6; } .gfxstat-chart .run-bin.d4 { fill-opacity: 0.8; }
.gfxstat-chart .run-bin.d5 { fill-opacity: 1; }
.gfxstat-chart .run-bin.marked { fill: #999999; }
)";
    return css;
}

}  // namespace gfxstat::plot
