// SPDX-License-Identifier: MIT
// A fleet in words and in JSON, for compare's reports: how the variance
// splits between machines, boots and runs, each machine's change, and the
// machine that stands out (analysis/nested_variance.h,
// analysis/machine_changes.h). Names come from data and are returned raw:
// the renderer escapes them as it prints (text/text_escape.h).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "findings/compare_findings.h"

namespace gfxstat::cli {

// What reports call machine `id` of comparison k of m: its hostname when
// the environment has one, else the machine id (data::machine_name).
std::string machine_display_name(const MetricReport& m, size_t k, const std::string& id);

// "84% between machines, 5% between boots, 11% within boots (3 machines,
// 12 boots; machines F test p = 1.2e-05)"; "" when undefined.
std::string fleet_variance_words(const analysis::NestedVariance& v);

// "dut-03 alone slowed down by 8.04%; the other 2 machines agree on
// -0.03%." (or several machines that stand out); "" when none does.
std::string odd_machine_sentence(const MetricReport& m, size_t k);

// "about 14 machines per side would resolve +-1% (machines needed)" when
// the verdict counts machines and can say; "" otherwise.
std::string machines_needed_words(const analysis::Verdict& v, double threshold);

// The "machines" object of comparison k of m (docs/compare-format.md).
nlohmann::json fleet_json(const MetricReport& m, size_t k);

}  // namespace gfxstat::cli
