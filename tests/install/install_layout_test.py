#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What `cmake --install` (and so `make install` and the .deb) lays out:
the installed file list against the expected one, exactly (every missing
and every unexpected file named), modes, the installed gfxstat running
from there, and the optional bin/ministat link (a relative symlink, its
own install component, in a plain install only when
GFXSTAT_INSTALL_MINISTAT_LINK is on)."""

import argparse
import glob
import os
import re
import stat
import subprocess
import sys
import tempfile

FAILURES = []

# Every subcommand has its page, gfxstat-SUBCOMMAND(1), beside gfxstat(1).
SUBCOMMANDS = ["ministat", "summary", "compare", "import", "show", "merge", "store", "run",
               "workload", "ab", "campaign", "bisect", "history", "report", "lava", "devices", "tune", "version"]


def expected_files(src, ministat_link):
    """The installed tree under DESTDIR for --prefix /usr, as relative paths."""
    files = ["usr/bin/gfxstat",
             "usr/share/doc/gfxstat/README.md",
             "usr/share/doc/gfxstat/SECURITY.md",
             "usr/share/doc/gfxstat/docs/results-format.schema.json",
             "usr/share/man/man1/gfxstat.1",
             "usr/share/bash-completion/completions/gfxstat",
             "usr/share/zsh/vendor-completions/_gfxstat"]
    files += [f"usr/share/man/man1/gfxstat-{c}.1" for c in SUBCOMMANDS]
    # Every page of docs/ is shipped, with the pictures they show: the pages
    # are the tree's, the place is what is tested.
    files += ["usr/share/doc/gfxstat/docs/" + os.path.basename(p)
              for pattern in ("*.md", "*.png") for p in glob.glob(os.path.join(src, "docs", pattern))]
    # examples/ whole, in its own layout: the docs cite examples/... and
    # say where the installed copy is.
    files += ["usr/share/doc/gfxstat/examples/" + os.path.relpath(p, os.path.join(src, "examples"))
              for p in glob.glob(os.path.join(src, "examples", "**"), recursive=True) if os.path.isfile(p)]
    if ministat_link:
        files.append("usr/bin/ministat")
    return sorted(files)


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)
    return cond


def installed_files(root):
    """Every file and symbolic link under root, as relative paths."""
    found = []
    for d, dirs, files in os.walk(root):
        for name in files + [x for x in dirs if os.path.islink(os.path.join(d, x))]:
            found.append(os.path.relpath(os.path.join(d, name), root))
    return sorted(found)


def install(cmake, build, destdir, prefix="/usr", component=None, strip=False):
    args = [cmake, "--install", build, "--prefix", prefix]
    if strip:
        args.append("--strip")
    if component:
        args += ["--component", component]
    env = dict(os.environ, DESTDIR=destdir)
    p = subprocess.run(args, env=env, capture_output=True, text=True)
    check(p.returncode == 0, f"{' '.join(args)} exited {p.returncode}: {p.stderr.strip()}")


def cache_option(build, name):
    """A boolean from the build directory's CMakeCache.txt."""
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith(name + ":"):
                return line.split("=", 1)[1].strip().upper() in ("ON", "1", "TRUE", "YES", "Y")
    check(False, f"{name} is not in {build}/CMakeCache.txt")
    return False


def check_full_install(cmake, build, src, tmp):
    root = os.path.join(tmp, "root")
    install(cmake, build, root)
    link_on = cache_option(build, "GFXSTAT_INSTALL_MINISTAT_LINK")
    want = set(expected_files(src, link_on))
    have = set(installed_files(root))
    for f in sorted(want - have):
        check(False, f"missing from the install: {f}")
    for f in sorted(have - want):
        check(False, f"unexpected in the install: {f}")

    for f in sorted(want & have):
        if f.startswith("usr/share/doc/gfxstat/examples/"):
            with open(os.path.join(root, f), "rb") as a, \
                    open(os.path.join(src, "examples", f[len("usr/share/doc/gfxstat/examples/"):]), "rb") as b:
                check(a.read() == b.read(), f"{f} is the tree's examples/ file, unchanged")

    exe = os.path.join(root, "usr/bin/gfxstat")
    if check(os.path.isfile(exe), "usr/bin/gfxstat is installed"):
        mode = stat.S_IMODE(os.stat(exe).st_mode)
        check(mode == 0o755, f"usr/bin/gfxstat has mode {oct(mode)}, not 0o755")
        p = subprocess.run([exe, "--help"], capture_output=True, text=True)
        check(p.returncode == 0 and "gfxstat" in p.stdout,
              f"the installed gfxstat --help exited {p.returncode}: {p.stderr.strip()}")
    for f in sorted(have):
        path = os.path.join(root, f)
        if f.startswith("usr/share/") and not os.path.islink(path):
            mode = stat.S_IMODE(os.stat(path).st_mode)
            check(mode == 0o644, f"{f} has mode {oct(mode)}, not 0o644")
    if link_on:
        check(os.path.realpath(os.path.join(root, "usr/bin/ministat")) == os.path.realpath(exe),
              "with GFXSTAT_INSTALL_MINISTAT_LINK on, usr/bin/ministat leads to usr/bin/gfxstat")


def check_ministat_link(cmake, build, tmp):
    # The component on its own, under another prefix: the link is made
    # where the prefix says at install time, and points at its neighbour.
    root = os.path.join(tmp, "link")
    install(cmake, build, root, prefix="/opt/gfx", component="ministat-link")
    have = installed_files(root)
    check(have == ["opt/gfx/bin/ministat"],
          f"the ministat-link component installs opt/gfx/bin/ministat alone, not {have}")
    link = os.path.join(root, "opt/gfx/bin/ministat")
    if check(os.path.islink(link), "bin/ministat is a symbolic link"):
        target = os.readlink(link)
        check(target == "gfxstat", f"bin/ministat points at '{target}', not the relative 'gfxstat'")
    # Installing again over it (a second `make install`) replaces the link.
    install(cmake, build, root, prefix="/opt/gfx", component="ministat-link")
    check(os.path.islink(link) and os.readlink(link) == "gfxstat", "a second install keeps the link")


def elf_sections(path):
    """The section names of an ELF file, as readelf lists them."""
    p = subprocess.run(["readelf", "-S", "-W", path], capture_output=True, text=True)
    check(p.returncode == 0, f"readelf -S {path} exited {p.returncode}: {p.stderr.strip()}")
    return set(re.findall(r"\]\s+(\.\S+)", p.stdout))


def check_stripped_install(cmake, build, tmp):
    # make install installs with --strip: the program without its debug
    # information and symbol table (the build tree's keeps them, for gdb).
    root = os.path.join(tmp, "stripped")
    install(cmake, build, root, strip=True)
    exe = os.path.join(root, "usr/bin/gfxstat")
    if not check(os.path.isfile(exe), "usr/bin/gfxstat is installed by --strip"):
        return
    built = elf_sections(os.path.join(build, "gfxstat"))
    installed = elf_sections(exe)
    check(".text" in installed, f"the stripped gfxstat has a .text section: {sorted(installed)}")
    for section in (".debug_info", ".symtab"):
        check(section not in installed, f"the stripped gfxstat has no {section} section")
    check(os.path.getsize(exe) < os.path.getsize(os.path.join(build, "gfxstat")),
          "the stripped gfxstat is smaller than the build tree's")
    check(".symtab" in built, "the build tree's gfxstat keeps its symbol table")
    p = subprocess.run([exe, "--version"], capture_output=True, text=True)
    check(p.returncode == 0, f"the stripped gfxstat --version exited {p.returncode}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cmake", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--source", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        check_full_install(args.cmake, args.build, args.source, tmp)
        check_ministat_link(args.cmake, args.build, tmp)
        check_stripped_install(args.cmake, args.build, tmp)
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        return 1
    print("install layout: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
