#!/usr/bin/env python3
"""Boots an initramfs from build_initramfs.py under qemu and parses the results.

  run_vm.py --gfxstat BUILD/gfxstat --commands cmds.json [--keep DIR]
            [--timeout 300] [--accel tcg] [--console FILE] [--json OUT]

builds the image in a temporary directory, boots Debian's kernel with
  qemu-system-x86_64 -kernel /boot/vmlinuz-VER -initrd IMAGE
    -append 'console=ttyS0 quiet panic=-1' -nographic -no-reboot -m 512 -accel tcg
captures the serial console, and prints, for each command, its exit status
against the expected ones, its stdout and stderr, and the files it collected.
Exit status: 0 when every command that ran met its expectation (and none was
lost), 1 otherwise, 77 when qemu, the kernel or busybox is missing.

As a module: boot(...) returns a VmRun with .commands[name] = CommandResult.
"""

import argparse
import base64
import binascii
import json
import os
import signal
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import build_initramfs  # noqa: E402
from build_initramfs import MARK, Unavailable  # noqa: E402

B64_LINE = re.compile(r"^[A-Za-z0-9+/=]+$")


class CommandResult:
    def __init__(self, name, spec):
        self.name = name
        self.spec = spec
        self.state = "missing"      # missing | skipped | incomplete | done
        self.rc = None
        self.stdout = b""
        self.stderr = b""
        self.files = {}             # guest path -> bytes
        self.missing_files = []
        self.seconds = None
        self.noise = 0              # console lines dropped inside a block

    @property
    def expected(self):
        return self.spec.get("expect")

    @property
    def ok(self):
        """Ran to the end with an accepted exit status (any, if no expectation)."""
        if self.state != "done":
            return False
        return self.expected is None or self.rc in self.expected

    def text(self, which="stdout"):
        return getattr(self, which).decode("utf-8", "replace")


class VmRun:
    def __init__(self):
        self.commands = {}          # name -> CommandResult, in list order
        self.modules = {}           # module file -> (rc, message)
        self.init_uptime = None
        self.done_uptime = None
        self.done = False
        self.console = ""
        self.wall_s = None
        self.first_marker_s = None  # host seconds from qemu start to /init's first line
        self.qemu_rc = None
        self.timed_out = False
        self.info = {}

    def summary_ok(self):
        return (self.done and all(rc == 0 for rc, _ in self.modules.values()) and
                all(c.ok or c.state == "skipped" for c in self.commands.values()))


def _uptime(s):
    m = re.search(r"uptime=([0-9.]+)", s)
    return float(m.group(1)) if m else None


def parse_console(text, commands):
    """Fills a VmRun from the console text and the command list."""
    run = VmRun()
    run.console = text
    for c in commands:
        run.commands[c["name"]] = CommandResult(c["name"], c)
    cur, sink, buf, begin = None, None, [], None

    def flush():
        nonlocal buf
        if cur is None or sink is None:
            buf = []
            return
        try:
            data = base64.b64decode("".join(buf), validate=True)
        except (binascii.Error, ValueError):
            data = ("<undecodable base64: %d lines>" % len(buf)).encode()
        if sink == "stdout":
            cur.stdout = data
        elif sink == "stderr":
            cur.stderr = data
        else:
            cur.files[sink[1]] = data
        buf = []

    for raw in text.splitlines():
        line = raw.replace("\r", "")
        idx = line.find(MARK)
        if idx < 0:
            if sink is not None:
                if B64_LINE.match(line.strip()):
                    buf.append(line.strip())
                elif line.strip():
                    cur.noise += 1
            continue
        fields = line[idx + len(MARK):].split(None, 3)
        if not fields:
            continue
        kind = fields[0]
        if kind in ("STDOUT", "STDERR", "FILE", "NOFILE", "END"):
            flush()
        if kind == "INIT":
            run.init_uptime = _uptime(line)
        elif kind == "MODULE" and len(fields) >= 3:
            rc = int(fields[2][3:]) if fields[2].startswith("rc=") else -1
            run.modules[fields[1]] = (rc, fields[3] if len(fields) > 3 else "")
        elif kind == "SKIP" and len(fields) >= 2 and fields[1] in run.commands:
            run.commands[fields[1]].state = "skipped"
        elif kind == "BEGIN" and len(fields) >= 2 and fields[1] in run.commands:
            cur = run.commands[fields[1]]
            cur.state = "incomplete"
            begin = _uptime(line)
            sink = None
        elif cur is not None and kind == "STDOUT":
            sink = "stdout"
        elif cur is not None and kind == "STDERR":
            sink = "stderr"
        elif cur is not None and kind == "FILE" and len(fields) >= 3:
            sink = ("file", line[idx:].split(None, 3)[3])
        elif cur is not None and kind == "NOFILE" and len(fields) >= 3:
            cur.missing_files.append(line[idx:].split(None, 3)[3])
            sink = None
        elif cur is not None and kind == "END":
            m = re.search(r"rc=(-?\d+)", line)
            cur.rc = int(m.group(1)) if m else None
            cur.state = "done" if m else "incomplete"
            end = _uptime(line)
            if begin is not None and end is not None:
                cur.seconds = end - begin
            cur, sink = None, None
        elif kind == "DONE":
            run.done = True
            run.done_uptime = _uptime(line)
    return run


def find_qemu():
    q = shutil.which("qemu-system-x86_64")
    if not q:
        raise Unavailable("qemu-system-x86_64 not found (apt-get install qemu-system-x86)")
    return q


def qemu_command(qemu, kernel, initrd, accel="tcg", memory=512, append_extra=""):
    append = "console=ttyS0 quiet panic=-1"
    if append_extra:
        append += " " + append_extra
    return [qemu, "-kernel", kernel, "-initrd", initrd, "-append", append,
            "-nographic", "-no-reboot", "-m", str(memory), "-accel", accel,
            "-nodefaults", "-serial", "stdio", "-nic", "none"]


def _capture(p, out, chunks, start, timeout):
    """Copies qemu's output to `out` and `chunks` until it exits or `timeout`
    passes (then kills it). Returns (exit status, timed out, seconds to /init)."""
    import selectors
    os.set_blocking(p.stdout.fileno(), False)
    first_marker = None
    timed_out = False
    sel = selectors.DefaultSelector()
    sel.register(p.stdout, selectors.EVENT_READ)
    seen = b""
    while True:
        left = timeout - (time.monotonic() - start)
        if left <= 0:
            timed_out = True
            p.kill()
            break
        events = sel.select(min(left, 1.0))
        if events:
            data = p.stdout.read()
            if data is None:
                continue
            if not data:
                break
            chunks.append(data)
            out.write(data)
            out.flush()
            if first_marker is None:
                seen = (seen + data)[-4096:]
                if MARK.encode() + b" INIT" in seen:
                    first_marker = time.monotonic() - start
        elif p.poll() is not None:
            break
    sel.close()
    return p.wait(), timed_out, first_marker


def boot(gfxstat, commands, timeout=300, accel="tcg", keep=None, kernel_version=None,
         modules=("vgem",), console_path=None, memory=512, log=print):
    """Builds the image, boots it and returns a VmRun. Raises Unavailable."""
    qemu = find_qemu()
    cmds = build_initramfs.load_commands(commands)
    tmpdir = keep or tempfile.mkdtemp(prefix="gfxstat-vm-")
    os.makedirs(tmpdir, exist_ok=True)
    try:
        image = os.path.join(tmpdir, "initramfs.cpio")
        t0 = time.monotonic()
        info = build_initramfs.build(gfxstat, cmds, image, kernel_version, modules, log=log)
        info["build_s"] = time.monotonic() - t0
        if any("libasan" in lib for lib in info["libraries"]):
            memory = max(memory, 1024)   # ASan's shadow and quarantine
        info["memory_mib"] = memory
        cmd = qemu_command(qemu, info["kernel_image"], image, accel, memory)
        log("run_vm: " + " ".join("'%s'" % a if " " in a else a for a in cmd))
        console_file = console_path or os.path.join(tmpdir, "console.log")
        start = time.monotonic()
        first_marker = None
        timed_out = False
        chunks = []
        with open(console_file, "wb") as out:
            p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT)
            try:
                rc, timed_out, first_marker = _capture(p, out, chunks, start, timeout)
            finally:
                if p.poll() is None:   # interrupted or killed (ctest timeout): no stray qemu
                    p.kill()
                    p.wait()
        wall = time.monotonic() - start
        run = parse_console(b"".join(chunks).decode("utf-8", "replace"), cmds)
        run.info = info
        run.qemu_rc = rc
        run.wall_s = wall
        run.first_marker_s = first_marker
        run.timed_out = timed_out
        run.info["console"] = console_file
        return run
    finally:
        if keep is None:
            shutil.rmtree(tmpdir, ignore_errors=True)


def report(run, out=sys.stdout, show_output=True):
    """Prints the per-command results; returns True when all is well."""
    w = out.write
    w("run_vm: qemu exit %s, %.1f s wall, /init started after %s s (guest uptime %s), "
      "commands done at guest uptime %s%s\n" % (
          run.qemu_rc, run.wall_s or 0,
          "%.1f" % run.first_marker_s if run.first_marker_s is not None else "?",
          run.init_uptime, run.done_uptime, ", TIMED OUT" if run.timed_out else ""))
    for mod, (rc, msg) in run.modules.items():
        w("run_vm: module %s: %s%s\n" % (mod, "loaded" if rc == 0 else "FAILED rc=%d" % rc,
                                        " (%s)" % msg.strip() if msg.strip() else ""))
    for c in run.commands.values():
        exp = "any" if c.expected is None else "/".join(map(str, c.expected))
        status = {"done": "ok" if c.ok else "FAIL", "skipped": "skipped",
                  "incomplete": "INCOMPLETE", "missing": "NOT RUN"}[c.state]
        killed = (c.rc == 137 and c.seconds is not None and
                  c.seconds >= float(c.spec.get("timeout", 60)) - 0.5)
        w("run_vm: [%s] %s: exit %s (expected %s)%s%s\n" % (
            status, c.name, c.rc, exp,
            " %.2f s" % c.seconds if c.seconds is not None else "",
            " -- killed by its %s s timeout" % c.spec.get("timeout", 60) if killed else ""))
        if show_output and c.state in ("done", "incomplete"):
            w("  $ %s\n" % c.spec["run"])
            for which in ("stdout", "stderr"):
                t = c.text(which)
                if t:
                    w("  --- %s ---\n" % which)
                    w("".join("  | " + l + "\n" for l in t.splitlines()))
            for path, data in c.files.items():
                w("  --- file %s (%d bytes) ---\n" % (path, len(data)))
                w("".join("  | " + l + "\n"
                          for l in data.decode("utf-8", "replace").splitlines()))
            for path in c.missing_files:
                w("  --- file %s: MISSING ---\n" % path)
            if c.noise:
                w("  (%d stray console lines dropped)\n" % c.noise)
    if not run.done:
        w("run_vm: the guest never reported DONE; console tail:\n")
        w("".join("  | " + l + "\n" for l in run.console.replace("\r", "").splitlines()[-40:]))
    return run.summary_ok()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gfxstat", required=True)
    ap.add_argument("--commands", required=True)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--accel", default="tcg")
    ap.add_argument("--memory", type=int, default=512)
    ap.add_argument("--kernel-version")
    ap.add_argument("--keep", help="build in and keep this directory")
    ap.add_argument("--console", help="write the raw console here")
    ap.add_argument("--json", help="write the parsed results here")
    a = ap.parse_args()
    # ctest's timeout sends SIGTERM: unwind, so qemu is killed and the temp dir removed
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        run = boot(a.gfxstat, a.commands, a.timeout, a.accel, a.keep, a.kernel_version,
                   console_path=a.console, memory=a.memory)
    except Unavailable as e:
        print("run_vm: unavailable: %s" % e, file=sys.stderr)
        return 77
    ok = report(run)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"done": run.done, "wall_s": run.wall_s, "qemu_rc": run.qemu_rc,
                       "init_uptime": run.init_uptime, "modules": run.modules,
                       "commands": {n: {"state": c.state, "rc": c.rc, "ok": c.ok,
                                        "stdout": c.text("stdout"), "stderr": c.text("stderr"),
                                        "files": {p: d.decode("utf-8", "replace")
                                                  for p, d in c.files.items()}}
                                    for n, c in run.commands.items()}}, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
