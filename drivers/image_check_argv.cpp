// SPDX-License-Identifier: MIT
#include "drivers/image_check_argv.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace gfxstat::drivers {

namespace {

std::string base_name(const std::string& path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// glretrace's timing and profiling options (glretrace --help, apitrace 11):
// long ones without a value, and those that take one ("--NAME=V" or
// "--NAME V").
constexpr std::string_view kTimingFlags[] = {"--benchmark", "--pcpu",         "--pgpu",     "--pframe-times",
                                             "--ppd",       "--pmem",         "--gen-passes", "--list-metrics"};
constexpr std::string_view kTimingWithValue[] = {"--pcalls", "--pframes", "--pdrawcalls", "--min-cpu-time"};
// Snapshot options a checking run sets itself.
constexpr std::string_view kApitraceSnapshot[] = {"--snapshot-prefix", "--snapshot-format", "--snapshot",
                                                  "--snapshot-interval", "--call-nos"};
constexpr std::string_view kGfxreconScreenshot[] = {"--screenshot-all", "--screenshots", "--screenshot-dir",
                                                    "--screenshot-prefix", "--screenshot-format"};

// "--name" or "--name=..." for a long option `name`.
bool is_long(std::string_view arg, std::string_view name) {
    return arg == name || (starts_with(arg, name) && arg.size() > name.size() && arg[name.size()] == '=');
}

uint64_t call_number(std::string_view part, std::string_view whole) {
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || ec != std::errc() || end != part.data() + part.size())
        throw std::invalid_argument("--check-frames '" + std::string(whole) + "': '" + std::string(part) +
                                    "' is not a call number; give call numbers and ranges A-B (or A-B/STEP), "
                                    "separated by commas");
    return v;
}

std::vector<std::string> apitrace_argv(const std::vector<std::string>& argv, size_t options_at,
                                       const CheckArgvOptions& o) {
    std::vector<std::string> out(argv.begin(), argv.begin() + static_cast<std::ptrdiff_t>(options_at));
    if (o.snapshot_prefix.empty()) {
        out.insert(out.end(), {"--snapshot-format=MD5", "-s", "-"});
    } else {
        // Files are named by snapshot from 0, or by call with -S.
        out.insert(out.end(), {"-s", o.snapshot_prefix, o.callset.empty() ? "--call-nos=no" : "--call-nos=yes"});
    }
    if (!o.callset.empty()) out.insert(out.end(), {"-S", o.callset});
    for (size_t i = options_at; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a == "--") {  // the rest are operands
            out.insert(out.end(), argv.begin() + static_cast<std::ptrdiff_t>(i), argv.end());
            break;
        }
        if (a == "-s" || a == "-S" || starts_with(a, "-s") || starts_with(a, "-S") ||
            std::any_of(std::begin(kApitraceSnapshot), std::end(kApitraceSnapshot),
                        [&](std::string_view n) { return is_long(a, n); }))
            throw std::invalid_argument("--check-images: the command takes snapshots itself (" + a +
                                        "); a checking run chooses what it reads back: leave it out");
        if (a == "-b" || std::any_of(std::begin(kTimingFlags), std::end(kTimingFlags),
                                     [&](std::string_view n) { return a == n; }))
            continue;
        bool dropped = false;
        for (std::string_view n : kTimingWithValue) {
            if (a == n) {  // its value is the next argument
                ++i;
                dropped = true;
                break;
            }
            if (is_long(a, n)) {
                dropped = true;
                break;
            }
        }
        if (dropped) continue;
        // A cluster of short flags without values ("-bv"): -b leaves it.
        if (a.size() > 2 && a[0] == '-' && a[1] != '-' &&
            a.find_first_not_of("bdmtvw", 1) == std::string::npos) {
            std::string rest = "-";
            for (size_t c = 1; c < a.size(); ++c)
                if (a[c] != 'b') rest += a[c];
            if (rest.size() > 1) out.push_back(rest);
            continue;
        }
        out.push_back(a);
    }
    return out;
}

}  // namespace

ImageCheckFamily image_check_family(std::string_view parser_name) {
    if (parser_name == "apitrace") return ImageCheckFamily::apitrace;
    if (parser_name == "gfxrecon") return ImageCheckFamily::gfxrecon;
    return ImageCheckFamily::none;
}

std::string image_check_parsers_words() { return "apitrace or gfxrecon"; }

std::string image_check_refusal(std::string_view parser_name) {
    return "--check-images reads frames from apitrace's and GFXReconstruct's replayers: --parser " +
           image_check_parsers_words() + " (this command's parser: " +
           (parser_name.empty() ? std::string("none") : std::string(parser_name)) + ")";
}

std::vector<uint64_t> parse_check_frames(std::string_view callset) {
    std::vector<uint64_t> out;
    if (callset.empty()) throw std::invalid_argument("--check-frames: give call numbers, e.g. 1370,1392-1500/22");
    size_t start = 0;
    while (start <= callset.size()) {
        size_t comma = callset.find(',', start);
        if (comma == std::string_view::npos) comma = callset.size();
        const std::string_view part = callset.substr(start, comma - start);
        uint64_t first = 0, last = 0, step = 1;
        const size_t dash = part.find('-');
        if (dash == std::string_view::npos) {
            first = last = call_number(part, callset);
        } else {
            first = call_number(part.substr(0, dash), callset);
            std::string_view rest = part.substr(dash + 1);
            const size_t slash = rest.find('/');
            if (slash != std::string_view::npos) {
                step = call_number(rest.substr(slash + 1), callset);
                rest = rest.substr(0, slash);
            }
            last = call_number(rest, callset);
            if (last < first || step == 0)
                throw std::invalid_argument("--check-frames '" + std::string(callset) + "': the range '" +
                                            std::string(part) + "' is empty");
            if ((last - first) / step >= 1000000)
                throw std::invalid_argument("--check-frames '" + std::string(callset) + "': the range '" +
                                            std::string(part) + "' has more than a million calls");
        }
        for (uint64_t c = first;; c += step) {
            if (!out.empty() && c <= out.back())
                throw std::invalid_argument("--check-frames '" + std::string(callset) + "': call " +
                                            std::to_string(c) +
                                            " does not come after the calls before it; give them in increasing "
                                            "order, each once");
            out.push_back(c);
            if (last - c < step) break;
        }
        start = comma + 1;
    }
    return out;
}

CheckCommand image_check_command(const std::vector<std::string>& argv, ImageCheckFamily family,
                                 const CheckArgvOptions& o) {
    if (argv.empty()) throw std::invalid_argument("--check-images: no command");
    CheckCommand c;
    const std::string program = base_name(argv[0]);
    if (family == ImageCheckFamily::apitrace) {
        size_t options_at = 1;
        if (program == "apitrace") {
            if (argv.size() < 2 || (argv[1] != "replay" && argv[1] != "retrace"))
                throw std::invalid_argument("--check-images: with apitrace the command must be `apitrace replay "
                                            "...` (this one: apitrace " +
                                            (argv.size() < 2 ? std::string() : argv[1]) + ")");
            options_at = 2;
        } else if (program != "glretrace" && program != "eglretrace") {
            throw std::invalid_argument("--check-images: with --parser apitrace the command must run the "
                                        "retracer itself: glretrace, eglretrace or apitrace replay (this one: " +
                                        program + ")");
        }
        c.tool = program;
        c.argv = apitrace_argv(argv, options_at, o);
        c.files = !o.snapshot_prefix.empty();
        c.method = c.files ? "sha256-file" : "md5";
        return c;
    }
    if (family == ImageCheckFamily::gfxrecon) {
        if (program != "gfxrecon-replay")
            throw std::invalid_argument("--check-images: with --parser gfxrecon the command must run "
                                        "gfxrecon-replay itself (this one: " + program + ")");
        if (!o.callset.empty())
            throw std::invalid_argument("--check-frames chooses apitrace calls; gfxrecon-replay checks every frame");
        for (const std::string& a : argv)
            if (std::any_of(std::begin(kGfxreconScreenshot), std::end(kGfxreconScreenshot),
                            [&](std::string_view n) { return is_long(a, n); }))
                throw std::invalid_argument("--check-images: the command takes screenshots itself (" + a +
                                            "); a checking run chooses what it reads back: leave it out");
        c.tool = program;
        c.argv = {argv[0], "--screenshot-all", "--screenshot-dir", o.screenshot_dir};
        c.argv.insert(c.argv.end(), argv.begin() + 1, argv.end());
        c.files = true;
        c.method = "sha256-file";
        return c;
    }
    throw std::invalid_argument("--check-images: this parser cannot check images");
}

}  // namespace gfxstat::drivers
