// SPDX-License-Identifier: MIT
// gfxstat lava testdef [--name NAME] [-o FILE] [--job FILE --device-type T]
//     -- gfxstat run|ab|campaign resume|campaign analyze ARGS...
// writes a LAVA test definition whose run step is that gfxstat command
// with --lava on (so that it reports test sets, cases and its results
// file through LAVA's scripts, drivers/lava_signals.h), and with --job a
// job around it. The definition is formats/lava_run_step.h's, its YAML
// formats/lava_testdef.h's.
#include "cli/lava_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/command_line.h"
#include "cli/subcommands.h"
#include "data/input_error.h"
#include "data/safe_files.h"
#include "formats/lava_run_step.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

using text::escape_message;

namespace {

constexpr const char* kProg = "gfxstat lava";

void usage(FILE* out) {
    std::fprintf(out,
                 "usage: gfxstat lava SUBCOMMAND ...\n"
                 "\n"
                 "  testdef [--name NAME] [-o FILE] [--job FILE --device-type T]\n"
                 "          -- gfxstat run|ab|campaign resume|campaign analyze ARGS...\n"
                 "          a LAVA test definition that runs the command with --lava on\n"
                 "\n"
                 "See docs/ci-reports.md, \"LAVA\".\n");
}

int fail(const std::string& message) {
    std::fprintf(stderr, "%s testdef: %s\n", kProg, escape_message(message).c_str());
    return 2;
}

int testdef_main(int argc, char** argv) {
    CLI::App app{"Write a LAVA test definition (Lava-Test Test Definition 1.0) whose run step is the given gfxstat "
                 "command with --lava on: inside the test shell it reports a test set per variant, a case per "
                 "metric (and for ab per comparison), and its results file in the job's log.",
                 "gfxstat lava testdef"};
    formats::LavaTestdefRequest r;
    std::string output = "-";
    app.add_option("--name", r.name, "the definition's name, [-_a-zA-Z0-9.]+ (default: gfxstat-run, gfxstat-ab, ...)");
    app.add_option("--description", r.description, "the definition's description (default: the command)");
    app.add_option("-o,--output", output, "where the definition goes ('-': standard output, the default)");
    auto* job_opt = app.add_option("--job", r.job, "also write a LAVA job that runs the definition to this file");
    app.add_option("--device-type", r.device_type, "with --job: the job's device_type")->needs(job_opt);
    app.add_option("--job-name", r.job_name, "with --job: the job's name (default: the definition's)")->needs(job_opt);
    app.add_option("--timeout", r.minutes, "with --job: minutes the test action may take (default 60)")
        ->check(CLI::Range(1, 100000))
        ->needs(job_opt);
    auto* repo = app.add_option("--repository", r.repository,
                                "with --job: the git repository that holds the definition, instead of inline")
                     ->needs(job_opt);
    app.add_option("--path", r.path, "with --repository: the definition's path in it")->needs(repo);
    app.add_option("command", r.command, "-- gfxstat run|ab|campaign resume|campaign analyze ARGS...");
    if (const auto done = parse_command_line(app, argc, argv)) return *done;

    try {
        const formats::LavaTestdef t = formats::gfxstat_testdef(r);
        const std::string def = formats::render_lava_testdef(t);
        const std::string job_text =
            r.job.empty() ? "" : formats::render_lava_job(t, formats::gfxstat_testdef_job(t, r));
        if (output == "-") {
            if (const int status = write_stdout_now(kProg, def)) return status;
        } else {
            data::write_file_atomically(output, def, 0644, true);
        }
        if (!r.job.empty()) data::write_file_atomically(r.job, job_text, 0644, true);
    } catch (const std::invalid_argument& e) {
        return fail(e.what());
    } catch (const data::InputError& e) {
        return fail(e.what());
    }
    return 0;
}

const Subcommand kSubcommands[] = {
    {"testdef", "a LAVA test definition (and with --job a job) that runs a gfxstat run, ab or campaign "
                "command with --lava on",
     testdef_main},
};

}  // namespace

int lava_main(int argc, char** argv) {
    return run_subcommand({kProg, "LAVA test definitions and jobs that run gfxstat inside a LAVA test shell.",
                           "See docs/ci-reports.md, \"LAVA\".", kSubcommands, usage},
                          argc, argv);
}

}  // namespace gfxstat::cli
