// SPDX-License-Identifier: MIT
// plot/: every chart is a well-formed SVG (checked by xmllint, not by us)
// with the marks plot/charts.h promises: one <circle> per run drawn, one
// class="interval" line per interval, axis labels with the unit, the dark
// palette, text from data escaped, nothing non-finite, and degenerate
// input drawn rather than crashed on.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>

#include "plot/axes.h"
#include "plot/chart_parts.h"
#include "plot/charts.h"
#include "plot/palette.h"
#include "plot/scene.h"
#include "plot/svg_writer.h"

namespace gfxstat::plot {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

size_t count(const std::string& hay, const std::string& needle) {
    size_t n = 0;
    for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + needle.size())) ++n;
    return n;
}

// xmllint's verdict on `svg`: "" when well-formed, its complaint otherwise.
std::string xml_problems(const std::string& svg) {
    static int serial = 0;
    auto path = std::filesystem::temp_directory_path() /
                ("gfxstat_plot_test_" + std::to_string(getpid()) + "_" + std::to_string(serial++) + ".svg");
    {
        std::ofstream out(path, std::ios::binary);
        out << svg;
    }
    std::string cmd = "xmllint --noout '" + path.string() + "' 2>&1";
    std::string said;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return "popen failed";
    char buf[512];
    while (fgets(buf, sizeof buf, p)) said += buf;
    int status = pclose(p);
    std::filesystem::remove(path);
    if (status != 0) return said.empty() ? "xmllint exited with " + std::to_string(status) : said;
    return {};
}

// GFXSTAT_PLOT_DUMP=DIR keeps the charts the tests draw, to look at
// while developing (rsvg-convert, a browser).
void dump(const std::string& name, const std::string& svg) {
    if (const char* dir = std::getenv("GFXSTAT_PLOT_DUMP")) std::ofstream(std::string(dir) + "/" + name + ".svg") << svg;
}

// Whether "nan" or "inf" (any case) stands as a word of its own: how a
// NaN or an infinity prints ("nan", "-inf", "NaN"), not "infinite".
bool has_non_finite_word(const std::string& text) {
    auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
    for (size_t i = 0; i + 3 <= text.size(); ++i) {
        std::string w = text.substr(i, 3);
        for (auto& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (w != "nan" && w != "inf") continue;
        if ((i == 0 || !letter(text[i - 1])) && (i + 3 == text.size() || !letter(text[i + 3]))) return true;
    }
    return false;
}

bool have_xmllint() { return std::system("xmllint --version >/dev/null 2>&1") == 0; }

// What every chart must be, whatever it draws.
void expect_sound(const std::string& svg, size_t circles, size_t intervals) {
    if (have_xmllint()) {
        EXPECT_EQ(xml_problems(svg), "") << svg;
    } else {
        ADD_FAILURE() << "xmllint (libxml2-utils) is not installed: the SVG cannot be checked";
    }
    EXPECT_EQ(count(svg, "<circle"), circles);
    EXPECT_EQ(count(svg, "class=\"interval\""), intervals);
    EXPECT_NE(svg.find("<title>"), std::string::npos);
    EXPECT_NE(svg.find("class=\"axis-label\""), std::string::npos);
    EXPECT_NE(svg.find("prefers-color-scheme: dark"), std::string::npos);
    EXPECT_EQ(svg.find("<script"), std::string::npos);
    EXPECT_EQ(svg.find("href"), std::string::npos);
    EXPECT_EQ(svg.find("url("), std::string::npos);
    EXPECT_FALSE(has_non_finite_word(svg)) << svg;
    for (unsigned char c : svg) EXPECT_FALSE(c < 0x20 && c != '\n') << "control byte " << int(c) << " in the SVG";
}

// Two variants, 12 runs each over 3 boots, with warm-ups, an invalid run,
// a dropped outlier and `ab` blocks.
MetricPlot sample() {
    MetricPlot m;
    m.metric = "frame time";
    m.unit = "ms";
    m.direction = "lower";
    m.verdict = "+3.2% [+1.1%, +5.3%], slower: a regression beyond the 1% threshold";
    for (int v = 0; v < 2; ++v) {
        VariantPlot vp;
        vp.label = v == 0 ? "mesa-24.1" : "mesa-24.2";
        for (size_t i = 0; i < 12; ++i) {
            RunPoint r;
            r.value = 16.0 + v * 0.5 + 0.1 * static_cast<double>(i % 4) + (i / 4 == 1 ? 0.4 : 0);
            r.order = i;
            r.boot = "boot" + std::to_string(v) + "-" + std::to_string(i / 4) + "-0123456789";
            r.block = static_cast<int>(i / 2);
            r.warmup = i == 0;
            r.invalid = v == 1 && i == 5;
            r.dropped = v == 0 && i == 7;
            vp.runs.push_back(r);
        }
        vp.median = {vp.label, 10, 16.2 + v * 0.5, 16.1 + v * 0.5, 16.35 + v * 0.5};
        for (int b = 0; b < 3; ++b)
            vp.boots.push_back({"boot" + std::to_string(v) + "-" + std::to_string(b), 4, 16.1 + v * 0.5 + b * 0.1,
                                16.0 + v * 0.5 + b * 0.1, 16.3 + v * 0.5 + b * 0.1});
        m.variants.push_back(vp);
    }
    return m;
}

TEST(PlotCharts, EveryMetricChartHasItsMarks) {
    MetricPlot m = sample();
    std::string d = distributions_svg(m);
    expect_sound(d, 24, 2);
    std::string r = run_order_svg(m);
    expect_sound(r, 24, 0);
    std::string b = boot_means_svg(m);
    expect_sound(b, 0, 6);
    dump("distributions", d), dump("run_order", r), dump("boot_means", b);
    for (const auto* svg : {&d, &r, &b}) EXPECT_NE(svg->find("frame time (ms)</text>"), std::string::npos);
    // The marked runs, each once, with the classes the header names.
    EXPECT_EQ(count(r, "class=\"run warmup\""), 2u);
    EXPECT_EQ(count(r, "class=\"run invalid\""), 1u);
    EXPECT_EQ(count(r, "class=\"run dropped\""), 1u);
    EXPECT_EQ(count(r, "class=\"invalid-mark\""), 1u);
    // Boot changes: 2 per variant; block boundaries elsewhere.
    EXPECT_EQ(count(r, "class=\"boot-change\""), 4u);
    EXPECT_GT(count(r, "class=\"block\""), 0u);
    // Medians drawn as lines in the histogram.
    EXPECT_EQ(count(d, "class=\"median\""), 2u);
    EXPECT_GE(count(d, "class=\"bar\""), 2u);
    // The verdict is the caption.
    EXPECT_NE(d.find("a regression beyond the 1% threshold"), std::string::npos);
}

TEST(PlotCharts, DispatchByKind) {
    MetricPlot m = sample();
    EXPECT_EQ(metric_chart_svg("distributions", m), distributions_svg(m));
    EXPECT_EQ(metric_chart_svg("run-order", m), run_order_svg(m));
    EXPECT_EQ(metric_chart_svg("boot-means", m), boot_means_svg(m));
    EXPECT_EQ(metric_chart_kinds(), (std::vector<std::string>{"distributions", "run-order", "boot-means"}));
    try {
        metric_chart_svg("pie", m);
        FAIL() << "an unknown kind was drawn";
    } catch (const std::invalid_argument& e) {
        std::string what = e.what();
        EXPECT_NE(what.find("\"pie\""), std::string::npos) << what;
        for (const char* k : {"distributions", "run-order", "boot-means"})
            EXPECT_NE(what.find(k), std::string::npos) << what;
    }
    EXPECT_THROW(metric_chart_svg("forest", m), std::invalid_argument);
}

TEST(PlotCharts, TextFromDataIsEscaped) {
    MetricPlot m = sample();
    m.metric = "t<&\">'\x1b[2J\nx";
    m.unit = "ms";
    m.variants[0].label = "<script>alert(1)</script>\x07\x7f\xff";
    m.variants[1].label = "a\xef\xbf\xbe" "b";  // U+FFFE: valid UTF-8, not an XML character
    m.variants[0].runs[3].boot = "\"/><circle r=\"9";
    m.verdict = "]]></style><x>";
    for (const auto& svg : {distributions_svg(m), run_order_svg(m), boot_means_svg(m)}) {
        expect_sound(svg, svg.find("boot means") != std::string::npos ? 0 : 24,
                     svg.find("boot means") != std::string::npos ? 6 : (svg.find("distributions") != std::string::npos ? 2 : 0));
        EXPECT_EQ(svg.find("<script>"), std::string::npos);
        EXPECT_EQ(svg.find("<x>"), std::string::npos);
        EXPECT_NE(svg.find("t&lt;&amp;&quot;&gt;&apos;\\x1b[2J\\nx"), std::string::npos);
        EXPECT_EQ(svg.find('\x1b'), std::string::npos);
    }
    HistoryPlot h;
    h.metric = "<&>";
    h.builds = {{"a&b", {1, 2}}, {"c<d", {3}}};
    std::string hs = history_svg(h);
    expect_sound(hs, 3, 0);
    EXPECT_NE(hs.find("a&amp;b"), std::string::npos);
    ForestPlot f;
    f.title = "suite \"x\" & <y>";
    f.rows = {{"bench\ttab", 0.01, 0, 0.02, "regression"}};
    std::string fs = forest_svg(f);
    expect_sound(fs, 0, 1);
    EXPECT_NE(fs.find("bench\\ttab"), std::string::npos);
}

TEST(PlotCharts, DegenerateMetricsAreDrawn) {
    auto with_values = [](std::vector<std::vector<double>> values) {
        MetricPlot m;
        m.metric = "fps";
        m.unit = "frames/s";
        for (size_t v = 0; v < values.size(); ++v) {
            VariantPlot vp;
            vp.label = "v" + std::to_string(v);
            for (size_t i = 0; i < values[v].size(); ++i) vp.runs.push_back({values[v][i], i, "", -1, false, false, false});
            m.variants.push_back(vp);
        }
        return m;
    };
    struct Case {
        const char* what;
        std::vector<std::vector<double>> values;
        size_t drawn;
    };
    const Case cases[] = {
        {"no variants", {}, 0},
        {"variants without runs", {{}, {}}, 0},
        {"one value", {{42}}, 1},
        {"all equal", {{5, 5, 5}, {5, 5}}, 5},
        {"zeros", {{0, 0, 0}}, 3},
        {"negative", {{-3, -2.5, -1e-3}, {-4}}, 4},
        {"huge", {{1e12, 1.5e12, 2e12}}, 3},
        {"tiny", {{1e-9, 2e-9, 1.5e-9}}, 3},
        {"huge and tiny", {{1e-9, 1e12}}, 2},
        {"nearly equal large", {{1e15, 1e15 + 1, 1e15 + 2}}, 3},
        {"not finite", {{1, kNaN, 2, kInf, -kInf}, {kNaN}}, 2},
        {"beyond 1e300", {{1e308, -1e308, 1e-310, 3}}, 1},
        {"only NaN", {{kNaN, kNaN}}, 0},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.what);
        MetricPlot m = with_values(c.values);
        std::string d = distributions_svg(m), r = run_order_svg(m), b = boot_means_svg(m);
        expect_sound(d, c.drawn, 0);
        expect_sound(r, c.drawn, 0);
        expect_sound(b, 0, 0);
        EXPECT_NE(d.find("fps (frames/s)"), std::string::npos);
        size_t total = 0;
        for (const auto& v : c.values) total += v.size();
        if (total > c.drawn) {
            std::string note = std::to_string(total - c.drawn) + (total - c.drawn == 1 ? " value" : " values") +
                               " not drawn";
            EXPECT_NE(d.find(note), std::string::npos) << d;
            EXPECT_NE(r.find(note), std::string::npos);
        } else {
            EXPECT_EQ(d.find("not drawn"), std::string::npos);
        }
    }
}

TEST(PlotCharts, IntervalsThatCannotBeDrawnAreLeftOut) {
    MetricPlot m = sample();
    m.variants[0].median = {};                           // n = 0: absent
    m.variants[1].median.high = kInf;                    // not finite
    m.variants[0].boots[1].low = kNaN;                   // one boot not drawable
    expect_sound(distributions_svg(m), 24, 0);
    std::string b = boot_means_svg(m);
    expect_sound(b, 0, 5);
    EXPECT_NE(b.find("1 boot intervals not drawn"), std::string::npos);
    m.variants[0].boots.clear();
    b = boot_means_svg(m);
    expect_sound(b, 0, 3);
    EXPECT_NE(b.find("boots unknown"), std::string::npos);
}

TEST(PlotCharts, OddSizesStillLayOut) {
    MetricPlot m = sample();
    for (ChartOptions o : {ChartOptions{0, 0}, ChartOptions{-5, 100000}, ChartOptions{100, 50}, ChartOptions{1920, 1080}}) {
        expect_sound(distributions_svg(m, o), 24, 2);
        expect_sound(run_order_svg(m, o), 24, 0);
        expect_sound(boot_means_svg(m, o), 0, 6);
    }
}

TEST(PlotCharts, ManyBootsAndRuns) {
    MetricPlot m;
    m.metric = "time";
    m.unit = "s";
    VariantPlot v;
    v.label = "only";
    for (size_t i = 0; i < 2000; ++i)
        v.runs.push_back({0.001 * (1 + static_cast<double>(i % 37) / 100), i, "b" + std::to_string(i / 50), -1,
                          false, false, false});
    for (size_t b = 0; b < 40; ++b) v.boots.push_back({"b" + std::to_string(b), 50, 0.0012, 0.0011, 0.0013});
    v.median = {"only", 2000, 0.0012, 0.00119, 0.00121};
    m.variants.push_back(v);
    std::string r = run_order_svg(m);
    dump("run_order_many", r);
    expect_sound(r, 2000, 0);
    EXPECT_NE(r.find("time (ms)"), std::string::npos);  // 0.001 s reads as ms
    EXPECT_NE(r.find("boot colours repeat"), std::string::npos);
    expect_sound(distributions_svg(m), 2000, 1);
    expect_sound(boot_means_svg(m), 0, 40);
}

// A variant of n runs over 10 boots, the first `warmups` of them warm-ups
// and run 7 invalid.
VariantPlot many_runs(const std::string& label, size_t n, size_t warmups) {
    VariantPlot v;
    v.label = label;
    for (size_t i = 0; i < n; ++i)
        v.runs.push_back({16 + static_cast<double>((i * 7919) % 1000) / 1000, i, "boot" + std::to_string(i * 10 / n),
                          -1, i < warmups, i == 7, false});
    v.median = {label, n, 16.5, 16.4, 16.6};
    return v;
}

TEST(PlotCharts, PastTheLimitRunsAreDrawnAsBins) {
    // One variant past kMaxRunMarks, one below: the first as bins with its
    // 4 marked runs still circles, the second one circle per run.
    MetricPlot m;
    m.metric = "frame time";
    m.unit = "ms";
    m.variants = {many_runs("big", kMaxRunMarks + 1, 3), many_runs("small", 100, 0)};
    const std::string d = distributions_svg(m), r = run_order_svg(m);
    dump("distributions_bins", d), dump("run_order_bins", r);
    expect_sound(d, 4 + 100, 2);
    expect_sound(r, 4 + 100, 0);
    for (const auto* svg : {&d, &r}) {
        EXPECT_NE(svg->find("runs a variant drawn as bins, not one mark per run"), std::string::npos) << *svg;
        EXPECT_NE(svg->find(".gfxstat-chart .run-bin {"), std::string::npos);
        EXPECT_EQ(svg->find("small: 100 runs"), std::string::npos);
    }
    EXPECT_NE(d.find("big: 2001 runs in 120 bins"), std::string::npos);
    EXPECT_NE(r.find("big: 2001 runs in "), std::string::npos);
    EXPECT_GT(count(d, "class=\"run-bin d"), 0u);
    EXPECT_LE(count(d, "class=\"run-bin d"), 120u);
    EXPECT_GT(count(r, "class=\"run-bin d"), 0u);
    EXPECT_LE(count(r, "class=\"run-bin d"), 200u * 24);
    // A boot change is still drawn (9 in the big variant, 9 in the small).
    EXPECT_EQ(count(r, "class=\"boot-change\""), 18u);
    // Below the limit nothing changes: no bin, no bins' CSS.
    m.variants[0] = many_runs("big", kMaxRunMarks, 3);
    for (const std::string& svg : {distributions_svg(m), run_order_svg(m)}) {
        EXPECT_EQ(count(svg, "<circle"), kMaxRunMarks + 100);
        EXPECT_EQ(svg.find("run-bin"), std::string::npos);
    }
}

TEST(PlotCharts, BinnedChartsStopGrowingWithTheRuns) {
    // The marks of 10 and 100 times the limit: as many bins either way (the
    // values cover every bin), so the chart grows by a few bytes of
    // numbers, not by a mark per run.
    MetricPlot m;
    m.metric = "frame time";
    m.unit = "ms";
    std::vector<size_t> sizes;
    for (size_t n : {kMaxRunMarks * 10, kMaxRunMarks * 100}) {
        m.variants = {many_runs("big", n, 0)};
        const std::string d = distributions_svg(m), r = run_order_svg(m);
        EXPECT_EQ(count(d, "<circle") + count(r, "<circle"), 2u);  // run 7, invalid, in each
        EXPECT_EQ(count(d, "class=\"run-bin d"), 120u);
        sizes.push_back(d.size() + r.size());
    }
    EXPECT_LT(static_cast<double>(sizes[1]), 1.05 * static_cast<double>(sizes[0]));
}

TEST(PlotCharts, TooManyMarkedRunsAreBinnedToo) {
    // More warm-ups than kMaxRunMarks: they are binned with the others, in
    // grey where a bin holds only them.
    MetricPlot m;
    m.metric = "frame time";
    m.unit = "ms";
    m.variants = {many_runs("big", 3 * kMaxRunMarks, kMaxRunMarks + 1)};
    const std::string d = distributions_svg(m), r = run_order_svg(m);
    expect_sound(d, 0, 1);
    expect_sound(r, 0, 0);
    EXPECT_GT(count(r, " marked\""), 0u);
}

TEST(PlotCharts, Forest) {
    ForestPlot f;
    f.title = "suite";
    f.threshold = 0.01;
    f.rows = {{"glmark2 build", 0.032, 0.011, 0.053, "regression"},
              {"vkmark cube", -0.02, -0.03, -0.01, "improvement"},
              {"igt gem_exec", 0.001, -0.004, 0.006, "equivalent"},
              {"no interval", 0.004, kNaN, kNaN, "inconclusive"},
              {"broken", kNaN, kNaN, kNaN, "inconclusive"}};
    f.geomean = ForestRow{"geomean", 0.004, -0.001, 0.009, "no change"};
    std::string s = forest_svg(f);
    dump("forest", s);
    expect_sound(s, 0, 4);
    EXPECT_NE(s.find("change (%)</text>"), std::string::npos);
    EXPECT_EQ(count(s, "class=\"band\""), 1u);
    EXPECT_EQ(count(s, "class=\"zero\""), 1u);
    EXPECT_EQ(count(s, "class=\"estimate\""), 5u);
    EXPECT_EQ(count(s, "<g class=\"geomean no-change\">"), 1u);
    EXPECT_NE(s.find("+3.2% [+1.1%, +5.3%]"), std::string::npos);
    EXPECT_NE(s.find("1 value not drawn"), std::string::npos);
    for (const char* label : {"glmark2 build", "vkmark cube", "igt gem_exec", "geomean"})
        EXPECT_NE(s.find(std::string(">") + label + "</text>"), std::string::npos) << label;

    // Many rows make the chart taller, never the rows overlap.
    ForestPlot big;
    for (int i = 0; i < 60; ++i) big.rows.push_back({"b" + std::to_string(i), 0.001 * i, 0, 0.002 * i, "regression"});
    std::string bs = forest_svg(big);
    expect_sound(bs, 0, 60);
    auto at = bs.find(" height=\"");
    ASSERT_NE(at, std::string::npos);
    EXPECT_GE(std::stod(bs.substr(at + 9)), 60 * 20.0);

    expect_sound(forest_svg(ForestPlot{}), 0, 0);
    ForestPlot odd;
    odd.threshold = kNaN;
    odd.rows = {{"x", 1e200, -kInf, kInf, "regression"}};
    expect_sound(forest_svg(odd), 0, 0);
}

TEST(PlotCharts, History) {
    HistoryPlot h;
    h.metric = "frame time";
    h.unit = "ms";
    for (int i = 0; i < 30; ++i)
        h.builds.push_back({"commit" + std::to_string(i), {i < 20 ? 10.0 : 11.0, i < 20 ? 10.1 : 11.1, i < 20 ? 9.9 : 10.9}});
    h.segments = {{0, 19, 10.0}, {20, 29, 11.0}};
    h.changes = {20};
    std::string s = history_svg(h);
    dump("history", s);
    expect_sound(s, 90, 0);
    EXPECT_EQ(count(s, "class=\"segment\""), 2u);
    EXPECT_EQ(count(s, "class=\"change\""), 1u);
    EXPECT_NE(s.find(">+10.0%</text>"), std::string::npos);
    EXPECT_NE(s.find("frame time (ms)</text>"), std::string::npos);
    // 30 builds in 720 px: labels thinned, the first kept.
    EXPECT_NE(s.find(">commit0</text>"), std::string::npos);
    EXPECT_LT(count(s, "class=\"tick-label\">commit"), 30u);
    EXPECT_GT(count(s, "class=\"tick-label\">commit"), 3u);

    // Nonsense indices are ignored, not followed.
    h.segments.push_back({25, 99, 3});
    h.changes = {0, 500, 20};
    expect_sound(history_svg(h), 90, 0);
    expect_sound(history_svg(HistoryPlot{}), 0, 0);
    HistoryPlot bad;
    bad.builds = {{"x", {kNaN, 1}}, {"y", {}}};
    bad.segments = {{0, 1, kInf}};
    bad.changes = {1};
    std::string bs = history_svg(bad);
    expect_sound(bs, 1, 0);
    EXPECT_NE(bs.find("1 value not drawn"), std::string::npos);
}

// A history of `builds` builds of n runs each, the level stepping by 2%
// at the middle build, the last run of the first build NaN.
HistoryPlot many_build_runs(size_t builds, size_t n) {
    HistoryPlot h;
    h.metric = "frame time";
    h.unit = "ms";
    for (size_t b = 0; b < builds; ++b) {
        HistoryBuild build{"commit" + std::to_string(b), {}};
        for (size_t i = 0; i < n; ++i)
            build.values.push_back((b < builds / 2 ? 16 : 16.32) + static_cast<double>((i * 7919) % 1000) / 2000);
        h.builds.push_back(std::move(build));
    }
    h.builds[0].values.back() = kNaN;
    h.segments = {{0, builds / 2 - 1, 16.25}, {builds / 2, builds - 1, 16.57}};
    h.changes = {builds / 2};
    return h;
}

TEST(PlotCharts, HistoryPastTheLimitDrawsBins) {
    // 30,000 runs over 10 builds: no circle, at most one column of
    // kColumnBins bins a build with one tooltip each, the caption says so,
    // and the segments and the change are drawn as before.
    const HistoryPlot h = many_build_runs(10, 3000);
    size_t drawable = 0;
    EXPECT_TRUE(history_drawn_as_bins(h, &drawable));
    EXPECT_EQ(drawable, 29999u);
    const std::string s = history_svg(h);
    dump("history_bins", s);
    expect_sound(s, 0, 0);
    EXPECT_NE(s.find("more than 2000 runs in the chart drawn as bins, not one mark per run: 10 builds: 29999 runs "
                     "in 10 x 24 bins"),
              std::string::npos)
        << s;
    EXPECT_NE(s.find(".gfxstat-chart .run-bin {"), std::string::npos);
    EXPECT_GE(count(s, "class=\"run-bin d"), 10u);
    EXPECT_LE(count(s, "class=\"run-bin d"), 10u * 24);
    EXPECT_EQ(count(s, "<title>commit"), 10u);  // one tooltip a build, on its column
    EXPECT_NE(s.find("<title>commit0: 2999 runs from "), std::string::npos);
    EXPECT_NE(s.find("<title>commit9: 3000 runs from "), std::string::npos);
    EXPECT_NE(s.find("1 value not drawn"), std::string::npos);
    EXPECT_EQ(count(s, "class=\"segment\""), 2u);
    EXPECT_EQ(count(s, "class=\"change\""), 1u);
    EXPECT_NE(s.find(">+2.0%</text>"), std::string::npos);
    // Bounded: at 10 times the runs the chart grows by a few bytes of
    // numbers, not by a mark per run.
    const std::string big = history_svg(many_build_runs(10, 30000));
    EXPECT_EQ(count(big, "<circle"), 0u);
    EXPECT_LT(static_cast<double>(big.size()), 1.05 * static_cast<double>(s.size()));
    EXPECT_LT(s.size(), 40000u);
}

TEST(PlotCharts, HistoryOfManyBuildsSharesColumns) {
    // 1,000 builds of 3 runs: more builds than the 156 columns of 4 px the
    // plot has room for, so consecutive builds share a column, with one
    // tooltip naming its first and last build; at 10 times the builds the
    // chart is about as large.
    const std::string s = history_svg(many_build_runs(1000, 3));
    dump("history_many_builds", s);
    expect_sound(s, 0, 0);
    EXPECT_NE(s.find("1000 builds: 2999 runs in 156 x 24 bins"), std::string::npos) << s;
    EXPECT_EQ(count(s, "<title>commit"), 156u);
    EXPECT_NE(s.find("<title>commit0 to commit6: 20 runs from "), std::string::npos);
    EXPECT_EQ(count(s, "class=\"segment\""), 2u);
    const std::string big = history_svg(many_build_runs(10000, 3));
    EXPECT_EQ(count(big, "<title>commit"), 156u);
    EXPECT_LT(static_cast<double>(big.size()), 1.1 * static_cast<double>(s.size()));
}

TEST(PlotCharts, HistoryUpToTheLimitDrawsEveryRun) {
    // 2000 drawable runs over 10 builds (one NaN among 2001): one circle
    // each, no bin, no bins' CSS, as before.
    HistoryPlot h = many_build_runs(10, 200);
    h.builds[9].values.push_back(16.4);
    size_t drawable = 0;
    EXPECT_FALSE(history_drawn_as_bins(h, &drawable));
    EXPECT_EQ(drawable, kMaxRunMarks);
    const std::string s = history_svg(h);
    expect_sound(s, kMaxRunMarks, 0);
    EXPECT_EQ(s.find("run-bin"), std::string::npos);
    EXPECT_EQ(s.find("drawn as bins"), std::string::npos);
}

TEST(PlotAxes, NiceTicks) {
    Ticks t = nice_ticks(0, 10, 5);
    EXPECT_EQ(t.values, (std::vector<double>{0, 2, 4, 6, 8, 10}));
    t = nice_ticks(16.05, 16.95, 5);
    EXPECT_DOUBLE_EQ(t.step, 0.2);
    EXPECT_LE(t.lo, 16.05);
    EXPECT_GE(t.hi, 16.95);
    EXPECT_EQ(tick_label(16.2, t), "16.2");
    // One value: padded around it, so it sits inside the axis.
    t = nice_ticks(5, 5);
    EXPECT_LT(t.lo, 5);
    EXPECT_GT(t.hi, 5);
    t = nice_ticks(0, 0);
    EXPECT_LT(t.lo, 0);
    EXPECT_GT(t.hi, 0);
    t = nice_ticks(0, 2e12, 4);
    EXPECT_EQ(tick_label(1e12, t), "1e12");
    t = nice_ticks(-3e-9, 0, 3);
    EXPECT_EQ(tick_label(-2e-9, t), "-2e-9");
    EXPECT_EQ(tick_label(0, t), "0");
    t = nice_ticks(kNaN, kInf);
    EXPECT_EQ(t.lo, 0);
    EXPECT_EQ(t.hi, 1);
}

TEST(PlotAxes, UnitsAreReadable) {
    ValueAxis a = value_axis("frame time", "s", 0.0004, 0.0009, 300, 50);
    EXPECT_EQ(a.label, "frame time (us)");
    EXPECT_NEAR(a.at(0.0004), a.scale(400), 1e-9);
    EXPECT_EQ(value_axis("score", "", 1, 2, 0, 1).label, "score");
    EXPECT_EQ(value_axis("memory", "KiB", 2048, 4096, 0, 1).label, "memory (MiB)");
}

TEST(PlotSvg, EscapingAndNumbers) {
    EXPECT_EQ(xml_text("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
    EXPECT_EQ(xml_text("\x1b[1m\n"), "\\x1b[1m\\n");
    EXPECT_EQ(xml_text("\xef\xbf\xbf"), "\\uffff");
    EXPECT_EQ(xml_text("é"), "é");
    EXPECT_EQ(xml_text("abcdefghij", 5).size(), 5u);
    EXPECT_EQ(svg_number(1.0), "1");
    EXPECT_EQ(svg_number(1.256), "1.26");
    EXPECT_EQ(svg_number(-0.001), "0");
    EXPECT_EQ(svg_number(-2.5), "-2.5");
    EXPECT_THROW(svg_number(kNaN), std::logic_error);
    EXPECT_THROW(svg_number(kInf), std::logic_error);
}

// The checks themselves can fail: xmllint refuses a broken document, and
// a printed NaN is found.
TEST(PlotScene, TheChecksCanFail) {
    if (!have_xmllint()) GTEST_SKIP() << "xmllint is not installed";
    EXPECT_NE(xml_problems("<svg><g></svg>"), "");
    EXPECT_NE(xml_problems("<svg><text>a & b</text></svg>"), "");
    EXPECT_EQ(xml_problems("<svg><text>a &amp; b</text></svg>"), "");
    EXPECT_TRUE(has_non_finite_word("<circle cx=\"-nan\"/>"));
    EXPECT_TRUE(has_non_finite_word("x=\"inf\""));
    EXPECT_FALSE(has_non_finite_word("not finite, infinite, information"));
}

TEST(PlotScene, CountsAndDocument) {
    Scene s;
    s.title = "t";
    s.group("v0").add(Circle{1, 2, 3, "run", "tip <1>"}).add(Line{0, 0, 1, 1, "interval median", {}});
    s.group().add(Line{0, 0, 1, 1, "intervals", {}});
    EXPECT_EQ(count_circles(s), 1u);
    EXPECT_EQ(count_lines_with_class(s, "interval"), 1u);
    std::string svg = write_svg(s, chart_css());
    EXPECT_NE(svg.find("<title>tip &lt;1&gt;</title></circle>"), std::string::npos);
    EXPECT_EQ(xml_problems(svg), "");
}

TEST(PlotPalette, OkabeItoInLightAndDark) {
    const std::string& css = chart_css();
    for (const char* colour : {"#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442"})
        EXPECT_NE(css.find(colour), std::string::npos) << colour;
    auto dark = css.find("@media (prefers-color-scheme: dark)");
    ASSERT_NE(dark, std::string::npos);
    EXPECT_NE(css.find(".v0 { color: #56B4E9; }", dark), std::string::npos);
    EXPECT_EQ(variant_class(9), "v1");
    EXPECT_EQ(boot_class(7), "b0");
    EXPECT_EQ(detail::histogram_bins(30), 7u);
    EXPECT_EQ(detail::histogram_bins(2), 5u);
    EXPECT_EQ(detail::histogram_bins(1000000), 50u);
}

}  // namespace
}  // namespace gfxstat::plot
