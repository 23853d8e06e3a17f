// SPDX-License-Identifier: MIT
#include "report/image_check_words.h"

#include <algorithm>

#include "text/plural.h"
#include "text/text_escape.h"
#include "text/text_width.h"

namespace gfxstat::report {

namespace {

using findings::ImageComparison;
using findings::ImageOutcome;
using findings::NotJudged;

// "2 (first: 119)"
std::string count_first(const findings::FrameNumbers& frames) {
    return std::to_string(frames.size()) + " (first: " + std::to_string(frames.front()) + ")";
}

void add_wrapped(std::vector<std::string>& lines, const std::string& sentence, size_t width, size_t first_indent,
                 size_t indent) {
    for (std::string& line : text::wrap_text(text::escape_text(sentence), width, first_indent, indent))
        lines.push_back(std::move(line));
}

}  // namespace

std::string image_verdict_words(const ImageComparison& c) {
    switch (c.outcome) {
        case ImageOutcome::differ:
            return "renders differently: " + std::to_string(c.differing.size()) + " of " +
                   text::plural(c.compared, "frame") + " (first: " + std::to_string(c.first_differing()) + ")";
        case ImageOutcome::equal:
            return "images equal: " + text::plural(c.compared, "frame");
        case ImageOutcome::not_judged:
            break;
    }
    switch (c.why) {
        case NotJudged::too_few_runs:
            return "not judged: " + c.who + " has " +
                   (c.who_runs == 0 ? std::string("no checking run that ended ok") : text::plural(c.who_runs, "checking run")) +
                   " (needs " + std::to_string(findings::kImageCheckRunsNeeded) + ")";
        case NotJudged::no_frames:
            return "not judged: the " + text::plural(c.who_runs, "checking run") + " of " + c.who +
                   " read back no frame";
        case NotJudged::nondeterministic:
            return "nondeterministic: no frame of " + c.who + " is stable over its " +
                   text::plural(c.who_runs, "checking run");
        case NotJudged::mixed_methods:
            return "not judged: the checking runs of " + c.who + " checksummed frames in more than one way";
        case NotJudged::methods_differ:
            return "not judged: " + c.baseline + " and " + c.candidate + " checksummed frames in different ways";
        case NotJudged::nothing_in_common:
            return "not judged: no frame is stable in both " + c.baseline + " and " + c.candidate;
        case NotJudged::none:
            break;
    }
    return "not judged";
}

std::vector<std::string> image_variant_notes(const findings::VariantFrames& v) {
    std::vector<std::string> notes;
    if (!v.unstable.empty()) notes.push_back("frames unstable in " + v.variant + ": " + count_first(v.unstable));
    if (v.not_ok != 0)
        notes.push_back("checking runs of " + v.variant + " that did not end ok: " + std::to_string(v.not_ok) +
                        " (left out)");
    return notes;
}

std::vector<std::string> image_comparison_notes(const ImageComparison& c) {
    std::vector<std::string> notes;
    if (!c.only_baseline.empty())
        notes.push_back("frames stable in " + c.baseline + " only: " + count_first(c.only_baseline) +
                        ", not compared");
    if (!c.only_candidate.empty())
        notes.push_back("frames stable in " + c.candidate + " only: " + count_first(c.only_candidate) +
                        ", not compared");
    return notes;
}

std::vector<std::string> image_check_lines(const findings::ImageChecks& checks, size_t width) {
    std::vector<std::string> lines;
    for (const std::string& note : image_variant_notes(checks.baseline)) add_wrapped(lines, note, width, 0, 4);
    for (size_t k = 0; k < checks.comparisons.size(); ++k) {
        const ImageComparison& c = checks.comparisons[k];
        add_wrapped(lines, c.candidate + " vs " + c.baseline + ": " + image_verdict_words(c), width, 0, 4);
        if (k < checks.candidates.size())
            for (const std::string& note : image_variant_notes(checks.candidates[k]))
                add_wrapped(lines, note, width, 2, 4);
        for (const std::string& note : image_comparison_notes(c)) add_wrapped(lines, note, width, 2, 4);
    }
    return lines;
}

std::string verdict_outcome_words(const cli::MetricReport& m, size_t k) {
    return m.overruled(k) ? "renders differently" : analysis::outcome_words(m.verdicts[k]);
}

std::string verdict_outcome_words(const cli::PairedSuiteReport& p) {
    return p.image_overruled ? "renders differently" : analysis::outcome_words(p.verdict);
}

void print_image_checks(const cli::CompareReport& r, FILE* out) {
    if (!r.images) return;
    std::fprintf(out, "\n");
    for (const std::string& line : image_check_lines(*r.images, static_cast<size_t>(std::max(r.width, text::kMinWidth))))
        std::fprintf(out, "%s\n", line.c_str());
}

const char* image_outcome_name(findings::ImageOutcome o) {
    switch (o) {
        case ImageOutcome::equal: return "equal";
        case ImageOutcome::differ: return "differ";
        case ImageOutcome::not_judged: break;
    }
    return "not_judged";
}

const char* not_judged_name(findings::NotJudged why) {
    switch (why) {
        case NotJudged::too_few_runs: return "too_few_runs";
        case NotJudged::no_frames: return "no_frames";
        case NotJudged::nondeterministic: return "nondeterministic";
        case NotJudged::mixed_methods: return "mixed_methods";
        case NotJudged::methods_differ: return "methods_differ";
        case NotJudged::nothing_in_common: return "nothing_in_common";
        case NotJudged::none: break;
    }
    return "";
}

}  // namespace gfxstat::report
