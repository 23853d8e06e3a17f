// SPDX-License-Identifier: MIT
// What `gfxstat bisect` asks git: the commit checked out, and the state of
// the bisection git is running (its terms, its good and bad commits, how
// many commits are left). git is run by argv, never through a shell.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gfxstat::drivers {

struct GitCommit {
    std::string id;                    // full object id
    std::string subject;               // first line of the message
    std::vector<std::string> parents;  // full ids
};

// The commit HEAD names in the work tree at `dir`; nullopt when `dir` is
// not in a git work tree (or git is not installed): `why` says which.
std::optional<GitCommit> git_head(const std::string& dir, std::string* why = nullptr);

struct GitBisectState {
    bool active = false;               // a bisection is under way (git bisect start ... was run)
    std::string bad_term = "bad", good_term = "good";  // git bisect --term-new / --term-old
    std::string bad;                   // refs/bisect/<bad term>
    std::vector<std::string> good;     // refs/bisect/<good term>-*
    std::vector<std::string> bad_parents;
    // Commits that could still be the first bad one: reachable from bad,
    // not from any good (bad itself included); 0 when unknown.
    size_t candidates = 0;
};

// The bisection git is running in the repository of `dir` (not active when
// none, or when git cannot say).
GitBisectState git_bisect_state(const std::string& dir);

// A commit as people read it in a bisection's lines: its first 12 hex
// digits, or "(work tree)" for a step made without a commit.
std::string short_commit_id(const std::string& id);

// git's standard output for `git -C dir ARGS...`, without the final newline;
// nullopt when git cannot be run or exits non-zero (`error` gets its first
// line of standard error, or why it did not start).
std::optional<std::string> git_output(const std::string& dir, const std::vector<std::string>& args,
                                      std::string* error = nullptr);

}  // namespace gfxstat::drivers
