// SPDX-License-Identifier: MIT
// ministat's command line. Options are parsed with getopt, not CLI11:
// ministat users rely on getopt's exact behaviour (clustered flags "-An",
// attached values "-w60", options after file names, "--"), and a drop-in
// must accept the same command lines.
#include "cli/ministat_options.h"
#include "cli/store_option.h"

#include <getopt.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "data/input_error.h"
#include "report/ministat_usage.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;

namespace {

constexpr int kMaxWidth = 100000;

}  // namespace

// A usage error: ministat's whine, then the usage, exit 2. As `ministat`
// (the symlink) the whine is ministat's own line; as `gfxstat ministat` it
// starts with the command's name, as every gfxstat error does.
[[noreturn]] void ministat_usage(const char* prog, const char* whine) {
    if (std::strcmp(prog, "ministat") == 0) std::fprintf(stderr, "%s\n", whine);
    else std::fprintf(stderr, "%s: %s\n", prog, whine);
    report::print_ministat_usage(stderr, prog);
    std::exit(2);
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
        opt({"--store"}, "URL", kStoreOptionHelp),
        opt({"file"}, "TEXT", "column files or gfxstat results files (one data set per variant); "
                              "none: standard input; LABEL=FILE names its data set, FILE:N reads its column N; "
                              "store:SELECTION reads stored runs (docs/store.md)"),
    };
    d.options.back().positional = true;
    d.options.back().expected_max = -1;
    d.options.back().expected_min = 0;
    return d;
}

std::optional<int> parse_ministat_arguments(int argc, char** argv, const char* prog, MinistatArguments& args) {
    data::ColumnFormat& format = args.format;
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

    ResultsChoice& choice = args.choice;
    std::vector<std::string>& metrics = args.metrics;
    std::optional<data::BenchFilter>& filter = args.filter;
    enum { kMetric = 1000, kVariant, kFilter, kHelp, kStore };
    std::string store;
    static const struct option long_options[] = {
        {"metric", required_argument, nullptr, kMetric},
        {"store", required_argument, nullptr, kStore},
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
        ministat_usage(prog, ((missing ? "option requires an argument: '" : "unrecognized option '") + escape_text(opt) + "'")
                        .c_str());
    };
    int c;
    while ((c = getopt_long(argc, argv, plain ? "AC:c:d:snqw:" : ":AC:c:d:snqw:", long_options, nullptr)) != -1) {
        switch (c) {
            case kMetric:
                if (std::find(metrics.begin(), metrics.end(), optarg) != metrics.end())
                    ministat_usage(prog, ("--metric '" + escape_text(optarg) + "' given twice").c_str());
                metrics.push_back(optarg);
                break;
            case kVariant: choice.variants.push_back(optarg); break;
            case kStore: store = optarg; break;
            case kFilter:
                if (filter) ministat_usage(prog, "--filter given twice");
                try {
                    filter = data::BenchFilter::parse(optarg);
                } catch (const data::FilterSyntaxError& e) {
                    std::fprintf(stderr, "%s: %s\n", prog, escape_message(e.what()).c_str());
                    return 2;
                }
                break;
            case kHelp:  // not ministat's (it has none), but what a user tries first
                report::print_ministat_usage(stdout, prog);
                return 0;
            case 'A':
            case 'q': no_plot = true; break;
            case 'C': {
                long v = std::strtol(optarg, &end, 10);
                if (*end != '\0') ministat_usage(prog, "Invalid column number.");
                if (v <= 0) ministat_usage(prog, "Column number should be positive.");
                if (v > 1000000) ministat_usage(prog, "Column number too large.");
                format.column = static_cast<int>(v);
                break;
            }
            case 'c':
                level = std::strtod(optarg, &end);
                if (*end != '\0' || end == optarg) ministat_usage(prog, "Not a floating point number");
                if (!(level > 0 && level < 100))
                    ministat_usage(prog, "No support for confidence level (must be in (0, 100))");
                break;
            case 'd':
                if (*optarg == '\0') ministat_usage(prog, "Can't use empty delimiter string");
                format.delimiters = optarg;
                break;
            case 'n': stats_only = true; break;
            case 's': separate = true; break;
            case 'w': {
                long v = std::strtol(optarg, &end, 10);
                if (*end != '\0' || end == optarg) ministat_usage(prog, "Invalid width, not a number.");
                if (v < 0) ministat_usage(prog, "Unable to move beyond left margin.");
                if (v > kMaxWidth) ministat_usage(prog, "Width too large (at most 100000).");
                width = static_cast<int>(v);
                break;
            }
            case ':': bad_option(true); break;
            default:
                if (!plain) bad_option(false);
                ministat_usage(prog, "Unknown option");
        }
    }

    use_store_option(store);
    std::vector<SampleInput>& inputs = args.inputs;
    if (optind == argc) {
        inputs.push_back({"-", "<stdin>"});
    } else {
        if (argc - optind > kMinistatMaxSets) ministat_usage(prog, "Too many datasets.");
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

    args.layout.separate = separate;
    args.layout.stats_only = stats_only;
    args.layout.no_plot = no_plot;
    args.layout.level = level;
    args.layout.width = width;
    return std::nullopt;

}

}  // namespace gfxstat::cli
