// SPDX-License-Identifier: MIT
// gfxstat __describe: the JSON the man pages and the completion are made
// from, read back as a consumer reads it.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/command_describe.h"
#include "cli/command_line.h"
#include "cli/command_table.h"

using gfxstat::cli::describe_command;
using gfxstat::cli::describe_run;
using gfxstat::report::description_json;

namespace {

nlohmann::json described(const std::vector<std::string>& words) {
    const auto d = describe_command(words);
    EXPECT_TRUE(d.has_value());
    if (!d) return {};
    return nlohmann::json::parse(description_json(*d));
}

const nlohmann::json* option(const nlohmann::json& j, const std::string& name) {
    for (const auto& o : j["options"])
        for (const auto& n : o["names"])
            if (n == name) return &o;
    return nullptr;
}

TEST(CommandDescribe, CompareHasThresholdWithItsDefault) {
    const auto j = described({"compare"});
    EXPECT_EQ(j["name"], "gfxstat compare");
    EXPECT_NE(j["description"].get<std::string>().find("baseline"), std::string::npos);
    const auto* t = option(j, "--threshold");
    ASSERT_NE(t, nullptr);
    EXPECT_FALSE((*t)["positional"].get<bool>());
    EXPECT_EQ((*t)["type"], "FLOAT");
    EXPECT_EQ((*t)["expected_min"], 1);
    EXPECT_EQ((*t)["expected_max"], 1);
    EXPECT_FALSE((*t)["required"].get<bool>());
    // compare states the default in the option's description (its value
    // is set by a callback, so CLI11 holds no default text for it).
    EXPECT_NE((*t)["description"].get<std::string>().find("default 1"), std::string::npos);
    const auto* files = option(j, "files");
    ASSERT_NE(files, nullptr);
    EXPECT_TRUE((*files)["positional"].get<bool>());
    EXPECT_TRUE((*files)["required"].get<bool>());
    EXPECT_EQ((*files)["expected_max"], -1);
    const auto* gate = option(j, "--gate");
    ASSERT_NE(gate, nullptr);
    EXPECT_EQ((*gate)["expected_max"], 0);  // a flag
}

TEST(CommandDescribe, ChoicesFromIsMemberAndFromTheFormatsRegistry) {
    const auto compare = described({"compare"});
    const auto* format = option(compare, "--format");
    ASSERT_NE(format, nullptr);
    EXPECT_EQ((*format)["choices"], nlohmann::json::array({"text", "markdown", "csv", "json"}));
    const auto run = described({"run"});
    const auto* parser = option(run, "--parser");
    ASSERT_NE(parser, nullptr);
    const auto parsers = (*parser)["choices"].get<std::vector<std::string>>();
    EXPECT_NE(std::find(parsers.begin(), parsers.end(), "igt-exec-nop"), parsers.end());
    EXPECT_NE(std::find(parsers.begin(), parsers.end(), "time"), parsers.end());
    const auto* workload = option(run, "--workload");
    ASSERT_NE(workload, nullptr);
    const auto workloads = (*workload)["choices"].get<std::vector<std::string>>();
    EXPECT_NE(std::find(workloads.begin(), workloads.end(), "wakeup-latency"), workloads.end());
    const auto import = described({"import"});
    const auto* from = option(import, "--from");
    ASSERT_NE(from, nullptr);
    const auto froms = (*from)["choices"].get<std::vector<std::string>>();
    EXPECT_NE(std::find(froms.begin(), froms.end(), "hyperfine"), froms.end());
    // A range is not a list of choices.
    EXPECT_TRUE((*option(compare, "--width"))["choices"].empty());
}

TEST(CommandDescribe, HiddenOptionsAreLeftOutAndOrderIsKept) {
    int shown = 0, hidden = 0;
    std::string text;
    bool flag = false;
    const auto d = describe_run([&] {
        CLI::App app{"A test command.", "gfxstat test"};
        app.footer("The footer.");
        app.add_option("--shown", shown, "a shown option")->capture_default_str();
        app.add_option("--hidden", hidden, "not for users")->group("");
        app.add_flag("-f,--flag", flag, "a flag");
        app.add_option("text", text, "a positional");
        char name[] = "gfxstat test";
        char* argv[] = {name, nullptr};
        // parse_command_line describes instead of parsing.
        EXPECT_EQ(gfxstat::cli::parse_command_line(app, 1, argv), std::optional<int>(0));
    });
    ASSERT_TRUE(d.has_value());
    const auto j = nlohmann::json::parse(description_json(*d));
    EXPECT_EQ(j["name"], "gfxstat test");
    EXPECT_EQ(j["footer"], "The footer.");
    std::vector<std::string> first_names;
    for (const auto& o : j["options"]) first_names.push_back(o["names"].back());
    EXPECT_EQ(first_names, (std::vector<std::string>{"--help", "--shown", "--flag", "text"}));
    EXPECT_EQ(option(j, "--hidden"), nullptr);
    EXPECT_EQ((*option(j, "--shown"))["default"], "0");
    EXPECT_EQ((*option(j, "-f"))["names"], nlohmann::json::array({"-f", "--flag"}));
    // The request ends with the call: the next App parses for real.
    CLI::App app{"again", "gfxstat test"};
    int v = 0;
    app.add_option("--v", v, "");
    char name[] = "gfxstat test", opt[] = "--v", val[] = "7";
    char* argv[] = {name, opt, val, nullptr};
    EXPECT_EQ(gfxstat::cli::parse_command_line(app, 3, argv), std::nullopt);
    EXPECT_EQ(v, 7);
}

TEST(CommandDescribe, EveryCommandDescribesItself) {
    for (const auto& c : gfxstat::cli::command_table()) {
        const auto j = described({c.name});
        EXPECT_EQ(j["name"], std::string("gfxstat ") + c.name);
        for (const auto& s : j["subcommands"]) {
            const auto sub = described({c.name, s["name"].get<std::string>()});
            EXPECT_EQ(sub["name"], std::string("gfxstat ") + c.name + " " + s["name"].get<std::string>());
            EXPECT_FALSE(sub["options"].empty()) << sub["name"];
        }
        if (j["subcommands"].empty()) {
            EXPECT_FALSE(j["options"].empty()) << c.name;
        }
    }
    const auto analyze = described({"campaign", "analyze"});
    EXPECT_EQ(analyze["options_from"], nlohmann::json::parse(R"([["compare"]])"));
    const auto ministat = described({"ministat"});
    EXPECT_NE(option(ministat, "-w"), nullptr);
    EXPECT_NE(option(ministat, "--variant"), nullptr);
}

// version is a command like the others: in the table (so in usage, the man
// pages, the completion), describing its --json.
TEST(CommandTable, VersionIsACommand) {
    ASSERT_NE(gfxstat::cli::find_command("version"), nullptr);
    const auto j = described({"version"});
    EXPECT_EQ(j["name"], "gfxstat version");
    EXPECT_NE(option(j, "--json"), nullptr);
    EXPECT_NE(gfxstat::cli::command_list_text().find("  version "), std::string::npos);
}

TEST(CommandTable, UsageListsEveryCommand) {
    const std::string text = gfxstat::cli::command_list_text();
    for (const auto& c : gfxstat::cli::command_table()) {
        EXPECT_NE(text.find(std::string("  ") + c.name + " "), std::string::npos) << c.name;
        EXPECT_EQ(gfxstat::cli::one_line_summary(c).find('\n'), std::string::npos);
    }
    EXPECT_EQ(gfxstat::cli::find_command("__describe"), nullptr);
    EXPECT_NE(gfxstat::cli::find_command("compare"), nullptr);
}

}  // namespace
