// SPDX-License-Identifier: MIT
// report/image_check_words: the image verdicts and notes in words, built
// from the analysis of checking runs made in memory.
#include "report/image_check_words.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using gfxstat::data::ExitClass;
using gfxstat::data::ImageCheck;
using gfxstat::findings::check_images;
using gfxstat::findings::ImageChecks;
using gfxstat::findings::VariantChecks;
using gfxstat::report::image_check_lines;
using gfxstat::report::image_comparison_notes;
using gfxstat::report::image_variant_notes;
using gfxstat::report::image_verdict_words;

// `runs` checking runs of frames 1..`frames`; frame 1 differs on every run
// when `first_unstable`; frames from `changed_from` on carry another
// checksum (0: none).
VariantChecks runs(const std::string& variant, size_t n, uint64_t frames, bool first_unstable = false,
                   uint64_t changed_from = 0) {
    VariantChecks v{variant, {}};
    for (size_t r = 0; r < n; ++r) {
        ImageCheck c;
        c.variant = variant;
        c.check = r;
        c.method = "md5";
        for (uint64_t f = 1; f <= frames; ++f) {
            std::string sum = "sum-" + std::to_string(f);
            if (first_unstable && f == 1) sum += "-run-" + std::to_string(r);
            if (changed_from != 0 && f >= changed_from) sum += "-changed";
            c.frames[f] = sum;
        }
        v.checks.push_back(c);
    }
    return v;
}

TEST(image_check_words, VerdictsReadAsTheyWillInReports) {
    // 120 frames compared, 42..44 differ.
    VariantChecks patched = runs("patched", 2, 120);
    for (auto& c : patched.checks)
        for (uint64_t f = 42; f <= 44; ++f) c.frames[f] += "-changed";
    EXPECT_EQ(image_verdict_words(check_images(runs("main", 2, 120), {patched}).comparisons[0]),
              "renders differently: 3 of 120 frames (first: 42)");
    EXPECT_EQ(image_verdict_words(check_images(runs("main", 3, 120), {runs("patched", 2, 120)}).comparisons[0]),
              "images equal: 120 frames");
    EXPECT_EQ(image_verdict_words(check_images(runs("main", 3, 1), {runs("patched", 2, 1)}).comparisons[0]),
              "images equal: 1 frame");
    EXPECT_EQ(image_verdict_words(check_images(runs("main", 1, 120), {runs("patched", 2, 120)}).comparisons[0]),
              "not judged: main has 1 checking run (needs 2)");
    EXPECT_EQ(image_verdict_words(check_images(runs("main", 2, 120), {runs("patched", 0, 120)}).comparisons[0]),
              "not judged: patched has no checking run that ended ok (needs 2)");
    EXPECT_EQ(image_verdict_words(check_images(runs("main", 3, 1, true), {runs("patched", 2, 120)}).comparisons[0]),
              "nondeterministic: no frame of main is stable over its 3 checking runs");
    EXPECT_EQ(image_verdict_words(check_images(runs("main", 2, 120), {runs("patched", 2, 0)}).comparisons[0]),
              "not judged: the 2 checking runs of patched read back no frame");
}

TEST(image_check_words, NotesSayWhatWasNotCompared) {
    VariantChecks patched = runs("patched", 3, 130, true);
    patched.checks.push_back(runs("patched", 1, 10).checks[0]);
    patched.checks.back().exit_class = ExitClass::crash;
    const ImageChecks r = check_images(runs("main", 2, 120), {patched});
    EXPECT_TRUE(image_variant_notes(r.baseline).empty());
    EXPECT_EQ(image_variant_notes(r.candidates[0]),
              (std::vector<std::string>{"frames unstable in patched: 1 (first: 1)",
                                        "checking runs of patched that did not end ok: 1 (left out)"}));
    EXPECT_EQ(image_comparison_notes(r.comparisons[0]),
              std::vector<std::string>{"frames stable in patched only: 10 (first: 121), not compared"});
    EXPECT_EQ(image_verdict_words(r.comparisons[0]), "images equal: 119 frames");
}

TEST(image_check_words, LinesAreEscapedAndWrappedTo72Columns) {
    const std::string label = "mesa-main-with-a-rather-long-build-label\x1b[2J";
    const std::string candidate = "patched-build-with-an-equally-long-label-to-wrap";
    const ImageChecks r = check_images(runs(label, 2, 120), {runs(candidate, 2, 130, true, 42)});
    const auto lines = image_check_lines(r);
    ASSERT_GE(lines.size(), 3u);
    std::string all;
    for (size_t i = 0; i < lines.size(); ++i) {
        EXPECT_LE(lines[i].size(), 72u) << lines[i];
        EXPECT_EQ(lines[i].find('\x1b'), std::string::npos) << lines[i];
        all += (i ? " " : "") + lines[i].substr(lines[i].find_first_not_of(' '));
    }
    EXPECT_EQ(lines[0].rfind(candidate + " vs", 0), 0u) << lines[0];
    EXPECT_NE(all.find("\\x1b[2J"), std::string::npos) << all;
    EXPECT_NE(all.find("renders differently: 79 of 119 frames (first: 42)"), std::string::npos) << all;
    EXPECT_NE(all.find("frames unstable in " + candidate + ": 1 (first: 1)"), std::string::npos) << all;
    // A note sits under its candidate, indented.
    bool indented_note = false;
    for (const auto& line : lines) indented_note |= line.rfind("  frames unstable in", 0) == 0;
    EXPECT_TRUE(indented_note);
    // The words themselves keep the name as it is: the caller escapes.
    EXPECT_NE(image_verdict_words(check_images(runs(label, 1, 1), {runs(candidate, 2, 1)}).comparisons[0]).find(label),
              std::string::npos);
}

TEST(image_check_words, LargeFrameNumbersAreWrittenWhole) {
    VariantChecks main{"main", {}}, patched{"patched", {}};
    for (size_t r = 0; r < 2; ++r) {
        ImageCheck a;
        a.method = "md5";
        a.frames = {{1, "x"}, {18446744073709551615ull, "y"}};
        ImageCheck b = a;
        b.frames[18446744073709551615ull] = "z";
        main.checks.push_back(a);
        patched.checks.push_back(b);
    }
    EXPECT_EQ(image_verdict_words(check_images(main, {patched}).comparisons[0]),
              "renders differently: 1 of 2 frames (first: 18446744073709551615)");
}

// compare's words around the image verdicts: a metric's verdict column
// says "renders differently" exactly where differing images overruled an
// improvement, and JSON's names of the outcomes and reasons.
TEST(image_check_words, CompareVerdictColumnAndJsonNames) {
    gfxstat::cli::MetricReport m;
    m.candidates.resize(2);
    m.verdicts.resize(2);
    m.verdicts[0].outcome = gfxstat::analysis::Outcome::changed;
    m.verdicts[1].outcome = gfxstat::analysis::Outcome::improvement;
    EXPECT_EQ(gfxstat::report::verdict_outcome_words(m, 0), "changed");
    m.image_overruled = {true, false};
    EXPECT_EQ(gfxstat::report::verdict_outcome_words(m, 0), "renders differently");
    EXPECT_EQ(gfxstat::report::verdict_outcome_words(m, 1), "improvement");
    gfxstat::cli::PairedSuiteReport p;
    p.verdict.outcome = gfxstat::analysis::Outcome::changed;
    EXPECT_EQ(gfxstat::report::verdict_outcome_words(p), "changed");
    p.image_overruled = true;
    EXPECT_EQ(gfxstat::report::verdict_outcome_words(p), "renders differently");

    using gfxstat::findings::ImageOutcome;
    using gfxstat::findings::NotJudged;
    EXPECT_STREQ(gfxstat::report::image_outcome_name(ImageOutcome::equal), "equal");
    EXPECT_STREQ(gfxstat::report::image_outcome_name(ImageOutcome::differ), "differ");
    EXPECT_STREQ(gfxstat::report::image_outcome_name(ImageOutcome::not_judged), "not_judged");
    EXPECT_STREQ(gfxstat::report::not_judged_name(NotJudged::none), "");
    EXPECT_STREQ(gfxstat::report::not_judged_name(NotJudged::too_few_runs), "too_few_runs");
    EXPECT_STREQ(gfxstat::report::not_judged_name(NotJudged::nondeterministic), "nondeterministic");
    EXPECT_STREQ(gfxstat::report::not_judged_name(NotJudged::nothing_in_common), "nothing_in_common");
    // The one a nondeterministic candidate gets, from real analysis.
    const ImageChecks c = check_images(runs("main", 2, 3), {runs("patched", 2, 1, true)});
    EXPECT_STREQ(gfxstat::report::not_judged_name(c.comparisons[0].why), "nondeterministic");
}

}  // namespace
