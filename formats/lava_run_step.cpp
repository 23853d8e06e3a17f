// SPDX-License-Identifier: MIT
#include "formats/lava_run_step.h"

#include <stdexcept>
#include <utility>

#include "data/utf8.h"
#include "text/nearest_word.h"

namespace gfxstat::formats {

namespace {

[[noreturn]] void refuse(const std::string& why) { throw std::invalid_argument(why); }

// Where --lava on goes: right after the command's words (2: run, ab; 3:
// campaign resume|analyze).
size_t command_words(const std::vector<std::string>& command) {
    if (command.empty()) refuse("give the gfxstat command after --: -- gfxstat run ... (or ab, campaign)");
    const std::string& program = command[0];
    if (program != "gfxstat" && !(program.size() > 8 && program.ends_with("/gfxstat")))
        refuse("the command is a gfxstat command (gfxstat run, ab or campaign), not '" + program + "'");
    if (command.size() < 2) refuse("which gfxstat command: run, ab or campaign resume|analyze");
    const std::string& sub = command[1];
    if (sub == "campaign") {
        if (command.size() < 3 || (command[2] != "resume" && command[2] != "analyze"))
            refuse("gfxstat campaign reports to LAVA from resume and analyze: -- gfxstat campaign resume DIR");
        return 3;
    }
    if (sub != "run" && sub != "ab")
        refuse("'" + sub + "' does not report to LAVA; give run, ab or campaign resume|analyze" +
               text::did_you_mean(sub, {"run", "ab", "campaign"}));
    return 2;
}

}  // namespace

LavaTestdef gfxstat_testdef(const LavaTestdefRequest& r) {
    const std::vector<std::string>& command = r.command;
    const size_t insert_at = command_words(command);
    for (const std::string& w : command)
        if (w == "--lava" || w.starts_with("--lava=")) refuse("leave --lava out: the definition adds --lava on");
    if (!r.repository.empty() && r.path.empty()) refuse("--repository wants --path, the definition's path in it");
    if (!r.job.empty() && r.device_type.empty()) refuse("--job wants --device-type, the job's device_type");

    // YAML holds Unicode text: name what is not UTF-8, rather than a byte
    // of the definition made from it.
    for (size_t i = 0; i < command.size(); ++i)
        if (const size_t at = data::first_invalid_utf8(command[i]); at != command[i].size())
            refuse("word " + std::to_string(i + 1) + " of the command ('" + command[i] + "') is not UTF-8 (byte " +
                   std::to_string(at + 1) + "): a LAVA test definition is YAML, which holds Unicode text");
    for (const auto& [option, value] : {std::pair<const char*, const std::string*>{"--name", &r.name},
                                        {"--description", &r.description}, {"--job-name", &r.job_name},
                                        {"--device-type", &r.device_type}, {"--repository", &r.repository},
                                        {"--path", &r.path}})
        if (const size_t at = data::first_invalid_utf8(*value); at != value->size())
            refuse(std::string(option) + " '" + *value + "' is not UTF-8 (byte " + std::to_string(at + 1) +
                   "): a LAVA test definition is YAML, which holds Unicode text");
    std::vector<std::string> words(command.begin(), command.begin() + insert_at);
    words.insert(words.end(), {"--lava", "on"});
    words.insert(words.end(), command.begin() + insert_at, command.end());
    std::string line;
    for (const std::string& w : words) line += (line.empty() ? "" : " ") + shell_quoted(w);

    LavaTestdef t;
    t.name = r.name.empty() ? "gfxstat-" + command[1] : r.name;
    if (!lava_definition_name(t.name))
        refuse("--name '" + t.name + "': a LAVA definition name is made of letters, digits, '-', '_' and '.'");
    t.description = r.description.empty() ? "gfxstat: " + line : r.description;
    // The test shell has no gfxstat unless the image does: say so as a
    // setup failure rather than a test that ran nothing.
    t.steps = {"command -v " + shell_quoted(command[0]) + " >/dev/null || lava-test-raise gfxstat-not-installed",
               line};
    return t;
}

LavaJob gfxstat_testdef_job(const LavaTestdef& t, const LavaTestdefRequest& r) {
    return {.job_name = r.job_name.empty() ? t.name : r.job_name,
            .device_type = r.device_type,
            .test_minutes = r.minutes,
            .repository = r.repository,
            .path = r.path};
}

}  // namespace gfxstat::formats
