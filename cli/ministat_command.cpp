// SPDX-License-Identifier: MIT
// Options are parsed with getopt, not CLI11: ministat users rely on getopt's
// exact behaviour (clustered flags "-An", attached values "-w60", options
// after file names, "--"), and a drop-in must accept the same command lines.
#include "cli/ministat_command.h"

#include <getopt.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "analysis/ministat_plot.h"
#include "analysis/moments.h"
#include "analysis/order_stats.h"
#include "analysis/pooled_t.h"
#include "analysis/student_t.h"
#include "cli/command_describe.h"
#include "cli/sample_inputs.h"
#include "data/bench_filter.h"
#include "data/projection.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;

namespace {

constexpr int kMaxSets = 7;
constexpr int kMaxWidth = 100000;

void print_usage(FILE* out, const char* prog) {
    std::fprintf(out,
                 "Usage: %s [-C column] [-c confidence] [-d delimiter(s)] [-Anqs] [-w width] "
                 "[--metric NAME]... [--variant LABEL]... [--filter EXPR] [file [file ...]]\n",
                 prog);
    std::fprintf(out, "\tconfidence = any level in (0, 100); default 95\n");
    std::fprintf(out, "\t-A : print statistics only. suppress the graph.\n");
    std::fprintf(out, "\t-C : column number to extract (starts and defaults to 1)\n");
    std::fprintf(out, "\t-d : delimiter(s) string, default to \" \\t\"\n");
    std::fprintf(out, "\t-n : print summary statistics only, no graph/test\n");
    std::fprintf(out, "\t-q : same as -A\n");
    std::fprintf(out, "\t-s : print avg/median/stddev bars on separate lines\n");
    std::fprintf(out,
                 "\t-w : width of graph/test output (default 74 or terminal width)\n");
    std::fprintf(out, "\tfiles may be gfxstat results files: one data set per variant\n");
    std::fprintf(out, "\tLABEL=file names its data set; file:N reads its column N\n");
    std::fprintf(out,
                 "\t--metric : the metric to take from results files (repeatable; none: a report per metric)\n");
    std::fprintf(out, "\t--variant : a variant to take from results files (repeatable)\n");
    std::fprintf(out, "\t--filter : the observations of results files to report on (docs/filter-language.md)\n");
    std::fprintf(out, "\t--help : this text, on standard output\n");
}

// A usage error: ministat's whine, then the usage, exit 2. As `ministat`
// (the symlink) the whine is ministat's own line; as `gfxstat ministat` it
// starts with the command's name, as every gfxstat error does.
[[noreturn]] void usage(const char* prog, const char* whine) {
    if (std::strcmp(prog, "ministat") == 0) std::fprintf(stderr, "%s\n", whine);
    else std::fprintf(stderr, "%s: %s\n", prog, whine);
    print_usage(stderr, prog);
    std::exit(2);
}

// "95.0" for the levels ministat knows (as it prints them); other levels
// with as many digits as they were given, so 99.95 is not shown as 100.0.
std::string format_level(double level) {
    char buf[64];
    if (std::fabs(level * 10 - std::round(level * 10)) < 1e-9) {
        std::snprintf(buf, sizeof buf, "%.1f", level);
    } else {
        for (int prec = 2; prec <= 17; ++prec) {
            std::snprintf(buf, sizeof buf, "%.*f", prec, level);
            if (std::strtod(buf, nullptr) == level) break;
        }
    }
    return buf;
}

struct SetStats {
    analysis::Moments moments;
    analysis::Range range;
    double median = 0;
};

// What one report needs besides its data sets: ministat's options.
struct ReportOptions {
    bool separate = false, stats_only = false, no_plot = false;
    double level = 95;
    int width = 74;
};

// A data set's statistics (it holds at least 3 values). The median's
// selection reorders the values, as it does on the reading threads.
SetStats set_stats(data::Sample& s) {
    SetStats st;
    st.moments = analysis::moments(s.view());
    st.range = analysis::range(s.view());
    st.median = analysis::median(s.mutable_view());
    return st;
}

// ministat's report of data sets of at least 3 values each, at most
// kMaxSets: the legend, the plot, the table and Student's t of each set
// against the first.
void print_report(const std::vector<data::Sample>& samples, const std::vector<SetStats>& stats,
                  const ReportOptions& o) {
    for (size_t i = 0; i < samples.size(); ++i)
        std::printf("%c %s\n", analysis::ministat_symbol(static_cast<int>(i + 1)),
                    escape_text(samples[i].name).c_str());

    if (!o.stats_only && !o.no_plot) {
        std::vector<analysis::PlotSet> sets;
        for (size_t i = 0; i < samples.size(); ++i)
            sets.push_back({samples[i].view(), stats[i].moments.mean, stats[i].median,
                            stats[i].moments.stddev, stats[i].range.min, stats[i].range.max});
        analysis::PlotOptions opt;
        opt.width = o.width;
        opt.separate_bars = o.separate;
        for (const std::string& line : analysis::ministat_plot(sets, opt))
            std::printf("%s\n", line.c_str());
    }

    std::printf("    N           Min           Max        Median           Avg        Stddev\n");
    const std::string level_text = format_level(o.level);
    for (size_t i = 0; i < samples.size(); ++i) {
        const SetStats& s = stats[i];
        std::printf("%c %3zu %13.8g %13.8g %13.8g %13.8g %13.8g\n",
                    analysis::ministat_symbol(static_cast<int>(i + 1)), s.moments.n, s.range.min,
                    s.range.max, s.median, s.moments.mean, s.moments.stddev);
        if (i == 0 || o.stats_only) continue;
        const int df = static_cast<int>(s.moments.n + stats[0].moments.n - 2);
        const auto r = analysis::pooled_t_interval(
            stats[0].moments, s.moments, analysis::ministat_t_critical(o.level, df));
        if (r.significant) {
            std::printf("Difference at %s%% confidence\n", level_text.c_str());
            std::printf("\t%g +/- %g\n", r.difference, r.halfwidth);
            std::printf("\t%g%% +/- %g%%\n", r.relative_difference_percent,
                        r.relative_halfwidth_percent);
            std::printf("\t(Student's t, pooled s = %g)\n", r.pooled_sd);
        } else {
            std::printf("No difference proven at %s%% confidence\n", level_text.c_str());
        }
    }
}

const char* direction_words(data::Direction d) {
    switch (d) {
        case data::Direction::lower_is_better: return "lower is better";
        case data::Direction::higher_is_better: return "higher is better";
        case data::Direction::unknown: break;
    }
    return "direction unknown";
}

// "== gl_manhattan (fps, higher is better) ==": what the report below is of.
std::string metric_heading(const data::MetricInfo& m) {
    std::string head = "== " + m.name + " (";
    if (!m.unit.empty()) head += m.unit + ", ";
    return head + direction_words(m.direction) + ") ==";
}

// One report of the many-benchmark mode: a metric and its data sets.
struct MetricReport {
    data::MetricInfo metric;
    std::vector<LoadedSample> sets;
};

// The metrics of the results inputs to report on, one report each, in the
// order the inputs declare them (a metric of the second file that the
// first lacks comes after the first file's): per-run metrics only (frame
// times are within-run data, as compare skips them), narrowed to `wanted`
// when it is not empty. Each report holds the data sets of every input
// that has the metric, in input order; a variant without a value of it is
// left out of that report, with a note. Throws data::InputError for a
// wanted metric that no input holds, or that holds within-run values, and
// for a label on a file of several variants.
std::vector<MetricReport> metric_reports(const std::vector<SampleInput>& inputs, std::vector<InputOutcome>& outcomes,
                                         const std::vector<std::string>& wanted,
                                         const std::vector<std::string>& variants,
                                         const std::optional<data::BenchFilter>& filter, const char* prog) {
    const bool qualify = inputs.size() > 1;
    std::vector<MetricReport> reports;
    const auto report_of = [&](const data::MetricInfo& m) -> MetricReport* {
        if (m.within_run()) return nullptr;
        if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), m.name) == wanted.end()) return nullptr;
        for (MetricReport& r : reports)
            if (r.metric.name == m.name) return &r;
        reports.push_back({m, {}});
        return &reports.back();
    };
    for (const std::string& name : wanted) {
        bool held = false;
        for (size_t i = 0; i < outcomes.size(); ++i) {
            if (!outcomes[i].results) continue;
            const data::ResultsFile& file = *outcomes[i].results;
            if (const data::MetricInfo* m = file.find_metric(name)) {
                // A within-run metric is refused with the per-run metrics beside it.
                if (m->within_run()) select_metric_suggesting(file, inputs[i].name, name, variants);
                held = true;
            }
        }
        // No file has it: the first one's "has no metric", with the nearest names.
        for (size_t i = 0; i < outcomes.size() && !held; ++i)
            if (outcomes[i].results) select_metric_suggesting(*outcomes[i].results, inputs[i].name, name, variants);
    }
    // The filter: each file seen through it (data/projection.h), its
    // metrics in the order the file declares them (a projection declares
    // them in the order it meets them).
    std::vector<std::vector<std::string>> declared(outcomes.size());
    for (size_t i = 0; i < outcomes.size(); ++i) {
        if (!outcomes[i].results) continue;
        for (const data::MetricInfo& m : outcomes[i].results->metrics()) declared[i].push_back(m.name);
        if (!filter) continue;
        data::ProjectedResults p;
        try {
            p = data::project_results(*outcomes[i].results, *filter);
        } catch (const std::invalid_argument& e) {
            throw data::input_error(inputs[i].name, 0, e.what());
        }
        for (const std::string& note : p.notes)
            std::fprintf(stderr, "%s: note: %s: %s\n", prog, escape_text(inputs[i].name).c_str(),
                         escape_message(note).c_str());
        outcomes[i].results = std::move(p.file);
    }
    // Declared order first, so that data sets can be added input by input.
    for (size_t i = 0; i < outcomes.size(); ++i) {
        const InputOutcome& o = outcomes[i];
        if (o.results) {
            for (const std::string& name : declared[i])
                if (const data::MetricInfo* m = o.results->find_metric(name)) report_of(*m);
            for (const data::MetricInfo& m : o.results->metrics()) report_of(m);
        } else if (!o.samples.empty()) {
            report_of(o.samples[0].metric);
        }
    }
    for (size_t i = 0; i < outcomes.size(); ++i) {
        InputOutcome& o = outcomes[i];
        std::vector<LoadedSample> taken;
        if (o.results && filter && o.results->runs().empty()) continue;  // the filter kept none of its runs
        if (o.results) {
            for (data::MetricSelection& sel : data::select_all_metrics(*o.results, inputs[i].name, variants))
                if (report_of(sel.metric))
                    for (LoadedSample& s : input_samples(std::move(sel), inputs[i], qualify))
                        taken.push_back(std::move(s));
        } else {
            taken = std::move(o.samples);
        }
        for (LoadedSample& s : taken) {
            MetricReport* r = report_of(s.metric);
            if (!r) continue;
            if (s.sample.size() == 0) {
                std::fprintf(stderr, "%s: note: %s: no values of %s; left out of its report\n", prog,
                             escape_text(s.sample.name).c_str(), escape_text(s.metric.name).c_str());
                continue;
            }
            r->sets.push_back(std::move(s));
        }
    }
    return reports;
}

// ministat's options for gfxstat __describe (man page, completion): getopt
// has no description of its own, so this table sits beside the getopt
// string and long_options in ministat_main; an option added there is added
// here.
CommandDescription ministat_description() {
    auto opt = [](std::vector<std::string> names, const char* type, const char* description) {
        OptionDescription o;
        o.names = std::move(names);
        o.type = type;
        o.expected_min = o.expected_max = *type ? 1 : 0;
        o.description = description;
        return o;
    };
    CommandDescription d;
    d.name = "gfxstat ministat";
    d.description = "ministat's report: a histogram of each data set, its summary, and Student's t against "
                    "the first; the same options, output and exit statuses as ministat";
    d.options = {
        opt({"-A"}, "", "print statistics only; suppress the graph"),
        opt({"-C"}, "INT", "column number to extract (starts and defaults to 1)"),
        opt({"-c"}, "FLOAT", "confidence level, any level in (0, 100); default 95"),
        opt({"-d"}, "TEXT", "delimiter(s) string, default \" \\t\""),
        opt({"-n"}, "", "print summary statistics only, no graph/test"),
        opt({"-q"}, "", "same as -A"),
        opt({"-s"}, "", "print avg/median/stddev bars on separate lines"),
        opt({"-w"}, "INT", "width of graph/test output (default 74 or terminal width)"),
        opt({"--metric"}, "TEXT", "the metric to take from results files (repeatable; none: a report per "
                                  "metric of a results file that holds several)"),
        opt({"--variant"}, "TEXT", "a variant to take from results files (repeatable)"),
        opt({"--filter"}, "TEXT", "the observations of results files to report on, a report per metric kept "
                                  "(docs/filter-language.md)"),
        opt({"file"}, "TEXT", "column files or gfxstat results files (one data set per variant); "
                              "none: standard input; LABEL=FILE names its data set, FILE:N reads its column N"),
    };
    d.options.back().positional = true;
    d.options.back().expected_max = -1;
    d.options.back().expected_min = 0;
    return d;
}

// The many-benchmark mode (gfxstat's own: Debian's ministat reads no
// results files): one report per metric, each under a line naming the
// metric, separated by a blank line; each report's body is what
// `--metric NAME` alone prints. A report that cannot be made (a data set
// of fewer than 3 values) is said on stderr and the others still are: the
// exit status is the worst of the reports' (ministat's: 0, or 2).
int many_reports(const std::vector<SampleInput>& inputs, std::vector<InputOutcome>& outcomes,
                 const std::vector<std::string>& metrics, const std::vector<std::string>& variants,
                 const std::optional<data::BenchFilter>& filter, const data::ColumnFormat& format,
                 const ReportOptions& ro, const char* prog) {
    const bool plain = std::strcmp(prog, "ministat") == 0;
    for (size_t i = 0; i < outcomes.size(); ++i)
        if (!outcomes[i].results && !outcomes[i].samples.empty() && !outcomes[i].samples[0].from_results) {
            if (filter)
                std::fprintf(stderr,
                             "%s: %s is a column file: --filter applies to results files (gfxstat import "
                             "--from lines makes one)\n",
                             prog, escape_text(inputs[i].name).c_str());
            else
                std::fprintf(stderr,
                             "%s: %s is a column file, and a report per metric is made of results files: "
                             "choose one metric with --metric, or import it (gfxstat import --from lines)\n",
                             prog, escape_text(inputs[i].name).c_str());
            return 2;
        }
    for (InputOutcome& o : outcomes) {
        for (const std::string& note : o.notes)
            std::fprintf(stderr, "%s: warning: %s\n", prog, escape_message(note).c_str());
        o.notes.clear();
    }
    std::vector<MetricReport> reports;
    try {
        reports = metric_reports(inputs, outcomes, metrics, variants, filter, prog);
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s: %s\n", prog, escape_message(e.what()).c_str());
        return 2;
    }
    if (reports.empty()) {
        if (filter)
            std::fprintf(stderr, "%s: --filter '%s' keeps no metric with one sample per run\n", prog,
                         escape_text(filter->text()).c_str());
        else
            std::fprintf(stderr, "%s: %s holds no metric with one sample per run\n", prog,
                         escape_text(inputs[0].name).c_str());
        return 2;
    }
    for (const MetricReport& r : reports)
        if (r.sets.size() > static_cast<size_t>(kMaxSets))
            usage(prog, "Too many datasets (results files give one per variant; choose with --variant).");

    int status = 0;
    bool printed = false;
    for (MetricReport& r : reports) {
        const std::string metric = escape_text(r.metric.name);
        InputOutcome left_out;  // what reading left out of this metric's data sets
        left_out.samples = std::move(r.sets);
        warn_left_out(prog, left_out, format);
        if (left_out.samples.empty()) {
            std::fprintf(stderr, "%s: note: no values of %s; no report\n", prog, metric.c_str());
            continue;
        }
        std::vector<data::Sample> samples;
        std::vector<SetStats> stats;
        bool complete = true;
        for (LoadedSample& s : left_out.samples) {
            if (s.sample.size() < 3) {
                std::fprintf(stderr, "%s%s%s: Dataset %s must contain at least 3 data points\n", plain ? "" : prog,
                             plain ? "" : ": ", metric.c_str(), escape_text(s.sample.name).c_str());
                complete = false;
                break;
            }
            stats.push_back(set_stats(s.sample));
            samples.push_back(std::move(s.sample));
        }
        if (!complete) {
            status = std::max(status, 2);
            continue;
        }
        if (printed) std::printf("\n");
        std::printf("%s\n", escape_text(metric_heading(r.metric)).c_str());
        print_report(samples, stats, ro);
        printed = true;
    }
    return status;
}

}  // namespace

int ministat_main(int argc, char** argv, const char* prog) {
    if (describe_requested()) return describe_fixed(ministat_description());
    data::ColumnFormat format;
    bool separate = false, stats_only = false, no_plot = false;
    double level = 95;
    int width = 74;
    char* end = nullptr;

    if (isatty(STDOUT_FILENO)) {
        struct winsize ws;
        const char* cols = std::getenv("COLUMNS");
        if (cols != nullptr && *cols != '\0')
            width = std::atoi(cols);
        else if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != -1 && ws.ws_col > 0)
            width = ws.ws_col - 2;
        width = std::min(width, kMaxWidth);  // COLUMNS is not validated by anyone
    }

    ResultsChoice choice;
    std::vector<std::string> metrics;  // --metric, in the order given
    std::optional<data::BenchFilter> filter;
    enum { kMetric = 1000, kVariant, kFilter, kHelp };
    static const struct option long_options[] = {
        {"metric", required_argument, nullptr, kMetric},
        {"variant", required_argument, nullptr, kVariant},
        {"filter", required_argument, nullptr, kFilter},
        {"help", no_argument, nullptr, kHelp},
        {nullptr, 0, nullptr, 0}};
    optind = 0;  // full re-initialisation of glibc's getopt
    // As the `ministat` symlink, getopt's own messages, byte for byte as
    // Debian's ministat; as `gfxstat ministat`, one message, prefixed like
    // every gfxstat error (getopt silenced: ':' first reports a missing
    // argument apart).
    const bool plain = std::strcmp(prog, "ministat") == 0;
    opterr = plain ? 1 : 0;
    const auto bad_option = [&](bool missing) {
        // A short option's letter; a long one (optopt 0 or its code) as written.
        const std::string opt = optopt > 0 && optopt < 128 ? std::string("-") + static_cast<char>(optopt)
                                                          : std::string(argv[optind - 1] ? argv[optind - 1] : "");
        usage(prog, ((missing ? "option requires an argument: '" : "unrecognized option '") + escape_text(opt) + "'")
                        .c_str());
    };
    int c;
    while ((c = getopt_long(argc, argv, plain ? "AC:c:d:snqw:" : ":AC:c:d:snqw:", long_options, nullptr)) != -1) {
        switch (c) {
            case kMetric:
                if (std::find(metrics.begin(), metrics.end(), optarg) != metrics.end())
                    usage(prog, ("--metric '" + escape_text(optarg) + "' given twice").c_str());
                metrics.push_back(optarg);
                break;
            case kVariant: choice.variants.push_back(optarg); break;
            case kFilter:
                if (filter) usage(prog, "--filter given twice");
                try {
                    filter = data::BenchFilter::parse(optarg);
                } catch (const data::FilterSyntaxError& e) {
                    std::fprintf(stderr, "%s: %s\n", prog, escape_message(e.what()).c_str());
                    return 2;
                }
                break;
            case kHelp:  // not ministat's (it has none), but what a user tries first
                print_usage(stdout, prog);
                return 0;
            case 'A':
            case 'q': no_plot = true; break;
            case 'C': {
                long v = std::strtol(optarg, &end, 10);
                if (*end != '\0') usage(prog, "Invalid column number.");
                if (v <= 0) usage(prog, "Column number should be positive.");
                if (v > 1000000) usage(prog, "Column number too large.");
                format.column = static_cast<int>(v);
                break;
            }
            case 'c':
                level = std::strtod(optarg, &end);
                if (*end != '\0' || end == optarg) usage(prog, "Not a floating point number");
                if (!(level > 0 && level < 100))
                    usage(prog, "No support for confidence level (must be in (0, 100))");
                break;
            case 'd':
                if (*optarg == '\0') usage(prog, "Can't use empty delimiter string");
                format.delimiters = optarg;
                break;
            case 'n': stats_only = true; break;
            case 's': separate = true; break;
            case 'w': {
                long v = std::strtol(optarg, &end, 10);
                if (*end != '\0' || end == optarg) usage(prog, "Invalid width, not a number.");
                if (v < 0) usage(prog, "Unable to move beyond left margin.");
                if (v > kMaxWidth) usage(prog, "Width too large (at most 100000).");
                width = static_cast<int>(v);
                break;
            }
            case ':': bad_option(true); break;
            default:
                if (!plain) bad_option(false);
                usage(prog, "Unknown option");
        }
    }

    std::vector<SampleInput> inputs;
    if (optind == argc) {
        inputs.push_back({"-", "<stdin>"});
    } else {
        if (argc - optind > kMaxSets) usage(prog, "Too many datasets.");
        // An argument that names a file is that file (what ministat reads);
        // LABEL=FILE and FILE:N only where no such file exists.
        for (int i = optind; i < argc; ++i) {
            try {
                inputs.push_back(parse_sample_argument(argv[i]));
            } catch (const data::InputError& e) {
                std::fprintf(stderr, "%s: %s\n", prog, escape_message(e.what()).c_str());
                return 2;
            }
        }
    }
    // One --metric: its report, as ever. Several, a --filter, or none where
    // a results file holds several metrics: a report per metric (results
    // files are then kept whole, to be selected metric by metric).
    if (metrics.size() == 1 && !filter) choice.metric = metrics[0];
    else choice.whole = metrics.empty() ? ResultsChoice::Whole::when_several : ResultsChoice::Whole::always;

    ReportOptions ro;
    ro.separate = separate;
    ro.stats_only = stats_only;
    ro.no_plot = no_plot;
    ro.level = level;
    ro.width = width;

    // Statistics are computed on each file's reading thread (each thread
    // touches only its own input's slot). Data sets with fewer than 3
    // values are reported below, before anything is printed.
    std::vector<std::vector<SetStats>> input_stats(inputs.size());
    auto outcomes = read_inputs_parallel(
        inputs, format, choice, [&](size_t i, size_t k, LoadedSample& loaded) {
            if (input_stats[i].size() <= k) input_stats[i].resize(k + 1);
            data::Sample& s = loaded.sample;
            if (s.size() < 3) return;
            input_stats[i][k] = set_stats(s);
        });
    bool whole = false;
    for (size_t i = 0; i < outcomes.size(); ++i) {
        const InputOutcome& o = outcomes[i];
        if (o.open_errno) {
            // ministat's own words and status (err(1, "Cannot open %s", n)):
            // scripts written for it test for exit 1.
            std::fprintf(stderr, "%s: Cannot open %s: %s\n", prog, escape_text(inputs[i].name).c_str(),
                         std::strerror(o.open_errno));
            return 1;
        }
        if (!o.error.empty()) {
            std::fprintf(stderr, "%s: %s\n", prog, escape_message(o.error).c_str());
            return 2;
        }
        whole |= o.results.has_value();
    }
    if (whole || filter) return many_reports(inputs, outcomes, metrics, choice.variants, filter, format, ro, prog);

    std::vector<data::Sample> samples;
    std::vector<SetStats> stats;
    for (size_t i = 0; i < outcomes.size(); ++i) {
        InputOutcome& o = outcomes[i];
        warn_left_out(prog, o, format);
        for (size_t k = 0; k < o.samples.size(); ++k) {
            if (o.samples[k].sample.size() < 3) {
                // The symlink says it as ministat does; gfxstat ministat with its name.
                std::fprintf(stderr, "%s%sDataset %s must contain at least 3 data points\n", plain ? "" : prog,
                             plain ? "" : ": ", escape_text(o.samples[k].sample.name).c_str());
                return 2;
            }
            samples.push_back(std::move(o.samples[k].sample));
            stats.push_back(input_stats[i][k]);
        }
    }
    if (samples.size() > static_cast<size_t>(kMaxSets))
        usage(prog, "Too many datasets (results files give one per variant; choose with --variant).");

    print_report(samples, stats, ro);
    return 0;
}

}  // namespace gfxstat::cli
