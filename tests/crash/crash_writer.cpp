// SPDX-License-Identifier: MIT
// Helper for crash_test.py: a results-file writer that can be killed at any
// moment, and a checker that reads what it left behind.
//
//   crash_writer append PATH [--count N] [--fault ack-then-hang]
//       Opens a ResultsAppender on PATH (creating it), prints
//       "opened <next run index> <1 if a torn tail was cut off, else 0>",
//       then appends runs of variant "v" with consecutive indices, printing
//       "acked <index>" (flushed) each time append_run returns. Runs forever
//       unless --count is given. --fault ack-then-hang is a deliberately
//       broken writer for the driver's self-check: it acknowledges a run and
//       then stops before writing it.
//   crash_writer check PATH...
//       For each PATH: reads it ("read torn=<0|1> runs=<n>" and "run <index>"
//       per run), opens an appender on it ("repaired <0|1>"), appends the
//       next run ("appended <index>"), and reads it again
//       ("after torn=<0|1> runs=<n>"). "error <message>" on an InputError.
//
// The values of run i are a function of i (see make_run), so the driver can
// tell a complete record from a damaged one.
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "data/number_token.h"
#include "data/results_reader.h"
#include "data/results_writer.h"

namespace {

using namespace gfxstat::data;

NumberToken number(const std::string& text) {
    NumberToken t = parse_number_token(text);
    if (t.status != TokenStatus::decimal) {
        std::fprintf(stderr, "crash_writer: bad token %s\n", text.c_str());
        std::exit(3);
    }
    return t;
}

// Must match expected_run() in crash_test.py.
RunRecord make_run(uint64_t i, const std::string& env) {
    RunRecord r;
    r.variant = "v";
    r.run = i;
    r.environment = env;
    r.source = "crash_writer";
    const std::string n = std::to_string(i);
    MetricValues lat{"lat", {number(n + ".125"), number(std::to_string(3 * i) + ".5"),
                             number(std::to_string(i + 1) + "e-9")}, true};
    MetricValues fps{"fps", {number(std::to_string(7 * i))}, false};
    MetricValues pad{"pad", {}, true};
    for (uint64_t k = 0; k < i % 23; ++k) pad.values.push_back(number(std::to_string(k) + "." + n));
    r.metrics = {lat, fps, pad};
    return r;
}

std::string declare(ResultsAppender& app) {
    app.declare_metric({"lat", "us", Direction::lower_is_better, {}});
    app.declare_metric({"fps", "frames/s", Direction::higher_is_better, {}});
    app.declare_metric({"pad", "", Direction::unknown, {}});
    Environment env;
    env.fields = {{"hostname", "crash-test"}, {"note", "kill -9 \"at any time\""}};
    return app.add_environment(env);
}

int append(const std::string& path, long count, bool ack_then_hang) {
    ResultsAppender app(path);
    uint64_t i = app.file().next_run_index("v");
    std::printf("opened %" PRIu64 " %d\n", i, app.repaired().empty() ? 0 : 1);
    std::fflush(stdout);
    const std::string env = declare(app);
    for (long n = 0; count < 0 || n < count; ++n, ++i) {
        const RunRecord r = make_run(i, env);
        if (ack_then_hang) {  // the bug the driver must be able to catch
            std::printf("acked %" PRIu64 "\n", i);
            std::fflush(stdout);
            for (;;) ::pause();
        }
        app.append_run(r);
        std::printf("acked %" PRIu64 "\n", i);
        std::fflush(stdout);
    }
    return 0;
}

void check(const std::string& path) {
    std::printf("file %s\n", path.c_str());
    try {
        ReadReport rep;
        const ResultsFile f = read_results_path(path, path, &rep);
        std::printf("read torn=%d runs=%zu\n", rep.torn_tail ? 1 : 0, f.runs().size());
        for (const RunRecord& r : f.runs()) std::printf("run %" PRIu64 "\n", r.run);
        {
            ResultsAppender app(path);
            std::printf("repaired %d\n", app.repaired().empty() ? 0 : 1);
            const std::string env = declare(app);
            const uint64_t i = app.file().next_run_index("v");
            app.append_run(make_run(i, env));
            std::printf("appended %" PRIu64 "\n", i);
        }
        ReadReport after;
        const ResultsFile g = read_results_path(path, path, &after);
        std::printf("after torn=%d runs=%zu\n", after.torn_tail ? 1 : 0, g.runs().size());
    } catch (const std::exception& e) {
        std::string msg = e.what();
        for (char& c : msg)
            if (c == '\n') c = ' ';
        std::printf("error %s\n", msg.c_str());
    }
    std::printf("end\n");
}

int usage() {
    std::fprintf(stderr,
                 "usage: crash_writer append PATH [--count N] [--fault ack-then-hang]\n"
                 "       crash_writer check PATH...\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) return usage();
    const std::string mode = argv[1];
    if (mode == "append") {
        long count = -1;
        bool fault = false;
        for (int a = 3; a < argc; ++a) {
            if (!std::strcmp(argv[a], "--count") && a + 1 < argc) {
                count = std::strtol(argv[++a], nullptr, 10);
            } else if (!std::strcmp(argv[a], "--fault") && a + 1 < argc &&
                       !std::strcmp(argv[a + 1], "ack-then-hang")) {
                fault = true;
                ++a;
            } else {
                return usage();
            }
        }
        try {
            return append(argv[2], count, fault);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "crash_writer: %s\n", e.what());
            return 1;
        }
    }
    if (mode == "check") {
        for (int a = 2; a < argc; ++a) check(argv[a]);
        return 0;
    }
    return usage();
}
