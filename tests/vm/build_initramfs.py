#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Builds an initramfs (newc cpio) that runs a list of commands in a VM.

The image holds busybox (with its applet links), the kernel modules asked for
and their dependencies from modules.dep (decompressed on the host), the
gfxstat binary with every shared library `ldd` names plus the dynamic loader
(or just the binary when it is static), the command list as data, and a
generic /init. /init mounts proc, sys and devtmpfs, loads the modules, runs
each command with a timeout and prints its exit status, stdout, stderr and
any files it asked to collect, base64-encoded between marker lines, on the
console; then it powers off. run_vm.py boots the image and parses the
console.

Boot-loop mode (build(..., boot_loop={...}), run_vm.py --share DIR): /init
also mounts a virtio-9p share (the host's DIR) on /state at every boot,
counts the boots in it, and runs the commands by phase: "first" on boot 1,
"boot" at every boot (these may reboot the guest), then "final" and
poweroff; after max_boots boots only "final". See tests/vm/README.md.

Command list (JSON): a list of objects
  name      [A-Za-z0-9_.-]+, unique
  run       a sh command line (run with `sh -c`, cwd /root)
  expect    list of accepted exit codes; null or absent = any (a probe)
  requires  name of an earlier command: run this one only if that one
            exited 0, otherwise report it as skipped
  timeout   seconds (default 60); the command is killed after it
  collect   list of guest paths sent back after the command ran
  phase     first | boot | final (default): boot-loop mode only

The cpio archive is written here, in Python, so device nodes
(/dev/console) need no root and no cpio(1).

Usage:
  build_initramfs.py --gfxstat BUILD/gfxstat --commands cmds.json -o out.cpio
                     [--kernel-version VER] [--module vgem ...]
"""

import argparse
import gzip
import json
import lzma
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

MARK = "@@GFXSTAT-VM@@"
NAME_RE = re.compile(r"^[A-Za-z0-9_.-]+$")


class Unavailable(Exception):
    """A host prerequisite (kernel, modules, busybox) is missing."""


# ---------------------------------------------------------------- host probes

def kernel_versions():
    """Kernel versions with both /boot/vmlinuz-VER and /lib/modules/VER, newest first."""
    found = []
    if os.path.isdir("/boot"):
        for f in os.listdir("/boot"):
            if f.startswith("vmlinuz-"):
                ver = f[len("vmlinuz-"):]
                if os.path.isdir(os.path.join("/lib/modules", ver)):
                    found.append(ver)

    def key(v):
        return [int(p) if p.isdigit() else p for p in re.split(r"[.-]", v)]
    try:
        return sorted(found, key=key, reverse=True)
    except TypeError:
        return sorted(found, reverse=True)


def pick_kernel(version=None, need_module="vgem"):
    """Returns (version, vmlinuz path). Raises Unavailable with the reason."""
    versions = [version] if version else kernel_versions()
    if not versions:
        raise Unavailable("no kernel image: no /boot/vmlinuz-VER with /lib/modules/VER "
                          "(apt-get install linux-image-amd64)")
    for ver in versions:
        image = "/boot/vmlinuz-" + ver
        if not os.path.isfile(image):
            if version:
                raise Unavailable("no kernel image %s" % image)
            continue
        if not os.access(image, os.R_OK):
            raise Unavailable(image + " is not readable by this user")
        try:
            if need_module:
                module_closure(ver, [need_module])
        except Unavailable:
            continue
        return ver, image
    raise Unavailable("no kernel in /boot with module %s under /lib/modules (versions: %s)"
                      % (need_module, ", ".join(versions)))


def find_busybox():
    """Path of a busybox binary; raises Unavailable."""
    for p in ("/bin/busybox", "/usr/bin/busybox", shutil.which("busybox") or ""):
        if p and os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    raise Unavailable("busybox not found (apt-get install busybox-static)")


def elf_interpreter(path):
    """PT_INTERP of a 64-bit little-endian ELF file, or None (static / not ELF)."""
    import struct
    with open(path, "rb") as f:
        head = f.read(64)
        if len(head) < 64 or head[:4] != b"\x7fELF" or head[4] != 2 or head[5] != 1:
            return None
        phoff, = struct.unpack_from("<Q", head, 0x20)
        phentsize, phnum = struct.unpack_from("<HH", head, 0x36)
        for i in range(phnum):
            f.seek(phoff + i * phentsize)
            ph = f.read(56)
            p_type, = struct.unpack_from("<I", ph, 0)
            if p_type == 3:  # PT_INTERP
                off, = struct.unpack_from("<Q", ph, 8)
                size, = struct.unpack_from("<Q", ph, 32)
                f.seek(off)
                return f.read(size).rstrip(b"\0").decode()
    return None


def shared_libraries(binary):
    """Absolute paths of the libraries (and loader) a dynamic binary needs."""
    interp = elf_interpreter(binary)
    if interp is None:
        return []
    out = subprocess.run(["ldd", binary], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("ldd %s failed: %s" % (binary, out.stderr.strip()))
    libs = [interp]
    for line in out.stdout.splitlines():
        line = line.strip()
        m = re.match(r"^\S+ => (/\S+) \(0x[0-9a-f]+\)$", line)
        if m:
            libs.append(m.group(1))
            continue
        if "not found" in line:
            raise RuntimeError("ldd %s: %s" % (binary, line))
        m = re.match(r"^(/\S+) \(0x[0-9a-f]+\)$", line)
        if m:
            libs.append(m.group(1))
    seen, result = set(), []
    for lib in libs:
        if lib not in seen:
            seen.add(lib)
            result.append(lib)
    return result


def module_closure(version, names):
    """Module files (relative to /lib/modules/VER) for `names` and their
    dependencies, in load order (dependencies first)."""
    base = os.path.join("/lib/modules", version)
    depfile = os.path.join(base, "modules.dep")
    if not os.path.isfile(depfile):
        raise Unavailable("no %s (kernel modules not installed)" % depfile)
    deps, by_name = {}, {}
    with open(depfile) as f:
        for line in f:
            if ":" not in line:
                continue
            mod, rest = line.split(":", 1)
            mod = mod.strip()
            deps[mod] = rest.split()
            short = re.sub(r"\.ko(\.(xz|zst|gz))?$", "", os.path.basename(mod))
            by_name[short.replace("-", "_")] = mod
    order = []

    def visit(mod, stack=()):
        if mod in order:
            return
        if mod in stack:
            return
        for d in deps.get(mod, []):
            visit(d, stack + (mod,))
        order.append(mod)

    for n in names:
        mod = by_name.get(n.replace("-", "_"))
        if mod is None:
            raise Unavailable("module %s is not in %s" % (n, depfile))
        visit(mod)
    return order


def read_module(path):
    """A module's bytes, decompressed (.ko.xz, .ko.zst, .ko.gz or plain .ko)."""
    if path.endswith(".xz"):
        with lzma.open(path) as f:
            return f.read()
    if path.endswith(".gz"):
        with gzip.open(path) as f:
            return f.read()
    if path.endswith(".zst"):
        zstd = shutil.which("zstd")
        if not zstd:
            raise Unavailable("%s is zstd-compressed and zstd is not installed" % path)
        return subprocess.run([zstd, "-dc", path], check=True, capture_output=True).stdout
    with open(path, "rb") as f:
        return f.read()


# ---------------------------------------------------------------- cpio writer

class Cpio:
    """Minimal newc ("070701") writer: directories, files, symlinks, nodes."""

    def __init__(self, fileobj):
        self.f = fileobj
        self.ino = 1000
        self.dirs = set()

    def _entry(self, name, mode, data=b"", rdev=(0, 0), nlink=1):
        self.ino += 1
        name_b = name.encode() + b"\0"
        hdr = "070701" + "".join("%08X" % v for v in (
            self.ino, mode, 0, 0, nlink, 0, len(data), 0, 0, rdev[0], rdev[1],
            len(name_b), 0))
        self.f.write(hdr.encode() + name_b)
        self._pad()
        self.f.write(data)
        self._pad()

    def _pad(self):
        pos = self.f.tell()
        if pos % 4:
            self.f.write(b"\0" * (4 - pos % 4))

    def mkdir(self, path, mode=0o755):
        path = path.strip("/")
        parts = path.split("/")
        for i in range(1, len(parts) + 1):
            p = "/".join(parts[:i])
            if p and p not in self.dirs:
                self.dirs.add(p)
                self._entry(p, stat.S_IFDIR | mode, nlink=2)

    def file(self, path, data, mode=0o644):
        path = path.strip("/")
        if "/" in path:
            self.mkdir(os.path.dirname(path))
        self._entry(path, stat.S_IFREG | mode, data)

    def symlink(self, path, target):
        path = path.strip("/")
        if "/" in path:
            self.mkdir(os.path.dirname(path))
        self._entry(path, stat.S_IFLNK | 0o777, target.encode())

    def chardev(self, path, major, minor, mode=0o600):
        path = path.strip("/")
        if "/" in path:
            self.mkdir(os.path.dirname(path))
        self._entry(path, stat.S_IFCHR | mode, rdev=(major, minor))

    def close(self):
        self._entry("TRAILER!!!", 0)
        pos = self.f.tell()
        if pos % 512:
            self.f.write(b"\0" * (512 - pos % 512))


# ---------------------------------------------------------------- the image

INIT = r"""#!/bin/sh
# Generated by tests/vm/build_initramfs.py. Runs /etc/vm/cmd/* and reports on
# the console between marker lines; see tests/vm/README.md.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/root TMPDIR=/tmp LANG=C
M=@@MARK@@
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm /tmp /run/vm /root
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
exec </dev/null >/dev/console 2>&1
echo 1 > /proc/sys/kernel/printk
hostname gfxstat-vm
echo
echo "$M INIT uptime=$(cut -d' ' -f1 /proc/uptime) kernel=$(uname -r)"
while read -r mod args; do
    [ -n "$mod" ] || continue
    insmod "/lib/modules/$mod" $args >/run/vm/insmod.out 2>&1
    rc=$?
    echo "$M MODULE $mod rc=$rc $(tr '\n' ' ' </run/vm/insmod.out)"
done </etc/vm/modules
# Boot-loop mode (/etc/vm/loop exists): the host shares a directory over
# virtio-9p; a counter in it numbers the boots. Boot 1 runs the "first"
# commands, every boot the "boot" commands (which may reboot the guest: qemu
# runs without -no-reboot), and a boot whose "boot" commands all return runs
# the "final" ones and powers off. Past MAX_BOOTS boots, or without the share,
# only the "final" commands run. Outputs go to SHARE/.vm/boot-N/ as they are
# written, so those of a command that rebooted survive it.
LOG=/run/vm
PHASES=final
if [ -f /etc/vm/loop ]; then
    . /etc/vm/loop
    mkdir -p "$SHARE_DIR"
    if mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 "$SHARE_TAG" "$SHARE_DIR" \
            >/run/vm/mount.out 2>&1; then
        mkdir -p "$SHARE_DIR/.vm"
        n=$(( $(cat "$SHARE_DIR/.vm/boots" 2>/dev/null || echo 0) + 1 ))
        echo "$n" >"$SHARE_DIR/.vm/boots"
        LOG="$SHARE_DIR/.vm/boot-$n"
        mkdir -p "$LOG"
        cat /proc/sys/kernel/random/boot_id >"$LOG/boot_id"
        sync
        echo "$M BOOT n=$n id=$(cat /proc/sys/kernel/random/boot_id) share=ok"
        if [ "$n" -gt "$MAX_BOOTS" ]; then
            echo "$M BOOTCAP n=$n max=$MAX_BOOTS"
        elif [ "$n" = 1 ]; then
            PHASES="first boot final"
        else
            PHASES="boot final"
        fi
    else
        echo "$M BOOT n=0 id=$(cat /proc/sys/kernel/random/boot_id) share=FAILED $(tr '\n' ' ' </run/vm/mount.out)"
    fi
fi
for phase in $PHASES; do
for d in /etc/vm/cmd/*; do
    [ -f "$d/name" ] || continue
    [ "$(cat "$d/phase")" = "$phase" ] || continue
    name=$(cat "$d/name")
    req=$(cat "$d/requires" 2>/dev/null)
    if [ -n "$req" ] && [ "$(cat "/run/vm/$req.rc" 2>/dev/null)" != 0 ]; then
        echo "$M SKIP $name requires=$req"
        continue
    fi
    echo "$M BEGIN $name uptime=$(cut -d' ' -f1 /proc/uptime)"
    sync
    (cd /root && exec timeout -s KILL "$(cat "$d/timeout")" sh "$d/cmd") \
        </dev/null >"$LOG/$name.out" 2>"$LOG/$name.err"
    rc=$?
    t=$(cut -d' ' -f1 /proc/uptime)
    echo "$rc" >"/run/vm/$name.rc"
    echo "$rc" >"$LOG/$name.rc"
    echo "$M STDOUT $name"
    base64 "$LOG/$name.out"
    echo "$M STDERR $name"
    base64 "$LOG/$name.err"
    while read -r f; do
        [ -n "$f" ] || continue
        if [ -f "$f" ]; then
            echo "$M FILE $name $f"
            base64 "$f"
        else
            echo "$M NOFILE $name $f"
        fi
    done <"$d/collect"
    echo "$M END $name rc=$rc uptime=$t"
done
done
echo "$M DONE uptime=$(cut -d' ' -f1 /proc/uptime)"
sync
[ "$LOG" = /run/vm ] || umount "$SHARE_DIR" 2>/dev/null
poweroff -f
echo o >/proc/sysrq-trigger
"""

PHASES = ("first", "boot", "final")

# Modules the boot loop's share needs: the 9p file system, its virtio
# transport and the virtio PCI bus driver (Debian builds all three as
# modules; modules.dep adds 9pnet, netfs, fscache, virtio, virtio_ring, ...).
SHARE_MODULES = ("9p", "9pnet_virtio", "virtio_pci")


def load_commands(path_or_list, boot_loop=False):
    """The command list, checked. `phase` (first | boot | final, default
    final) needs boot_loop for anything but final."""
    cmds = path_or_list
    if isinstance(path_or_list, str):
        with open(path_or_list) as f:
            cmds = json.load(f)
    if not isinstance(cmds, list):
        raise ValueError("command list must be a JSON array")
    names = set()
    for c in cmds:
        if not isinstance(c, dict) or not isinstance(c.get("name"), str) or \
           not isinstance(c.get("run"), str):
            raise ValueError("each command needs a string 'name' and 'run': %r" % (c,))
        if not NAME_RE.match(c["name"]):
            raise ValueError("bad command name %r" % c["name"])
        if c["name"] in names:
            raise ValueError("duplicate command name %r" % c["name"])
        if c.get("requires") and c["requires"] not in names:
            raise ValueError("%s requires %r, which is not an earlier command"
                             % (c["name"], c["requires"]))
        phase = c.get("phase", "final")
        if phase not in PHASES:
            raise ValueError("%s: phase %r is not one of %s" % (c["name"], phase, ", ".join(PHASES)))
        if phase != "final" and not boot_loop:
            raise ValueError("%s: phase %r needs boot-loop mode (a share)" % (c["name"], phase))
        names.add(c["name"])
    return cmds


def strip_copy(path):
    """Binary bytes without debug info (objcopy), or unchanged if that fails."""
    objcopy = shutil.which("objcopy")
    if objcopy:
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "stripped")
            r = subprocess.run([objcopy, "--strip-debug", path, out], capture_output=True)
            if r.returncode == 0:
                with open(out, "rb") as f:
                    return f.read()
    with open(path, "rb") as f:
        return f.read()


def build(gfxstat, commands, output, kernel_version=None, modules=("vgem",),
          busybox=None, log=print, boot_loop=None, extras=()):
    """Writes the initramfs to `output`; returns a dict describing it.

    boot_loop: None (run the commands once, power off) or a dict
    {"max_boots": N, "tag": "state", "dir": "/state"}: /init mounts the 9p
    share `tag` on `dir` at every boot and runs the commands by phase (see
    INIT); the share's modules are added to `modules`.

    extras: more of the host's programs the commands need, each a dict
    {"path": GUEST_PATH, "source": HOST_FILE} (an ELF file brings the
    libraries it needs) or {"path": GUEST_PATH, "symlink": TARGET}. The
    guest's /usr/bin and /usr/sbin are /bin: give such paths as /bin/..."""
    if boot_loop:
        modules = tuple(modules) + tuple(m for m in SHARE_MODULES if m not in modules)
    version, image = pick_kernel(kernel_version, modules[0] if modules else None)
    busybox = busybox or find_busybox()
    cmds = load_commands(commands, boot_loop=bool(boot_loop))
    mod_files = module_closure(version, list(modules)) if modules else []

    tmp = output + ".tmp"
    with open(tmp, "wb") as f:
        c = Cpio(f)
        for d in ("bin", "dev", "proc", "sys", "tmp", "root", "run", "etc/vm/cmd",
                  "lib/modules"):
            c.mkdir(d)
        c.symlink("sbin", "bin")
        c.symlink("usr/bin", "../bin")
        c.symlink("usr/sbin", "../bin")
        c.chardev("dev/console", 5, 1)
        c.chardev("dev/null", 1, 3, 0o666)

        # busybox and its applets (plus its libraries if it is not static)
        c.file("bin/busybox", strip_copy(busybox), 0o755)
        applets = subprocess.run([busybox, "--list"], capture_output=True, text=True,
                                 check=True).stdout.split()
        for a in applets:
            if a != "busybox" and "/" not in a:
                c.symlink("bin/" + a, "busybox")
        libs = set(shared_libraries(busybox))

        # gfxstat and its libraries
        if elf_interpreter(gfxstat) is None and not _is_static_elf(gfxstat):
            raise RuntimeError("%s is not an x86-64 ELF executable" % gfxstat)
        gfx_bytes = strip_copy(gfxstat)
        c.file("bin/gfxstat", gfx_bytes, 0o755)
        libs.update(shared_libraries(gfxstat))
        for e in extras:
            path = e["path"]
            if not re.match(r"^/[A-Za-z0-9_.+/-]+$", path) or path.startswith(("/usr/bin/", "/usr/sbin/")):
                raise ValueError("bad extra path %r" % path)
            if "symlink" in e:
                c.symlink(path, e["symlink"])
                continue
            if not os.path.isfile(e["source"]):
                raise Unavailable("%s is not installed" % e["source"])
            if elf_interpreter(e["source"]) is not None:
                c.file(path, strip_copy(e["source"]), 0o755)
                libs.update(shared_libraries(e["source"]))
            else:
                with open(e["source"], "rb") as ef:
                    c.file(path, ef.read(), os.stat(e["source"]).st_mode & 0o777)
        lib_bytes = 0
        for lib in sorted(libs):
            with open(os.path.realpath(lib), "rb") as lf:
                data = lf.read()
            lib_bytes += len(data)
            c.file(lib.lstrip("/"), data, 0o755)

        # kernel modules, decompressed, and their load order
        names = []
        for m in mod_files:
            data = read_module(os.path.join("/lib/modules", version, m))
            name = re.sub(r"\.(xz|zst|gz)$", "", os.path.basename(m))
            c.file("lib/modules/" + name, data)
            names.append(name)
        c.file("etc/vm/modules", ("\n".join(names) + "\n").encode())

        # the command list, one directory per command, in order
        for i, cmd in enumerate(cmds):
            d = "etc/vm/cmd/%03d" % i
            c.file(d + "/name", (cmd["name"] + "\n").encode())
            c.file(d + "/cmd", (cmd["run"] + "\n").encode())
            c.file(d + "/timeout", ("%d\n" % int(cmd.get("timeout", 60))).encode())
            c.file(d + "/requires", ((cmd.get("requires") or "") + "\n").encode())
            c.file(d + "/collect", "".join(p + "\n" for p in cmd.get("collect", [])).encode())
            c.file(d + "/phase", (cmd.get("phase", "final") + "\n").encode())
        if boot_loop:
            tag, sdir = boot_loop.get("tag", "state"), boot_loop.get("dir", "/state")
            maxb = int(boot_loop.get("max_boots", 8))
            if not NAME_RE.match(tag) or not re.match(r"^/[A-Za-z0-9_./-]+$", sdir) or maxb < 1:
                raise ValueError("bad boot_loop %r" % (boot_loop,))
            c.file("etc/vm/loop", ("SHARE_TAG=%s\nSHARE_DIR=%s\nMAX_BOOTS=%d\n"
                                   % (tag, sdir, maxb)).encode())
        c.file("etc/vm/commands.json", json.dumps(cmds, indent=1).encode())
        c.file("etc/passwd", b"root:x:0:0:root:/root:/bin/sh\n")
        c.file("etc/group", b"root:x:0:\n")
        c.file("init", INIT.replace("@@MARK@@", MARK).encode(), 0o755)
        c.close()
    os.replace(tmp, output)
    info = {"kernel_version": version, "kernel_image": image, "busybox": busybox,
            "modules": names, "libraries": sorted(libs), "gfxstat_bytes": len(gfx_bytes),
            "library_bytes": lib_bytes, "initramfs": output,
            "initramfs_bytes": os.path.getsize(output), "commands": len(cmds),
            "boot_loop": dict(boot_loop) if boot_loop else None,
            "extras": [e["path"] for e in extras]}
    log("build_initramfs: kernel %s, modules %s, %d libraries, %.1f MiB -> %s"
        % (version, " ".join(names), len(libs), info["initramfs_bytes"] / 2**20, output))
    return info


def _is_static_elf(path):
    with open(path, "rb") as f:
        return f.read(4) == b"\x7fELF"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gfxstat", required=True)
    ap.add_argument("--commands", required=True, help="JSON command list")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--kernel-version")
    ap.add_argument("--module", action="append", help="module to load (default vgem)")
    ap.add_argument("--busybox")
    a = ap.parse_args()
    try:
        info = build(a.gfxstat, a.commands, a.output, a.kernel_version,
                     tuple(a.module or ["vgem"]), a.busybox)
    except Unavailable as e:
        print("build_initramfs: unavailable: %s" % e, file=sys.stderr)
        return 77
    print(json.dumps(info, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
