// SPDX-License-Identifier: MIT
// Writes analysis/dip_table.cpp: quantiles of Hartigan's dip for uniform
// samples (the least favourable unimodal null), by Monte Carlo simulation
// with gfxstat::analysis::simulate_dip_quantiles, for the p-values of
// gfxstat::analysis::dip_p_value.
//
//   gfxstat_make_dip_table [--replicates N] [--large-replicates M]
//                          [--seed S] [--threads T] [OUTPUT]
//
// N replicates for n <= 200, M for larger n (defaults 1000001 and 200001:
// about 3.2 CPU minutes on one thread). With N - 1 and M - 1 multiples of
// 10000 every tabulated probability falls on an order statistic, so atoms
// of the null distribution come out exactly. Without OUTPUT the file goes to
// standard output; with it, the file is written next to OUTPUT and renamed
// over it only when complete. The result does not depend on T (default: all
// hardware threads).
//
// The probability grid keeps R's qDiptab probabilities up to 0.7 and is
// denser above. Below 0.7 it must stay as it is: for n <= 9 the smallest dip,
// 1/(2n), is an atom of the null distribution (mass about 0.67, 0.34, 0.13,
// 0.044, 0.013, 0.003 for n = 4..9), so several tabulated quantiles equal
// it, and dip_p_value gives such a dip the mean of their probabilities, as
// R's dip.test (approx with ties = mean) does. That p-value depends on which
// probabilities the grid has below the atom's mass; with R's points there it
// agrees with R (e.g. 0.9029 for a constant sample of 5, 0.964 of 6).
#include "analysis/dip_simulation.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <unistd.h>

namespace {

using gfxstat::analysis::simulate_dip_quantiles;

constexpr size_t kSizes[] = {4,  5,  6,  7,  8,  9,   10,  11,  12,  13,  14,   15,   16,   18,   20,  25,
                             30, 35, 40, 50, 60, 70,  80,  100, 150, 200, 300, 500, 1000, 2000, 5000};
constexpr size_t kLargeFrom = 201;  // sizes from here use --large-replicates

std::vector<double> probability_grid() {
    std::vector<double> p = {0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
    for (int k = 70; k <= 99; ++k) p.push_back(k / 100.0);
    for (double v : {0.995, 0.998, 0.999, 0.9995, 0.9998, 0.9999, 1.0}) p.push_back(v);
    return p;
}

[[noreturn]] void usage_error(const std::string& what) {
    std::fprintf(stderr,
                 "gfxstat_make_dip_table: %s\n"
                 "usage: gfxstat_make_dip_table [--replicates N] [--large-replicates M] "
                 "[--seed S] [--threads T] [OUTPUT]\n",
                 what.c_str());
    std::exit(2);
}

uint64_t parse_count(const char* option, const char* text) {
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || text[0] == '-')
        usage_error(std::string(option) + " expects a non-negative integer, got '" + text + "'");
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    uint64_t replicates = 1000001, large_replicates = 200001, seed = 20240517;
    unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    const char* output = nullptr;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        auto value = [&]() -> const char* {
            if (i + 1 >= argc) usage_error(std::string(a) + " needs a value");
            return argv[++i];
        };
        if (a == "--replicates") replicates = parse_count("--replicates", value());
        else if (a == "--large-replicates") large_replicates = parse_count("--large-replicates", value());
        else if (a == "--seed") seed = parse_count("--seed", value());
        else if (a == "--threads") threads = static_cast<unsigned>(parse_count("--threads", value()));
        else if (a == "-h" || a == "--help") usage_error("help requested");
        else if (!a.empty() && a[0] == '-') usage_error("unknown option " + std::string(a));
        else if (output) usage_error("more than one output file");
        else output = argv[i];
    }
    if (replicates < 2 || large_replicates < 2) usage_error("need at least 2 replicates");
    if (threads < 1) threads = 1;

    // Write beside the target and rename, so that a failure never leaves a
    // half-written table; created first so that a bad path fails at once.
    std::string tmp;
    FILE* f = nullptr;
    if (output) {
        tmp = std::string(output) + ".tmp." + std::to_string(getpid());
        f = std::fopen(tmp.c_str(), "wb");
        if (!f) {
            std::fprintf(stderr, "gfxstat_make_dip_table: cannot create %s: %s\n", tmp.c_str(),
                         std::strerror(errno));
            return 2;
        }
    }

    const std::vector<double> probs = probability_grid();
    // Shortest decimal that reads back as the same double.
    auto number = [](double v) {
        char buf[64];
        const auto res = std::to_chars(buf, buf + sizeof buf, v);
        return std::string(buf, res.ptr);
    };
    std::string out;
    auto add = [&](const char* fmt, auto... args) {
        char buf[256];
        const int len = std::snprintf(buf, sizeof buf, fmt, args...);
        out.append(buf, static_cast<size_t>(std::clamp(len, 0, static_cast<int>(sizeof buf) - 1)));
    };

    out +=
        "// SPDX-License-Identifier: MIT\n"
        "// GENERATED FILE - do not edit by hand.\n"
        "// Written by tools/make_dip_table.cpp:\n";
    add("//   gfxstat_make_dip_table --replicates %" PRIu64 " --large-replicates %" PRIu64
        " --seed %" PRIu64 " analysis/dip_table.cpp\n",
        replicates, large_replicates, seed);
    out +=
        "// Quantiles of Hartigan's dip of uniform samples, by Monte Carlo simulation\n"
        "// (analysis/dip_simulation.cpp); dip_p_value (analysis/dip.cpp) interpolates\n"
        "// in them. Type-7 quantiles of the simulated dips; replicates per size:\n";
    for (size_t n : kSizes)
        add("//   n = %zu: %" PRIu64 "\n", n, n >= kLargeFrom ? large_replicates : replicates);
    out +=
        "#include \"analysis/dip_simulation.h\"\n\n"
        "namespace gfxstat::analysis {\n\n"
        "namespace {\n\n"
        "constexpr double kProbabilities[] = {\n";
    for (double p : probs) out += "    " + number(p) + ",\n";
    out += "};\n\nconstexpr size_t kSizes[] = {\n";
    for (size_t n : kSizes) add("    %zu,\n", n);
    out += "};\n\n// kQuantiles[i * size(kProbabilities) + j]: quantile kProbabilities[j] at n = kSizes[i].\n";
    out += "constexpr double kQuantiles[] = {\n";

    const auto start = std::chrono::steady_clock::now();
    for (size_t n : kSizes) {
        const uint64_t reps = n >= kLargeFrom ? large_replicates : replicates;
        const auto t0 = std::chrono::steady_clock::now();
        const std::vector<double> q =
            simulate_dip_quantiles(n, reps, seed, probs, static_cast<int>(threads));
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::fprintf(stderr, "n = %zu: %" PRIu64 " replicates, %.1f s\n", n, reps, secs);
        add("    // n = %zu\n", n);
        for (double v : q) out += "    " + number(v) + ",\n";
    }
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "total %.1f s with %u thread(s)\n", total, threads);

    const uint64_t smallest = std::min(replicates, large_replicates);
    out += "};\n\n}  // namespace\n\n";
    out += "const DipTable& dip_table() {\n";
    add("    static const DipTable table{kProbabilities, kSizes, kQuantiles, %" PRIu64 ", %" PRIu64 "u};\n",
        smallest, seed);
    out += "    return table;\n}\n\n}  // namespace gfxstat::analysis\n";

    if (!output) {
        if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size() || std::fflush(stdout) != 0) {
            std::fprintf(stderr, "gfxstat_make_dip_table: writing standard output: %s\n", std::strerror(errno));
            return 2;
        }
        return 0;
    }
    const bool ok = std::fwrite(out.data(), 1, out.size(), f) == out.size() && std::fflush(f) == 0 &&
                    fsync(fileno(f)) == 0;
    const int err = errno;
    if (std::fclose(f) != 0 || !ok) {
        std::fprintf(stderr, "gfxstat_make_dip_table: writing %s: %s\n", tmp.c_str(), std::strerror(err));
        std::remove(tmp.c_str());
        return 2;
    }
    if (std::rename(tmp.c_str(), output) != 0) {
        std::fprintf(stderr, "gfxstat_make_dip_table: renaming %s to %s: %s\n", tmp.c_str(), output,
                     std::strerror(errno));
        std::remove(tmp.c_str());
        return 2;
    }
    return 0;
}
