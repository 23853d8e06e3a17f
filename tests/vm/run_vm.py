#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
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

With --share HOSTDIR [--max-boots N]: boot-loop mode (README.md): HOSTDIR is
the guest's /state over virtio-9p, qemu runs without -no-reboot so the guest
can reboot itself, and commands may have a phase (first, boot, final).

As a module: boot(...) returns a VmRun with .commands[name] = CommandResult
and, in boot-loop mode, .boots (one VmRun per guest boot).
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
        # boot loop: one VmRun per boot (a console segment from an INIT line
        # to the next), in order; a single-boot run is its own only boot
        self.boots = [self]
        self.boot_n = None          # the share's boot counter (BOOT n=)
        self.boot_id = None         # the guest's boot id (BOOT id=)
        self.share = None           # "ok", "FAILED ..." or None (no boot loop)
        self.boot_cap = False       # BOOTCAP: the guest stopped at its boot limit
        self.rebooted = False       # another boot followed this one
        self.host_init_s = None     # host seconds from qemu start to this boot's INIT
        self.kernel_panic = False   # "Kernel panic" on the console (host stops qemu)
        self.host_boot_cap = False  # the host killed qemu: too many boots

    def summary_ok(self):
        return (self.done and all(rc == 0 for rc, _ in self.modules.values()) and
                all(c.ok or c.state == "skipped" for c in self.commands.values()))


def json_lines(text):
    """The records of a JSON Lines text (str or bytes); a line that does not
    parse becomes {"type": "<unparsable>", "line": ...} for the checks to flag."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line:
            try:
                out.append(json.loads(line))
            except ValueError:
                out.append({"type": "<unparsable>", "line": line})
    return out


def _uptime(s):
    m = re.search(r"uptime=([0-9.]+)", s)
    return float(m.group(1)) if m else None


def parse_console(text, commands):
    """Fills a VmRun from the console text and the command list. A console
    with several boots (several INIT lines: boot-loop mode) gives one VmRun
    per boot in .boots; the top-level one then has, per command, its result
    from the last boot that started it, the first boot's INIT uptime and the
    last boot's modules and DONE."""
    segments, cur = [], []
    for raw in text.splitlines(keepends=True):
        if MARK + " INIT" in raw and any(MARK + " INIT" in l for l in cur):
            segments.append("".join(cur))
            cur = []
        cur.append(raw)
    segments.append("".join(cur))
    boots = [_parse_segment(seg, commands) for seg in segments]
    for b in boots[:-1]:
        b.rebooted = True
    if len(boots) == 1:
        return boots[0]
    run = VmRun()
    run.console = text
    run.boots = boots
    for c in commands:
        started = [b.commands[c["name"]] for b in boots
                   if b.commands[c["name"]].state != "missing"]
        run.commands[c["name"]] = started[-1] if started else boots[-1].commands[c["name"]]
    last = boots[-1]
    run.modules = last.modules
    run.init_uptime = boots[0].init_uptime
    run.done, run.done_uptime = last.done, last.done_uptime
    run.boot_n, run.boot_id, run.share = last.boot_n, last.boot_id, last.share
    run.boot_cap = any(b.boot_cap for b in boots)
    return run


def _parse_segment(text, commands):
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
        elif kind == "BOOT":
            m = re.search(r"n=(\d+) id=(\S*) share=(.*)$", line)
            if m:
                run.boot_n, run.boot_id, run.share = int(m.group(1)), m.group(2), m.group(3).strip()
        elif kind == "BOOTCAP":
            run.boot_cap = True
    return run


def find_qemu():
    q = shutil.which("qemu-system-x86_64")
    if not q:
        raise Unavailable("qemu-system-x86_64 not found (apt-get install qemu-system-x86)")
    return q


def qemu_command(qemu, kernel, initrd, accel="tcg", memory=512, append_extra="",
                 share=None, share_tag="state"):
    """The qemu command line. With `share` (a host directory): boot-loop
    mode, the directory is exported over virtio-9p as `share_tag` and qemu
    runs without -no-reboot, so a guest reboot boots the kernel again in the
    same process; panic=0 keeps a panicking kernel from rebooting (the host
    sees "Kernel panic" and stops qemu) instead of panic=-1's reboot (which
    -no-reboot turns into qemu's exit in the single-boot mode)."""
    append = "console=ttyS0 quiet " + ("panic=0" if share else "panic=-1")
    if append_extra:
        append += " " + append_extra
    cmd = [qemu, "-kernel", kernel, "-initrd", initrd, "-append", append, "-nographic"]
    if not share:
        cmd.append("-no-reboot")
    cmd += ["-m", str(memory), "-accel", accel, "-nodefaults", "-serial", "stdio", "-nic", "none"]
    if share:
        cmd += ["-fsdev", "local,id=%s,path=%s,security_model=none" % (share_tag, share),
                "-device", "virtio-9p-pci,fsdev=%s,mount_tag=%s" % (share_tag, share_tag)]
    return cmd


class _Watch:
    """What _capture saw: host seconds at each INIT line, a kernel panic,
    more boots than allowed."""
    def __init__(self, max_boots=None):
        self.max_boots = max_boots
        self.init_s = []
        self.panic_s = None
        self.too_many_boots = False


def _capture(p, out, chunks, start, timeout, watch=None):
    """Copies qemu's output to `out` and `chunks` until it exits or `timeout`
    passes (then kills it). Returns (exit status, timed out, seconds to /init).
    With `watch`: notes each boot's INIT time, kills qemu 2 s after a kernel
    panic and as soon as a boot beyond watch.max_boots starts."""
    import selectors
    os.set_blocking(p.stdout.fileno(), False)
    first_marker = None
    timed_out = False
    watch = watch or _Watch()
    tail = b""
    init_tag, panic_tag = MARK.encode() + b" INIT", b"Kernel panic"
    sel = selectors.DefaultSelector()
    sel.register(p.stdout, selectors.EVENT_READ)
    seen = b""
    while True:
        left = timeout - (time.monotonic() - start)
        if left <= 0:
            timed_out = True
            p.kill()
            break
        if watch.panic_s is not None and time.monotonic() - start > watch.panic_s + 2:
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
            now = time.monotonic() - start
            both = tail + data
            n_init = both.count(init_tag) - tail.count(init_tag)
            watch.init_s += [now] * n_init
            if watch.panic_s is None and panic_tag in both:
                watch.panic_s = now
            tail = both[-64:]
            if watch.max_boots is not None and len(watch.init_s) > watch.max_boots:
                watch.too_many_boots = True
                p.kill()
                break
            if first_marker is None:
                seen = (seen + data)[-4096:]
                if MARK.encode() + b" INIT" in seen:
                    first_marker = time.monotonic() - start
        elif p.poll() is not None:
            break
    sel.close()
    return p.wait(), timed_out, first_marker


def boot(gfxstat, commands, timeout=300, accel="tcg", keep=None, kernel_version=None,
         modules=("vgem",), console_path=None, memory=512, log=print, share=None,
         max_boots=8, extras=()):
    """Builds the image, boots it and returns a VmRun. Raises Unavailable.

    share: a host directory: boot-loop mode (build_initramfs.INIT): it is the
    guest's /state across reboots, the guest powers off after at most
    `max_boots` boots (and the host kills qemu at boot max_boots + 2). The
    outputs of a command that rebooted the guest (BEGIN, no END) are read
    back from SHARE/.vm/boot-N/.

    extras: more host programs in the image (build_initramfs.build)."""
    qemu = find_qemu()
    cmds = build_initramfs.load_commands(commands, boot_loop=bool(share))
    boot_loop = None
    if share:
        share = os.path.abspath(share)
        if not os.path.isdir(share):
            raise ValueError("share %s is not a directory" % share)
        boot_loop = {"max_boots": max_boots, "tag": "state", "dir": "/state"}
    tmpdir = keep or tempfile.mkdtemp(prefix="gfxstat-vm-")
    os.makedirs(tmpdir, exist_ok=True)
    try:
        image = os.path.join(tmpdir, "initramfs.cpio")
        t0 = time.monotonic()
        info = build_initramfs.build(gfxstat, cmds, image, kernel_version, modules, log=log,
                                     boot_loop=boot_loop, extras=extras)
        info["build_s"] = time.monotonic() - t0
        if any("libasan" in lib for lib in info["libraries"]):
            memory = max(memory, 1024)   # ASan's shadow and quarantine
        info["memory_mib"] = memory
        cmd = qemu_command(qemu, info["kernel_image"], image, accel, memory, share=share)
        watch = _Watch(max_boots + 1 if share else None)
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
                rc, timed_out, first_marker = _capture(p, out, chunks, start, timeout, watch)
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
        run.kernel_panic = watch.panic_s is not None
        run.host_boot_cap = watch.too_many_boots
        for b, t in zip(run.boots, watch.init_s):
            b.host_init_s = t
        if share:
            run.info["share"] = share
            for b in run.boots:
                if b.boot_n:
                    _read_back(b, os.path.join(share, ".vm", "boot-%d" % b.boot_n))
        return run
    finally:
        if keep is None:
            shutil.rmtree(tmpdir, ignore_errors=True)


def _read_back(b, logdir):
    """Outputs (and the exit status, if written) of the commands a boot
    started but never finished on the console, from the share."""
    for c in b.commands.values():
        if c.state != "incomplete":
            continue
        for which in ("stdout", "stderr"):
            p = os.path.join(logdir, c.name + (".out" if which == "stdout" else ".err"))
            if os.path.isfile(p):
                with open(p, "rb") as f:
                    setattr(c, which, f.read())


def report_boots(run, out=sys.stdout):
    """One line per boot of a boot loop."""
    for i, b in enumerate(run.boots):
        started = [c for c in b.commands.values() if c.state != "missing"]
        out.write("run_vm: boot %d (counter %s, id %s, share %s): INIT at host %s s, "
                  "guest uptime %s; %s%s%s\n" % (
                      i + 1, b.boot_n, b.boot_id, b.share,
                      "%.1f" % b.host_init_s if b.host_init_s is not None else "?",
                      b.init_uptime,
                      ", ".join("%s=%s" % (c.name, c.rc if c.state == "done" else c.state)
                                for c in started) or "no commands",
                      " -> REBOOTED" if b.rebooted else "",
                      " BOOTCAP" if b.boot_cap else ""))


def report(run, out=sys.stdout, show_output=True):
    """Prints the per-command results; returns True when all is well."""
    w = out.write
    w("run_vm: qemu exit %s, %.1f s wall, /init started after %s s (guest uptime %s), "
      "commands done at guest uptime %s%s\n" % (
          run.qemu_rc, run.wall_s or 0,
          "%.1f" % run.first_marker_s if run.first_marker_s is not None else "?",
          run.init_uptime, run.done_uptime, ", TIMED OUT" if run.timed_out else ""))
    if len(run.boots) > 1 or run.share is not None:
        report_boots(run, out)
        for b in run.boots[:-1]:
            for c in b.commands.values():
                if c.state != "missing" and show_output:
                    w("run_vm: boot %s: [%s] %s: exit %s\n" % (
                        b.boot_n, c.state, c.name, c.rc))
                    for which in ("stdout", "stderr"):
                        t = c.text(which)
                        if t:
                            w("  --- %s ---\n" % which)
                            w("".join("  | " + l + "\n" for l in t.splitlines()))
    if run.kernel_panic:
        w("run_vm: KERNEL PANIC on the console; qemu stopped\n")
    if run.host_boot_cap:
        w("run_vm: more boots than allowed; qemu stopped by the host\n")
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
    ap.add_argument("--share", help="boot-loop mode: this host directory is the guest's "
                    "/state (virtio-9p) across reboots; commands may have a phase")
    ap.add_argument("--max-boots", type=int, default=8,
                    help="boot-loop mode: the guest powers off after this many boots")
    a = ap.parse_args()
    # ctest's timeout sends SIGTERM: unwind, so qemu is killed and the temp dir removed
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        run = boot(a.gfxstat, a.commands, a.timeout, a.accel, a.keep, a.kernel_version,
                   console_path=a.console, memory=a.memory, share=a.share,
                   max_boots=a.max_boots)
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
