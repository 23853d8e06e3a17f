#include "cli/command_line.h"

#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "cli/command_describe.h"
#include "report/text_escape.h"

namespace gfxstat::cli {

std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv) {
    // gfxstat __describe: the options this App would parse, instead of parsing.
    if (describe_requested()) return describe_app(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // --help goes to stdout as CLI11 writes it; an error quotes the
        // arguments, which may hold anything (a label from a plan, a
        // pasted escape sequence): its lines are escaped.
        std::ostringstream err;
        const int status = app.exit(e, std::cout, err);
        std::istringstream lines(err.str());
        for (std::string line; std::getline(lines, line);)
            std::fprintf(stderr, "%s\n", report::escape_message(line).c_str());
        return status == 0 ? 0 : 2;
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

void install_stop_handler(void (*handler)(int)) {
    struct sigaction sa {};
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGHUP, &sa, nullptr);
    signal(SIGPIPE, SIG_IGN);
}

}  // namespace gfxstat::cli
