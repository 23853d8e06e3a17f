// SPDX-License-Identifier: MIT
// compare --plot (report/plot_files.h).
#include "report/plot_files.h"

#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>

#include "data/digest.h"
#include "data/input_error.h"
#include "data/safe_files.h"
#include "drivers/program_filter.h"
#include "plot/charts.h"
#include "report/plot_inputs.h"

namespace gfxstat::cli {

namespace {

constexpr const char* kConverter = "rsvg-convert";

bool ends_with(const std::string& s, const char* tail) {
    const size_t n = std::strlen(tail);
    return s.size() > n && s.compare(s.size() - n, n, tail) == 0;
}

// A file name is at most NAME_MAX (255) bytes, and write_file_atomically
// names a temporary file beside it with ".tmp.PID.N" added; a "-N" may
// make the name unique. The longest name a plot is given leaves room for
// both. A metric's part of it is cut long before that: a file name is for
// finding the file; the picture holds the whole name (its <desc>).
constexpr size_t kMaxFileName = 255 - 32;
constexpr size_t kMaxMetricWord = 96;
constexpr size_t kHashDigits = 12;

// The metric's part of a plot's file name: its name with characters other
// than letters, digits, '.', '_' and '-' as '_', at most `room` bytes (and
// kMaxMetricWord). A longer one keeps its start and ends in "-" and the
// first kHashDigits of the SHA-256 of the whole name, so that two names
// cut alike still name two files, the same two in every run.
std::string file_word(const std::string& name, size_t room) {
    std::string out;
    for (const unsigned char c : name)
        out += ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
                c == '-')
                   ? static_cast<char>(c)
                   : '_';
    if (out.empty()) return "value";
    room = std::min(room, kMaxMetricWord);
    if (out.size() <= room) return out;
    data::Sha256 digest;
    digest.update(name);
    const std::string hash = digest.hex().substr(0, kHashDigits);
    const size_t keep = room > kHashDigits + 1 ? room - kHashDigits - 1 : 0;
    return keep ? out.substr(0, keep) + "-" + hash : hash;
}

// STEM-WORD.EXT for each name of `names` (the metrics' names, in order),
// unique (STEM-WORD-2.EXT for a second WORD), each within kMaxFileName.
std::vector<std::string> plot_file_names(const std::string& path, const std::vector<std::string>& names) {
    if (names.size() == 1) return {path};
    const size_t dot = path.rfind('.');
    const std::string stem = path.substr(0, dot), ext = path.substr(dot);
    const size_t slash = stem.rfind('/');
    const size_t stem_name = slash == std::string::npos ? stem.size() : stem.size() - slash - 1;
    const size_t used = stem_name + 1 + ext.size();
    const size_t room = kMaxFileName > used ? kMaxFileName - used : 0;
    std::vector<std::string> out;
    std::set<std::string> taken;
    for (const std::string& n : names) {
        const std::string word = file_word(n, room);
        std::string name = stem + "-" + word + ext;
        for (int i = 2; taken.count(name); ++i) name = stem + "-" + word + "-" + std::to_string(i) + ext;
        taken.insert(name);
        out.push_back(name);
    }
    return out;
}

void write_picture(const std::string& path, const std::string& svg) {
    data::write_file_atomically(path, ends_with(path, ".png") ? svg_to_png(svg) : svg, 0644, true);
}

}  // namespace

void check_plot_request(const std::string& path, const std::string& kind) {
    (void)kind;  // its values are checked by the option itself
    if (!ends_with(path, ".svg") && !ends_with(path, ".png"))
        throw data::InputError("--plot " + path + ": name a .svg file (or .png, drawn through " + kConverter + ")");
    if (ends_with(path, ".png") && !drivers::program_in_path(kConverter))
        throw data::InputError("--plot " + path + ": a PNG is made by " + kConverter +
                               " (Debian: apt install librsvg2-bin), which is not in PATH; install it, or write an "
                               ".svg");
}

std::string svg_to_png(const std::string& svg) {
    const drivers::FilterRun run = drivers::run_filter({kConverter, "--format=png"}, svg, "the SVG");
    switch (run.failed) {
        case drivers::FilterRun::Failed::none: break;
        case drivers::FilterRun::Failed::input:
            throw data::InputError(std::string("--plot: cannot hold the SVG for ") + kConverter + ": " +
                                   std::strerror(run.error));
        case drivers::FilterRun::Failed::pipe:
            throw data::InputError(std::string("--plot: pipe: ") + std::strerror(run.error));
        case drivers::FilterRun::Failed::spawn:
            throw data::InputError(std::string("--plot: cannot run ") + kConverter + ": " + std::strerror(run.error) +
                                   (run.error == ENOENT ? " (Debian: apt install librsvg2-bin)" : ""));
    }
    const int status = run.status;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw data::InputError(std::string("--plot: ") + kConverter + " failed (" +
                               (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                                  : "signal " + std::to_string(WTERMSIG(status))) +
                               ")");
    const std::string& png = run.output;
    if (png.size() < 8 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0)
        throw data::InputError(std::string("--plot: ") + kConverter + " wrote no PNG");
    return png;
}

std::vector<std::string> write_plots(const std::string& path, const std::string& kind, const CompareReport& report,
                                     const std::vector<data::ResultsFile>& files) {
    std::vector<std::string> written;
    if (kind == "forest") {
        const std::optional<plot::ForestPlot> f = forest_plot(report);
        if (!f) throw data::InputError("--plot-kind forest: no benchmark has a comparison of its own to draw");
        write_picture(path, plot::forest_svg(*f, forest_options(*f)));
        written.push_back(path);
        return written;
    }
    std::vector<std::string> titles;
    for (const MetricReport& m : report.metrics) titles.push_back(metric_title(m));
    const std::vector<std::string> names = plot_file_names(path, titles);
    for (size_t i = 0; i < report.metrics.size(); ++i) {
        write_picture(names[i], plot::metric_chart_svg(kind, metric_plot(report, report.metrics[i], files)));
        written.push_back(names[i]);
    }
    return written;
}

std::vector<std::string> write_history_plots(const std::string& path, const std::vector<plot::HistoryPlot>& plots) {
    std::vector<std::string> written;
    std::vector<std::string> metrics;
    for (const plot::HistoryPlot& h : plots) metrics.push_back(h.metric);
    const std::vector<std::string> names = plot_file_names(path, metrics);
    for (size_t i = 0; i < plots.size(); ++i) {
        write_picture(names[i], plot::history_svg(plots[i]));
        written.push_back(names[i]);
    }
    return written;
}

}  // namespace gfxstat::cli
