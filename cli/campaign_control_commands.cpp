// SPDX-License-Identifier: MIT
// gfxstat campaign status, stop and install-service: where a campaign
// stands (drivers/campaign_status.h, report/campaign_status.h), stopping
// it, and the systemd unit that resumes it at boot (drivers/
// campaign_service.h).
#include "cli/campaign_subcommands.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstring>

#include "cli/command_line.h"
#include "drivers/workload_setup.h"
#include "data/input_error.h"
#include "data/safe_files.h"
#include "drivers/campaign_runner.h"
#include "drivers/campaign_service.h"
#include "drivers/campaign_stop.h"
#include "drivers/campaign_unit.h"
#include "drivers/campaign_status.h"
#include "report/campaign_status.h"
#include "report/systemctl_failure.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;

namespace {

constexpr const char* kProg = kCampaignProg;

}  // namespace

// ------------------------------------------------ shared by the subcommands

void add_campaign_dir(CLI::App& app, std::string& dir) {
    app.add_option("dir", dir, "the campaign directory")->required();
}

std::optional<drivers::CampaignStatus> read_campaign_status(const char* subcommand, const std::string& dir) {
    try {
        return drivers::campaign_status(dir);
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s %s: %s\n", kProg, subcommand, escape_message(e.what()).c_str());
        return std::nullopt;
    }
}

// ---------------------------------------------------------------- status

int campaign_status_main(int argc, char** argv) {
    CLI::App app{"Where a campaign stands: runs and boots done, ETA, what went wrong.", "gfxstat campaign status"};
    std::string dir;
    bool json = false;
    add_campaign_dir(app, dir);
    app.add_flag("--json", json, "machine-readable");
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    const auto s = read_campaign_status("status", dir);
    if (!s) return 2;
    if (json) std::printf("%s\n", report::campaign_status_json(*s).c_str());
    else report::print_campaign_status(*s, dir, stdout);
    return 0;
}

// ------------------------------------------------------------------ stop

int campaign_stop_main(int argc, char** argv) {
    CLI::App app{"Stop a campaign: the running resume stops after its current run, and later resumes do nothing "
                 "until `resume --continue`.",
                 "gfxstat campaign stop"};
    std::string dir;
    bool now = false;
    add_campaign_dir(app, dir);
    app.add_flag("--now", now, "interrupt the current run too (it runs again after --continue)");
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    drivers::CampaignStopped stopped;
    try {
        stopped = drivers::stop_campaign(dir, now);
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s stop: %s\n", kProg, escape_message(e.what()).c_str());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s stop: %s\n", kProg, escape_message(e.what()).c_str());
        return 1;
    }
    const long pid = stopped.pid;
    if (pid > 0 && now) {
        if (stopped.signal_errno == 0)
            std::fprintf(stderr, "%s: stopped; interrupted the running resume (pid %ld)\n", kProg, pid);
        else
            std::fprintf(stderr, "%s: stopped; cannot signal the running resume (pid %ld): %s\n", kProg, pid,
                         std::strerror(stopped.signal_errno));
    } else if (pid > 0) {
        std::fprintf(stderr, "%s: stopped; the running resume (pid %ld) ends after its current run\n", kProg, pid);
    } else {
        std::fprintf(stderr, "%s: stopped; `gfxstat campaign resume --continue %s` goes on\n", kProg,
                     escape_text(dir).c_str());
    }
    return 0;
}

// -------------------------------------------------------- install-service

int campaign_install_service_main(int argc, char** argv) {
    CLI::App app{"Write a systemd unit that runs `gfxstat campaign resume DIR` at every boot. Nothing is enabled "
                 "unless --enable is given.",
                 "gfxstat campaign install-service"};
    std::string dir, unit_dir = "/etc/systemd/system", name;
    bool enable = false;
    add_campaign_dir(app, dir);
    app.add_option("--unit-dir", unit_dir, "where the unit goes (default /etc/systemd/system)");
    app.add_option("--name", name,
                   "the unit's name (default gfxstat-campaign-PATH.service, PATH the directory as systemd-escape "
                   "--path writes it)");
    app.add_flag("--enable", enable, "also run systemctl daemon-reload and systemctl enable");
    if (const auto done = parse_command_line(app, argc, argv)) return *done;
    drivers::CampaignUnit unit;
    try {
        unit = drivers::campaign_unit(dir, self_executable(), unit_dir, name);
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s install-service: %s\n", kProg, escape_message(e.what()).c_str());
        return 2;
    }
    if (!unit.warning.empty())
        std::fprintf(stderr, "%s install-service: warning: %s\n", kProg, escape_message(unit.warning).c_str());
    // 0644 whatever the umask; no temporary name, and a symbolic link
    // planted with the unit's name is refused, not followed.
    try {
        data::write_file_atomically(unit.path, unit.text, 0644, /*replace=*/true);
    } catch (const data::InputError& e) {
        std::fprintf(stderr, "%s install-service: %s\n", kProg, escape_message(e.what()).c_str());
        return 2;
    }
    std::printf("wrote %s\n", escape_text(unit.path).c_str());
    if (!enable) {
        std::printf("not enabled; to resume at every boot: systemctl daemon-reload && systemctl enable %s\n",
                    drivers::shell_word_for_unit(unit.name).c_str());
        return 0;
    }
    // systemctl's output goes to the campaign's hooks directory (opening
    // /dev/stderr would truncate a file stderr is redirected to).
    if (const auto failed = drivers::enable_unit(unit.name, drivers::campaign_files(dir).hooks + "/systemctl.log")) {
        report::print_systemctl_failure(std::string(kProg) + " install-service", *failed, stderr);
        return 1;
    }
    std::printf("enabled %s\n", escape_text(unit.name).c_str());
    return 0;
}

}  // namespace gfxstat::cli
