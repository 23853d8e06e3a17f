// SPDX-License-Identifier: MIT
// The systemd unit `gfxstat campaign install-service` writes: its name and
// its text. One unit per campaign directory: the default name is made from
// the directory's canonical path as `systemd-escape --path` makes it, which
// is one-to-one, so two campaigns (same plan name, names that differ only
// in characters a unit name cannot hold) never share a unit; and a unit
// already written for another directory is never replaced.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gfxstat::drivers {

// `path` (absolute) as `systemd-escape --path` writes it: slashes at the
// ends dropped and runs of them made one, '/' as '-', a leading '.' and
// every byte but [A-Za-z0-9:_.] as \xNN; "/" alone is "-".
std::string systemd_escape_path(const std::string& path);

// "gfxstat-campaign-" + the escaped directory + ".service"; nullopt when
// that is longer than systemd takes (255 bytes): the caller asks for --name.
std::optional<std::string> default_campaign_unit_name(const std::string& campaign_dir);

// The unit that resumes the campaign in `campaign_dir` (canonical) with the
// gfxstat at `exe` (canonical) at every boot. `plan_name` is only shown.
std::string campaign_unit_text(const std::string& plan_name, const std::string& campaign_dir, const std::string& exe);

// The name gfxstat gave a campaign's unit before it was named after the
// directory: "gfxstat-campaign-" + the plan's name, characters other than
// [A-Za-z0-9._-] as '_', + ".service". Two campaigns could share it.
std::string plan_named_unit_name(const std::string& plan_name);

// What is at a unit's path: nothing, or a file, and when the file is a
// unit gfxstat wrote, the campaign directory it resumes. A symbolic link
// is not followed and counts as nothing here: the writer refuses it.
struct ExistingUnit {
    bool exists = false;
    std::optional<std::string> campaign_dir;
};
ExistingUnit existing_unit(const std::string& path);

// A unit name as a shell word to paste after `systemctl enable`: in single
// quotes when it holds a backslash (systemd-escape's \xNN), escaped as
// gfxstat escapes text for a terminal when it holds anything unusual.
std::string shell_word_for_unit(const std::string& name);

// Why no unit for the campaign in `campaign_dir` may be written at `path`:
// "" when nothing is there or gfxstat's unit of this same campaign is
// (installed again, say with another gfxstat); else a sentence naming
// the campaign whose unit it is, or saying gfxstat did not write it.
std::string unit_path_taken(const std::string& path, const std::string& campaign_dir);

// A warning when `unit_dir` still holds the plan-named unit an earlier
// gfxstat wrote for this same campaign (it would resume it a second time
// at boot); "" otherwise, and when that name is `name` itself.
std::string older_unit_warning(const std::string& unit_dir, const std::string& plan_name, const std::string& name,
                               const std::string& campaign_dir);

// The paths a unit names, canonical (no links) and writable by root
// alone: the unit runs `campaign resume` as root at every boot, so the
// plan's commands, the gfxstat it names and the files resume writes must
// be ones no other user can change, or that user's commands would run as
// root. Throws InputError naming the path that is not, and when the
// directory or `exe` holds a control character (a unit cannot name it).
struct UnitPaths {
    std::string campaign_dir, exe, unit_dir;
};
UnitPaths checked_unit_paths(const std::string& campaign_dir, const std::string& exe, const std::string& unit_dir);

// `systemctl daemon-reload`, then `systemctl enable NAME`, their output to
// `log`: nothing when both succeed, else the command that failed, why it
// did not start (when it did not) and what it wrote to the log.
struct SystemctlFailure {
    std::vector<std::string> argv;
    std::string not_started;  // "" when it ran
    std::string output;
};
std::optional<SystemctlFailure> enable_unit(const std::string& name, const std::string& log);

// The campaign directory a unit's text resumes, when the text is a unit
// gfxstat wrote (its first line and its ExecStart); nullopt otherwise.
std::optional<std::string> campaign_dir_of_unit(const std::string& unit_text);

}  // namespace gfxstat::drivers
