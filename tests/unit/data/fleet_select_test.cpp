// SPDX-License-Identifier: MIT
// The machine of each selected value: from each run's environment (its
// `machine` field, else its hostname), the same from all three selection
// paths (select_metric, select_all_metrics, read_and_select's one pass),
// unknown when any used run has no machine, boots nested in machines, and
// kept in step by erase_values.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "data/results_reader.h"
#include "data/results_select.h"

namespace {

using namespace gfxstat::data;

const std::string kHeader =
    "{\"format\":\"gfxstat-results\",\"version\":1,\"id\":\"0123456789abcdef0123456789abcdef\","
    "\"created\":\"2026-12-03T10:00:00.000000Z\",\"generator\":\"test\"}\n"
    "{\"type\":\"metric\",\"name\":\"fps\",\"unit\":\"fps\",\"direction\":\"higher\"}\n"
    "{\"type\":\"metric\",\"name\":\"other\",\"unit\":\"\",\"direction\":\"lower\"}\n";

std::string env(const std::string& id, const std::string& fields) {
    return "{\"type\":\"environment\",\"id\":\"" + id + "\"" + (fields.empty() ? "" : "," + fields) + "}\n";
}

std::string run(const std::string& variant, int index, const std::string& boot, const std::string& environment,
                const std::string& metrics) {
    std::string s = "{\"type\":\"run\",\"variant\":\"" + variant + "\",\"run\":" + std::to_string(index);
    if (!boot.empty()) s += ",\"boot\":\"" + boot + "\"";
    s += ",\"exit\":{\"class\":\"ok\"}";
    if (!environment.empty()) s += ",\"environment\":\"" + environment + "\"";
    return s + ",\"metrics\":{" + metrics + "}}\n";
}

// Three environments: two snapshots of one machine (machine id and
// hostname), one of a machine known by its hostname only.
std::string fleet_file() {
    std::string t = kHeader;
    t += env("env-0000000000000001", "\"machine\":\"m-aaaa\",\"hostname\":\"dut-01\",\"temp_cpu\":\"40\"");
    t += env("env-0000000000000002", "\"machine\":\"m-aaaa\",\"hostname\":\"dut-01\",\"temp_cpu\":\"41\"");
    t += env("env-0000000000000003", "\"hostname\":\"dut-02\"");
    int i = 0;
    t += run("a", i++, "b1", "env-0000000000000001", "\"fps\":10,\"other\":1");
    t += run("a", i++, "b1", "env-0000000000000002", "\"fps\":[11,12]");
    t += run("a", i++, "b2", "env-0000000000000003", "\"fps\":13,\"other\":2");
    // The same boot id on the other machine (a file that says so): two boots.
    t += run("a", i++, "b1", "env-0000000000000003", "\"fps\":14");
    t += run("a", i++, "b3", "env-0000000000000001", "\"fps\":15");
    return t;
}

void expect_fleet_layout(const BootLayout& l) {
    EXPECT_EQ(l.machines, (std::vector<std::string>{"m-aaaa", "dut-02"}));
    EXPECT_EQ(l.machine_names, (std::vector<std::string>{"dut-01", "dut-02"}));
    EXPECT_EQ(l.machine_of_value, (std::vector<uint32_t>{0, 0, 0, 1, 1, 0}));
    EXPECT_EQ(l.boots, (std::vector<std::string>{"b1@m-aaaa", "b2", "b1@dut-02", "b3"}));
    EXPECT_EQ(l.boot_of_value, (std::vector<uint32_t>{0, 0, 0, 1, 2, 3}));
    EXPECT_EQ(l.firsts, (std::vector<size_t>{0, 3, 4, 5}));
}

TEST(FleetSelection, MachinesFromEnvironmentsOnEveryPath) {
    const std::string text = fleet_file();
    const ResultsFile file = parse_results(text, "fleet.json");
    const MetricSelection one = select_metric(file, "fleet.json", "fps", {});
    ASSERT_EQ(one.variants.size(), 1u);
    expect_fleet_layout(one.variants[0].layout);
    const MetricSelection streamed = read_and_select(text, "fleet.json", "fps", {});
    expect_fleet_layout(streamed.variants[0].layout);
    const std::vector<MetricSelection> all = select_all_metrics(file, "fleet.json", {});
    ASSERT_EQ(all.size(), 2u);
    expect_fleet_layout(all[0].variants[0].layout);
    // "other": two runs, one per machine.
    const BootLayout& o = all[1].variants[0].layout;
    EXPECT_EQ(o.machines, (std::vector<std::string>{"m-aaaa", "dut-02"}));
    EXPECT_EQ(o.machine_of_value, (std::vector<uint32_t>{0, 1}));
}

TEST(FleetSelection, UnknownMachineMakesMachinesUnknown) {
    std::string t = kHeader;
    t += env("env-0000000000000001", "\"machine\":\"m-aaaa\"");
    t += env("env-0000000000000004", "\"kernel_release\":\"6.9\"");  // neither machine nor hostname
    t += run("a", 0, "b1", "env-0000000000000001", "\"fps\":1");
    t += run("a", 1, "b1", "env-0000000000000004", "\"fps\":2");
    t += run("b", 0, "b2", "env-0000000000000001", "\"fps\":1");
    t += run("b", 1, "b2", "", "\"fps\":2");  // no environment
    t += run("c", 0, "b3", "env-0000000000000001", "\"fps\":3");
    for (const MetricSelection& s :
         {read_and_select(t, "x.json", "fps", {}), select_metric(parse_results(t, "x.json"), "x.json", "fps", {})}) {
        ASSERT_EQ(s.variants.size(), 3u);
        EXPECT_TRUE(s.variants[0].layout.machine_of_value.empty());
        EXPECT_TRUE(s.variants[0].layout.machines.empty());
        EXPECT_TRUE(s.variants[1].layout.machine_of_value.empty());
        EXPECT_EQ(s.variants[2].layout.machines, (std::vector<std::string>{"m-aaaa"}));
        EXPECT_EQ(s.variants[2].layout.machine_of_value, (std::vector<uint32_t>{0}));
        // Boots are still known.
        EXPECT_EQ(s.variants[0].layout.boot_of_value.size(), 2u);
    }
}

TEST(FleetSelection, MachinesWithoutBoots) {
    std::string t = kHeader;
    t += env("env-0000000000000003", "\"hostname\":\"dut-02\"");
    t += env("env-0000000000000005", "\"hostname\":\"dut-05\"");
    t += run("a", 0, "", "env-0000000000000003", "\"fps\":1");
    t += run("a", 1, "", "env-0000000000000005", "\"fps\":2");
    const MetricSelection s = read_and_select(t, "x.json", "fps", {});
    EXPECT_TRUE(s.variants[0].layout.boot_of_value.empty());
    EXPECT_EQ(s.variants[0].layout.machine_of_value, (std::vector<uint32_t>{0, 1}));
}

TEST(FleetSelection, EraseValuesKeepsMachinesInStep) {
    const MetricSelection s = read_and_select(fleet_file(), "fleet.json", "fps", {});
    BootLayout l = s.variants[0].layout;
    erase_values(l, {1, 3});
    EXPECT_EQ(l.machine_of_value, (std::vector<uint32_t>{0, 0, 1, 0}));
    EXPECT_EQ(l.boot_of_value, (std::vector<uint32_t>{0, 0, 2, 3}));
    EXPECT_EQ(l.machines.size(), 2u);
    // Machines without boots are kept in step too.
    BootLayout m;
    m.machines = {"x", "y"};
    m.machine_of_value = {0, 1, 1, 0};
    erase_values(m, {0});
    EXPECT_EQ(m.machine_of_value, (std::vector<uint32_t>{1, 1, 0}));
}

}  // namespace
