#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""cmake/version.cmake, the version string every build writes for
data/gfxstat_version.cpp, on throw-away git repositories: no release tag
("PROJECT+g<hash>"), a dirty tree, a file touched but unchanged, release
tags and commits after them, tags that are not releases, the package
override, a tree without git or unpacked inside another repository, the
header left untouched when the string is the same, a checkout git cannot
read, and refused input."""

import argparse
import os
import subprocess
import sys
import tempfile

FAILURES = []
PROJECT = "9.8.7"


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)
    return cond


# A git of its own: no user or system configuration, a fixed identity.
GIT_ENV = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull,
               GIT_AUTHOR_NAME="gfxstat test", GIT_AUTHOR_EMAIL="test@example.invalid",
               GIT_COMMITTER_NAME="gfxstat test", GIT_COMMITTER_EMAIL="test@example.invalid")


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], env=GIT_ENV, check=True,
                          capture_output=True, text=True).stdout.strip()


class Script:
    def __init__(self, cmake, source, tmp):
        self.cmake = cmake
        self.script = os.path.join(source, "cmake", "version.cmake")
        self.header = os.path.join(tmp, "out", "gfxstat_version_string.h")
        self.env = GIT_ENV

    def run(self, src, override="", extra=None):
        args = [self.cmake, f"-DSOURCE_DIR={src}", f"-DOUTPUT={self.header}",
                f"-DPROJECT_VERSION={PROJECT}", f"-DOVERRIDE={override}"]
        if extra is not None:
            args = [self.cmake] + extra
        p = subprocess.run(args + ["-P", self.script], env=self.env, capture_output=True, text=True)
        return p

    def version(self, src, override=""):
        """The string written into the header, or None (and a failure)."""
        p = self.run(src, override)
        if not check(p.returncode == 0, f"version.cmake on {src} exited {p.returncode}: {p.stderr.strip()}"):
            return None
        with open(self.header) as f:
            text = f.read()
        prefix = '#define GFXSTAT_VERSION "'
        for line in text.splitlines():
            if line.startswith(prefix) and line.endswith('"'):
                return line[len(prefix):-1]
        check(False, f"no GFXSTAT_VERSION line in the header: {text!r}")
        return None


def expect(got, want, what):
    check(got == want, f"{what}: got {got!r}, want {want!r}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cmake", required=True)
    ap.add_argument("--source", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        s = Script(args.cmake, args.source, tmp)

        plain = os.path.join(tmp, "plain")
        os.makedirs(plain)
        expect(s.version(plain), PROJECT, "a tree outside git")
        expect(s.version(plain, override="1.4.2"), "1.4.2", "the override outside git")

        repo = os.path.join(tmp, "repo")
        os.makedirs(os.path.join(repo, "sub"))
        git(repo, "init", "-q")
        expect(s.version(repo), PROJECT, "a repository without a commit")
        with open(os.path.join(repo, "sub", "a.txt"), "w") as f:
            f.write("one\n")
        git(repo, "add", ".")
        git(repo, "commit", "-qm", "one")
        short = git(repo, "rev-parse", "--short", "HEAD")
        expect(s.version(repo), f"{PROJECT}+g{short}", "no release tag")

        # Touched but unchanged is clean; changed is dirty.
        os.utime(os.path.join(repo, "sub", "a.txt"), (2000000000, 2000000000))
        expect(s.version(repo), f"{PROJECT}+g{short}", "a file touched, not changed")
        with open(os.path.join(repo, "sub", "a.txt"), "a") as f:
            f.write("two\n")
        expect(s.version(repo), f"{PROJECT}+g{short}-dirty", "a changed file, no release tag")
        git(repo, "commit", "-qam", "two")

        git(repo, "tag", "v1.2.0")
        expect(s.version(repo), "1.2.0", "on a release tag")
        git(repo, "tag", "-a", "-m", "not a release", "nightly")
        expect(s.version(repo), "1.2.0", "a newer tag that is not a release")
        with open(os.path.join(repo, "sub", "a.txt"), "a") as f:
            f.write("three\n")
        expect(s.version(repo), "1.2.0-dirty", "a release tag, a changed file")
        git(repo, "commit", "-qam", "three")
        short = git(repo, "rev-parse", "--short", "HEAD")
        expect(s.version(repo), f"1.2.0-1-g{short}", "one commit after a release tag")
        expect(s.version(repo, override="1.2.0"), "1.2.0", "the override in a checkout")

        # A tree inside another repository is not that repository's.
        expect(s.version(os.path.join(repo, "sub")), PROJECT, "a tree inside another repository")

        # The same string leaves the header alone (nothing recompiles).
        s.version(repo)
        os.utime(s.header, (1000000, 1000000))
        s.version(repo)
        check(os.stat(s.header).st_mtime == 1000000, "the same version rewrote the header")

        # A checkout git cannot read (sudo make install in another user's
        # tree): the last build's version stands; with no header yet, the
        # project version.
        before = s.version(repo)
        s.env = dict(GIT_ENV, GIT_DIR=os.path.join(tmp, "no-such-git-dir"))
        expect(s.version(repo), before, "a checkout git cannot read, after a build")
        os.remove(s.header)
        expect(s.version(repo), PROJECT, "a checkout git cannot read, first build")
        s.env = GIT_ENV

        # What cannot be a C string literal's content is refused.
        p = s.run(plain, override='1.0"; evil();')
        check(p.returncode != 0 and "version" in p.stderr,
              f"a version with a quote: exit {p.returncode}, {p.stderr.strip()!r}")
        p = s.run(plain, extra=[f"-DOUTPUT={s.header}", f"-DPROJECT_VERSION={PROJECT}"])
        check(p.returncode != 0 and "SOURCE_DIR" in p.stderr,
              f"no SOURCE_DIR: exit {p.returncode}, {p.stderr.strip()!r}")
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        return 1
    print("version script: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
