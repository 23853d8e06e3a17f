// SPDX-License-Identifier: MIT
// The guess of an import format (formats/recognise.h) on every import
// fixture of tests/data/import, and on what must never be taken for one:
// gfxstat results files, column files, random bytes, empty input; the
// hint that cli/ builds from it, with the file name quoted for a shell.
#include "formats/recognise.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "formats/import_hint.h"
#include "text/shell_quote.h"
#include "formats/registry.h"

namespace gfxstat::formats {
namespace {

namespace fs = std::filesystem;

const fs::path kImport = fs::path(GFXSTAT_SOURCE_DIR) / "tests/data/import";

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string guess(const std::string& text) {
    const auto f = recognise_import(text);
    return f ? std::string(f->format) : "";
}

// Every fixture of a format's directory that holds something of its shape
// (empty and blank files, a CSV header without rows, are nothing).
TEST(RecogniseImport, EveryFixtureAsItsFormat) {
    const std::set<std::string> shapeless = {"csv/empty.csv", "csv/header_only.csv", "ezbench/blank.txt",
                                             "gotest/no_benchmarks.txt"};
    size_t checked = 0;
    for (const auto& dir : fs::directory_iterator(kImport)) {
        const std::string format = dir.path().filename().string();
        for (const auto& f : fs::directory_iterator(dir.path())) {
            const std::string rel = format + "/" + f.path().filename().string();
            const std::string text = slurp(f.path());
            if (shapeless.count(rel)) {
                EXPECT_NE(guess(text), format) << rel;
                continue;
            }
            // A CSV with a broken quote or a wrong cell count still has a
            // table's header, but which rows it has cannot be told: those
            // are allowed to go unrecognised, never to be called another format.
            const std::string g = guess(text);
            if (format == "csv" && g.empty()) continue;
            EXPECT_EQ(g, format) << rel;
            ++checked;
        }
    }
    EXPECT_GE(checked, 30u);  // the fixtures are there
}

// The saved program outputs of tests/fixtures and tests/data/run_outputs:
// each is taken for the format whose parser reads it, never for another
// (presentmon.csv is a PresentMon capture, not a plain CSV).
TEST(RecogniseImport, SavedOutputsAsTheirParsersFormat) {
    const fs::path src(GFXSTAT_SOURCE_DIR);
    const std::vector<std::pair<std::string, std::string>> prefixes = {
        {"presentmon", "presentmon"}, {"mangohud", "mangohud"},       {"vkmark", "vkmark"},
        {"piglit_replay", "piglit-replay"}, {"glmark2", "glmark2"},   {"glretrace", "apitrace"},
        {"eglretrace", "apitrace"},   {"gfxrecon-replay", "gfxrecon"}, {"glxgears", "glxgears"},
        {"gem_syslatency", "igt-syslatency"}, {"gem_latency", "igt-latency"},
        {"gem_exec_nop", "igt-exec-nop"}, {"gem_fence_upload", "igt-fence-upload"}};
    size_t recognised = 0;
    for (const char* dir : {"tests/fixtures/frames", "tests/fixtures/mesa", "tests/data/run_outputs"})
        for (const auto& f : fs::directory_iterator(src / dir)) {
            const std::string name = f.path().filename().string();
            std::string want;
            for (const auto& [prefix, format] : prefixes)
                if (name.rfind(prefix, 0) == 0) want = format;
            const std::string g = guess(slurp(f.path()));
            if (g.empty()) continue;  // a failed run's output, a README: nothing to import
            EXPECT_EQ(g, want) << name;
            ++recognised;
        }
    EXPECT_GE(recognised, 25u);
    for (const char* must : {"tests/fixtures/frames/presentmon.csv", "tests/fixtures/frames/mangohud_0.6.8_vkcube.csv",
                             "tests/fixtures/frames/mangohud_0.6.8_vkcube_summary.csv",
                             "tests/fixtures/frames/vkmark.txt", "tests/fixtures/frames/piglit_replay_profile.txt",
                             "tests/fixtures/mesa/glmark2-es2-default-benchmarks.stdout",
                             "tests/fixtures/mesa/glretrace-pframe-times.stdout",
                             "tests/fixtures/mesa/gfxrecon-replay.stdout",
                             "tests/data/run_outputs/gem_syslatency.n_t1.txt"})
        EXPECT_NE(guess(slurp(src / must)), "") << must;
}

TEST(RecogniseImport, Shapes) {
    EXPECT_EQ(guess(R"({"results": [{"command": "sleep 1", "mean": 1.0, "times": [1.0]}]})"), "hyperfine");
    EXPECT_EQ(guess(R"({"context": {"num_cpus": 8}, "benchmarks": [{"name": "BM_x"}]})"), "gbench");
    EXPECT_EQ(guess("goos: linux\nBenchmarkDecode-8   1000   1234 ns/op\nPASS\n"), "gotest");
    EXPECT_EQ(guess("GtkEntry: float(0.09) s\n: str(completed)\n"), "ezbench");
    EXPECT_EQ(guess("<?xml version=\"1.0\"?>\n<PhoronixTestSuite>\n<Generated>"), "pts");
    EXPECT_EQ(guess("variant,fps\nmesa-24,61.5\nmesa-24,60.9\n"), "csv");
    EXPECT_EQ(guess("\r\n  \n{\"results\": [{\"command\": \"x\", \"mean\": 1"), "hyperfine");  // cut anywhere
}

// Every name the guess gives is one that `import --from` takes.
TEST(RecogniseImport, NamesImportFormats) {
    const std::vector<std::string> names = import_names();
    for (const char* format : {"hyperfine", "gbench", "gotest", "ezbench", "pts", "csv"})
        EXPECT_NE(std::find(names.begin(), names.end(), format), names.end()) << format;
}

TEST(RecogniseImport, NeverAResultsFileNorAColumnFile) {
    for (const auto& f : fs::directory_iterator(fs::path(GFXSTAT_SOURCE_DIR) / "tests/data/results"))
        if (f.path().extension() == ".json") {
            EXPECT_EQ(guess(slurp(f.path())), "") << f.path();
        }
    // A results header that a hyperfine export's keys follow is still a results file.
    EXPECT_EQ(guess("{\"format\":\"gfxstat-results\",\"version\":1,\"results\":[{\"command\":\"x\",\"mean\":1}]}"), "");
    EXPECT_EQ(guess("1\n2\n3.5\n"), "");
    EXPECT_EQ(guess("1 2\n3 4\n"), "");
    EXPECT_EQ(guess("1,2\n3,4\n"), "");  // numbers only: no header naming columns
    EXPECT_EQ(guess(""), "");
    EXPECT_EQ(guess(" \n\t\r\n"), "");
    EXPECT_EQ(guess("{}"), "");
    EXPECT_EQ(guess("{\"x\": [1, 2]}"), "");
    EXPECT_EQ(guess("<html><body>Benchmark</body></html>"), "");
    EXPECT_EQ(guess("Benchmarking the driver now\n"), "");  // Go's rule: not a benchmark line
    EXPECT_EQ(guess("hello world\nno numbers here\n"), "");
}

TEST(RecogniseImport, RandomBytesAreNothing) {
    std::mt19937 rng(20261202);
    for (int k = 0; k < 200; ++k) {
        std::string bytes(1 + rng() % 4096, '\0');
        for (char& c : bytes) c = static_cast<char>(rng());
        EXPECT_EQ(guess(bytes), "") << k;
    }
}

// Only the first kSniffBytes count: a hyperfine key beyond them is not seen.
TEST(RecogniseImport, BoundedSniff) {
    std::string far = "{\"x\": \"" + std::string(kSniffBytes, 'a') + "\", \"results\": [{\"command\": \"c\", \"mean\": 1}]}";
    EXPECT_EQ(guess(far), "");
    // A CSV whose last line is cut by the limit: judged on its whole lines.
    std::string csv = "variant,fps\n";
    while (csv.size() < kSniffBytes + 100) csv += "mesa-24,61.5\n";
    EXPECT_EQ(guess(csv.substr(0, kSniffBytes + 1)), "csv");
}

TEST(ImportHint, NamesTheCommandWithTheFileQuoted) {
    const fs::path dir = fs::temp_directory_path() / ("gfxstat_hint_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path plain = dir / "x.json", spaced = dir / "my 'run'.json";
    fs::copy_file(kImport / "hyperfine/scan.json", plain, fs::copy_options::overwrite_existing);
    fs::copy_file(kImport / "hyperfine/scan.json", spaced, fs::copy_options::overwrite_existing);
    EXPECT_EQ(formats::import_hint(plain.string()), "; this looks like a hyperfine export: gfxstat import --from hyperfine " +
                                                    plain.string() + " -o results.json");
    EXPECT_EQ(formats::import_hint(spaced.string()), "; this looks like a hyperfine export: gfxstat import --from hyperfine '" +
                                                     dir.string() + "/my '\\''run'\\''.json' -o results.json");
    EXPECT_EQ(formats::import_hint((kImport / "pts/composite.xml").string()).find("gfxstat import --from pts "),
              std::string("; this looks like a Phoronix Test Suite result file: ").size());
    EXPECT_EQ(formats::import_hint((dir / "missing.json").string()), "");
    EXPECT_EQ(formats::import_hint("-"), "");
    EXPECT_EQ(formats::import_hint("-", slurp(kImport / "gotest/bench.txt")),
              "; this looks like go test -bench output: gfxstat import --from gotest - -o results.json");
    EXPECT_EQ(formats::import_hint(dir.string()), "");  // a directory: nothing read
    // The error leads with what the file is, not with why it is no results file.
    const data::InputError e = formats::with_import_hint(data::InputError(plain.string() + ":1: broken JSON at byte 2"),
                                                     plain.string());
    EXPECT_EQ(std::string(e.what()), plain.string() + " is not a gfxstat results file: this looks like a hyperfine "
                                                      "export: gfxstat import --from hyperfine " +
                                         plain.string() + " -o results.json");
    const data::InputError kept = formats::with_import_hint(data::InputError("x: why"), (dir / "missing.json").string());
    EXPECT_EQ(std::string(kept.what()), "x: why");
    EXPECT_EQ(text::shell_quote("-x"), "-x");
    EXPECT_EQ(text::shell_quote(""), "''");
    EXPECT_EQ(text::shell_quote("a$b"), "'a$b'");
    // zsh expands a word that starts with = to a command's path.
    EXPECT_EQ(text::shell_quote("=ls"), "'=ls'");
    EXPECT_EQ(text::shell_quote("commit=a"), "commit=a");
    fs::remove_all(dir);
}

}  // namespace
}  // namespace gfxstat::formats
