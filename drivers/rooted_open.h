// SPDX-License-Identifier: MIT
// Opening the machine's paths ("/sys/...", "/var/lib/gfxstat") so that a
// tree named by --root or GFXSTAT_SYSFS_ROOT cannot be escaped. gfxstat
// tune often runs as root; a symbolic link anywhere inside such a tree
// (ROOT/var/lib -> /var/lib, ROOT/sys/.../cpu0/cpufreq -> /tmp/victim)
// must not make it write, create or remove files outside the tree. Under a
// root every path is resolved by openat2(2) with RESOLVE_IN_ROOT, relative
// to a descriptor of ROOT: links inside the tree, absolute or relative,
// resolve inside it (a copied sysfs tree with its relative links keeps
// working) and ".." stops at ROOT. On the real root sysfs's own links
// (cpuN/cpufreq -> ../cpufreq/policyN, class/drm/cardN) must be followed,
// so plain open(2) is used there, except for the state directory, which is
// reached through no link at all (`no_links`).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "data/safe_files.h"

namespace gfxstat::drivers {

// Whether openat2(2) works here (false on kernels before 5.6, or where a
// seccomp filter answers ENOSYS). Without it nothing is written under a
// root: a plain open could follow a link out of the tree.
bool rooted_opens_available();

// Opens the machine path `machine_path` (absolute) with open(2)'s `flags`
// and `mode` (O_NOFOLLOW in `flags` refuses a link at the last component).
// Under system_root(): resolved inside ROOT as above; -1 with errno ENOSYS
// when openat2 is missing. On the real root: open(2), or with `no_links`
// no symbolic link at any component (RESOLVE_NO_SYMLINKS; O_NOFOLLOW on
// the last one when openat2 is missing). Returns the descriptor or -1 with
// errno set.
int open_machine_path(const std::string& machine_path, int flags, mode_t mode = 0, bool no_links = false);

// Creates the directory `machine_path` and its missing parents (mode
// `mode` for the last one, 0755 for the parents, before the umask), each
// with mkdirat(2) under its parent opened as above, so a link in the tree
// cannot make it create a directory elsewhere. Returns 0 or the errno,
// with `failed` naming the component that could not be made.
int make_machine_directories(const std::string& machine_path, mode_t mode, bool no_links, std::string& failed);

// The names in the directory `machine_path` (opened as above), without "."
// and "..", unsorted; empty when it cannot be opened.
std::vector<std::string> list_machine_directory(const std::string& machine_path);

}  // namespace gfxstat::drivers
