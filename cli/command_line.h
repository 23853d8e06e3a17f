// SPDX-License-Identifier: MIT
// The one way every CLI11-parsed subcommand ends on bad options: --help
// goes to stdout (exit 0); an error is said in gfxstat's words, each line
// starting with the command's name ("gfxstat compare: unknown option
// '--treshold'; did you mean --threshold?"), then where to read more, and
// gfxstat exits 2.
#pragma once

#include <csignal>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace gfxstat::cli {

// Parses argv into `app`, whose name (CLI::App's second argument) is the
// command's: "gfxstat compare", "gfxstat campaign init". Returns the exit
// status to end with, or nothing when the command should go on.
std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv);

// An option check (CLI::Option::check) for a number in [lo, hi]: unlike
// CLI::Range it refuses "nan", which compares false with both bounds.
std::function<std::string(const std::string&)> number_in(double lo, double hi);

// An option check for an unsigned whole number (a seed): CLI11 takes "-1"
// for 2^64-1, as strtoull does; this refuses a negative one.
std::function<std::string(const std::string&)> whole_number();

// For commands that run workloads (run, campaign resume): `handler` gets
// SIGINT, SIGTERM and SIGHUP (it forwards them to the workload), and
// SIGPIPE is ignored, so that a closed pipe on stderr (... 2>&1 | head)
// cannot kill gfxstat between a run and its record; writes just fail.
void install_stop_handler(void (*handler)(int));

// In such a handler: records the first stop signal in `first` (the exit
// status names it) and returns the signal to forward to the workload: the
// first one, or SIGKILL for any later one (a second Ctrl-C kills it).
int forwarded_stop_signal(volatile sig_atomic_t& first, int sig);

// The exit status of a command stopped by `signal`, as a shell reports a
// process the signal ended: 130 for SIGINT, 143 for SIGTERM, 129 for
// SIGHUP (0: SIGINT's).
int stopped_status(int signal);

// The name errors about the command line `argv` start with: "gfxstat
// compare", "gfxstat campaign init", "ministat" (the symlink), or
// "gfxstat" before a command of `commands` is known.
std::string command_prefix(int argc, char** argv, const std::vector<std::string>& commands);

// After a command returned `status`: flushes standard output and, when
// anything written to it was lost (a full disk, a closed pipe), says so
// ("PROG: cannot write the output: No space left on device") and returns
// 2; else `status`. A report that never reached its file must not end 0.
int check_output_written(const std::string& prog, int status);

// `text` written to stdout and flushed, before a command says it did (a
// lost write is then the one message, with its reason): 0, or 2 after
// "PROG: cannot write the output: REASON".
int write_stdout_now(const std::string& prog, std::string_view text);

}  // namespace gfxstat::cli
