// SPDX-License-Identifier: MIT
// The state file of `gfxstat tune`: ROOT/var/lib/gfxstat/tune.json (ROOT is
// system_root()), holding every file's original bytes as they were before
// gfxstat first wrote it, the boot they belong to and when it was tuned. It
// is written durably before the first sysfs write, so that a kill at any
// moment (SIGKILL, a crash, a power cut) leaves either no change to the
// machine or a state file that `gfxstat tune reset` can undo.
//
// The file (JSON, one object):
//   {"format": "gfxstat-tune", "version": 1, "boot_id": "6f1c...",
//    "time": "2026-12-01T21:30:00Z", "by": "run --tune", "pid": 4242,
//    "start_time": 123456, "settings": "...",
//    "files": [{"path": "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
//               "original": "powersave\n"}, ...]}
// "original" holds the file's bytes exactly, the trailing newline included;
// bytes 0x80-0xff are stored as the code points U+0080-U+00FF (sysfs
// attributes are ASCII; this keeps any byte without losing it). "by" says
// who tuned ("apply" or "run --tune"; a file without it is "apply's"), and
// "start_time" is the tuning process's start time (drivers/tune_owner.h),
// so that a reused pid is not taken for it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "data/safe_files.h"

namespace gfxstat::drivers {

struct SavedFile {
    std::string path;      // the machine's path, "/sys/..."
    std::string original;  // its bytes before gfxstat first wrote it
};

inline constexpr const char* kTunedByApply = "apply";
inline constexpr const char* kTunedByRun = "run --tune";

struct TuneState {
    std::string boot_id;   // the boot the originals belong to
    std::string time;      // UTC, ISO 8601, of the first apply
    std::string by = kTunedByApply;  // kTunedByApply or kTunedByRun
    long pid = 0;          // the gfxstat that saved it
    unsigned long long start_time = 0;  // its start time (field 22 of /proc/PID/stat)
    std::string settings;  // what was applied, for people ("governor performance, turbo off, ...")
    std::vector<SavedFile> files;

    const SavedFile* find(const std::string& path) const;
};

// ROOT/var/lib/gfxstat, opened for the *at calls (created by gfxstat when
// `create`; empty when missing and not `create`). Throws InputError when it
// is a link, cannot be made, or others could write to it.
data::UniqueFd open_tune_state_dir(bool create);

// ROOT/var/lib/gfxstat/tune.json, for messages.
std::string tune_state_path();

// The current boot's id under system_root(): GFXSTAT_BOOT_ID_FILE when set
// (tests simulate reboots), else ROOT/proc/sys/kernel/random/boot_id.
std::string tune_boot_id();

// The saved state, or nothing when there is none. Throws InputError naming
// the file when it cannot be read or is not a state file (a symbolic link
// in its place included).
std::optional<TuneState> load_tune_state();

// Writes `state` durably: in ROOT/var/lib/gfxstat (created 0755 by gfxstat, the file 0644;
// an existing one must be a private directory, not a link), a new temporary
// file, fsync, rename over tune.json, fsync of the directory. Throws
// InputError on failure (then nothing has been written to sysfs yet).
void save_tune_state(const TuneState& state);

// Removes tune.json (durably). Throws InputError when it exists and cannot be
// removed.
void remove_tune_state();

// The time now, "2026-12-01T21:30:00Z".
std::string utc_now_text();

}  // namespace gfxstat::drivers
