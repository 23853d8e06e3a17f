// SPDX-License-Identifier: MIT
#include "cli/command_line.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>

#include <stdio_ext.h>

#include <CLI/CLI.hpp>

#include "cli/command_describe.h"
#include "text/nearest_word.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;

namespace {

bool starts_with(const std::string& s, std::string_view p) { return s.compare(0, p.size(), p) == 0; }

// Every name an option of `app` answers to, "--threshold" and "-C" alike.
std::vector<std::string> option_names(const CLI::App& app) {
    std::vector<std::string> names;
    for (const CLI::Option* o : app.get_options()) {
        for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
        for (const std::string& n : o->get_snames()) names.push_back("-" + n);
    }
    return names;
}

// An argument CLI11 found no place for: an option it does not know, or a
// word beyond the positionals the command takes.
std::string extra_message(const CLI::App& app, const std::string& arg) {
    const bool option = arg.size() > 1 && arg[0] == '-';
    if (!option) return "unexpected argument '" + escape_text(arg) + "'";
    const std::string name = arg.substr(0, arg.find('='));
    return "unknown option '" + escape_text(name) + "'" + text::did_you_mean(name, option_names(app));
}

// CLI11 writes numbers of a range with std::to_string ("0.001000"): the
// digits that matter only.
std::string trimmed_number(std::string n) {
    if (n.find('.') == std::string::npos) return n;
    while (!n.empty() && n.back() == '0') n.pop_back();
    if (!n.empty() && n.back() == '.') n.pop_back();
    return n;
}

std::string type_words(const std::string& type) {
    if (type == "INT" || type == "UINT") return "a whole number";
    if (type == "FLOAT") return "a number";
    if (type.empty()) return "a value it takes: it is a flag, given alone";
    return "a value of type " + type;
}

// The parts of `message` (CLI11's wording, which 2.1 keeps stable) that a
// rewording needs; false when it does not have that shape.
bool split_at(const std::string& message, const std::string& sep, std::string& before, std::string& after) {
    const size_t at = message.find(sep);
    if (at == std::string::npos) return false;
    before = message.substr(0, at);
    after = message.substr(at + sep.size());
    return true;
}

// One CLI11 parse error as gfxstat says it: what was wrong, in words, with
// the arguments escaped, and the nearest valid word where there is one.
std::string error_line(const CLI::App& app, const CLI::ParseError& e) {
    const std::string what = e.what();
    std::string a, b;
    if (dynamic_cast<const CLI::RequiredError*>(&e) && split_at(what, " is required", a, b) && b.empty()) {
        if (starts_with(a, "-")) return escape_message(a) + " is required";
        // A positional: say what it is, from its help.
        const CLI::Option* o = app.get_option_no_throw(a);
        const std::string help = o ? o->get_description() : "";
        return "missing " + escape_message(a) + (help.empty() ? "" : " (" + escape_message(help) + ")");
    }
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) && split_at(what, " required ", a, b) &&
        b.size() > 8 && b.compare(b.size() - 8, 8, " missing") == 0) {
        const std::string name = a.substr(0, a.rfind(':'));
        return escape_message(name) + " needs a value";
    }
    if (dynamic_cast<const CLI::ConversionError*>(&e) && split_at(what, "Could not convert: ", a, b) && a.empty() &&
        split_at(b, " = ", a, b)) {
        const CLI::Option* o = app.get_option_no_throw(a);
        return escape_message(a) + ": '" + escape_text(b) + "' is not " +
               (o ? type_words(o->get_type_name()) : std::string("a valid value"));
    }
    if (dynamic_cast<const CLI::ValidationError*>(&e) && split_at(what, ": ", a, b)) {
        const std::string name = a;
        std::string value, rest;
        // CLI::Range: "Value 5 not in range 60 to 100000".
        if (starts_with(b, "Value ") && split_at(b.substr(6), " not in range ", value, rest) &&
            split_at(rest, " to ", a, b)) {
            // "abc" is not out of range: it is no number at all.
            char* end = nullptr;
            (void)std::strtod(value.c_str(), &end);
            const bool numeric = !value.empty() && end != value.c_str() && *end == '\0';
            return escape_message(name) + ": '" + escape_text(value) + "' is not " + (numeric ? "" : "a number ") +
                   "from " + trimmed_number(a) + " to " + trimmed_number(b);
        }
        // CLI::IsMember: "jsn not in {text,markdown,json}".
        if (split_at(b, " not in {", value, rest) && !rest.empty() && rest.back() == '}') {
            rest.pop_back();
            std::vector<std::string> members;
            std::istringstream list(rest);
            for (std::string m; std::getline(list, m, ',');) members.push_back(m);
            std::string known;
            for (const auto& m : members) known += (known.empty() ? "" : ", ") + m;
            const std::string near = text::did_you_mean(value, members);
            return escape_message(name) + ": unknown value '" + escape_text(value) + "'" +
                   (near.empty() ? "; known: " + escape_message(known) : near + " (known: " + escape_message(known) + ")");
        }
        // gfxstat's own checks (number_in and the like) say what is
        // expected; one that says a rule ("must be ...") is said as it is.
        if (starts_with(b, "must ")) return escape_message(name) + ": " + escape_message(b);
        return escape_message(name) + ": expected " + escape_message(b);
    }
    return escape_message(what);
}

// Every line to say for `e`: each argument CLI11 found no place for, then
// the error itself. Unknown options come first even when CLI11 threw for
// something else: it checks required options before it looks at what was
// left over, but in `--frm hyperfine` the typo is why --from is missing,
// and the typo is what to say first.
std::vector<std::string> error_lines(const CLI::App& app, const CLI::ParseError& e) {
    const bool extras = dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr;
    std::vector<std::string> lines;
    for (const std::string& arg : app.remaining(false)) {
        if (arg == "--") continue;  // CLI11 keeps the end of options among what is left
        if (extras || arg[0] == '-') lines.push_back(extra_message(app, arg));
    }
    if (!extras || lines.empty()) lines.push_back(error_line(app, e));
    return lines;
}

}  // namespace

std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv) {
    // gfxstat __describe: the options this App would parse, instead of parsing.
    if (describe_requested()) return describe_app(app);
    // CLI11 lets an option whose value is optional (`--check-images
    // [every:K]`) swallow a `--` right after it (and its value), which
    // would turn the command's own options into gfxstat's: that `--` is
    // given twice, once for CLI11 to swallow.
    std::vector<std::string> args(argv + 1, argv + argc);
    for (size_t i = 0; i < args.size() && args[i] != "--"; ++i) {
        const CLI::Option* o = app.get_option_no_throw(args[i]);
        if (!o || o->get_expected_min() != 0 || o->get_expected_max() < 1) continue;
        size_t next = i + 1;
        if (next < args.size() && !args[next].empty() && args[next][0] != '-') ++next;
        if (next < args.size() && args[next] == "--") args.insert(args.begin() + static_cast<std::ptrdiff_t>(next), "--");
        break;
    }
    try {
        std::reverse(args.begin(), args.end());  // CLI11 takes them from the back
        app.parse(args);
    } catch (const CLI::Success& e) {
        // --help goes to stdout as CLI11 writes it, in one write: a help
        // longer than stdout's buffer that cannot be written then says why
        // (the first failing write's errno), not only that it failed.
        std::ostringstream out, err;
        app.exit(e, out, err);
        return write_stdout_now(app.get_name(), out.str());
    } catch (const CLI::ParseError& e) {
        // The error quotes the arguments, which may hold anything (a label
        // from a plan, a pasted escape sequence): they are escaped.
        const std::string prog = app.get_name();
        for (const std::string& line : error_lines(app, e))
            std::fprintf(stderr, "%s: %s\n", prog.c_str(), line.c_str());
        std::fprintf(stderr, "%s: see '%s --help'\n", prog.c_str(), prog.c_str());
        return 2;
    }
    return std::nullopt;
}

std::function<std::string(const std::string&)> number_in(double lo, double hi) {
    return [lo, hi](const std::string& text) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end != '\0' || !(v >= lo && v <= hi)) {
            char buf[96];
            std::snprintf(buf, sizeof buf, "a number from %g to %g", lo, hi);
            return buf;
        }
        return "";
    };
}

std::function<std::string(const std::string&)> whole_number() {
    return [](const std::string& text) -> std::string {
        // What is not a number at all the conversion refuses, in its words.
        const size_t first = text.find_first_not_of(" \t");
        return first != std::string::npos && text[first] == '-' ? "must not be negative" : "";
    };
}

void install_stop_handler(void (*handler)(int)) {
    struct sigaction sa {};
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGHUP, &sa, nullptr);
    signal(SIGPIPE, SIG_IGN);
}

int forwarded_stop_signal(volatile sig_atomic_t& first, int sig) {
    const bool again = first != 0;
    if (!again) first = sig;
    return again ? SIGKILL : sig;
}

std::string command_prefix(int argc, char** argv, const std::vector<std::string>& commands) {
    const char* slash = argc > 0 ? std::strrchr(argv[0], '/') : nullptr;
    if (argc > 0 && std::strcmp(slash ? slash + 1 : argv[0], "ministat") == 0) return "ministat";
    if (argc < 2) return "gfxstat";
    const std::string cmd = argv[1] == std::string("--version") ? "version" : argv[1];
    if (std::find(commands.begin(), commands.end(), cmd) == commands.end()) return "gfxstat";
    std::string prog = "gfxstat " + cmd;
    // campaign and tune have subcommands of their own: a word of lowercase
    // letters and dashes after them is one.
    if ((cmd == "campaign" || cmd == "tune") && argc > 2 && argv[2][0] != '-' && argv[2][0] != '\0' &&
        std::strspn(argv[2], "abcdefghijklmnopqrstuvwxyz-") == std::strlen(argv[2]))
        prog += std::string(" ") + argv[2];
    return prog;
}

int stopped_status(int signal) { return 128 + (signal > 0 ? signal : SIGINT); }

int check_output_written(const std::string& prog, int status) {
    // std::cout writes through stdout's buffer (sync_with_stdio), so one
    // flush and one error flag tell whether everything written reached its
    // file. stdout first: its failing flush is the one that says why (a
    // second flush finds the buffer already dropped).
    errno = 0;
    const bool flushed = std::fflush(stdout) == 0;
    const int err = flushed ? 0 : errno;
    std::cout.flush();
    if (flushed && !std::ferror(stdout) && std::cout.good()) return status;
    std::fprintf(stderr, "%s: cannot write the output: %s\n", prog.c_str(),
                 err ? std::strerror(err) : "a write to standard output failed");
    return 2;
}

int write_stdout_now(const std::string& prog, std::string_view text) {
    // The reason is the first failing write's: fwrite's when the text is
    // longer than the buffer, else the flush's.
    errno = 0;
    const bool put = std::fwrite(text.data(), 1, text.size(), stdout) == text.size();
    int err = errno;
    const bool flushed = put && std::fflush(stdout) == 0;
    if (put && !flushed) err = errno;
    if (flushed && !std::ferror(stdout)) return 0;
    std::fprintf(stderr, "%s: cannot write the output: %s\n", prog.c_str(),
                 err ? std::strerror(err) : "a write to standard output failed");
    // Said once: what is left in the buffer is dropped, so that main's own
    // check finds nothing more to fail on.
    __fpurge(stdout);
    std::clearerr(stdout);
    return 2;
}

}  // namespace gfxstat::cli
