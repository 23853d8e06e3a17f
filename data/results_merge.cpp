// SPDX-License-Identifier: MIT
#include "data/results_merge.h"

#include "data/image_check.h"
#include "data/input_error.h"
#include "data/results_json.h"
#include "data/safe_files.h"

#include <climits>
#include <cstdlib>

namespace gfxstat::data {

namespace {

std::string where(const MergeInput& in, size_t run_index) {
    if (in.report && run_index < in.report->run_lines.size())
        return in.path + ":" + std::to_string(in.report->run_lines[run_index]);
    return in.path;
}

// `dir` resolved (links and all) when it exists, else as given.
std::string resolved(const std::string& dir) {
    char buf[PATH_MAX];
    return realpath(dir.c_str(), buf) ? std::string(buf) : dir;
}

// A relative `kept` of a file in `from_dir`, as the file in `to_dir` must
// record it: unchanged in the same directory, else absolute.
std::string rebased_kept(const std::string& kept, const std::string& from_dir, const std::string& to_dir) {
    if (kept.empty() || kept.front() == '/') return kept;
    const std::string from = resolved(from_dir);
    if (from == resolved(to_dir)) return kept;
    return (from.front() == '/' ? from : resolved(".") + "/" + from) + "/" + kept;
}

}  // namespace

MergeOutcome merge_results(const std::vector<MergeInput>& inputs, ResultsHeader header,
                           const std::string& output_path) {
    const std::string out_dir = output_path.empty() || output_path == "-" ? "." : directory_of(output_path);
    MergeOutcome out;
    out.merged.header = std::move(header);
    // For each kept run: which input and which of its runs, to name lines.
    std::vector<std::pair<size_t, size_t>> kept_from, checks_from;
    for (size_t k = 0; k < inputs.size(); ++k) {
        const MergeInput& in = inputs[k];
        const ResultsFile& f = *in.file;
        out.merged.header.merged_from.push_back({f.header.id, in.path, f.header.created});
        for (const MetricInfo& m : f.metrics()) {
            const std::string conflict = out.merged.declare_metric(m);
            if (!conflict.empty())
                throw input_error(in.path, 0, conflict + " in an earlier input; refusing to merge");
        }
        for (Environment e : f.environments()) {
            const std::string conflict = out.merged.add_environment(e);
            if (!conflict.empty())
                throw input_error(in.path, 0, conflict + " in an earlier input; refusing to merge");
        }
        for (const DesignRecord& d : f.designs()) {
            const std::string conflict = out.merged.add_design(d);
            if (!conflict.empty())
                throw input_error(in.path, 0, conflict + " in an earlier input; refusing to merge");
        }
        for (size_t r = 0; r < f.runs().size(); ++r) {
            RunRecord run = f.runs()[r];
            if (run.origin.empty()) run.origin = f.header.id;
            if (auto dup = out.merged.find_run(run.origin, run.variant, run.run)) {
                std::string a, b;
                append_run_line(a, out.merged.runs()[*dup]);
                append_run_line(b, run);
                if (a == b) {
                    ++out.duplicates_dropped;
                    continue;
                }
                const auto [pk, pr] = kept_from[*dup];
                throw input_error(where(in, r), 0,
                                  "run " + std::to_string(run.run) + " of variant '" + run.variant +
                                      "' (first recorded in file " + run.origin +
                                      ") differs from the same run at " +
                                      where(inputs[pk], pr) + "; refusing to merge");
            }
            const std::string conflict = out.merged.add_run(std::move(run));
            if (!conflict.empty()) throw input_error(where(in, r), 0, conflict);
            kept_from.emplace_back(k, r);
        }
        for (size_t i = 0; i < f.image_checks().size(); ++i) {
            ImageCheck check = f.image_checks()[i];
            if (check.origin.empty()) check.origin = f.header.id;
            check.kept = rebased_kept(check.kept, directory_of(in.path), out_dir);
            const auto line = [&](const MergeInput& m, size_t j) {
                if (m.report && j < m.report->image_check_lines.size())
                    return m.path + ":" + std::to_string(m.report->image_check_lines[j]);
                return m.path;
            };
            if (auto dup = out.merged.find_image_check(check.origin, check.variant, check.check)) {
                ImageCheck first = out.merged.image_checks()[*dup];
                first.kept = check.kept;  // the same images, reached from two copies
                if (first == check) {
                    ++out.duplicate_checks_dropped;
                    continue;
                }
                const auto [pk, pi] = checks_from[*dup];
                throw input_error(line(in, i), 0,
                                  "image check " + std::to_string(check.check) + " of variant '" + check.variant +
                                      "' (first recorded in file " + check.origin +
                                      ") differs from the same check at " + line(inputs[pk], pi) +
                                      "; refusing to merge");
            }
            const std::string conflict = out.merged.add_image_check(std::move(check));
            if (!conflict.empty()) throw input_error(line(in, i), 0, conflict);
            checks_from.emplace_back(k, i);
        }
    }
    return out;
}

}  // namespace gfxstat::data
