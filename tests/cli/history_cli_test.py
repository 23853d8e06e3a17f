#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat history on real runs (docs/history.md): a git repository made
here, 14 commits of a small benchmark script whose score (with noise from
/dev/urandom) drops 3% at commit 8; each commit measured by `gfxstat run
--tag commit=SHA` into a file of its own. history must find that change
between commits 7 and 8, from the files per build, from one merged file,
in git order (--order git, files given shuffled) and by date; print the
bisect command; write valid JSON; exit 0 on the builds before the step;
exit 2 with a clear message on bad input; escape text from data."""

import json
import os
import random
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish  # noqa: E402

COMMITS = 14
STEP_AT = 8  # the first commit with the lower score

# The benchmark: one score a run, level x 100 plus 0..99 from /dev/urandom
# (the noise of a real run, about 1%); `level` is what each commit changes.
BENCH = """#!/bin/sh
level=$(cat level)
n=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
echo $((level * 100 + n % 100))
"""


def git(repo, *args):
    out = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, check=True,
                         env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
                              "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"})
    return out.stdout.strip()


def make_history(gfxstat, d):
    """The repository and one results file per commit: (repo, shas, files)."""
    repo = os.path.join(d, "repo")
    os.mkdir(repo)
    git(repo, "init", "-q")
    testlib.write(repo, "bench.sh", BENCH)
    shas, files = [], []
    for i in range(COMMITS):
        testlib.write(repo, "level", "100\n" if i < STEP_AT else "97\n")
        testlib.write(repo, "patch", f"{i}\n")  # every commit changes something
        git(repo, "add", "bench.sh", "level", "patch")
        git(repo, "commit", "-q", "-m", f"commit {i}")
        sha = git(repo, "rev-parse", "HEAD")
        out = os.path.join(d, f"b{i:02d}.json")
        p = subprocess.run([gfxstat, "run", "--runs", "4", "--tag", f"commit={sha}", "--metric-name", "score",
                            "--unit", "points", "--higher-is-better", "--no-check", "-o", out, "--", "sh", "bench.sh"],
                           cwd=repo, capture_output=True, text=True)
        if not check(p.returncode == 0, f"gfxstat run for commit {i}: {p.returncode} {p.stderr}"):
            sys.exit(finish(""))
        shas.append(sha)
        files.append(out)
    return repo, shas, files


def history_json(gfxstat, args, what):
    status, out, err = testlib.run([gfxstat, "history", "--format", "json", *args])
    try:
        doc = json.loads(out)
    except json.JSONDecodeError as e:
        check(False, f"{what}: not JSON ({e}): {out[:200]!r} {err!r}")
        return status, None
    return status, doc


def check_the_step(doc, shas, what, files_known=True):
    """One metric, score, with one change: between commits 7 and 8, about -3%."""
    if doc is None:
        return
    check(doc.get("gfxstat_version"), f"{what}: gfxstat_version")
    check(doc["change_points"] == 1, f"{what}: change_points {doc['change_points']}")
    check([m["metric"] for m in doc["metrics"]] == ["score"], f"{what}: metrics {[m['metric'] for m in doc['metrics']]}")
    m = doc["metrics"][0]
    check(m["unit"] == "points" and m["direction"] == "higher", f"{what}: unit/direction {m['unit']} {m['direction']}")
    check(m["builds"] == COMMITS, f"{what}: builds {m['builds']}")
    if not check(len(m["changes"]) == 1, f"{what}: changes {m['changes']}"):
        return
    c = m["changes"][0]
    check(c["before"] == shas[STEP_AT - 1] and c["after"] == shas[STEP_AT],
          f"{what}: change between {c['before']} and {c['after']}, not commits {STEP_AT - 1} and {STEP_AT}")
    check(-4.5 < c["change_pct"] < -1.5, f"{what}: change {c['change_pct']}%")
    check(c["low_pct"] < c["change_pct"] < c["high_pct"], f"{what}: interval {c['low_pct']} {c['high_pct']}")
    check(c["p"] < 0.01, f"{what}: p {c['p']}")
    segs = m["segments"]
    check(len(segs) == 2 and segs[0]["builds"] == STEP_AT and segs[1]["builds"] == COMMITS - STEP_AT
          and segs[0]["runs"] == 4 * STEP_AT, f"{what}: segments {segs}")
    check(10000 <= segs[0]["mean"] < 10100 and 9700 <= segs[1]["median"] < 9800, f"{what}: segment levels {segs}")
    run = c["bisect"]["run"]
    check(run.startswith(f"git bisect start {shas[STEP_AT]} {shas[STEP_AT - 1]} -- && git bisect run gfxstat bisect step "),
          f"{what}: bisect command {run!r}")
    check(run.endswith(" --target-metric score -o bisect-steps.json -- sh bench.sh"), f"{what}: bisect command's end {run!r}")
    if files_known:
        check(f"--good {files_known[STEP_AT - 1]} --bad {files_known[STEP_AT]} " in run, f"{what}: good/bad files {run!r}")
        check(c["bisect"]["check"].startswith("gfxstat bisect check --good "), f"{what}: check {c['bisect']['check']!r}")
        # The command printed is one gfxstat bisect takes: it reads both
        # builds and answers (0 ready, 1 nothing to bisect), not a usage error.
        words = shlex.split(c["bisect"]["check"])
        status, out, err = testlib.run([GFXSTAT_BIN[0], *words[1:]])
        check(status in (0, 1) and "bad vs good" in out, f"{what}: the check command runs: {status} {out} {err}")
    else:
        check("--good GOOD.json" in run and "--bad BAD.json" in run, f"{what}: placeholders {run!r}")
        check(any("GOOD.json" in n for n in c["bisect"]["notes"]), f"{what}: notes {c['bisect']['notes']}")


GFXSTAT_BIN = []


def many_runs(builds, n):
    """A results file of `builds` builds (its variants b00, b01, ...) of n
    runs each, the level 2% higher from the middle build on."""
    lines = ['{"format":"gfxstat-results","version":1,"id":"' + "f" * 32 + '",'
             '"created":"2026-12-06T00:00:00.000000Z","generator":"test"}',
             '{"type":"metric","name":"frame_ms","unit":"ms","direction":"lower"}']
    for b in range(builds):
        level = 16.0 if b < builds // 2 else 16.32
        for r in range(n):
            lines.append('{"type":"run","variant":"b%02d","run":%d,"exit":{"class":"ok","code":0},'
                         '"metrics":{"frame_ms":%.3f}}' % (b, r, level + ((r * 7919) % 1000) / 2000))
    return "\n".join(lines) + "\n"


def check_large_pages(gfxstat, d):
    """Past 2,000 runs in a chart, --html draws each build's runs as bins
    and says so; the page stays self-contained and well-formed and grows by
    a few bytes a run, not one mark per run (counted in bytes, never timed)."""
    pages = {}
    for total in (3000, 30000):
        results = testlib.write(d, f"many-{total}.json", many_runs(10, total // 10))
        page = os.path.join(d, f"many-{total}.html")
        status, _, err = testlib.run([gfxstat, "history", "--html", page, results])
        if not check(status == 1 and os.path.exists(page), f"--html of {total} runs: exit {status} {err[-300:]}"):
            continue
        html = open(page).read()
        pages[total] = len(html.encode())
        check(subprocess.run(["xmllint", "--noout", page]).returncode == 0, f"--html of {total} runs: well-formed")
        problems = testlib.self_contained(html)
        check(not problems, f"--html of {total} runs: self-contained: {problems}")
        check(html.count("<circle") == 0 and 10 <= html.count('class="run-bin d') <= 10 * 24,
              f"--html of {total} runs: bins, no circle per run ({html.count('<circle')} circles)")
        said = (f"Past 2000 runs a chart the runs are drawn as bins, not one mark each: frame_ms ({total} runs over "
                "10 builds).</figcaption>")
        check(said in html and f"10 builds: {total} runs in 10 x 24 bins" in html,
              f"--html of {total} runs: the captions say the runs are drawn as bins")
        check("change point" in html and "git bisect start" in html, f"--html of {total} runs: the report")
    if len(pages) == 2:
        per_run = (pages[30000] - pages[3000]) / 27000
        check(per_run <= 1 and pages[30000] < 60000,
              f"--html: {pages[30000]} bytes at 30,000 runs, {per_run:.2f} bytes a run past 3,000 (at most 1)")


def main():
    gfxstat, _ = testlib.paths()
    GFXSTAT_BIN.append(gfxstat)
    gfxstat = os.path.abspath(gfxstat)  # the runs' working directory is the repository
    with tempfile.TemporaryDirectory() as d:
        repo, shas, files = make_history(gfxstat, d)

        # One file per build, in commit order on the command line.
        status, doc = history_json(gfxstat, files, "files per build")
        check(status == 1, f"files per build: exit {status}, not 1 (a change point)")
        check_the_step(doc, shas, "files per build", files)
        check(doc and [b["key"] for b in doc["builds"]] == shas, "files per build: builds in the order given")

        # --plot: the series drawn, one circle per run, the change marked.
        svg = os.path.join(d, "history.svg")
        status, _, err = testlib.run([gfxstat, "history", "--plot", svg, *files])
        check(status == 1 and os.path.exists(svg), f"--plot: exit {status} {err}")
        if os.path.exists(svg):
            text = open(svg).read()
            check(subprocess.run(["xmllint", "--noout", svg]).returncode == 0, "--plot: well-formed SVG")
            check(text.count("<circle") == 4 * COMMITS, f"--plot: one circle per run ({text.count('<circle')})")
            check("score" in text and "%" in text, "--plot: the metric and the change's size are drawn")
        # --html: one self-contained page with the series and the report.
        page = os.path.join(d, "history.html")
        status, out, err = testlib.run([gfxstat, "history", "--html", page, *files])
        check(status == 1 and os.path.exists(page), f"--html: exit {status} {err}")
        if os.path.exists(page):
            html = open(page).read()
            check(subprocess.run(["xmllint", "--noout", page]).returncode == 0, "--html: well-formed")
            check(html.count("<circle") == 4 * COMMITS and "<script" not in html, "--html: the series, no script")
            check("change point" in html and "git bisect start" in html, "--html: the report is in the page")
        status, _, err = testlib.run([gfxstat, "history", "--plot", os.path.join(d, "history.gif"), *files])
        check(status == 2 and ".svg" in err, f"--plot with another extension: {status} {err}")

        # Text: the change, its builds and the command, on 72 columns.
        status, out, err = testlib.run([gfxstat, "history", *files])
        check(status == 1, f"text: exit {status} {err}")
        check(f"after {shas[STEP_AT - 1][:12]}, from {shas[STEP_AT][:12]} on" in out,
              f"text: the change's builds (short ids): {out}")
        check("score (points, higher is better): 14 builds, 1 change point" in out, f"text: heading: {out}")
        # The bisect command wrapped at 72 columns, whole with --full.
        check(f"      git bisect start {shas[STEP_AT]} \\\n        {shas[STEP_AT - 1]} -- && \\\n" in out,
              f"text: bisect lines: {out}")
        status, full, err = testlib.run([gfxstat, "history", "--full", *files])
        check(f"bisect: git bisect start {shas[STEP_AT]} {shas[STEP_AT - 1]} -- && " in full,
              f"text --full: bisect line: {full}")
        check("(95% interval), p = " in out, f"text: interval and p: {out}")

        # Markdown.
        status, out, err = testlib.run([gfxstat, "history", "--format", "markdown", *files])
        check(status == 1 and "| last before | first after | change |" in out and "```sh\ngit bisect start" in out,
              f"markdown: {status} {out}")

        # Git order: the files shuffled on the command line.
        shuffled = files[:]
        random.Random(3).shuffle(shuffled)
        status, doc = history_json(gfxstat, ["--order", "git", "--git", repo, *shuffled], "--order git")
        check(status == 1, f"--order git: exit {status}")
        check_the_step(doc, shas, "--order git", files)
        check(doc and [b["commit"] for b in doc["builds"]] == shas, "--order git: builds in commit order")
        status, doc = history_json(gfxstat, ["--order", "date", *shuffled], "--order date")
        check(status == 1, f"--order date: exit {status}")
        check_the_step(doc, shas, "--order date", files)

        # One merged file, its runs tagged with their commit: the same
        # change; the builds share the file's one variant, so the bisect
        # command has placeholders for the reference files.
        merged = os.path.join(d, "all.json")
        status, _, err = testlib.run([gfxstat, "merge", *files, "-o", merged])
        check(status == 0, f"merge: {status} {err}")
        status, doc = history_json(gfxstat, [merged], "merged file")
        check(status == 1, f"merged file: exit {status}")
        check_the_step(doc, shas, "merged file", files_known=False)

        # --since, --metric, the options of the analysis.
        status, doc = history_json(gfxstat, ["--since", shas[3][:10], "--metric", "score", "--seed", "7",
                                             "--permutations", "1999", *files], "--since")
        check(status == 1 and doc and doc["metrics"][0]["builds"] == COMMITS - 3, "--since: 11 builds")
        check(doc and doc["permutations"] == 1999 and doc["seed"] == 7, "--since: options in the JSON")

        # The builds before the step: nothing changed, exit 0.
        status, out, err = testlib.run([gfxstat, "history", *files[:STEP_AT]])
        check(status == 0, f"no change: exit {status} {out} {err}")
        check("8 builds, 0 change points" in out, f"no change: text {out}")

        # --json FILE beside the text.
        jpath = os.path.join(d, "history.json")
        status, out, _ = testlib.run([gfxstat, "history", "--json", jpath, *files])
        with open(jpath) as f:
            check(json.load(f)["change_points"] == 1 and "bisect:" in out, "--json FILE")

        # Bad input: exit 2, a message that says what is wrong, no stdout.
        def bad(args, words, what):
            status, out, err = testlib.run([gfxstat, "history", *args])
            check(status == 2, f"{what}: exit {status}, not 2")
            check(out == "", f"{what}: stdout {out!r}")
            check(err.startswith("gfxstat history: ") and all(w in err for w in words), f"{what}: message {err!r}")

        bad([os.path.join(d, "missing.json")], ["missing.json"], "missing file")
        bad(["--since", "nosuchbuild", *files], ["--since", "nosuchbuild"], "unknown --since")
        bad(["--metric", "scor", *files], ["--metric", "scor", "did you mean score"], "unknown metric")
        bad(["--order", "git", *files], ["--git DIR"], "--order git without --git")
        bad(["--format", "xml", *files], ["--format"], "bad --format")
        other = os.path.join(d, "other.json")
        p = subprocess.run([gfxstat, "run", "--runs", "2", "--tag", "commit=0123456789abcdef0123", "--metric-name",
                            "score", "--unit", "points", "--higher-is-better", "--no-check", "-o", other, "--", "sh",
                            "bench.sh"], cwd=repo, capture_output=True, text=True)
        check(p.returncode == 0, f"run other: {p.stderr}")
        bad(["--order", "git", "--git", repo, *files, other], ["not in the history of HEAD", "0123456789abcdef0123"],
            "a build not in the repository")
        bad(["--order", "git", "--git", os.path.join(d, "nowhere"), *files], ["git rev-list", "failed"],
            "not a repository")
        column = testlib.write(d, "numbers.txt", "1\n2\n3\n")
        bad([column], ["numbers.txt"], "a column file")

        # Text from data: builds named by variants holding control
        # characters (an imported hyperfine export), escaped for people,
        # verbatim in JSON.
        label = "\x1b]0;pwned\x07\x1b[2Jb"
        runs = [{"command": f"{label}{i}", "times": [1.0 + 0.01 * k + (0.1 if i >= 3 else 0) for k in range(5)],
                 "exit_codes": [0] * 5} for i in range(6)]
        hf = testlib.write(d, "hf.json", json.dumps({"results": runs}, ensure_ascii=True))
        imported = os.path.join(d, "hf-results.json")
        status, _, err = testlib.run([gfxstat, "import", "--from", "hyperfine", hf, "-o", imported])
        check(status == 0, f"import hyperfine: {err}")
        for fmt in ("text", "markdown"):
            p = subprocess.run([gfxstat, "history", "--format", fmt, imported], capture_output=True)
            text = p.stdout.decode("utf-8", errors="replace")
            check(p.returncode in (0, 1) and text, f"escape {fmt}: exit {p.returncode} {p.stderr!r}")
            check(not any(ord(c) < 0x20 and c != "\n" for c in text), f"escape {fmt}: a control character: {text!r}")
            shown = "\\x1b]0;pwned\\x07" if fmt == "text" else "\\x1b\\]0;pwned\\x07"  # markdown escapes ]
            check(shown in text, f"escape {fmt}: the visible form: {text!r}")
        status, doc = history_json(gfxstat, [imported], "escape json")
        check(doc and doc["builds"][0]["key"] == f"{label}0", f"escape json: verbatim key {doc and doc['builds'][0]}")

        check_large_pages(gfxstat, d)
    return finish("history_cli: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
