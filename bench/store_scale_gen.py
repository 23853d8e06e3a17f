#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The results files of bench/store_scale.sh: a CI farm's nightlies of main,
# one results file per build and machine, as `gfxstat run` would leave them.
#
#   store_scale_gen.py DIR BUILDS MACHINES METRICS RUNS SEED
#
# writes DIR/bBBBB-mMM.json for each build and machine (variant "main", one
# boot per file, RUNS runs of METRICS metrics each, tags commit=<40 hex> and
# branch=main, start times in build order), and DIR/candidate.json: one
# boot of a merge request on m03 (variant "mr", branch=mr) to compare with
# the stored history. The values are realistic in shape: a level per
# metric (milliseconds lower-is-better, frames/s higher-is-better), a
# factor per machine, a shift per boot (between-boot variance) and noise
# per run, and a few step changes along the builds that hold from their
# build on. Deterministic: the same arguments give the same bytes.
import datetime
import hashlib
import os
import random
import sys
from multiprocessing import Pool

BASE = datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)
HOURS_PER_BUILD = 4  # a nightly every few hours: 2,000 builds over ~11 months


def hexdigest(*parts):
    return hashlib.sha256("/".join(str(p) for p in parts).encode()).hexdigest()


def fnv_env_id(fields, tags):
    # The environment's id as gfxstat derives it (data/results_model.cpp:
    # FNV-1a 64 over length-prefixed keys and values, then "tags" and the tags).
    h = 0xCBF29CE484222325
    def mix(s):
        nonlocal h
        b = s.encode()
        for c in (str(len(b)) + ":").encode() + b:
            h = ((h ^ c) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    for k in sorted(fields):
        mix(k); mix(fields[k])
    mix("tags")
    for k in sorted(tags):
        mix(k); mix(tags[k])
    return "env-%016x" % h


def stamp(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def json_str(s):
    # Every string written here is plain ASCII without quotes or backslashes.
    return '"' + s + '"'


class Farm:
    def __init__(self, builds, machines, metrics, runs, seed):
        self.builds, self.machines, self.metrics, self.runs, self.seed = builds, machines, metrics, runs, seed
        rng = random.Random(seed)
        self.names = ["m%02d" % k for k in range(metrics)]
        self.kind = []    # (unit, direction)
        self.level = []   # the metric's level on a machine of factor 1
        self.within = []  # run-to-run noise, relative
        self.between = []  # boot-to-boot shift, relative
        for k in range(metrics):
            fps = k % 3 == 2
            self.kind.append(("frames/s", "higher") if fps else ("ms", "lower"))
            self.level.append(rng.uniform(30, 600) if fps else 10 ** rng.uniform(-1, 2.5))
            self.within.append(rng.uniform(0.003, 0.02))
            self.between.append(rng.uniform(0.002, 0.015))
        self.machine_factor = [rng.uniform(0.85, 1.15) for _ in range(machines)]
        # A few step changes along the builds: (first build, metric, factor).
        self.steps = []
        for _ in range(max(1, builds // 400) + 2):
            b = rng.randrange(1, max(2, builds))
            for k in rng.sample(range(metrics), min(metrics, 4)):
                self.steps.append((b, k, 1 + rng.choice((-1, 1)) * rng.uniform(0.02, 0.08)))

    def levels_at(self, build, machine):
        out = [self.level[k] * self.machine_factor[machine] for k in range(self.metrics)]
        for b, k, f in self.steps:
            if build >= b:
                out[k] *= f
        return out

    def header_and_declarations(self, file_id, created):
        lines = ['{"format":"gfxstat-results","version":1,"id":"%s","created":"%s","generator":"gfxstat-bench store_scale_gen"}'
                 % (file_id, stamp(created))]
        for name, (unit, direction) in zip(self.names, self.kind):
            lines.append('{"type":"metric","name":"%s","unit":"%s","direction":"%s","primary":true}' % (name, unit, direction))
        return lines

    def file_text(self, build, machine, variant="main", branch="main", commit=None):
        rng = random.Random(int(hexdigest("values", self.seed, build, machine, variant)[:16], 16))
        commit = commit or hexdigest("commit", self.seed, build)[:40]
        start = BASE + datetime.timedelta(hours=HOURS_PER_BUILD * build, minutes=7 * machine)
        file_id = hexdigest("file", self.seed, build, machine, variant)[:32]
        boot = hexdigest("boot", self.seed, build, machine, variant)
        boot = "%s-%s-%s-%s-%s" % (boot[:8], boot[8:12], boot[12:16], boot[16:20], boot[20:32])
        fields = {"hostname": "m%02d" % machine, "kernel_release": "6.12.0-drm-tip", "gpu_driver": "i915",
                  "gpu_pci_id": "8086:56a0", "cpu_governor": "performance"}
        tags = {"branch": branch, "commit": commit}
        env_id = fnv_env_id(fields, tags)
        lines = self.header_and_declarations(file_id, start)
        env = ",".join('"%s":%s' % (k, json_str(v)) for k, v in sorted(fields.items()))
        lines.append('{"type":"environment","id":"%s",%s,"tags":{"branch":"%s","commit":"%s"}}' % (env_id, env, branch, commit))
        levels = self.levels_at(build, machine)
        shift = [1 + rng.gauss(0, self.between[k]) for k in range(self.metrics)]
        t = start
        for r in range(self.runs):
            values = ",".join('"%s":%.6g' % (self.names[k], levels[k] * shift[k] * (1 + rng.gauss(0, self.within[k])))
                              for k in range(self.metrics))
            duration = 20 + rng.random()
            lines.append('{"type":"run","variant":"%s","run":%d,"boot":"%s","start":"%s","duration_s":%.3f,'
                         '"exit":{"class":"ok","code":0},"environment":"%s","metrics":{%s}}'
                         % (variant, r, boot, stamp(t), duration, env_id, values))
            t += datetime.timedelta(seconds=duration + 1)
        return "\n".join(lines) + "\n"


def write_build(args):
    farm, out, build = args
    for m in range(farm.machines):
        path = os.path.join(out, "b%04d-m%02d.json" % (build, m))
        with open(path, "w") as f:
            f.write(farm.file_text(build, m))


def main():
    if len(sys.argv) != 7:
        sys.exit("usage: store_scale_gen.py DIR BUILDS MACHINES METRICS RUNS SEED")
    out = sys.argv[1]
    builds, machines, metrics, runs, seed = (int(a) for a in sys.argv[2:])
    if machines < 4:
        sys.exit("store_scale_gen.py: at least 4 machines (the candidate runs on m03)")
    os.makedirs(out, exist_ok=True)
    farm = Farm(builds, machines, metrics, runs, seed)
    with Pool(min(2, os.cpu_count() or 1)) as pool:
        for _ in pool.imap_unordered(write_build, ((farm, out, b) for b in range(builds)), chunksize=8):
            pass
    with open(os.path.join(out, "candidate.json"), "w") as f:
        f.write(farm.file_text(builds, 3, variant="mr", branch="mr", commit=hexdigest("mr", seed)[:40]))


if __name__ == "__main__":
    main()
