#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A PostgreSQL server of the tests' own, for the store's PostgreSQL half.

    python3 tests/store/pg_server.py start DIR   # prints the store URL; the server keeps running
    python3 tests/store/pg_server.py stop DIR    # stops it and removes its data

`start` exits 77 when no server can be started here, saying why (also in
DIR/unavailable); with --unavailable-ok it exits 0 then (a ctest fixture
whose tests read DIR/unavailable and skip).

The server is Debian's postgresql-15 (the `test` group of
scripts/install-deps.sh): initdb and pg_ctl from /usr/lib/postgresql/*/bin,
run as an unprivileged user (initdb refuses root: as root they run as
nobody, DIR handed to it, so the directories above DIR must let everyone
through, as /tmp and a build tree do, not mkdtemp's 0700), trust authentication on a Unix socket in DIR
only (no TCP), one superuser `gfxstat` and a database `gfxstat`, and a
role `gfxstat_pw` that must give its password (PASSWORD, over scram),
with a database of its own of the same name, for the tests of what a
wrong password shows and of PGPASSFILE (password_url). The port
number only names the socket, so each DIR gets its own. No fsync: the
tests' data is thrown away with DIR.

Imported: start(DIR) returns the URL or raises Unavailable with the reason
(the server binaries are missing, or no unprivileged user to run them);
stop(DIR); database_url(base, name) names another database of the server.
When the binaries are missing the tests skip saying so, and never fake a
server."""

import glob
import os
import pwd
import shutil
import subprocess
import sys
import zlib

USER = "gfxstat"
DATABASE = "gfxstat"
PASSWORD_USER = "gfxstat_pw"
PASSWORD = "right-horse-battery"


class Unavailable(Exception):
    """No PostgreSQL server can be started here; the message says why."""


def server_bin():
    """The newest /usr/lib/postgresql/*/bin holding initdb and pg_ctl."""
    found = []
    for initdb in glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        d = os.path.dirname(initdb)
        if os.access(initdb, os.X_OK) and os.access(os.path.join(d, "pg_ctl"), os.X_OK):
            version = os.path.basename(os.path.dirname(d))
            found.append((int(version) if version.isdigit() else 0, d))
    if not found:
        raise Unavailable("no PostgreSQL server here (initdb and pg_ctl not found under /usr/lib/postgresql/*/bin; "
                          "scripts/install-deps.sh test installs postgresql-15)")
    return max(found)[1]


def port_of(d):
    """A port number of DIR's own (it only names the socket file in DIR)."""
    return 20000 + zlib.crc32(os.path.abspath(d).encode()) % 40000


def _as_server_user(d):
    """The command prefix running as the server's user, having handed DIR
    to it: as root, nobody; otherwise the user we are."""
    if os.geteuid() != 0:
        return []
    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        raise Unavailable("running as root and no user 'nobody' to run the PostgreSQL server as") from None
    if not shutil.which("setpriv"):
        raise Unavailable("running as root and no setpriv to run the PostgreSQL server as nobody")
    os.chown(d, nobody.pw_uid, nobody.pw_gid)
    os.chmod(d, 0o755)
    return ["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups"]


def _run(cmd, what):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{what} failed ({p.returncode}): {p.stdout}{p.stderr}")
    return p.stdout


def url_of(d, database=DATABASE):
    return f"postgresql:///{database}?host={os.path.abspath(d)}&user={USER}&port={port_of(d)}"


def password_url(d, password=None):
    """The URL of the database of the role that must give its password:
    with `password` in it, or none (libpq then reads PGPASSFILE)."""
    secret = f":{password}" if password is not None else ""
    return f"postgresql://{PASSWORD_USER}{secret}@/{PASSWORD_USER}?host={os.path.abspath(d)}&port={port_of(d)}"


def database_url(base, name):
    """The URL `base` (one start() printed) with another database's name."""
    head, _, query = base.partition("?")
    return head[:head.rindex("/") + 1] + name + "?" + query


def start(d):
    """Starts a server with its socket and data in DIR; returns the URL."""
    d = os.path.abspath(d)
    os.makedirs(d, exist_ok=True)
    try:
        os.remove(os.path.join(d, "unavailable"))
    except FileNotFoundError:
        pass
    try:
        bindir = server_bin()
    except Unavailable as e:
        with open(os.path.join(d, "unavailable"), "w") as f:
            f.write(str(e) + "\n")
        raise
    prefix = _as_server_user(d)
    if prefix and subprocess.run(prefix + ["test", "-w", d]).returncode != 0:
        raise RuntimeError(f"{d}: the server's user (nobody) cannot reach it: the directories above it must let "
                           "everyone through (chmod o+x)")
    data = os.path.join(d, "data")
    port = port_of(d)
    if os.path.exists(os.path.join(data, "postmaster.pid")):
        stop(d, remove=False)
    if not os.path.isdir(data):
        _run(prefix + [os.path.join(bindir, "initdb"), "-D", data, "-U", USER, "-A", "trust", "-E", "UTF8",
                       "--locale=C", "--no-sync"], "initdb")
        hba = os.path.join(data, "pg_hba.conf")
        with open(hba) as f:
            rules = f.read()
        with open(hba, "w") as f:
            f.write(f"local all {PASSWORD_USER} scram-sha-256\n" + rules)
        with open(os.path.join(data, "postgresql.conf"), "a") as conf:
            conf.write(f"\n# gfxstat's tests\nlisten_addresses = ''\nunix_socket_directories = '{d}'\n"
                       f"port = {port}\nfsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
                       "max_connections = 80\nshared_buffers = 32MB\n")
    _run(prefix + [os.path.join(bindir, "pg_ctl"), "-D", data, "-l", os.path.join(d, "server.log"), "-w", "-t", "30",
                   "start"], "pg_ctl start")
    createdb = os.path.join(bindir, "createdb")
    p = subprocess.run([createdb, "-h", d, "-p", str(port), "-U", USER, DATABASE], capture_output=True, text=True)
    if p.returncode != 0 and "already exists" not in p.stderr:
        raise RuntimeError(f"createdb failed: {p.stderr}")
    url = url_of(d)
    if not psql(url, f"SELECT 1 FROM pg_roles WHERE rolname = '{PASSWORD_USER}'"):
        psql(url, f"CREATE ROLE {PASSWORD_USER} LOGIN PASSWORD '{PASSWORD}'")
        psql(url, f"CREATE DATABASE {PASSWORD_USER} OWNER {PASSWORD_USER}")
    with open(os.path.join(d, "url"), "w") as f:
        f.write(url + "\n")
    return url


def stop(d, remove=True):
    """Stops DIR's server (nothing when none runs there) and removes its
    data."""
    d = os.path.abspath(d)
    data = os.path.join(d, "data")
    if os.path.exists(os.path.join(data, "postmaster.pid")):
        prefix = _as_server_user(d)
        _run(prefix + [os.path.join(server_bin(), "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"],
             "pg_ctl stop")
    if remove:
        shutil.rmtree(data, ignore_errors=True)


def psql(url, sql):
    """Runs `sql` through psql on `url`; returns its rows (tab-separated
    fields, unaligned, no headers)."""
    out = _run(["psql", "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql], "psql")
    return [line.split("\t") for line in out.splitlines() if line]


def main(argv):
    unavailable_ok = "--unavailable-ok" in argv
    argv = [a for a in argv if a != "--unavailable-ok"]
    if len(argv) != 3 or argv[1] not in ("start", "stop"):
        print("usage: pg_server.py start [--unavailable-ok] DIR | stop DIR", file=sys.stderr)
        return 2
    try:
        if argv[1] == "start":
            print(start(argv[2]))
        else:
            stop(argv[2])
    except Unavailable as e:
        print(f"pg_server: SKIP: {e}", file=sys.stderr)
        return 0 if unavailable_ok else 77
    except (RuntimeError, OSError) as e:
        print(f"pg_server: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
