// SPDX-License-Identifier: MIT
#include "report/settling_advice_words.h"

#include <cstdio>

#include "text/plural.h"
#include "text/text_escape.h"
#include "text/text_width.h"

namespace gfxstat::report {

namespace {

std::string pct(double relative) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "+-%g%%", 100 * relative);
    return buf;
}

std::string runs_a_variant(size_t blocks) { return text::plural(blocks, "run") + " a variant"; }

}  // namespace

std::string settling_advice_words(const analysis::SettlingAdvice& a) {
    std::string s = "at this noise " + pct(a.threshold) + " cannot likely be settled within --max-runs " +
                    std::to_string(a.max_blocks) + " (it would need " +
                    (a.blocks_needed ? "about " + runs_a_variant(*a.blocks_needed)
                                     : std::string("more than a million runs a variant")) +
                    ")";
    if (a.settling_threshold)
        s += "; " + pct(*a.settling_threshold) + " would likely settle in about " + runs_a_variant(a.settling_blocks);
    else
        s += "; no threshold up to +-100% would likely settle within it";
    return s;
}

std::string verdict_reason(const analysis::Verdict& v) {
    return v.settling ? v.reason + "; " + settling_advice_words(*v.settling) : v.reason;
}

std::vector<std::string> ab_advice_lines(const analysis::SettlingAdvice& a, const std::string& candidate,
                                         const std::string& baseline, const std::string& program) {
    const std::string text = program + ": advice: " + text::escape_text(candidate) + " vs " + text::escape_text(baseline) + ": " +
                             settling_advice_words(a) + "; ab goes on at " + pct(a.threshold) +
                             " (a threshold changed during the runs would void the error rates it keeps; "
                             "choose one for the next run)";
    return text::wrap_text(text, 72, 0, 2);
}

}  // namespace gfxstat::report
