// SPDX-License-Identifier: MIT
// gfxstat bisect's pieces: the references' Welch interval against R, the
// error budget, how often a step is called wrongly (simulated, against the
// budget it claims), the steps file's round trip and the first bad commit
// the steps show.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <unistd.h>

#include "analysis/bisect_classify.h"
#include "analysis/student_t.h"
#include "data/bisect_log.h"
#include "data/input_error.h"
#include "drivers/bisect_step.h"
#include "tests/unit/test_support.h"

namespace gfxstat {
namespace {

using analysis::BisectCall;
using analysis::BisectOptions;

TEST(BisectBudget, ExpectedStepsAreCeilLog2) {
    EXPECT_EQ(analysis::bisect_expected_steps(0), 1u);
    EXPECT_EQ(analysis::bisect_expected_steps(1), 1u);
    EXPECT_EQ(analysis::bisect_expected_steps(2), 2u);
    EXPECT_EQ(analysis::bisect_expected_steps(3), 2u);
    EXPECT_EQ(analysis::bisect_expected_steps(63), 6u);  // 64 commits, good..bad: 63 candidates
    EXPECT_EQ(analysis::bisect_expected_steps(64), 7u);
    EXPECT_EQ(analysis::bisect_expected_steps(1000), 10u);
}

TEST(BisectBudget, SplitsAlphaOverStepsAndReferences) {
    BisectOptions o;
    o.confidence = 0.95;
    o.expected_steps = 7;
    const std::vector<double> g = {100, 101, 99, 100.5, 99.5}, b = {110, 111, 109, 110.5, 109.5};
    const auto r = analysis::bisect_references(g, b, o);
    EXPECT_NEAR(r.step_alpha, 0.05 / 8, 1e-15);
    EXPECT_NEAR(r.reference_alpha, 0.05 / 8, 1e-15);
    EXPECT_TRUE(r.log_scale);
    EXPECT_TRUE(r.differ);
}

// The references' interval is Welch's, on ln(values): R's t.test on the
// logs. exp(a) and exp(b) of an R case give back a and b as logs.
TEST(BisectReferences, WelchIntervalMatchesR) {
    for (const char* id : {"lognormal_n15_shift10pct", "n7_vs_n12_no_ties", "normal_unequal_var_unequal_n"}) {
        const nlohmann::json* c = nullptr;
        for (const auto& x : test::reference_cases()["cases"])
            if (x["id"] == id) c = &x;
        ASSERT_NE(c, nullptr) << id;
        std::vector<double> a = test::doubles((*c)["a"]), b = test::doubles((*c)["b"]);
        // Scaled into exp's range: a common factor shifts both logs alike
        // and leaves the difference and its interval unchanged in R's terms
        // once divided by it.
        double mx = 0;
        for (double v : a) mx = std::max(mx, std::fabs(v));
        for (double v : b) mx = std::max(mx, std::fabs(v));
        const double k = 50 / mx;
        std::vector<double> ea, eb;
        for (double v : a) ea.push_back(std::exp(k * v));
        for (double v : b) eb.push_back(std::exp(k * v));
        // reference_alpha = (1 - confidence) / (steps + 1) = 0.05.
        BisectOptions o;
        o.confidence = 0.9;
        o.expected_steps = 1;
        o.threshold = 0;
        const auto r = analysis::bisect_references(ea, eb, o);
        ASSERT_TRUE(r.log_scale);
        const auto& w = (*c)["two_sample"]["welch"];
        const double lo = w["ci95"][0].get<double>(), hi = w["ci95"][1].get<double>();
        EXPECT_NEAR(std::log1p(r.change) / k, w["estimate_diff"].get<double>(), 1e-9 * std::fabs(lo - hi)) << id;
        EXPECT_NEAR(std::log1p(r.change_lower) / k, lo, 1e-7 * std::fabs(hi - lo)) << id;
        EXPECT_NEAR(std::log1p(r.change_upper) / k, hi, 1e-7 * std::fabs(hi - lo)) << id;
        EXPECT_NEAR(r.p, w["p_value"].get<double>(), 1e-7) << id;
        // The midpoint's half-width: half a Welch interval at half the
        // references' share, from R's df and standard error.
        const double q = analysis::t_quantile(1 - 0.05 / 4, w["df"].get<double>());
        EXPECT_NEAR(r.boundary_half_width / k, q * w["stderr"].get<double>() / 2, 1e-7 * std::fabs(hi - lo)) << id;
    }
}

TEST(BisectReferences, SaysWhyNotWhenTheyDoNotDiffer) {
    BisectOptions o;
    const std::vector<double> g = {100, 101, 99, 100.5, 99.5}, same = {100.2, 100.8, 99.1, 100.4, 99.7};
    auto r = analysis::bisect_references(g, same, o);
    EXPECT_FALSE(r.differ);
    EXPECT_NE(r.why.find("do not differ beyond doubt"), std::string::npos) << r.why;
    // Real but smaller than the threshold.
    const std::vector<double> g2 = {100.0, 100.01, 99.99, 100.005, 99.995, 100.0},
                              b2 = {100.5, 100.51, 100.49, 100.505, 100.495, 100.5};
    o.threshold = 0.01;
    r = analysis::bisect_references(g2, b2, o);
    EXPECT_FALSE(r.differ);
    EXPECT_NE(r.why.find("not beyond the threshold"), std::string::npos) << r.why;
    o.threshold = 0.001;
    EXPECT_TRUE(analysis::bisect_references(g2, b2, o).differ);
    // One run: no spread.
    r = analysis::bisect_references(std::vector<double>{100}, b2, o);
    EXPECT_FALSE(r.differ);
    EXPECT_NE(r.why.find("fewer than 2 runs"), std::string::npos);
}

TEST(BisectReferences, LinearScaleWhenAValueIsNotPositive) {
    BisectOptions o;
    o.threshold = 0.01;
    const std::vector<double> g = {-1.0, 0.5, 0.2, -0.3, 0.1, 0.0}, b = {5.1, 4.8, 5.3, 4.9, 5.0, 5.2};
    const auto r = analysis::bisect_references(g, b, o);
    EXPECT_FALSE(r.log_scale);
    EXPECT_GT(r.change_lower, 0);
    const auto look = analysis::bisect_look(r, std::vector<double>{5.0, 5.1, 4.9, 5.05, 4.95, 5.0, 5.02, 4.98});
    EXPECT_EQ(look.call, BisectCall::bad);
}

TEST(BisectLook, NoIntervalBeforeTwoRuns) {
    BisectOptions o;
    const std::vector<double> g = {100, 101, 99, 100.5, 99.5, 100.2}, b = {103, 104, 102, 103.5, 102.5, 103.2};
    const auto r = analysis::bisect_references(g, b, o);
    ASSERT_TRUE(r.differ);
    const auto none = analysis::bisect_look(r, {});
    EXPECT_EQ(none.call, BisectCall::go_on);
    EXPECT_TRUE(std::isnan(none.estimate));
    const auto one = analysis::bisect_look(r, std::vector<double>{100});
    EXPECT_TRUE(std::isinf(one.upper));
    EXPECT_LT(one.evidence, 0);  // at the good level: towards good
    EXPECT_THROW(analysis::bisect_look(r, std::vector<double>{100, -1}), std::invalid_argument);
    EXPECT_THROW(analysis::bisect_look(r, std::vector<double>{100, NAN}), std::invalid_argument);
}

// Identical values of a coarse metric (fps locked to a refresh rate) are
// ties, not a spread of 0: the evidence uses the references' spread, so
// ties at the good level settle as good at a finite pace; an exact metric
// (no spread anywhere) decides on one value.
TEST(BisectLook, TiesUseTheReferencesSpread) {
    BisectOptions o;
    const std::vector<double> g = {60, 60, 59, 60, 61, 60, 60, 59}, b = {50, 51, 50, 49, 50, 50, 51, 50};
    const auto r = analysis::bisect_references(g, b, o);
    ASSERT_TRUE(r.differ);
    ASSERT_GT(r.sd_upper, 0);
    std::vector<double> ties;
    BisectCall call = BisectCall::go_on;
    double last = 0;
    while (call == BisectCall::go_on && ties.size() < 50) {
        ties.push_back(60.0);
        const auto l = analysis::bisect_look(r, ties);
        EXPECT_TRUE(std::isfinite(l.evidence));
        EXPECT_LT(l.evidence, last);  // every tie adds the same evidence towards good
        last = l.evidence;
        call = l.call;
    }
    EXPECT_EQ(call, BisectCall::good);
    o.exact = true;
    const std::vector<double> ge(6, 100.0), be(6, 104.0);
    const auto re = analysis::bisect_references(ge, be, o);
    ASSERT_TRUE(re.differ);
    EXPECT_EQ(analysis::bisect_look(re, std::vector<double>{104.0}).call, BisectCall::bad);
    EXPECT_EQ(analysis::bisect_look(re, std::vector<double>{100.0}).call, BisectCall::good);
}

// A commit noisier than the references slows the step down (its own spread
// enters theta) instead of deciding on a lucky run or two.
TEST(BisectLook, ANoisierCommitNeedsMoreRuns) {
    BisectOptions o;
    std::mt19937_64 rng(3);
    std::normal_distribution<double> quiet(0, 0.01), loud(0, 0.04);
    std::vector<double> g, b;
    for (int i = 0; i < 20; ++i) g.push_back(100 * std::exp(quiet(rng)));
    for (int i = 0; i < 20; ++i) b.push_back(103 * std::exp(quiet(rng)));
    const auto r = analysis::bisect_references(g, b, o);
    ASSERT_TRUE(r.differ);
    double quiet_runs = 0, loud_runs = 0;
    for (int t = 0; t < 200; ++t)
        for (bool noisy : {false, true}) {
            std::vector<double> x;
            while (x.size() < 200) {
                x.push_back(100 * std::exp(noisy ? loud(rng) : quiet(rng)));
                if (x.size() >= 3 && analysis::bisect_look(r, x).call != BisectCall::go_on) break;
            }
            (noisy ? loud_runs : quiet_runs) += double(x.size());
        }
    EXPECT_GT(loud_runs, 2 * quiet_runs);
}

struct Simulated {
    size_t steps = 0, wrong = 0, undecided = 0, runs = 0;
};

// Steps at the good or the bad level, each with fresh references, run to
// their end as bisect step runs them (min 3 runs, max 50).
Simulated simulate(double step_pct, double noise_pct, size_t ref_runs, size_t trials, bool at_bad, uint64_t seed,
                   bool heavy_tails = false) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> z(0, 1);
    std::student_t_distribution<double> t3(3);
    const double sd = noise_pct / 100;
    const auto draw = [&](double level) {
        const double e = heavy_tails ? t3(rng) / std::sqrt(3.0) : z(rng);
        return 100 * std::exp(level + sd * e);
    };
    const double good = 0, bad = std::log1p(step_pct / 100);
    BisectOptions o;
    o.expected_steps = 6;
    Simulated s;
    for (size_t t = 0; t < trials; ++t) {
        std::vector<double> g, b;
        for (size_t i = 0; i < ref_runs; ++i) g.push_back(draw(good));
        for (size_t i = 0; i < ref_runs; ++i) b.push_back(draw(bad));
        const auto r = analysis::bisect_references(g, b, o);
        if (!r.differ) continue;
        std::vector<double> x;
        BisectCall call = BisectCall::go_on;
        while (x.size() < o.max_runs) {
            x.push_back(draw(at_bad ? bad : good));
            call = analysis::bisect_look(r, x).call;
            if (call != BisectCall::go_on && x.size() >= 3) break;
        }
        ++s.steps;
        s.runs += x.size();
        if (call == BisectCall::go_on) ++s.undecided;
        else if ((call == BisectCall::bad) != at_bad) ++s.wrong;
    }
    return s;
}

// The claim: a step is wrong with chance at most step_alpha + the
// references' share (0.05 / 7 each at 6 expected steps: 1.43% together).
// Measured: 3% steps in 1% noise, 15 runs per reference.
TEST(BisectCalibration, WrongCallsStayWithinTheBudget) {
    const double claimed = 2 * 0.05 / 7;
    for (bool at_bad : {false, true}) {
        const Simulated s = simulate(3, 1, 15, 3000, at_bad, at_bad ? 11 : 12);
        // bisect check lets most reference pairs through (the others would
        // have stopped before the bisection).
        ASSERT_GT(s.steps, 2700u);
        const double rate = double(s.wrong) / double(s.steps);
        std::printf("at %s: %zu steps, wrong %.4f (claimed <= %.4f), undecided %.4f, mean runs %.1f\n",
                    at_bad ? "bad" : "good", s.steps, rate, claimed, double(s.undecided) / double(s.steps),
                    double(s.runs) / double(s.steps));
        // Binomial slack: 3 standard errors above the claim.
        EXPECT_LE(rate, claimed + 3 * std::sqrt(claimed * (1 - claimed) / double(s.steps)));
        EXPECT_LE(double(s.undecided) / double(s.steps), 0.01);
        // Efficiency: far fewer runs than a fixed 30 per step.
        EXPECT_LE(double(s.runs) / double(s.steps), 15.0);
    }
}

// Heavy tails (t with 3 degrees of freedom) and a small step (2% in 1%
// noise): still within the budget, at more runs.
TEST(BisectCalibration, HeavyTailsAndSmallSteps) {
    const double claimed = 2 * 0.05 / 7;
    const Simulated s = simulate(2, 1, 12, 2000, false, 21, true);
    const double rate = double(s.wrong) / double(s.steps);
    std::printf("t3, 2%% step: %zu steps, wrong %.4f, undecided %.4f, mean runs %.1f\n", s.steps, rate,
                double(s.undecided) / double(s.steps), double(s.runs) / double(s.steps));
    EXPECT_LE(rate, claimed + 3 * std::sqrt(claimed * (1 - claimed) / double(s.steps)));
}

// bisect check on an A/A pair (no step): "differ" is a false alarm, at
// most the references' share.
TEST(BisectCalibration, CheckRarelyFindsADifferenceThatIsNotThere) {
    std::mt19937_64 rng(5);
    std::normal_distribution<double> z(0, 0.01);
    BisectOptions o;
    o.threshold = 0;  // the strictest case: any difference counts
    o.expected_steps = 6;
    size_t alarms = 0;
    const size_t trials = 4000;
    for (size_t t = 0; t < trials; ++t) {
        std::vector<double> g, b;
        for (int i = 0; i < 10; ++i) g.push_back(100 * std::exp(z(rng)));
        for (int i = 0; i < 10; ++i) b.push_back(100 * std::exp(z(rng)));
        alarms += analysis::bisect_references(g, b, o).differ;
    }
    const double rate = double(alarms) / trials, claimed = 0.05 / 7;
    std::printf("A/A check: differ in %.4f (claimed <= %.4f)\n", rate, claimed);
    EXPECT_LE(rate, claimed + 3 * std::sqrt(claimed * (1 - claimed) / trials));
}

// ------------------------------------------------------------ steps file

data::BisectLog sample_log() {
    data::BisectLog log;
    log.plan.metric = "time";
    log.plan.unit = "s";
    log.plan.direction = data::Direction::lower_is_better;
    log.plan.good = {"good.json", "v1", {1.0, 1.01, 0.99}};
    log.plan.bad = {"bad.json", "", {1.03, 1.04, 1.02}};
    log.plan.command = {"./prog", "--arg"};
    log.plan.build = "make";
    log.plan.good_commits = {"g0"};
    log.plan.bad_commit = "b63";
    log.plan.bad_parents = {"b62"};
    const auto step = [](std::string c, std::string parent, std::string call) {
        data::BisectStepRecord s;
        s.commit = std::move(c);
        s.parents = {std::move(parent)};
        s.call = std::move(call);
        s.exit = s.call == "good" ? 0 : s.call == "bad" ? 1 : 125;
        s.values = {1.0, 1.02};
        s.subject = "subject \"quoted\" \x1b[31m";
        return s;
    };
    // Linear history c0 (good) .. c63 (bad); the change is at c40.
    log.steps = {step("c32", "c31", "good"), step("c48", "c47", "bad"), step("c40", "c39", "bad"),
                 step("c36", "c35", "good"), step("c38", "c37", "skip"), step("c39", "c38", "good")};
    log.steps[4].build = "failed";
    log.steps[4].build_exit = 2;
    return log;
}

TEST(BisectLog, RoundTrips) {
    const data::BisectLog log = sample_log();
    const std::string text = data::bisect_log_json(log);
    const data::BisectLog back = data::parse_bisect_log(text, "steps.json");
    EXPECT_EQ(data::bisect_log_json(back), text);
    EXPECT_EQ(back.plan.good.values, log.plan.good.values);
    EXPECT_EQ(back.steps.size(), 6u);
    EXPECT_EQ(back.steps[4].build_exit, 2);
    EXPECT_EQ(back.steps[0].subject, log.steps[0].subject);
}

TEST(BisectLog, BadFilesNameWhatIsWrong) {
    const auto message = [](const std::string& text) {
        try {
            data::parse_bisect_log(text, "s.json");
        } catch (const data::InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message("{\"format\": \"gfxstat-bisect\",\n \"version\": 1,\n ]").find("s.json:3"), std::string::npos);
    EXPECT_NE(message("{\"format\": \"gfxstat-results\"}").find("not a gfxstat bisect steps file"), std::string::npos);
    EXPECT_NE(message("{\"format\": \"gfxstat-bisect\", \"version\": 2}").find("version 2"), std::string::npos);
    std::string text = data::bisect_log_json(sample_log());
    std::string bad_call = text;
    bad_call.replace(bad_call.find("\"call\": \"good\""), 14, "\"call\": \"meh\"");
    EXPECT_NE(message(bad_call).find("\"call\""), std::string::npos);
    std::string bad_value = text;
    bad_value.replace(bad_value.find("1.01"), 4, "\"x\"");
    EXPECT_NE(message(bad_value).find("numbers"), std::string::npos);
    // A number too large for any type is an input error, not an escaped
    // exception (fuzz_bisect_log found 3E0920 ending the program).
    std::string huge = text;
    huge.replace(huge.find("1.01"), 4, "3E0920");
    EXPECT_NE(message(huge).find("not a gfxstat bisect steps file: number overflow"), std::string::npos);
}

TEST(BisectLog, WritesAtomicallyAndNeverThroughALink) {
    char dir[] = "/tmp/gfxstat-bisect-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    const std::string path = std::string(dir) + "/steps.json", target = std::string(dir) + "/target";
    data::write_bisect_log(path, sample_log());
    EXPECT_EQ(data::read_bisect_log(path).steps.size(), 6u);
    ASSERT_EQ(unlink(path.c_str()), 0);
    ASSERT_EQ(symlink(target.c_str(), path.c_str()), 0);
    EXPECT_THROW(data::write_bisect_log(path, sample_log()), data::InputError);
    EXPECT_NE(access(target.c_str(), F_OK), 0);
    unlink(path.c_str());
    rmdir(dir);
}

TEST(BisectFirstBad, FoundWhereABadCommitsParentIsGood) {
    data::BisectLog log = sample_log();
    auto f = drivers::first_bad_commit(log);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->commit, "c40");
    EXPECT_EQ(f->parent, "c39");
    EXPECT_EQ(f->commit_step, 2u);
    EXPECT_EQ(f->parent_step, 5u);
    EXPECT_EQ(f->candidates, 1u);
    // Before the last step: not shown yet.
    log.steps.pop_back();
    EXPECT_FALSE(drivers::first_bad_commit(log));
    // The bad reference itself, when its parent was called good.
    data::BisectLog edge = sample_log();
    edge.steps.clear();
    data::BisectStepRecord s;
    s.commit = "b62";
    s.call = "good";
    s.parents = {"b61"};
    edge.steps.push_back(s);
    f = drivers::first_bad_commit(edge);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->commit, "b63");
    EXPECT_FALSE(f->commit_step);
    EXPECT_EQ(f->parent_step, 0u);
}

}  // namespace
}  // namespace gfxstat
