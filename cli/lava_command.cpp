// SPDX-License-Identifier: MIT
// gfxstat lava testdef [--name NAME] [-o FILE] [--job FILE --device-type T]
//     -- gfxstat run|ab|campaign resume|campaign analyze ARGS...
// writes a LAVA test definition whose run step is that gfxstat command
// with --lava on (so that it reports test sets, cases and its results
// file through LAVA's scripts, drivers/lava_signals.h), and with --job a
// job around it. The YAML is formats/lava_testdef.h's.
#include "cli/lava_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstring>
#include <utility>

#include "cli/command_line.h"
#include "cli/subcommands.h"
#include "text/nearest_word.h"
#include "data/input_error.h"
#include "data/safe_files.h"
#include "data/utf8.h"
#include "formats/lava_testdef.h"
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
    std::string name, description, output = "-", job, device_type, job_name, repository, path;
    int minutes = 60;
    std::vector<std::string> command;
    app.add_option("--name", name, "the definition's name, [-_a-zA-Z0-9.]+ (default: gfxstat-run, gfxstat-ab, ...)");
    app.add_option("--description", description, "the definition's description (default: the command)");
    app.add_option("-o,--output", output, "where the definition goes ('-': standard output, the default)");
    auto* job_opt = app.add_option("--job", job, "also write a LAVA job that runs the definition to this file");
    app.add_option("--device-type", device_type, "with --job: the job's device_type")->needs(job_opt);
    app.add_option("--job-name", job_name, "with --job: the job's name (default: the definition's)")->needs(job_opt);
    app.add_option("--timeout", minutes, "with --job: minutes the test action may take (default 60)")
        ->check(CLI::Range(1, 100000))
        ->needs(job_opt);
    auto* repo = app.add_option("--repository", repository,
                                "with --job: the git repository that holds the definition, instead of inline")
                     ->needs(job_opt);
    app.add_option("--path", path, "with --repository: the definition's path in it")->needs(repo);
    app.add_option("command", command, "-- gfxstat run|ab|campaign resume|campaign analyze ARGS...");
    if (const auto done = parse_command_line(app, argc, argv)) return *done;

    if (command.empty()) return fail("give the gfxstat command after --: -- gfxstat run ... (or ab, campaign)");
    const std::string& program = command[0];
    if (program != "gfxstat" && !(program.size() > 8 && program.ends_with("/gfxstat")))
        return fail("the command is a gfxstat command (gfxstat run, ab or campaign), not '" + program + "'");
    if (command.size() < 2) return fail("which gfxstat command: run, ab or campaign resume|analyze");
    const std::string& sub = command[1];
    size_t insert_at = 2;  // --lava on goes right after the command's words
    if (sub == "campaign") {
        if (command.size() < 3 || (command[2] != "resume" && command[2] != "analyze"))
            return fail("gfxstat campaign reports to LAVA from resume and analyze: -- gfxstat campaign resume DIR");
        insert_at = 3;
    } else if (sub != "run" && sub != "ab") {
        return fail("'" + sub + "' does not report to LAVA; give run, ab or campaign resume|analyze" +
                    text::did_you_mean(sub, {"run", "ab", "campaign"}));
    }
    for (const std::string& w : command)
        if (w == "--lava" || w.starts_with("--lava=")) return fail("leave --lava out: the definition adds --lava on");
    if (!repository.empty() && path.empty()) return fail("--repository wants --path, the definition's path in it");
    if (!job.empty() && device_type.empty()) return fail("--job wants --device-type, the job's device_type");

    // YAML holds Unicode text: name what is not UTF-8, rather than a byte
    // of the definition made from it.
    for (size_t i = 0; i < command.size(); ++i)
        if (const size_t at = data::first_invalid_utf8(command[i]); at != command[i].size())
            return fail("word " + std::to_string(i + 1) + " of the command ('" + command[i] +
                        "') is not UTF-8 (byte " + std::to_string(at + 1) +
                        "): a LAVA test definition is YAML, which holds Unicode text");
    for (const auto& [option, value] : {std::pair<const char*, const std::string*>{"--name", &name},
                                        {"--description", &description}, {"--job-name", &job_name},
                                        {"--device-type", &device_type}, {"--repository", &repository},
                                        {"--path", &path}})
        if (const size_t at = data::first_invalid_utf8(*value); at != value->size())
            return fail(std::string(option) + " '" + *value + "' is not UTF-8 (byte " + std::to_string(at + 1) +
                        "): a LAVA test definition is YAML, which holds Unicode text");
    std::vector<std::string> words(command.begin(), command.begin() + insert_at);
    words.insert(words.end(), {"--lava", "on"});
    words.insert(words.end(), command.begin() + insert_at, command.end());
    std::string line;
    for (const std::string& w : words) line += (line.empty() ? "" : " ") + formats::shell_quoted(w);

    formats::LavaTestdef t;
    t.name = name.empty() ? "gfxstat-" + sub : name;
    if (!formats::lava_definition_name(t.name))
        return fail("--name '" + t.name + "': a LAVA definition name is made of letters, digits, '-', '_' and '.'");
    t.description = description.empty() ? "gfxstat: " + line : description;
    // The test shell has no gfxstat unless the image does: say so as a
    // setup failure rather than a test that ran nothing.
    t.steps = {"command -v " + formats::shell_quoted(program) +
                   " >/dev/null || lava-test-raise gfxstat-not-installed",
               line};
    try {
        const std::string def = formats::render_lava_testdef(t);
        std::string job_text;
        if (!job.empty()) {
            formats::LavaJob j;
            j.job_name = job_name.empty() ? t.name : job_name;
            j.device_type = device_type;
            j.test_minutes = minutes;
            j.repository = repository;
            j.path = path;
            job_text = formats::render_lava_job(t, j);
        }
        if (output == "-") {
            if (const int status = write_stdout_now(kProg, def)) return status;
        } else {
            data::write_file_atomically(output, def, 0644, true);
        }
        if (!job.empty()) data::write_file_atomically(job, job_text, 0644, true);
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
