// SPDX-License-Identifier: MIT
// The results model: what a results file holds, in memory. The on-disk form
// (JSON Lines, docs/results-format.md) is read and written by
// results_reader / results_writer; nothing else touches it.
//
// A results file holds runs of one or more variants (a variant is one build
// under test). A run is one execution of a workload: when and where it ran,
// how it ended, and the metrics parsed from it. Metrics and environment
// snapshots are declared once, in their own records, and referred to by
// name and id, so that a million runs do not repeat them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "data/number_token.h"
#include "data/out_of_line.h"
#include "data/packed_optional.h"
#include "data/run_identity_index.h"
#include "data/shared_string.h"
#include "data/small_vector.h"
#include "data/string_table.h"
#include "data/throttle_record.h"

namespace gfxstat::data {

struct ImageCheck;  // data/image_check.h: a checking run (frame checksums, never timed)

inline constexpr std::string_view kResultsFormatName = "gfxstat-results";
inline constexpr int kResultsFormatVersion = 1;

enum class Direction { lower_is_better, higher_is_better, unknown };
// invalid: the workload ended, but the kernel reported GPU trouble (a hang,
// a reset, a WARN) during the run: its numbers cannot be trusted, whatever
// the workload said (drivers/kernel_trouble.h).
enum class ExitClass { ok, fail, skip, timeout, crash, invalid };
inline constexpr size_t kExitClassCount = 6;

// JSON spellings: "lower" / "higher" / "unknown"; "ok" / "fail" / ...
const char* direction_name(Direction d);
std::optional<Direction> parse_direction(std::string_view s);
const char* exit_class_name(ExitClass c);
std::optional<ExitClass> parse_exit_class(std::string_view s);

// Members a newer gfxstat wrote that this one does not know: kept verbatim
// (name, JSON text) so that merging and appending never drop them.
using UnknownMembers = std::vector<std::pair<std::string, std::string>>;

struct ResultsHeader {
    int version = kResultsFormatVersion;
    std::string id;         // 32 hex digits, random, fixed at creation
    std::string created;    // RFC 3339 UTC
    std::string generator;  // "gfxstat 0.1.0"
    struct Source {         // set by merge: the files this one was made from
        std::string id, path, created;
    };
    std::vector<Source> merged_from;
    UnknownMembers unknown;
};

struct MetricInfo {
    // {name, unit, direction[, unknown]}, as before exact and primary were
    // added: without a constructor every such brace list would warn.
    MetricInfo() = default;
    MetricInfo(std::string name_, std::string unit_, Direction direction_, UnknownMembers unknown_ = {})
        : name(std::move(name_)), unit(std::move(unit_)), direction(direction_), unknown(std::move(unknown_)) {}
    std::string name;
    std::string unit;  // free text: "us", "ns/op", "MiB/s", "" when unknown
    Direction direction = Direction::unknown;
    UnknownMembers unknown;
    // A deterministic metric (a binary's size, an instruction count, a
    // shader statistic): the same build always gives the same value, so any
    // difference is a change, not noise. A metric exact in one file and not
    // in another means two different things: part of the declaration.
    bool exact = false;
    // Whether the metric is what its workload is run for (gem_syslatency's
    // latency_mean) rather than a by-product (its cycles, `time`'s max_rss);
    // nullopt when the producer did not say. A hint for reports, not part
    // of the declaration: files that disagree on it still merge.
    std::optional<bool> primary;
    // What one value is when it is not a run's: "frame" for a run's
    // per-frame times (a 60-second run gives 3600 of them). Such values are
    // within-run data: frames of one run share its clocks, caches and
    // scene, so they are not independent samples of the build, and
    // analyses compare the per-run summaries the producer wrote beside
    // them (fps_mean, frame_time_p99) instead (docs/frame-times.md). ""
    // (absent in the file): every value is a sample, as it always was.
    // Part of the declaration: frames in one file and runs in another
    // cannot be one metric.
    std::string per;
    bool within_run() const { return !per.empty(); }
    bool same_declaration(const MetricInfo& o) const {
        return unit == o.unit && direction == o.direction && exact == o.exact && per == o.per;
    }
};

// What a run ran, as `gfxstat run` was told: runs of two different
// workloads are two experiments, whatever their labels say, so each run's
// environment records it (docs/results-format.md, "workload").
struct WorkloadRecord {
    // A command, as given after `--` (argv[0] as typed, not resolved) ...
    std::vector<std::string> argv;
    // ... or one of gfxstat's built-in workloads ("wakeup-latency") with the
    // options it was run with ("duration" -> "1", "load-threads" -> "4").
    std::string builtin;
    std::map<std::string, std::string> options;
    // How its output was read: the parser's name ("lines", "time", "metric"
    // for --metric regexes), its settings ("metric_name", "unit",
    // "direction"), and the --metric NAME=REGEX specs in the order given.
    std::string parser;
    std::map<std::string, std::string> parser_options;
    std::vector<std::string> metrics;
    // Environment variables set for the workload (a campaign variant's env).
    std::map<std::string, std::string> env;
    // Members a newer gfxstat wrote, kept verbatim: they are part of what
    // ran, so two records that differ there are two workloads.
    UnknownMembers unknown;
    bool operator==(const WorkloadRecord&) const = default;
};
// One line for messages and `show`, raw (the caller escapes it):
// "sleep 0.01 (parser lines)", "wakeup-latency --duration 1 (parser
// wakeup-latency)". Arguments with spaces or quotes are quoted.
std::string workload_text(const WorkloadRecord& w);

// Where a run ran. Every field is a string; absent fields were not probed.
// Well-known keys (see docs/results-format.md): hostname, kernel_release,
// kernel_cmdline, cpu_model, cpu_governor, cpu_turbo, gpu_driver,
// gpu_pci_id, gpu_min_freq_mhz, gpu_max_freq_mhz. `tags` holds the user's
// --tag key=value pairs (a Mesa or kernel git sha, a firmware version).
struct Environment {
    std::string id;  // "env-" + 16 hex digits of a hash of the content
    std::map<std::string, std::string> fields;
    std::map<std::string, std::string> tags;
    // What ran; nullopt in files written before gfxstat recorded it, and
    // for imported runs (unknown, not "none").
    std::optional<WorkloadRecord> workload;
    bool same_content(const Environment& o) const {
        return fields == o.fields && tags == o.tags && workload == o.workload;
    }
};
// The content-derived id of `env` (fields, tags and workload; the id itself
// ignored). Without a workload it is the id gfxstat always gave.
std::string environment_id(const Environment& env);

// The machine a run ran on, the level above its boot when results of a
// fleet are merged: the environment's `machine` field (a digest of the
// machine id, drivers/environment_probe.h), else its hostname (files
// written before gfxstat recorded one); "" when it has neither.
std::string machine_key(const Environment& env);
// What reports call that machine: its hostname when recorded, else the key.
std::string machine_name(const Environment& env);

// How the runs of an experiment were laid out and when it stopped, as
// `gfxstat ab` planned it: runs in blocks (each block runs every variant
// once, in a seeded random order) and a stop rule that looks after each
// block, or a fixed number of blocks. Runs refer to it by id, and carry
// their block and their place in it, so that `compare` analyses the file
// as the design it was (docs/results-format.md, "Design records").
struct DesignRecord {
    std::string id;             // "design-" + 16 hex digits
    std::string kind = "ab";    // what laid the runs out
    std::vector<std::string> variants;  // the variants, baseline first
    std::string order;          // "random" (seeded) within each block
    uint64_t seed = 0;
    std::string stopping;       // "sequential" (a stop rule) or "fixed"
    std::string method;         // the stop rule: "t-mixture confidence sequence"
    std::string metric;         // the metric the stop rule watched
    double confidence = 0.95, threshold = 0.01;
    std::optional<uint64_t> max_runs, runs;  // blocks at most (sequential) / exactly (fixed)
    // A group-sequential stop rule (method "group-sequential t (Pocock)"):
    // the looks planned before the first run, in complete blocks, and the
    // bound on |t| at each (empty for every other rule).
    std::vector<uint64_t> looks;
    std::vector<double> boundary;
    UnknownMembers unknown;
    bool operator==(const DesignRecord&) const = default;
};

// One metric of a run: 40 bytes and no heap block in the common case of
// one value (its name shared by the file's runs, the value inline).
struct MetricValues {
    SharedString name;
    // One value, or the repetitions one run measured (gem_exec_nop -r 100
    // prints a hundred); every value is a sample. `array` sits in the
    // padding after the inline value.
    [[no_unique_address]] SmallVector<NumberToken> values;
    bool array = false;  // written as a JSON array even when it holds one value
};

// A run in memory. A file can hold millions, so the record is compact:
// strings that runs repeat or mostly lack are shared pointers
// (SharedString, 8 bytes; ResultsFile keeps one copy of each text), one
// metric with one value is held inline (SmallVector), optional numbers
// keep their absence in the number (PackedOptional, 8 bytes instead of
// 16), and rare members are out of line (the throttle record, the unknown
// members: 8 bytes each when absent); sizeof(RunRecord) is held to a bound
// by a test (tests/unit/data/run_record_size_test.cpp).
struct RunRecord {
    SharedString variant;
    uint64_t run = 0;  // index within the variant (and origin), from 0
    SharedString boot;  // /proc/sys/kernel/random/boot_id; "" when unknown
    std::string start;                  // RFC 3339 UTC; "" when unknown
    PackedOptional<double> duration_s;  // wall time of the run
    ExitClass exit_class = ExitClass::ok;
    std::optional<int> exit_code;
    std::optional<int> signal;
    bool warmup = false;
    // Why a run did not end ok, in one line: the program's skip reason, the
    // parse error, "timed out after 10 s". "" when none.
    SharedString exit_reason;
    SharedString environment;  // id of an environment record; "" when none
    SmallVector<MetricValues> metrics;
    // Provenance: id of the results file the run was first written to (set
    // by merge), and where an importer found it ("bench.json", "out.txt:12").
    SharedString origin;
    SharedString source;
    // Where `gfxstat run` kept the run's stdout and stderr: a path prefix,
    // relative to the results file's directory, to which ".stdout" and
    // ".stderr" are added ("results.json.logs/baseline-0003").
    SharedString log;
    // The step of a `gfxstat campaign` schedule this run carries out
    // (campaign DIR/plan.json); it is how a resumed campaign knows, from
    // the results alone, which steps are done.
    PackedOptional<uint64_t> campaign_step;
    // The design record the run belongs to ("" when none), its block
    // (from 0) and its 0-based place in that block.
    SharedString design;
    PackedOptional<uint64_t> block, position;
    // What the GPU clock sampler saw during the run; nullopt when nothing
    // was sampled (no source on the machine, imported runs, older files).
    OutOfLine<ThrottleRecord> throttle;
    OutOfLineVector<std::pair<std::string, std::string>> unknown;  // as UnknownMembers

    const MetricValues* metric(std::string_view name) const;
};

// A whole results file in memory, with the rules every file obeys: metrics
// and environments declared before use and never redeclared differently,
// run identities (origin, variant, run) unique.
// The largest run index a results file holds (JSON readers with signed
// 64-bit integers read it exactly).
inline constexpr uint64_t kMaxRunIndex = 9223372036854775807ULL;

class ResultsFile {
public:
    // Out of line: ImageCheck is complete only in the sources that use it.
    ResultsFile();
    ~ResultsFile();
    ResultsFile(const ResultsFile&);
    ResultsFile(ResultsFile&&) noexcept;
    ResultsFile& operator=(const ResultsFile&);
    ResultsFile& operator=(ResultsFile&&) noexcept;

    ResultsHeader header;

    const std::vector<MetricInfo>& metrics() const { return metrics_; }
    const std::vector<Environment>& environments() const { return environments_; }
    const std::vector<RunRecord>& runs() const { return runs_; }
    const std::vector<DesignRecord>& designs() const { return designs_; }
    // The checking runs (frame checksums, never timed), in file order;
    // include data/image_check.h to read them.
    const std::vector<ImageCheck>& image_checks() const { return image_checks_; }

    const MetricInfo* find_metric(std::string_view name) const;
    const Environment* find_environment(std::string_view id) const;
    const DesignRecord* find_design(std::string_view id) const;

    // Each returns an empty string on success, else why the record conflicts
    // with what the file holds (the caller adds file and line).
    // Declaring a metric again with the same unit and direction is a no-op.
    std::string declare_metric(const MetricInfo& m);
    // Adds the environment unless one with the same id exists (same content
    // required). Fills env.id from the content when empty.
    std::string add_environment(Environment& env);
    // Adds the design unless one with the same id exists (same content
    // required: the same id with other content is a conflict).
    std::string add_design(const DesignRecord& design);
    // Checks the run's references and identity, then keeps it.
    std::string add_run(RunRecord run);

    // Checks the image check's references and identity (origin, variant,
    // check), then keeps it.
    std::string add_image_check(ImageCheck check);
    // Index into image_checks() of the check with this identity, if any.
    std::optional<size_t> find_image_check(const std::string& origin, const std::string& variant,
                                           uint64_t check) const;

    // Index into runs() of the run with this identity, if any.
    std::optional<size_t> find_run(const std::string& origin, const std::string& variant,
                                   uint64_t run) const;
    // The next free run index for `variant` among runs without an origin.
    uint64_t next_run_index(std::string_view variant) const;
    // Variant labels in order of first appearance.
    std::vector<std::string> variants() const;

private:
    std::vector<MetricInfo> metrics_;
    std::vector<Environment> environments_;
    std::vector<RunRecord> runs_;
    std::vector<DesignRecord> designs_;
    std::vector<ImageCheck> image_checks_;
    // (origin, variant, check) -> index into image_checks_; checks are few.
    std::map<std::tuple<std::string, std::string, uint64_t>, size_t> image_check_index_;
    std::unordered_map<std::string, size_t> design_index_;
    std::unordered_map<std::string, size_t> metric_index_;
    std::unordered_map<std::string, size_t> environment_index_;
    // (origin, variant, run) -> index into runs_, about 8 bytes a run
    RunIdentityIndex run_index_;
    std::unordered_map<std::string, uint64_t> next_run_;  // by variant, origin ""
    std::vector<std::string> variants_;
    std::unordered_set<std::string> variant_set_;  // the same, for lookups
    // The runs' repeated strings, each kept once (add_run).
    StringTable strings_;
};

}  // namespace gfxstat::data
