// SPDX-License-Identifier: MIT
// What `gfxstat run`, `ab` and `campaign` tell LAVA when they run inside a
// LAVA test shell (drivers/lava_signals.h): `--lava auto|on|off` (auto:
// LAVA_RESULT_DIR set or lava-test-case on PATH), then, once the results
// file is written, a test set per variant with a case per metric, for ab a
// set of verdicts (a case per comparison, fail exactly where the gate
// trips), and the results file in the job's log; or lava-test-raise when
// the runs could not be set up.
#pragma once

#include <string>
#include <vector>

namespace gfxstat::cli {

struct ExportRequest;

class LavaReport {
public:
    // `mode` as --lava took it (CLI11 checked it); `prog` begins warnings.
    LavaReport(std::string prog, const std::string& mode);
    bool active() const { return active_; }

    // gfxstat ab, campaign analyze: adds the request that gives compare's
    // verdict rows to this report (when active).
    void collect_verdicts(std::vector<ExportRequest>& exports);

    // After the results file is written: the sets of `variants` (every
    // variant of the file when empty), the verdicts collected, the file.
    void results(const std::string& results_path, const std::vector<std::string>& variants);

    // The runs could not start (the workload cannot run, the results file
    // cannot be written): lava-test-raise, so that LAVA ends the job as
    // incomplete rather than passing it with no results.
    void setup_failed(const std::string& message);

    struct Verdict {
        std::string candidate, baseline, metric;
        double relative_change = 0;  // NaN when undefined
        bool fails = false;          // the gate trips for it (--gate, or --gate --strict)
    };

private:
    void warn(const std::string& what) const;
    std::string prog_;
    bool active_ = false;
    std::vector<Verdict> verdicts_;
    bool compared_ = false;
};

}  // namespace gfxstat::cli
