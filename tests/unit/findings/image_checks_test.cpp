// SPDX-License-Identifier: MIT
// findings/image_checks: which frames of a variant's checking runs are
// stable, whether a candidate renders what its baseline renders, and the
// rules the verdicts and the gate follow, on checking runs built in memory.
#include "findings/image_checks.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace {

using gfxstat::data::ExitClass;
using gfxstat::data::ImageCheck;
using gfxstat::findings::check_images;
using gfxstat::findings::compare_images;
using gfxstat::findings::FrameNumbers;
using gfxstat::findings::image_gate_fails;
using gfxstat::findings::image_rules_out_improvement;
using gfxstat::findings::ImageOutcome;
using gfxstat::findings::NotJudged;
using gfxstat::findings::variant_frames;
using gfxstat::findings::VariantChecks;

// A checking run of `variant` holding `frames`, each frame's checksum
// given by `sum(frame)`.
template <class Sum>
ImageCheck check(const std::string& variant, uint64_t index, uint64_t first, uint64_t last, Sum sum,
                 ExitClass exit = ExitClass::ok, const std::string& method = "md5") {
    ImageCheck c;
    c.variant = variant;
    c.check = index;
    c.exit_class = exit;
    c.tool = "glretrace";
    c.method = method;
    for (uint64_t f = first; f <= last; ++f) c.frames[f] = sum(f);
    return c;
}

std::string same(uint64_t f) { return "sum-" + std::to_string(f); }

// The glxgears trace replayed on llvmpipe: frame 1 differs on every
// replay, frames 2..120 are identical.
VariantChecks glxgears(const std::string& variant, size_t runs) {
    VariantChecks v{variant, {}};
    for (size_t r = 0; r < runs; ++r)
        v.checks.push_back(check(variant, r, 1, 120, [&](uint64_t f) {
            return f == 1 ? variant + "-replay-" + std::to_string(r) : same(f);
        }));
    return v;
}

TEST(image_checks, GlxgearsFirstFrameUnstableOthersEqual) {
    const auto r = check_images(glxgears("main", 3), {glxgears("patched", 3)});
    EXPECT_EQ(r.baseline.runs, 3u);
    EXPECT_EQ(r.baseline.stable.size(), 119u);
    EXPECT_EQ(r.baseline.unstable, FrameNumbers{1});
    EXPECT_FALSE(r.baseline.nondeterministic());
    ASSERT_EQ(r.comparisons.size(), 1u);
    const auto& c = r.comparisons[0];
    EXPECT_EQ(c.outcome, ImageOutcome::equal);
    EXPECT_EQ(c.why, NotJudged::none);
    EXPECT_EQ(c.compared, 119u);
    EXPECT_TRUE(c.differing.empty());
    EXPECT_TRUE(c.only_baseline.empty());
    EXPECT_TRUE(c.only_candidate.empty());
    EXPECT_EQ(r.candidates[0].unstable, FrameNumbers{1});
    EXPECT_FALSE(image_rules_out_improvement(c));
    EXPECT_FALSE(image_gate_fails(c, false));
}

TEST(image_checks, CandidateDifferingFromFrame42FailsTheGateUnlessAllowed) {
    VariantChecks patched{"patched", {}};
    for (uint64_t r = 0; r < 2; ++r)
        patched.checks.push_back(check("patched", r, 1, 120, [&](uint64_t f) {
            if (f == 1) return "patched-replay-" + std::to_string(r);
            return f >= 42 ? "other-" + std::to_string(f) : same(f);
        }));
    const auto r = check_images(glxgears("main", 3), {patched});
    const auto& c = r.comparisons[0];
    EXPECT_EQ(c.outcome, ImageOutcome::differ);
    EXPECT_EQ(c.compared, 119u);
    EXPECT_EQ(c.differing.size(), 79u);  // 42..120
    EXPECT_EQ(c.first_differing(), 42u);
    EXPECT_EQ(c.differing.back(), 120u);
    EXPECT_TRUE(image_rules_out_improvement(c));
    EXPECT_TRUE(image_gate_fails(c, false));
    EXPECT_FALSE(image_gate_fails(c, true));
}

TEST(image_checks, EveryFrameUnstableIsNondeterministicAndNotJudged) {
    VariantChecks main{"main", {}};
    for (uint64_t r = 0; r < 3; ++r)
        main.checks.push_back(check("main", r, 1, 5, [&](uint64_t f) { return same(f) + "-" + std::to_string(r); }));
    const auto r = check_images(main, {glxgears("patched", 3)});
    EXPECT_TRUE(r.baseline.stable.empty());
    EXPECT_EQ(r.baseline.unstable, (FrameNumbers{1, 2, 3, 4, 5}));
    EXPECT_TRUE(r.baseline.nondeterministic());
    const auto& c = r.comparisons[0];
    EXPECT_EQ(c.outcome, ImageOutcome::not_judged);
    EXPECT_EQ(c.why, NotJudged::nondeterministic);
    EXPECT_EQ(c.who, "main");
    EXPECT_EQ(c.who_runs, 3u);
    EXPECT_FALSE(image_rules_out_improvement(c));
    EXPECT_FALSE(image_gate_fails(c, false));
    // The same on the candidate's side.
    const auto back = check_images(glxgears("patched", 3), {main});
    EXPECT_EQ(back.comparisons[0].why, NotJudged::nondeterministic);
    EXPECT_EQ(back.comparisons[0].who, "main");
}

TEST(image_checks, OneCheckingRunIsNotJudged) {
    const auto r = check_images(glxgears("main", 1), {glxgears("patched", 3)});
    EXPECT_EQ(r.baseline.runs, 1u);
    EXPECT_FALSE(r.baseline.enough_runs());
    EXPECT_TRUE(r.baseline.stable.empty());  // one run cannot call a frame stable
    EXPECT_TRUE(r.baseline.unstable.empty());
    const auto& c = r.comparisons[0];
    EXPECT_EQ(c.outcome, ImageOutcome::not_judged);
    EXPECT_EQ(c.why, NotJudged::too_few_runs);
    EXPECT_EQ(c.who, "main");
    EXPECT_EQ(c.who_runs, 1u);
    EXPECT_FALSE(image_gate_fails(c, false));
    // The candidate's single run, and the baseline's reason first when
    // both fall short.
    EXPECT_EQ(check_images(glxgears("main", 2), {glxgears("patched", 1)}).comparisons[0].who, "patched");
    EXPECT_EQ(check_images(glxgears("main", 1), {glxgears("patched", 1)}).comparisons[0].who, "main");
}

TEST(image_checks, FailedCheckingRunsAreIgnored) {
    VariantChecks main = glxgears("main", 2);
    // A crashed replay with other checksums and fewer frames: left out.
    main.checks.push_back(check("main", 2, 1, 50, [](uint64_t f) { return "garbage-" + std::to_string(f); },
                                ExitClass::crash));
    main.checks.push_back(check("main", 3, 1, 0, same, ExitClass::timeout));
    const auto v = variant_frames("main", main.checks);
    EXPECT_EQ(v.runs, 2u);
    EXPECT_EQ(v.not_ok, 2u);
    EXPECT_EQ(v.stable.size(), 119u);
    EXPECT_EQ(v.unstable, FrameNumbers{1});
    EXPECT_EQ(compare_images(v, variant_frames("patched", glxgears("patched", 2).checks)).outcome,
              ImageOutcome::equal);
    // One ok run beside failed ones is still one run.
    VariantChecks short_of_runs = glxgears("patched", 1);
    short_of_runs.checks.push_back(check("patched", 1, 1, 120, same, ExitClass::fail));
    const auto r = check_images(glxgears("main", 2), {short_of_runs});
    EXPECT_EQ(r.candidates[0].not_ok, 1u);
    EXPECT_EQ(r.comparisons[0].why, NotJudged::too_few_runs);
    EXPECT_EQ(r.comparisons[0].who_runs, 1u);
}

TEST(image_checks, AFrameSomeRunLacksIsUnstable) {
    std::vector<ImageCheck> runs{check("main", 0, 1, 10, same), check("main", 1, 1, 9, same)};
    const auto v = variant_frames("main", runs);
    EXPECT_EQ(v.stable.size(), 9u);
    EXPECT_EQ(v.unstable, FrameNumbers{10});
}

TEST(image_checks, FramesInOneVariantOnlyAreListedNotCompared) {
    VariantChecks main{"main", {check("main", 0, 0, 10, same), check("main", 1, 0, 10, same)}};
    // patched starts at frame 1, draws 11 and 12 too, and its frame 5 is
    // unstable: not compared, and not "only in main" either.
    VariantChecks patched{"patched", {}};
    for (uint64_t r = 0; r < 2; ++r)
        patched.checks.push_back(check("patched", r, 1, 12, [&](uint64_t f) {
            return f == 5 ? "unstable-" + std::to_string(r) : same(f);
        }));
    const auto c = check_images(main, {patched}).comparisons[0];
    EXPECT_EQ(c.outcome, ImageOutcome::equal);
    EXPECT_EQ(c.compared, 9u);  // 1..10 but 5
    EXPECT_EQ(c.only_baseline, FrameNumbers{0});
    EXPECT_EQ(c.only_candidate, (FrameNumbers{11, 12}));
    // No frame in common: nothing to compare, not judged.
    VariantChecks late{"late", {check("late", 0, 20, 22, same), check("late", 1, 20, 22, same)}};
    const auto apart = check_images(main, {late}).comparisons[0];
    EXPECT_EQ(apart.outcome, ImageOutcome::not_judged);
    EXPECT_EQ(apart.why, NotJudged::nothing_in_common);
    EXPECT_EQ(apart.only_baseline.size(), 11u);
    EXPECT_EQ(apart.only_candidate, (FrameNumbers{20, 21, 22}));
    EXPECT_FALSE(image_gate_fails(apart, false));
}

TEST(image_checks, EmptyCandidateIsNotJudged) {
    const auto r = check_images(glxgears("main", 2), {VariantChecks{"patched", {}}});
    EXPECT_EQ(r.candidates[0].runs, 0u);
    EXPECT_EQ(r.comparisons[0].why, NotJudged::too_few_runs);
    EXPECT_EQ(r.comparisons[0].who, "patched");
    EXPECT_EQ(r.comparisons[0].who_runs, 0u);
    EXPECT_FALSE(image_gate_fails(r.comparisons[0], false));
    // Ok runs that read back no frame: no frames, not nondeterministic.
    VariantChecks blank{"blank", {check("blank", 0, 1, 0, same), check("blank", 1, 1, 0, same)}};
    const auto b = check_images(glxgears("main", 2), {blank});
    EXPECT_FALSE(b.candidates[0].nondeterministic());
    EXPECT_EQ(b.comparisons[0].why, NotJudged::no_frames);
    EXPECT_EQ(b.comparisons[0].who, "blank");
    EXPECT_EQ(b.comparisons[0].who_runs, 2u);
}

TEST(image_checks, LargeFrameNumbersKeepTheirOrder) {
    static constexpr uint64_t top = std::numeric_limits<uint64_t>::max();
    static constexpr uint64_t big = uint64_t{1} << 40;
    const auto frames = [](const std::string& variant, uint64_t r, bool changed) {
        ImageCheck c = check(variant, r, 1, 0, same);
        c.frames[7] = same(7);
        c.frames[big] = changed ? "changed" : same(big);
        c.frames[top] = changed ? "changed" : same(top);
        return c;
    };
    VariantChecks main{"main", {frames("main", 0, false), frames("main", 1, false)}};
    VariantChecks patched{"patched", {frames("patched", 0, true), frames("patched", 1, true)}};
    const auto c = check_images(main, {patched}).comparisons[0];
    EXPECT_EQ(c.outcome, ImageOutcome::differ);
    EXPECT_EQ(c.compared, 3u);
    EXPECT_EQ(c.differing, (FrameNumbers{big, top}));
    EXPECT_EQ(c.first_differing(), big);
}

TEST(image_checks, ChecksumsOfDifferentMethodsAreNeverCompared) {
    VariantChecks main{"main", {check("main", 0, 1, 3, same), check("main", 1, 1, 3, same)}};
    VariantChecks files{"files",
                        {check("files", 0, 1, 3, same, ExitClass::ok, "sha256-file"),
                         check("files", 1, 1, 3, same, ExitClass::ok, "sha256-file")}};
    const auto c = check_images(main, {files}).comparisons[0];
    EXPECT_EQ(c.outcome, ImageOutcome::not_judged);
    EXPECT_EQ(c.why, NotJudged::methods_differ);
    VariantChecks mixed{"mixed",
                        {check("mixed", 0, 1, 3, same), check("mixed", 1, 1, 3, same, ExitClass::ok, "sha256-file")}};
    const auto m = check_images(main, {mixed}).comparisons[0];
    EXPECT_EQ(m.why, NotJudged::mixed_methods);
    EXPECT_EQ(m.who, "mixed");
}

TEST(image_checks, EachCandidateAgainstTheBaselineInOrder) {
    VariantChecks differs{"differs", {}};
    for (uint64_t r = 0; r < 2; ++r)
        differs.checks.push_back(check("differs", r, 2, 120, [](uint64_t f) { return f == 60 ? "x" : same(f); }));
    const auto r = check_images(glxgears("main", 2), {glxgears("same", 2), differs, glxgears("alone", 1)});
    ASSERT_EQ(r.comparisons.size(), 3u);
    ASSERT_EQ(r.candidates.size(), 3u);
    EXPECT_EQ(r.comparisons[0].candidate, "same");
    EXPECT_EQ(r.comparisons[0].outcome, ImageOutcome::equal);
    EXPECT_EQ(r.comparisons[1].candidate, "differs");
    EXPECT_EQ(r.comparisons[1].outcome, ImageOutcome::differ);
    EXPECT_EQ(r.comparisons[1].differing, FrameNumbers{60});
    EXPECT_EQ(r.comparisons[2].why, NotJudged::too_few_runs);
    for (const auto& c : r.comparisons) EXPECT_EQ(c.baseline, "main");
}

}  // namespace
