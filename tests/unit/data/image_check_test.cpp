// SPDX-License-Identifier: MIT
// Image checks (checking runs: frame checksums, never timed) in results
// files: the exact JSON line, the round trip, the rules a reader checks,
// whole-file writing, appending and merging.
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "data/image_check.h"
#include "data/input_error.h"
#include "data/results_json.h"
#include "data/results_merge.h"
#include "data/results_model.h"
#include "data/results_reader.h"
#include "data/results_writer.h"

namespace gfxstat::data {
namespace {

const std::string kHeader =
    R"({"format":"gfxstat-results","version":1,"id":"0123456789abcdef0123456789abcdef","created":"2026-12-01T00:00:00Z","generator":"test"})"
    "\n";
const std::string kEnv = R"({"type":"environment","id":"env-1","hostname":"a"})" "\n";
const std::string kDesign =
    R"({"type":"design","id":"design-1","kind":"ab","variants":["baseline","patched"],"seed":1,"confidence":0.95,"threshold":0.01})" "\n";
const std::string kMd5a = "a84e3ad90ba90bf4f4a69ae935ec53b6";
const std::string kMd5b = "83e8c5c65a2413e1d91701fb6b1ca881";

ImageCheck sample_check() {
    ImageCheck k;
    k.variant = "patched";
    k.check = 0;
    k.boot = "b-1";
    k.start = "2026-12-01T00:00:01Z";
    k.duration_s = 1.9;
    k.exit_code = 0;
    k.environment = "env-1";
    k.tool = "glretrace";
    k.method = "md5";
    k.frames = {{1, kMd5a}, {2, kMd5b}, {10, kMd5a}};
    k.design = "design-1";
    k.block = 3;
    return k;
}

std::string line_of(const ImageCheck& k) {
    std::string out;
    append_image_check_line(out, k);
    return out;
}

std::string read_error(const std::string& text) {
    try {
        parse_results(text, "f.jsonl");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

std::string record_error(const std::string& line) {
    try {
        parse_record_line(line);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

TEST(ImageCheckJson, ExactLineTypeFirst) {
    EXPECT_EQ(line_of(sample_check()),
              R"({"type":"image_check","variant":"patched","check":0,"boot":"b-1","start":"2026-12-01T00:00:01Z",)"
              R"("duration_s":1.9,"exit":{"class":"ok","code":0},"environment":"env-1","tool":"glretrace",)"
              R"("method":"md5","images":{"1":")" + kMd5a + R"(","2":")" + kMd5b + R"(","10":")" + kMd5a +
                  R"("},"design":"design-1","block":3})" "\n");
    ImageCheck failed;
    failed.variant = "a";
    failed.check = 4;
    failed.exit_class = ExitClass::crash;
    failed.exit_reason = "killed by signal 11";
    failed.tool = "gfxrecon-replay";
    failed.method = "sha256-file";
    EXPECT_EQ(line_of(failed),
              R"({"type":"image_check","variant":"a","check":4,"exit":{"class":"crash","reason":"killed by signal 11"},)"
              R"("tool":"gfxrecon-replay","method":"sha256-file","images":{}})" "\n");
}

TEST(ImageCheckJson, RoundTrip) {
    ImageCheck k = sample_check();
    k.origin = "feedfeedfeedfeedfeedfeedfeedfeed";
    k.kept = "r.images/0123456789abcdef-patched-check-0000";
    k.unknown = {{"future", R"({"x":[1,2]})"}};
    const std::string line = line_of(k);
    const auto back = std::get<ImageCheck>(parse_record_line(std::string_view(line).substr(0, line.size() - 1)));
    EXPECT_EQ(back, k);
    EXPECT_EQ(line_of(back), line);
    ImageCheck sha = sample_check();
    sha.method = "sha256-file";
    sha.frames = {{0, std::string(64, 'e')}};
    const std::string sha_line = line_of(sha);
    EXPECT_EQ(std::get<ImageCheck>(parse_record_line(sha_line.substr(0, sha_line.size() - 1))), sha);
}

TEST(ImageCheckJson, UppercaseChecksumsAreLowercased) {
    const auto k = std::get<ImageCheck>(parse_record_line(
        R"({"type":"image_check","variant":"v","check":0,"exit":{"class":"ok"},"tool":"glretrace","method":"md5","images":{"0":"83E8C5C65A2413E1D91701FB6B1CA881"}})"));
    ASSERT_EQ(k.frames.size(), 1u);
    EXPECT_EQ(k.frames.at(0), kMd5b);
}

TEST(ImageCheckJson, RecordErrorsSayWhatWasExpected) {
    const std::string ok_start = R"({"type":"image_check","variant":"v","check":0,"exit":{"class":"ok"},"tool":"glretrace","method":"md5",)";
    EXPECT_EQ(record_error(ok_start + R"("images":{}})"), "");
    EXPECT_NE(record_error(R"({"type":"image_check","check":0,"exit":{"class":"ok"},"tool":"t","method":"md5","images":{}})")
                  .find("needs a \"variant\""), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"image_check","variant":"v","exit":{"class":"ok"},"tool":"t","method":"md5","images":{}})")
                  .find("\"check\" index"), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"image_check","variant":"v","check":0,"tool":"t","method":"md5","images":{}})")
                  .find("\"exit\" object"), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"image_check","variant":"v","check":0,"exit":{"class":"ok"},"method":"md5","images":{}})")
                  .find("\"tool\""), std::string::npos);
    EXPECT_NE(record_error(R"({"type":"image_check","variant":"v","check":0,"exit":{"class":"ok"},"tool":"t","images":{}})")
                  .find("\"method\""), std::string::npos);
    EXPECT_NE(record_error(ok_start.substr(0, ok_start.size() - 1) + "}").find("\"images\" object"), std::string::npos);
    EXPECT_NE(record_error(ok_start + R"("images":[]})").find("must be an object"), std::string::npos);
    EXPECT_NE(record_error(ok_start + R"("images":{"x":")" + kMd5a + R"("}})").find("decimal integers"), std::string::npos);
    EXPECT_NE(record_error(ok_start + R"("images":{"01":")" + kMd5a + R"("}})").find("decimal integers"), std::string::npos);
    EXPECT_NE(record_error(ok_start + R"("images":{"-1":")" + kMd5a + R"("}})").find("decimal integers"), std::string::npos);
    EXPECT_NE(record_error(ok_start + R"("images":{"1":"abc"}})").find("32 (md5) or 64 (sha256) hex digits"), std::string::npos);
    EXPECT_NE(record_error(ok_start + R"("images":{"1":")" + std::string(31, 'a') + R"(g"}})").find("hex digits"),
              std::string::npos);
    EXPECT_NE(record_error(ok_start + R"("images":{"1":1}})").find("must be a string"), std::string::npos);
    EXPECT_NE(record_error(ok_start + R"("images":{"1":")" + std::string(64, 'a') + R"("}})").find("method \"md5\" gives 32"),
              std::string::npos);
    EXPECT_NE(record_error(ok_start + R"("images":{"1":")" + kMd5a + R"(","1":")" + kMd5b + R"("}})").find("appears twice"),
              std::string::npos);
    EXPECT_NE(record_error(ok_start + R"("images":{},"check":1})").find("appears twice"), std::string::npos);
    EXPECT_NE(record_error(ok_start + R"("images":{},"duration_s":-1})").find("duration_s"), std::string::npos);
    EXPECT_NE(record_error(ok_start + R"("images":{},"design":""})").find("not be empty"), std::string::npos);
    EXPECT_NE(record_error(ok_start + R"("images":{},"kept":""})").find("name a directory"), std::string::npos);
}

TEST(ImageCheckReader, KeptInFileOrderWithLines) {
    ImageCheck a = sample_check();
    ImageCheck b = sample_check();
    b.variant = "baseline";
    ReadReport report;
    const ResultsFile f = parse_results(kHeader + kEnv + kDesign + line_of(a) + line_of(b), "f.jsonl", &report);
    ASSERT_EQ(f.image_checks().size(), 2u);
    EXPECT_EQ(f.image_checks()[0], a);
    EXPECT_EQ(f.image_checks()[1], b);
    EXPECT_EQ(report.image_check_lines, (std::vector<size_t>{4, 5}));
    EXPECT_TRUE(f.runs().empty());
    EXPECT_EQ(f.find_image_check("", "baseline", 0), std::optional<size_t>(1));
    EXPECT_FALSE(f.find_image_check("", "baseline", 1));
}

TEST(ImageCheckReader, RulesNameFileAndLine) {
    const ImageCheck k = sample_check();
    // Environment and design must be recorded before they are used.
    EXPECT_EQ(read_error(kHeader + kDesign + line_of(k) + kEnv),
              "f.jsonl:3: environment 'env-1' is used before it is recorded");
    EXPECT_EQ(read_error(kHeader + kEnv + line_of(k) + kDesign),
              "f.jsonl:3: design 'design-1' is used before it is recorded");
    // The identity (origin, variant, check) is unique.
    EXPECT_EQ(read_error(kHeader + kEnv + kDesign + line_of(k) + line_of(k)),
              "f.jsonl:5: image check 0 of variant 'patched' is recorded twice (first at line 4)");
    ImageCheck other_origin = k;
    other_origin.origin = "f00d";
    EXPECT_EQ(read_error(kHeader + kEnv + kDesign + line_of(k) + line_of(other_origin)), "");
    // A check that did not end ok holds no checksums.
    ImageCheck failed = k;
    failed.exit_class = ExitClass::fail;
    EXPECT_NE(read_error(kHeader + kEnv + kDesign + line_of(failed)).find("f.jsonl:4: image check 0 of variant 'patched' did not end ok"),
              std::string::npos);
    ImageCheck stray = k;
    stray.variant = "other";
    EXPECT_NE(read_error(kHeader + kEnv + kDesign + line_of(stray)).find("not one of design 'design-1''s variants"),
              std::string::npos);
    ImageCheck block_only = k;
    block_only.design.clear();
    EXPECT_NE(read_error(kHeader + kEnv + line_of(block_only)).find("\"block\""), std::string::npos);
}

TEST(ImageCheckReader, ReadWithARunHookToo) {
    ReadReport report;
    const ResultsFile f = parse_results(kHeader + kEnv + kDesign + line_of(sample_check()), "f.jsonl", &report,
                                        [](RunRecord&) {});
    EXPECT_EQ(f.image_checks().size(), 1u);
}

TEST(ImageCheckModel, ChecksumLengthFollowsTheMethod) {
    EXPECT_EQ(checksum_hex_digits("md5"), 32u);
    EXPECT_EQ(checksum_hex_digits("sha256-file"), 64u);
    EXPECT_EQ(checksum_hex_digits("crc-of-the-future"), 0u);
    ResultsFile f;
    ImageCheck k;
    k.variant = "v";
    k.tool = "gfxrecon-replay";
    k.method = "sha256-file";
    k.frames = {{1, kMd5a}};
    EXPECT_NE(f.add_image_check(k).find("must be 64 lowercase hex digits"), std::string::npos);
    k.frames = {{1, std::string(64, 'A')}};  // the model holds lower case only
    EXPECT_NE(f.add_image_check(k).find("lowercase"), std::string::npos);
    k.frames = {{1, std::string(64, 'a')}};
    EXPECT_EQ(f.add_image_check(k), "");
    k.method = "crc-of-the-future";
    k.check = 1;
    k.frames = {{1, kMd5a}, {2, std::string(64, 'b')}};
    EXPECT_EQ(f.add_image_check(k), "");
}

TEST(ImageCheckWriter, WholeFileKeepsThemAfterWhatTheyReferTo) {
    ResultsFile f;
    f.header.id = "0123456789abcdef0123456789abcdef";
    Environment env;
    env.id = "env-1";
    env.fields["hostname"] = "a";
    ASSERT_EQ(f.add_environment(env), "");
    DesignRecord d;
    d.id = "design-1";
    d.variants = {"baseline", "patched"};
    ASSERT_EQ(f.add_design(d), "");
    ASSERT_EQ(f.add_image_check(sample_check()), "");
    const std::string text = serialize_results(f);
    EXPECT_LT(text.find("\"type\":\"environment\""), text.find("\"type\":\"image_check\""));
    EXPECT_LT(text.find("\"type\":\"design\""), text.find("\"type\":\"image_check\""));
    const ResultsFile back = parse_results(text, "f.jsonl");
    ASSERT_EQ(back.image_checks().size(), 1u);
    EXPECT_EQ(back.image_checks()[0], sample_check());
    EXPECT_EQ(serialize_results(back), text);
}

TEST(ImageCheckWriter, AppendedBesideRuns) {
    std::string dir = testing::TempDir() + "gfxstat_image_check_XXXXXX";
    ASSERT_NE(::mkdtemp(dir.data()), nullptr);
    const std::string path = dir + "/results.json";
    {
        ResultsAppender app(path);
        Environment env;
        env.fields["hostname"] = "a";
        ImageCheck k = sample_check();
        k.design.clear();
        k.block.reset();
        k.environment = app.add_environment(env);
        app.append_image_check(k);
        EXPECT_THROW(app.append_image_check(k), InputError);  // the same identity twice
    }
    const ResultsFile f = read_results_path(path, path);
    ASSERT_EQ(f.image_checks().size(), 1u);
    EXPECT_EQ(f.environments().size(), 1u);
    EXPECT_EQ(f.image_checks()[0].frames.size(), 3u);
    ::unlink(path.c_str());
    ::rmdir(dir.c_str());
}

TEST(ImageCheckMerge, KeptWithOriginsOnceAndConflictsRefused) {
    const std::string text = kHeader + kEnv + kDesign + line_of(sample_check());
    ReadReport ra;
    const ResultsFile a = parse_results(text, "a.json", &ra);
    ResultsHeader h;
    h.id = "merged";
    // A file merged with a copy of itself keeps each check once.
    const MergeOutcome m = merge_results({{"a.json", &a, &ra}, {"copy.json", &a, &ra}}, h);
    ASSERT_EQ(m.merged.image_checks().size(), 1u);
    EXPECT_EQ(m.merged.image_checks()[0].origin, "0123456789abcdef0123456789abcdef");
    EXPECT_EQ(m.duplicate_checks_dropped, 1u);
    EXPECT_EQ(m.duplicates_dropped, 0u);
    // Serialised and read back, the merged file still holds it.
    EXPECT_EQ(parse_results(serialize_results(m.merged), "m.json").image_checks().size(), 1u);
    // The same identity with other checksums is refused, naming both lines.
    ImageCheck changed = sample_check();
    changed.frames[1] = kMd5b;
    ReadReport rb;
    const ResultsFile b = parse_results(kHeader + kEnv + kDesign + line_of(changed), "b.json", &rb);
    try {
        merge_results({{"a.json", &a, &ra}, {"b.json", &b, &rb}}, h);
        FAIL() << "conflicting image checks merged";
    } catch (const InputError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("b.json:4"), std::string::npos) << msg;
        EXPECT_NE(msg.find("a.json:4"), std::string::npos) << msg;
        EXPECT_NE(msg.find("refusing to merge"), std::string::npos) << msg;
    }
}

TEST(ImageCheckMerge, KeptDirectoriesStillLeadToTheImagesFromTheMergedFile) {
    // `kept` is relative to its results file's directory: merged into a
    // file elsewhere, it must still name the same images.
    char tmpl[] = "/tmp/gfxstat-merge-kept-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    const std::string root = tmpl, in = root + "/in", out = root + "/out";
    ASSERT_EQ(::mkdir(in.c_str(), 0700), 0);
    ASSERT_EQ(::mkdir(out.c_str(), 0700), 0);
    ImageCheck k = sample_check();
    k.kept = "kept/0123-patched-check-0000";
    ReadReport r;
    const ResultsFile a = parse_results(kHeader + kEnv + kDesign + line_of(k), in + "/a.json", &r);
    ResultsHeader h;
    h.id = "merged";
    // Into another directory: absolute, under the input's directory.
    const MergeOutcome elsewhere = merge_results({{in + "/a.json", &a, &r}}, h, out + "/m.json");
    ASSERT_EQ(elsewhere.merged.image_checks().size(), 1u);
    EXPECT_EQ(elsewhere.merged.image_checks()[0].kept, in + "/kept/0123-patched-check-0000");
    // Into the input's own directory (spelt another way): unchanged.
    const MergeOutcome beside = merge_results({{in + "/a.json", &a, &r}}, h, out + "/../in/m.json");
    EXPECT_EQ(beside.merged.image_checks()[0].kept, "kept/0123-patched-check-0000");
    // Absolute ones stay as they are.
    k.kept = "/srv/images/x";
    const ResultsFile b = parse_results(kHeader + kEnv + kDesign + line_of(k), in + "/b.json", &r);
    EXPECT_EQ(merge_results({{in + "/b.json", &b, &r}}, h, out + "/m.json").merged.image_checks()[0].kept,
              "/srv/images/x");
    // One check met in two copies in two directories is one check, kept once.
    const MergeOutcome both = merge_results({{in + "/a.json", &a, &r}, {out + "/a.json", &a, &r}}, h, out + "/m.json");
    EXPECT_EQ(both.merged.image_checks().size(), 1u);
    EXPECT_EQ(both.duplicate_checks_dropped, 1u);
    ::rmdir(in.c_str());
    ::rmdir(out.c_str());
    ::rmdir(root.c_str());
}

}  // namespace
}  // namespace gfxstat::data
