// SPDX-License-Identifier: MIT
// gfxstat inside a LAVA test shell: what it tells LAVA, through LAVA's own
// scripts (lava-test-set, lava-test-case, lava-test-raise, found on PATH
// as the test shell puts them there, run without a shell; with /bin/sh when
// they have no "#!" line, as execvp runs them). LAVA keeps one
// number per test case, so each variant is a test set and each metric's
// summary a case, and the whole results file goes to the log beside them
// (formats/lava_block.h) so that nothing is lost (docs/ci-reports.md,
// "LAVA").
#pragma once

#include <cstdio>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "data/results_model.h"

namespace gfxstat::drivers {

enum class LavaMode { automatic, on, off };
// "auto", "on", "off".
std::optional<LavaMode> parse_lava_mode(std::string_view s);

// Whether gfxstat runs inside a LAVA test shell: `on`; never with `off`;
// with `automatic` when LAVA_RESULT_DIR is set (the test shell sets it) or
// lava-test-case is on PATH.
bool lava_active(LavaMode mode);

// A test set's or case's name in LAVA's characters [-_a-zA-Z0-9.]: every
// other byte becomes '_' ("gl/manhattan fps" -> "gl_manhattan_fps"); an
// empty name is "_", and a name of dots only ("..", which lava-test-case
// would make its results directory's parent) is as many '_'.
std::string lava_name(std::string_view s);
// Units as lava-test-case can carry them: its signal line is split at
// spaces and '=' and ends at '>', dash's echo reads backslash escapes and
// an unquoted echo expands globs, so only letters, digits, "%/.-_+" and
// UTF-8 (µs) pass; every other byte becomes '_'. Of UTF-8, the white space
// LAVA's parser splits at (Python's str.split(): U+00A0, U+2009, ...) and
// the C1 controls become '_' too, one per code point.
std::string lava_units(std::string_view s);
// What gfxstat puts for a backslash in a message to lava-test-raise:
// U+FF3C FULLWIDTH REVERSE SOLIDUS, which looks like one and which no echo
// reads as an escape (dash's echo, which LAVA's scripts print signals with,
// ends the line at "\c", so the signal's '>' and the next signal with it,
// and turns "\0074" into '<', so a message could forge a signal line).
inline constexpr const char* kLavaBackslash = "\xEF\xBC\xBC";
// A message for lava-test-raise: one line, no '<' or '>' (they end the
// signal), control bytes as spaces, backslashes as kLavaBackslash.
std::string lava_message(std::string_view message);
// Whether `word` reaches LAVA as it is wherever its scripts may put it:
// printed by any echo (no backslash), inside a signal line (no '<', '>',
// white space or '='), unquoted (no glob or quote character). Only
// [A-Za-z0-9/._+,:@%~-] pass. A results file's path that does not is
// printed as a block instead of handed to lava-test-case --output.
bool lava_plain_word(std::string_view word);
// A measurement as LAVA reads it (Python's decimal.Decimal): "%.17g",
// which reads back as the same double; nullopt for inf and NaN, which
// Decimal would take but LAVA's database cannot hold.
std::optional<std::string> lava_measurement(double x);

// Names made unique after lava_name: the second "fps" is "fps-2".
class LavaNames {
public:
    std::string unique(std::string_view raw);

private:
    std::set<std::string> used_;
};

struct LavaCase {
    std::string name;    // already a LAVA name
    std::string result;  // pass, fail, skip
    std::optional<std::string> measurement;
    std::string units;   // already LAVA units; "" for none
};

struct LavaSet {
    std::string name;
    std::vector<LavaCase> cases;
};

// One set per variant of `variants` (in that order), one case per metric
// the variant's runs hold: the mean of its values from ok runs that are
// not warm-ups (metrics of values within runs, such as frames, are left
// out: their runs' summaries are metrics of their own). A case is `fail`
// when a run of the variant failed (fail, timeout, crash, invalid; with
// the mean of the ok runs, if any), else `skip` when no ok run gave a
// value (or the mean is not finite; no measurement then), else `pass`.
// Set names come from `names` (unique across sets); case names are
// unique within their set.
std::vector<LavaSet> lava_summary_sets(const data::ResultsFile& file, const std::vector<std::string>& variants,
                                       LavaNames& names);

// Calls LAVA's scripts. Their stdout is relayed to `out` as it is (LAVA
// reads the console: the signal lines must reach it verbatim, and every
// part of them gfxstat gives is made of LAVA's name characters or is a
// number). What else is to be said -- a script that cannot run or failed,
// what it wrote on stderr -- goes to `warn`, raw: the caller escapes it
// for the terminal. A script's failure is never an error.
class LavaSignals {
public:
    using Warn = std::function<void(const std::string&)>;
    LavaSignals(FILE* out, Warn warn) : out_(out), warn_(std::move(warn)) {}
    void set_start(const std::string& name);
    void set_stop();
    void test_case(const LavaCase& c);
    void sets(const std::vector<LavaSet>& sets);
    // lava-test-raise MESSAGE: LAVA ends the job as incomplete.
    void raise(const std::string& message);
    // The results file into the job's log: `lava-test-case gfxstat-results
    // --result pass --output FILE` where lava-test-case has --output, else
    // the results block printed on `out`. Returns false (after a warning)
    // when the file cannot be read.
    bool attach(const std::string& results_path);
    // Whether lava-test-case takes --output: its usage text (printed when
    // run without arguments) names it. Asked once.
    bool has_output_option();

private:
    // Runs argv; its output relayed. False when it did not run or failed
    // (and `expect_failure` is false).
    bool script(const std::vector<std::string>& argv, bool expect_failure = false, std::string* captured = nullptr);
    FILE* out_;
    Warn warn_;
    std::optional<bool> output_option_;
};

}  // namespace gfxstat::drivers
