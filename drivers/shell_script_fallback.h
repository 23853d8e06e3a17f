// SPDX-License-Identifier: MIT
// What execvp and every shell do with a file the kernel will not execute
// (execve fails with ENOEXEC): a text file without a "#!" line is a shell
// script, run by /bin/sh with the file's path as its first argument. LAVA's
// own scripts (lava-test-case, ...) are such files wherever the test shell
// has not written an interpreter line into them, and so may be a user's
// workload script. drivers/process_runner execs without a shell and asks
// here what to do when a file gives ENOEXEC.
#pragma once

#include <string>
#include <vector>

namespace gfxstat::drivers {

// The shell that runs such files: POSIX's _PATH_BSHELL, as glibc's execvp.
inline constexpr const char* kScriptShell = "/bin/sh";

// Whether `path` is to be run by the shell: it can be read and does not
// look like a binary. A binary (an ELF file, or a NUL byte in the first
// line, two lines after a "#!" line: bash's test) that the kernel refuses
// is an executable for another machine or a damaged one; reading it as
// shell commands would run its bytes, so its ENOEXEC stands, as in bash.
// A relative `path` is taken from `dir_fd` (the command's working
// directory, as the child resolved it; AT_FDCWD for gfxstat's own).
bool runs_as_shell_script(int dir_fd, const std::string& path);

// {"/bin/sh", path, argv[1], ...}: the command line that runs the script at
// `path` (the PATH entry the search found) with the arguments of `argv`.
std::vector<std::string> shell_script_argv(const std::string& path, const std::vector<std::string>& argv);

}  // namespace gfxstat::drivers
