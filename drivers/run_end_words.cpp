// SPDX-License-Identifier: MIT
// How a run ended, in words for its record and for messages: signal names,
// the last line a program printed, IGT's skip block, one clean line.
#include "drivers/run_end_words.h"

#include <csignal>

#include "drivers/run_parsers.h"

namespace gfxstat::drivers {
namespace {

const char* signal_name(int sig) {
    switch (sig) {
        case SIGABRT: return "SIGABRT";
        case SIGSEGV: return "SIGSEGV";
        case SIGKILL: return "SIGKILL";
        case SIGTERM: return "SIGTERM";
        case SIGINT: return "SIGINT";
        case SIGBUS: return "SIGBUS";
        case SIGFPE: return "SIGFPE";
        case SIGILL: return "SIGILL";
        case SIGPIPE: return "SIGPIPE";
        default: return nullptr;
    }
}

std::string trim(std::string_view s) {
    size_t a = 0, b = s.size();
    while (a < b && (s[a] == ' ' || s[a] == '\t' || s[a] == '\r' || s[a] == '\n')) ++a;
    while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t' || s[b - 1] == '\r' || s[b - 1] == '\n')) --b;
    return std::string(s.substr(a, b - a));
}

}  // namespace

std::string describe_signal(int sig) {
    const char* name = signal_name(sig);
    return name ? name : "signal " + std::to_string(sig);
}

std::string last_line(std::string_view text) {
    size_t end = text.size();
    while (end > 0) {
        const size_t start = text.rfind('\n', end - 1);
        const size_t from = start == std::string_view::npos ? 0 : start + 1;
        const std::string line = trim(text.substr(from, end - from));
        if (!line.empty()) return line;
        if (start == std::string_view::npos) break;
        end = start;
    }
    return "";
}

// One line for a record: control characters become spaces, at most 300 bytes.
std::string one_line(std::string s) {
    for (char& c : s)
        if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    if (s.size() > 300) s = s.substr(0, 297) + "...";
    return s;
}

std::string describe_end(const ProcessResult& pr) {
    switch (pr.ended) {
        case ProcessResult::Ended::exited: return "exit " + std::to_string(pr.exit_code);
        case ProcessResult::Ended::signaled: return "killed by " + describe_signal(pr.signal);
        case ProcessResult::Ended::timed_out: return "timed out";
        case ProcessResult::Ended::not_started: return pr.error;
    }
    return "";
}

std::string skip_reason(std::string_view out, std::string_view err) {
    // IGT prints its skip block on stdout; other programs say why on stderr.
    for (std::string_view text : {out, err}) {
        const std::string igt = igt_skip_reason(text);
        if (!igt.empty()) return one_line(igt);
    }
    std::string line = last_line(err);
    if (line.empty()) line = last_line(out);
    return one_line(line);
}

}  // namespace gfxstat::drivers
