// SPDX-License-Identifier: MIT
// Picks the samples of one metric out of a results file, one sample per
// variant, the way every analysis wants them: only runs that ended ok and
// were not warm-ups, with the excluded runs counted so reports can say so.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "data/input_error.h"
#include "data/results_model.h"
#include "data/results_reader.h"
#include "data/sample.h"

namespace gfxstat::data {

// A --metric the file does not declare: the message names what it holds,
// and the name and the list travel with it so that cli/ can add "did you
// mean" (text/nearest_word.h), which data/ does not know.
class UnknownMetricError : public InputError {
public:
    UnknownMetricError(const InputError& e, std::string typed_name, std::vector<std::string> known_names)
        : InputError(e), typed(std::move(typed_name)), known(std::move(known_names)) {}
    std::string typed;
    std::vector<std::string> known;
};

struct SelectionCounts {
    size_t runs_used = 0;       // ok, not warm-up, with the metric
    size_t values = 0;          // samples taken from them
    size_t warmup = 0;          // warm-up runs excluded (whatever their exit)
    std::array<size_t, kExitClassCount> excluded_by_class{};  // indexed by ExitClass; ok never counted
    size_t without_metric = 0;  // ok runs that did not report the metric
    // The invalid runs (the kernel reported GPU trouble during them), not
    // warm-ups, by run index and reason, in file order: reports name them.
    std::vector<std::pair<uint64_t, std::string>> invalid_runs;
    size_t excluded() const;
};

// Which boot and which machine each value came from, for the
// boot-clustering and warm-up diagnostics and the fleet analysis. Values
// are in file order, which is run order.
struct BootLayout {
    std::vector<std::string> boots;       // boot ids, in order of first appearance
    // One per value: an index into `boots`. Empty when some run used has
    // no boot id (imported data): then nothing is known about boots.
    std::vector<uint32_t> boot_of_value;
    std::vector<size_t> firsts;           // index of the first value of each boot
    // The machines (data::machine_key of each run's environment: its
    // `machine` field, else its hostname), in order of first appearance,
    // and what reports call them (machine_name: the hostname when recorded,
    // else the key).
    std::vector<std::string> machines, machine_names;
    // One per value: an index into `machines`. Empty when some run used
    // has no machine (no environment, or one with neither field).
    std::vector<uint32_t> machine_of_value;
    // Boots nest in machines: a boot id that the file shows on two
    // machines is two boots, each named "<boot id>@<machine key>".
    // The environment record of the values, in run order: (environment
    // id, values) for each stretch of values in one environment. Empty
    // when some run used has none. What the runs recorded about the
    // machine (load average, temperatures, clocks) as the series went on,
    // for the drift sentences; erase_values leaves it as selected, since
    // those sentences number values in the original run order.
    std::vector<std::pair<std::string, size_t>> environments;
};

// Removes the values at `indices` (increasing) from the layout, as
// erase_values does from the sample; a boot or machine left without values
// is kept in `boots` / `machines` but has no first value any more.
void erase_values(BootLayout& layout, const std::vector<size_t>& indices);

struct VariantSample {
    std::string variant;
    Sample sample;  // name = variant label
    SelectionCounts counts;
    BootLayout layout;
};

struct MetricSelection {
    MetricInfo metric;
    std::vector<VariantSample> variants;
};

// `metric` may be empty when the file declares exactly one metric.
// `variants` empty selects every variant, in order of first appearance;
// otherwise those given, in that order. Throws InputError naming `name`
// and listing what the file holds when a metric or variant is not there.
MetricSelection select_metric(const ResultsFile& file, const std::string& name,
                              std::string_view metric, const std::vector<std::string>& variants);

// select_metric for every metric the file declares, in declaration order,
// in one pass over the runs: a file of N metrics costs what one pass costs,
// not N passes (`show` diagnoses every metric of a table of 20,000 columns).
// A metric no selected run reports has empty samples.
std::vector<MetricSelection> select_all_metrics(const ResultsFile& file, const std::string& name,
                                               const std::vector<std::string>& variants);

// The same from a results file's text, read and selected in one pass: each
// run's values go straight into the samples, so a file of a million values
// is never held as parsed numbers and samples at once.
MetricSelection read_and_select(std::string_view text, const std::string& name,
                                std::string_view metric, const std::vector<std::string>& variants,
                                ReadReport* report = nullptr);

// "2 failed, 1 timed out, 3 warm-ups" (empty when nothing was excluded).
std::string describe_exclusions(const SelectionCounts& counts);

}  // namespace gfxstat::data
