// SPDX-License-Identifier: MIT
#include "findings/image_checks.h"

#include <algorithm>

namespace gfxstat::findings {

namespace {

// Held by some ok run of `v`: stable or unstable.
bool holds(const VariantFrames& v, uint64_t frame) {
    return v.stable.count(frame) != 0 || std::binary_search(v.unstable.begin(), v.unstable.end(), frame);
}

// Why `v` alone cannot be judged, or none.
NotJudged own_reason(const VariantFrames& v) {
    if (!v.enough_runs()) return NotJudged::too_few_runs;
    if (v.methods.size() > 1) return NotJudged::mixed_methods;
    if (!v.has_frames()) return NotJudged::no_frames;
    if (v.stable.empty()) return NotJudged::nondeterministic;
    return NotJudged::none;
}

}  // namespace

VariantFrames variant_frames(const std::string& variant, const std::vector<data::ImageCheck>& checks) {
    VariantFrames v;
    v.variant = variant;
    struct Seen {
        size_t runs = 0;
        std::set<std::string> sums;
    };
    std::map<uint64_t, Seen> seen;
    for (const data::ImageCheck& c : checks) {
        if (c.exit_class != data::ExitClass::ok) {
            ++v.not_ok;
            continue;
        }
        ++v.runs;
        v.methods.insert(c.method);
        for (const auto& [frame, sum] : c.frames) {
            Seen& s = seen[frame];
            ++s.runs;
            s.sums.insert(sum);
        }
    }
    // One run cannot tell a stable frame from an unstable one: none is
    // classified.
    if (!v.enough_runs()) return v;
    for (const auto& [frame, s] : seen) {  // increasing frame numbers
        if (s.runs == v.runs && s.sums.size() == 1)
            v.stable.emplace(frame, *s.sums.begin());
        else
            v.unstable.push_back(frame);
    }
    return v;
}

ImageComparison compare_images(const VariantFrames& baseline, const VariantFrames& candidate) {
    ImageComparison c;
    c.baseline = baseline.variant;
    c.candidate = candidate.variant;
    for (const VariantFrames* v : {&baseline, &candidate}) {
        const NotJudged why = own_reason(*v);
        if (why == NotJudged::none) continue;
        c.why = why;
        c.who = v->variant;
        c.who_runs = v->runs;
        return c;
    }
    if (baseline.methods != candidate.methods) {
        c.why = NotJudged::methods_differ;
        return c;
    }
    for (const auto& [frame, sum] : baseline.stable) {
        const auto other = candidate.stable.find(frame);
        if (other != candidate.stable.end()) {
            ++c.compared;
            if (other->second != sum) c.differing.push_back(frame);
        } else if (!holds(candidate, frame)) {
            c.only_baseline.push_back(frame);
        }
    }
    for (const auto& [frame, sum] : candidate.stable)
        if (!holds(baseline, frame)) c.only_candidate.push_back(frame);
    if (c.compared == 0) {
        c.why = NotJudged::nothing_in_common;
        return c;
    }
    c.outcome = c.differing.empty() ? ImageOutcome::equal : ImageOutcome::differ;
    return c;
}

ImageChecks check_images(const VariantChecks& baseline, const std::vector<VariantChecks>& candidates) {
    ImageChecks r;
    r.baseline = variant_frames(baseline.variant, baseline.checks);
    for (const VariantChecks& k : candidates) {
        r.candidates.push_back(variant_frames(k.variant, k.checks));
        r.comparisons.push_back(compare_images(r.baseline, r.candidates.back()));
    }
    return r;
}

bool image_rules_out_improvement(const ImageComparison& c) { return c.outcome == ImageOutcome::differ; }

bool image_gate_fails(const ImageComparison& c, bool allow_image_change) {
    return image_rules_out_improvement(c) && !allow_image_change;
}

}  // namespace gfxstat::findings
