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
#include <string>
#include <vector>

#include "analysis/ministat_plot.h"
#include "analysis/moments.h"
#include "analysis/order_stats.h"
#include "analysis/pooled_t.h"
#include "analysis/student_t.h"
#include "cli/command_describe.h"
#include "cli/sample_inputs.h"
#include "report/text_escape.h"

namespace gfxstat::cli {

using report::escape_message;
using report::escape_text;

namespace {

constexpr int kMaxSets = 7;
constexpr int kMaxWidth = 100000;

void print_usage(FILE* out, const char* prog) {
    std::fprintf(out,
                 "Usage: %s [-C column] [-c confidence] [-d delimiter(s)] [-Anqs] [-w width] "
                 "[--metric NAME] [--variant LABEL]... [file [file ...]]\n",
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
    std::fprintf(out, "\t--metric : the metric to take from results files\n");
    std::fprintf(out, "\t--variant : a variant to take from results files (repeatable)\n");
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
        opt({"--metric"}, "TEXT", "the metric to take from results files"),
        opt({"--variant"}, "TEXT", "a variant to take from results files (repeatable)"),
        opt({"file"}, "TEXT", "column files or gfxstat results files (one data set per variant); "
                              "none: standard input"),
    };
    d.options.back().positional = true;
    d.options.back().expected_max = -1;
    d.options.back().expected_min = 0;
    return d;
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
    enum { kMetric = 1000, kVariant, kHelp };
    static const struct option long_options[] = {
        {"metric", required_argument, nullptr, kMetric},
        {"variant", required_argument, nullptr, kVariant},
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
            case kMetric: choice.metric = optarg; break;
            case kVariant: choice.variants.push_back(optarg); break;
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
        for (int i = optind; i < argc; ++i) inputs.push_back({argv[i], argv[i]});
    }

    // Statistics are computed on each file's reading thread (each thread
    // touches only its own input's slot). Data sets with fewer than 3
    // values are reported below, before anything is printed.
    std::vector<std::vector<SetStats>> input_stats(inputs.size());
    auto outcomes = read_inputs_parallel(
        inputs, format, choice, [&](size_t i, size_t k, LoadedSample& loaded) {
            if (input_stats[i].size() <= k) input_stats[i].resize(k + 1);
            data::Sample& s = loaded.sample;
            if (s.size() < 3) return;
            input_stats[i][k].moments = analysis::moments(s.view());
            input_stats[i][k].range = analysis::range(s.view());
            input_stats[i][k].median = analysis::median(s.mutable_view());
        });
    std::vector<data::Sample> samples;
    std::vector<SetStats> stats;
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
    }
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

    for (size_t i = 0; i < samples.size(); ++i)
        std::printf("%c %s\n", analysis::ministat_symbol(static_cast<int>(i + 1)),
                    escape_text(samples[i].name).c_str());

    if (!stats_only && !no_plot) {
        std::vector<analysis::PlotSet> sets;
        for (size_t i = 0; i < samples.size(); ++i)
            sets.push_back({samples[i].view(), stats[i].moments.mean, stats[i].median,
                            stats[i].moments.stddev, stats[i].range.min, stats[i].range.max});
        analysis::PlotOptions opt;
        opt.width = width;
        opt.separate_bars = separate;
        for (const std::string& line : analysis::ministat_plot(sets, opt))
            std::printf("%s\n", line.c_str());
    }

    std::printf("    N           Min           Max        Median           Avg        Stddev\n");
    const std::string level_text = format_level(level);
    for (size_t i = 0; i < samples.size(); ++i) {
        const SetStats& s = stats[i];
        std::printf("%c %3zu %13.8g %13.8g %13.8g %13.8g %13.8g\n",
                    analysis::ministat_symbol(static_cast<int>(i + 1)), s.moments.n, s.range.min,
                    s.range.max, s.median, s.moments.mean, s.moments.stddev);
        if (i == 0 || stats_only) continue;
        const int df = static_cast<int>(s.moments.n + stats[0].moments.n - 2);
        const auto r = analysis::pooled_t_interval(
            stats[0].moments, s.moments, analysis::ministat_t_critical(level, df));
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
    return 0;
}

}  // namespace gfxstat::cli
