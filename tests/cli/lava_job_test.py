#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A whole LAVA job through Debian's lava-run (docs/ci-reports.md, "LAVA"),
with this machine as the device of LAVA's ssh device type:

  * a private sshd (/usr/sbin/sshd -D on a free port of 127.0.0.1, its host
    key, authorized key and pid file in a temporary directory, no PAM), and
    a client key for the dispatcher: nothing of the system's sshd or of
    root's ~/.ssh is used;
  * a device dictionary of the ssh device type written out as lava-server
    renders ssh.jinja2 (lava-server is not installed: lava-dispatcher alone
    does not ship the templates), pointing at that sshd;
  * a job whose inline test definition runs `gfxstat run --lava on` of a
    small workload on the "device"; lava-run deploys the overlay with scp,
    logs in with ssh, runs the test shell and reads its console.

Checked: the job passes; LAVA's own results of the gfxstat test set (what
it parsed from the console, as the server would store them) hold a case
per metric whose measurement is the mean of the results file the device
wrote; `gfxstat import --from lava` of lava-run's log rebuilds exactly the
runs of that file (from the results block), and without the block one run
per set from the cases.

lava-run needs root (the ssh device logs in as root and unpacks its
overlay into /lava-JOB): skipped (77) with the reason when not root or when
lava-run, sshd or the ssh client is missing. scripts/install-deps.sh
installs lava-dispatcher but not openssh-server: on a systemd host that
package starts a system sshd on port 22, which a test dependency must not
do to a developer's machine; install it to run this test.
"""

import glob
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import check, finish, paths, run  # noqa: E402

GFXSTAT, SRC = paths()
GFXSTAT = os.path.abspath(GFXSTAT)
SSHD = "/usr/sbin/sshd"


def skip(why):
    print(f"SKIP: whole LAVA job through lava-run over ssh: {why}")
    sys.exit(77)


def yaml_module():
    """PyYAML is Debian python3's (as lava-run's): another interpreter
    first on PATH may lack it, and then the test runs itself again under
    /usr/bin/python3."""
    try:
        import yaml
        return yaml
    except ImportError:
        if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != "/usr/bin/python3" \
                and not os.environ.get("GFXSTAT_TEST_REEXEC"):
            os.environ["GFXSTAT_TEST_REEXEC"] = "1"
            os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
        return None


def missing():
    """Why the job cannot run here, or None."""
    if os.geteuid() != 0:
        return "not root (LAVA's ssh device logs in as root and unpacks its overlay into /)"
    if not shutil.which("lava-run"):
        return "lava-run is not installed (Debian's lava-dispatcher)"
    if not os.access(SSHD, os.X_OK):
        return (f"{SSHD} is not installed (Debian's openssh-server; left out of scripts/install-deps.sh "
                "because it starts a system sshd)")
    for tool in ("ssh", "scp", "ssh-keygen"):
        if not shutil.which(tool):
            return f"{tool} is not installed (Debian's openssh-client)"
    return None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Sshd:
    """A private sshd for the job's "device": its own config, keys and pid
    file under `d`; stopped on the way out."""

    def __init__(self, d):
        self.d = os.path.join(d, "sshd")
        os.makedirs(self.d)
        self.host_key = os.path.join(self.d, "host_key")
        self.client_key = os.path.join(self.d, "client_key")
        for key in (self.host_key, self.client_key):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "gfxstat-lava-job", "-f", key],
                           check=True, capture_output=True)
        self.authorized = os.path.join(self.d, "authorized_keys")
        shutil.copyfile(self.client_key + ".pub", self.authorized)
        self.config = os.path.join(self.d, "sshd_config")
        with open(self.config, "w") as f:
            f.write(f"HostKey {self.host_key}\n"
                    "ListenAddress 127.0.0.1\n"
                    f"AuthorizedKeysFile {self.authorized}\n"
                    "StrictModes no\n"
                    "UsePAM no\n"
                    f"PidFile {os.path.join(self.d, 'sshd.pid')}\n"
                    "PermitRootLogin prohibit-password\n"
                    "PubkeyAuthentication yes\n"
                    "PasswordAuthentication no\n"
                    "KbdInteractiveAuthentication no\n"
                    "Subsystem sftp internal-sftp\n")
        self.log = os.path.join(self.d, "sshd.log")
        self.proc = None
        self.port = None
        self.made_privsep = False

    def start(self):
        """Starts sshd; None, or why it did not start."""
        # sshd refuses to start without its privilege separation directory,
        # which the system's ssh service would otherwise create.
        if not os.path.isdir("/run/sshd"):
            os.makedirs("/run/sshd", mode=0o755)
            self.made_privsep = True
        self.port = free_port()
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen([SSHD, "-D", "-e", "-f", self.config, "-p", str(self.port)],
                                         stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return None
            except OSError:
                time.sleep(0.1)
        with open(self.log, errors="replace") as f:
            return f"sshd did not listen on 127.0.0.1:{self.port}: {f.read()[-500:]}"

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.made_privsep:
            try:
                os.rmdir("/run/sshd")
            except OSError:
                pass


def device_dictionary(path, sshd):
    """The ssh device type's device configuration as lava-server renders
    ssh.jinja2 (over base.jinja2) for a device dictionary that sets
    ssh_host, ssh_port and ssh_identity_file: the constants the dispatcher
    asks for, deploy and boot by ssh, the connection options. The ssh
    options go to both ssh and scp; -F /dev/null keeps root's ssh_config
    out of the job."""
    text = f"""\
constants:
  posix:
    lava_test_sh_cmd: /bin/sh
    lava_test_results_dir: /lava-%s
    lava_test_shell_file: ~/.bashrc
  shutdown-message: 'The system is going down for reboot NOW'
  kernel-start-message: 'Linux version [0-9]'
  default-shell-prompt: 'lava-test: # '
  spawn_maxread: '4092'
  failure_retry: 0
  boot_retry: 0
parameters:
  pass:
connection: ssh
actions:
  deploy:
    connections:
      serial:
      ssh:
    methods:
      ssh:
        options:
          - '-F'
          - '/dev/null'
          - '-o'
          - 'Compression=yes'
          - '-o'
          - 'PasswordAuthentication=no'
          - '-o'
          - 'LogLevel=FATAL'
        host: 127.0.0.1
        port: {sshd.port}
        user: root
        identity_file: {sshd.client_key}
  boot:
    connections:
      serial:
      ssh:
    methods:
      ssh:
timeouts:
  actions:
    lava-test-shell:
      minutes: 2
  connections:
    lava-test-shell:
      seconds: 10
"""
    with open(path, "w") as f:
        f.write(text)
    return path


# The workload: frame_ms=16.NN with NN changing from run to run (a counter
# file in the device's directory), so that the mean is not any one value.
WORKLOAD = ("n=$(cat n 2>/dev/null || echo 0); echo $((n + 1)) > n; "
            "echo frame_ms=16.$((n * 37 % 89 + 10))")
VARIANT = "whole job"


def job_file(yaml, path, device_dir):
    steps = [
        # The kernel log is the machine's: tests do not depend on it
        # (tests/cli/testlib.py); the test shell does not inherit our
        # environment, so the definition says so itself.
        "export GFXSTAT_KMSG=/dev/null",
        "cd " + shlex.quote(device_dir),
        " ".join(shlex.quote(w) for w in [
            GFXSTAT, "run", "--lava", "on", "--runs", "4", "--warmup", "1", "--no-check",
            "--label", VARIANT, "--metric", "frame_ms=frame_ms=([0-9.]+)", "--unit", "ms",
            "-o", "results.json", "--", "sh", "-c", WORKLOAD]),
    ]
    definition = {"metadata": {"format": "Lava-Test Test Definition 1.0", "name": "gfxstat",
                               "description": "gfxstat run --lava on, whole job"},
                  "run": {"steps": steps}}
    job = {"job_name": "gfxstat whole job", "device_type": "ssh", "visibility": "public",
           "timeouts": {"job": {"minutes": 3}, "action": {"minutes": 2}, "connection": {"minutes": 1}},
           "actions": [{"deploy": {"to": "ssh", "os": "debian", "timeout": {"minutes": 1}}},
                       {"boot": {"method": "ssh", "connection": "ssh", "prompts": ["root@", "# "],
                                 "timeout": {"minutes": 1}}},
                       {"test": {"timeout": {"minutes": 2},
                                 "definitions": [{"repository": definition, "from": "inline",
                                                  "name": "gfxstat", "path": "inline/gfxstat.yaml"}]}}]}
    with open(path, "w") as f:
        yaml.safe_dump(job, f, sort_keys=False)
    return path


def log_records(yaml, path):
    """lava-run's log: one YAML flow mapping a line ({dt, lvl, msg})."""
    records = []
    with open(path, errors="replace") as f:
        for line in f:
            if not line.startswith("{"):
                continue
            try:
                rec = yaml.safe_load(line)
            except yaml.YAMLError:
                continue
            if isinstance(rec, dict) and "lvl" in rec:
                records.append(rec)
    return records


def results_records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def runs_of(path):
    runs = [r for r in results_records(path) if r.get("type") == "run"]
    for r in runs:
        r.pop("origin", None)
    return runs


def means(path):
    """metric -> mean of the ok runs that are not warm-ups, summed in file
    order as gfxstat sums them."""
    sums = {}
    for r in runs_of(path):
        if r.get("warmup") or (r.get("exit") or {}).get("class", "ok") != "ok":
            continue
        for name, v in (r.get("metrics") or {}).items():
            s = sums.setdefault(name, [0.0, 0])
            for x in (v if isinstance(v, list) else [v]):
                s[0] += float(x)
                s[1] += 1
    return {m: s / n for m, (s, n) in sums.items() if n}


def main():
    yaml = yaml_module()
    why = missing() or (None if yaml else "python3-yaml is not installed")
    if why:
        skip(why)
    d = tempfile.mkdtemp(prefix="gfxstat-lava-job-")
    job_id = f"gfxstat-{os.getpid()}"
    sshd = Sshd(d)
    try:
        why = sshd.start()
        if why:
            skip(why)
        device_dir = os.path.join(d, "device")
        os.makedirs(device_dir)
        device = device_dictionary(os.path.join(d, "device.yaml"), sshd)
        job = job_file(yaml, os.path.join(d, "job.yaml"), device_dir)
        out_dir = os.path.join(d, "lava-run")
        log = os.path.join(d, f"job-{os.getpid()}.log")
        # Without --url, lava-run writes its log on stderr.
        with open(log, "wb") as f:
            try:
                p = subprocess.run(["lava-run", "--job-id", job_id, "--device", device, "--output-dir", out_dir,
                                    job], stdout=subprocess.DEVNULL, stderr=f, timeout=150)
                rc = p.returncode
            except subprocess.TimeoutExpired:
                rc = "timeout"
        records = log_records(yaml, log)
        results = [r["msg"] for r in records if r["lvl"] == "results" and isinstance(r["msg"], dict)]
        errors = [r["msg"] for r in records if r["lvl"] in ("error", "exception")]
        job_result = [r.get("result") for r in results if r.get("definition") == "lava" and r.get("case") == "job"]
        if not check(rc == 0 and job_result == ["pass"],
                     f"lava-run: the job passes: rc {rc}, job {job_result}, errors {errors[-3:]}"):
            with open(log, errors="replace") as f:
                print("".join(f.readlines()[-40:]))

        device_results = os.path.join(device_dir, "results.json")
        if not check(os.path.isfile(device_results), "the device wrote its results file"):
            return finish("")
        expected = means(device_results)
        check(set(expected) == {"frame_ms"} and len(runs_of(device_results)) == 5,
              f"the device's results: 1 warm-up and 4 runs of frame_ms: {expected}")

        # LAVA's own results: the test definition passed; the gfxstat set
        # holds a case per metric, measured as the file's mean.
        defn = [r for r in results if r.get("definition") == "lava" and r.get("case") == "0_gfxstat"]
        check(len(defn) == 1 and defn[0].get("result") == "pass", f"the test definition passes in LAVA: {defn}")
        cases = {r["case"]: r for r in results if r.get("definition") == "0_gfxstat"}
        check(set(cases) == set(expected), f"LAVA's cases are the metrics: {sorted(cases)}")
        for metric, mean in expected.items():
            c = cases.get(metric, {})
            check(c.get("set") == re.sub(r"[^-_a-zA-Z0-9.]", "_", VARIANT),
                  f"{metric}: in the variant's test set: {c.get('set')}")
            check(c.get("result") == "pass", f"{metric}: passes: {c.get('result')}")
            check(c.get("units") == "ms", f"{metric}: units: {c.get('units')}")
            check("measurement" in c and float(c["measurement"]) == mean,
                  f"{metric}: LAVA's measurement {c.get('measurement')!r} is the mean {mean!r}")

        # The log, read back: the runs the device wrote, exactly.
        imported = os.path.join(d, "imported.json")
        rc, _, err = run([GFXSTAT, "import", "--from", "lava", log, "-o", imported])
        if check(rc == 0, f"import --from lava of lava-run's log: rc {rc}: {err}"):
            check(runs_of(imported) == runs_of(device_results),
                  "import --from lava: the device's runs, exactly (from the results block)")

        # Without the block: a run of the set rebuilt from LAVA's cases.
        plain = os.path.join(d, "plain.log")
        inside = False
        with open(log, errors="replace") as src, open(plain, "w") as dst:
            for line, rec in ((line, yaml.safe_load(line) if line.startswith("{") else None) for line in src):
                msg = rec.get("msg") if isinstance(rec, dict) and rec.get("lvl") == "target" else None
                if isinstance(msg, str) and msg.startswith("<GFXSTAT_RESULTS_BEGIN"):
                    inside = True
                if not inside:
                    dst.write(line)
                if msg == "<GFXSTAT_RESULTS_END v1>":
                    inside = False
        rebuilt = os.path.join(d, "rebuilt.json")
        rc, _, err = run([GFXSTAT, "import", "--from", "lava", plain, "-o", rebuilt])
        if check(rc == 0, f"import --from lava without the block: rc {rc}: {err}"):
            runs = runs_of(rebuilt)
            check(len(runs) == 1 and runs[0].get("variant") == "whole_job"
                  and all(float(runs[0]["metrics"].get(m, "nan")) == v for m, v in expected.items()),
                  f"without the block: one run of the set, the cases' measurements: {runs} vs {expected}")
    finally:
        sshd.stop()
        # What LAVA's ssh deployment left on the "device": its overlay
        # tarball and the unpacked test shell under /.
        for leftover in [f"/lava-{job_id}"] + glob.glob(f"/lava-{job_id}-overlay-*.tar.gz"):
            if os.path.isdir(leftover):
                shutil.rmtree(leftover, ignore_errors=True)
            elif os.path.exists(leftover):
                os.remove(leftover)
        shutil.rmtree(d, ignore_errors=True)
    return finish("lava_job: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
