#include "tests/calibration/suite_markdown.h"

#include <cmath>

#include "tests/calibration/suite_bars.h"

namespace gfxstat::calibration {

namespace {

double rate(size_t hits, size_t count) {
    return count ? static_cast<double>(hits) / static_cast<double>(count) : std::nan("");
}

}  // namespace

void write_suite_text(std::FILE* out, const std::vector<SuiteCellResult>& rs, const RunInfo& info) {
    std::fprintf(out, "# gfxstat calibration, suites measured once a side: seed %llu, R = %zu%s, %.1f s\n",
                 static_cast<unsigned long long>(info.seed), info.reps, info.quick ? " (quick)" : "", info.seconds);
    std::fprintf(out, "# noise k change: gate significant correct wrong_way no_change inconclusive | signed_rank "
                      "(significant) | coverage geomean hl (achieved) headline\n");
    for (const SuiteCellResult& r : rs)
        std::fprintf(out,
                     "%-12s %3zu %-11s: %6.4f %6.4f %6.4f %6.4f %6.4f %6.4f | %6.4f (%6.4f) | %6.4f %6.4f (%6.4f) "
                     "%6.4f\n",
                     suite_noises()[r.spec.noise].name, r.spec.k, suite_change_name(r.spec.change),
                     rate(r.gate_fails, r.reps), rate(r.significant, r.reps), rate(r.correct, r.reps),
                     rate(r.wrong_way, r.reps), rate(r.no_change, r.reps), rate(r.inconclusive, r.reps),
                     rate(r.by_signed_rank, r.reps), rate(r.significant_by_signed_rank, r.by_signed_rank),
                     rate(r.geomean_covered, r.geomean_defined), rate(r.hl_covered, r.hl_defined),
                     r.reps ? r.hl_achieved_sum / static_cast<double>(r.reps) : std::nan(""),
                     rate(r.headline_covered, r.headline_defined));
}

void write_suite_markdown(std::FILE*, const std::vector<SuiteCellResult>&, const RunInfo&) {}

}  // namespace gfxstat::calibration
