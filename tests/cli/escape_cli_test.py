#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Text from data never reaches a terminal raw (issue 14, item 3). A
hyperfine export whose command is ESC ] 0;pwned BEL ESC [2J sleep 1 (a
terminal title and a screen clear) and a second command with a newline, a
'|', a C1 control (U+009B, CSI) and valid multibyte UTF-8 are imported,
with an environment value holding an escape sequence; then summary, show,
compare (text, markdown), ministat, run, campaign status, option errors
and error messages naming files must print no control byte (newline
aside), no DEL, no C1 control and nothing that is not UTF-8; table rows
must stay whole; JSON outputs keep the text verbatim.
The visible form is text/text_escape.h's (docs/results-format.md)."""

import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish  # noqa: E402

PWNED = "\x1b]0;pwned\x07\x1b[2Jsleep 1"
SPLIT = "sleep 2\n| x | é – \u009b2J \\x1b"
KERNEL = "6.10\x1b[2J"
PWNED_SHOWN = "\\x1b]0;pwned\\x07\\x1b[2Jsleep 1"
SPLIT_SHOWN = "sleep 2\\n| x | é – \\u009b2J \\\\x1b"


def run_bytes(args):
    """(exit status, stdout, stderr) as bytes."""
    p = subprocess.run(args, capture_output=True)
    return p.returncode, p.stdout, p.stderr


def safe(what, data, allowed="\n"):
    """Checks that `data` (bytes) could not drive a terminal: valid UTF-8,
    no C0 control but newline (and the `allowed` ones), no DEL, no C1
    control. Returns the text."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        check(False, f"{what}: not UTF-8 at byte {e.start}: {data[max(0, e.start - 20):e.start + 20]!r}")
        return data.decode("utf-8", errors="replace")
    for i, ch in enumerate(text):
        c = ord(ch)
        if (c < 0x20 and ch not in allowed) or c == 0x7F or 0x80 <= c <= 0x9F:
            check(False, f"{what}: control U+{c:04X} at {i}: {text[max(0, i - 30):i + 30]!r}")
            break
    return text


def hyperfine(d, name, commands):
    times = [[1.01, 1.02, 1.00, 1.03, 1.01, 0.99, 1.02, 1.00],
             [2.01, 2.02, 2.00, 2.03, 2.01, 1.99, 2.02, 2.00]]
    doc = {"results": [{"command": c, "times": t, "exit_codes": [0] * len(t)} for c, t in zip(commands, times)]}
    # ensure_ascii: the file holds \\u001b escapes, as hyperfine writes them.
    return testlib.write(d, name, json.dumps(doc, ensure_ascii=True))


def pipes(line):
    """'|' that separate markdown cells: those not escaped by a backslash."""
    return len(re.findall(r"(?<!\\)(?:\\\\)*\|", line))


def tables_whole(what, text):
    """Every markdown table's rows have as many cells as its header."""
    want = None
    for line in text.split("\n"):
        if not line.startswith("|"):
            want = None
            continue
        if want is None:
            want = pipes(line)
        elif not check(pipes(line) == want, f"{what}: row with {pipes(line)} cell separators, header {want}: {line!r}"):
            return


def main():
    g, _ = testlib.paths()
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        rc, _, err = run_bytes([g, "import", "--from", "hyperfine", hyperfine(d, "a.json", [PWNED, SPLIT]),
                                "--tag", "kernel=6.9", "-o", out])
        check(rc == 0, f"import: rc {rc}: {err!r}")
        safe("import stderr", err)
        # A third variant whose kernel (an environment value) holds an escape.
        rc, _, err = run_bytes([g, "import", "--from", "hyperfine", hyperfine(d, "b.json", ["third"]),
                                "--tag", "kernel=" + KERNEL, "--append", "-o", out])
        check(rc == 0, f"import --append: rc {rc}: {err!r}")
        safe("import --append stderr", err)
        # The results file itself keeps the text as it was.
        with open(out) as f:
            recs = [json.loads(line) for line in f if line.strip()]
        variants = [r["variant"] for r in recs if r.get("type") == "run"]
        check(PWNED in variants and SPLIT in variants, "results file keeps the labels verbatim")

        # summary: one row per variant, the label escaped at its end.
        rc, o, e = run_bytes([g, "summary", "--no-diagnostics", out])
        check(rc == 0, f"summary: rc {rc}: {e!r}")
        text = safe("summary stdout", o)
        safe("summary stderr", e)
        # The labels do not fit after the rows in 72 columns: each is a
        # line of its own above the table, by its key.
        rows = text.rstrip("\n").split("\n")
        check(len(rows) == 7, f"summary: three labels, header and three rows, not split: {rows}")
        check(rows[0] == "x " + PWNED_SHOWN, f"summary label 1: {rows[0]!r}")
        check(rows[1] == "+ " + SPLIT_SHOWN, f"summary label 2: {rows[1]!r}")

        # show: every table row whole, the environment value escaped.
        rc, o, e = run_bytes([g, "show", out])
        check(rc == 0, f"show: rc {rc}: {e!r}")
        text = safe("show stdout", o)
        safe("show stderr", e)
        lines = text.split("\n")
        runs = lines[lines.index("runs") + 1:]
        runs = runs[:runs.index("")]
        check(len(runs) == 4, f"show: runs table of header and three rows: {runs}")
        check(any(r.startswith("  " + PWNED_SHOWN + " ") for r in runs), f"show: escaped label row: {runs}")
        check(any(r.startswith("  " + SPLIT_SHOWN + " ") for r in runs), f"show: split label row: {runs}")
        check("6.10\\x1b[2J (third)" in text, "show: environment value escaped")

        for fmt in ("text", "markdown"):
            rc, o, e = run_bytes([g, "compare", "--format", fmt, "--bootstrap", "0", out])
            check(rc == 0, f"compare {fmt}: rc {rc}: {e!r}")
            text = safe(f"compare {fmt} stdout", o)
            safe(f"compare {fmt} stderr", e)
            check("é –" in text, f"compare {fmt}: multibyte UTF-8 kept")
            if fmt == "text":
                check(f"x {PWNED_SHOWN}\n+ {SPLIT_SHOWN}\n" in text, "compare text: legend lines")
            else:
                tables_whole("compare markdown", text)
                check("| sleep 2\\n\\| x \\| é – \\u009b2J \\\\x1b | 8 |" in text, "compare markdown: cell escaped")

        rc, o, e = run_bytes([g, "ministat", "--variant", PWNED, "--variant", SPLIT, out])
        check(rc == 0, f"ministat: rc {rc}: {e!r}")
        # ministat's own report indents the difference with tabs, as
        # FreeBSD's does; the legend lines hold none.
        text = safe("ministat stdout", o, allowed="\n\t")
        safe("ministat stderr", e)
        check(text.startswith(f"x {PWNED_SHOWN}\n+ {SPLIT_SHOWN}\n"), f"ministat legend: {text[:200]!r}")

        # A file name that is not UTF-8 (a raw 0x9B, CSI in Latin-1) in a
        # legend, and one with an escape sequence in an error message.
        col = os.path.join(d.encode(), b"col\x9b2J.txt")
        with open(col, "w") as f:
            f.write("1\n2\n3\n4\n")
        rc, o, e = run_bytes([g, "ministat", "-n", col, col])
        check(rc == 0, f"ministat on a non-UTF-8 name: rc {rc}: {e!r}")
        text = safe("ministat non-UTF-8 name", o)
        check("col\\x9b2J.txt" in text, f"ministat: the byte shown as \\x9b: {text[:200]!r}")
        # JSON for a name that is not UTF-8: valid JSON (U+FFFD for the
        # byte), not an abort.
        rc, o, e = run_bytes([g, "summary", "--json", col])
        check(rc == 0, f"summary --json on a non-UTF-8 name: rc {rc}: {e[-200:]!r}")
        if rc == 0:
            check(json.loads(o)["inputs"][0]["name"].endswith("col\ufffd2J.txt"), "summary --json: U+FFFD")
        missing = os.path.join(d, "no\x1b[2Jsuch")
        for cmd in (["summary"], ["ministat"], ["show"], ["compare", missing], ["merge", "-o", "-"]):
            rc, o, e = run_bytes([g] + cmd + [missing])
            # ministat exits 1 there, as Debian's ministat does.
            check(rc == (1 if cmd[0] == "ministat" else 2), f"{cmd[0]} on a missing file: rc {rc}")
            text = safe(f"{cmd[0]} error message", e)
            check("no\\x1b[2Jsuch" in text, f"{cmd[0]} error names the file, escaped: {text!r}")
        rc, _, e = run_bytes([g, "import", "--from", "hyperfine", missing, "-o", os.path.join(d, "x.json")])
        check(rc == 2 and "no\\x1b[2Jsuch" in safe("import error message", e), f"import error: {e!r}")

        # run's progress lines and its last line name the label, the metric
        # and the exit reason.
        ran = os.path.join(d, "ran.json")
        rc, _, e = run_bytes([g, "run", "--runs", "2", "--label", PWNED, "-o", ran, "--", "sh", "-c", "echo 5"])
        check(rc == 0, f"run: rc {rc}: {e!r}")
        text = safe("run stderr", e)
        check(f"of '{PWNED_SHOWN}' recorded" in text, f"run names the label escaped: {text!r}")

        # The message of a metric name refused: quoted once (quote_token),
        # not escaped twice.
        rc, _, e = run_bytes([g, "run", "--runs", "1", "--metric-name", "fps\x1b[2J", "-o", ran,
                              "--", "sh", "-c", "echo 5"])
        text = safe("run: invalid metric name", e)
        check(rc == 2 and 'invalid metric name "fps\\x1b[2J"' in text, f"run: metric name quoted once: {text!r}")

        # campaign: plans refuse C0 controls in names and labels, not C1
        # ones (U+009B is CSI); init and status show them escaped.
        plan = {"name": "c\u009b2J", "variants": [{"label": "a", "reboot": False},
                                                    {"label": "b\u009b2J", "reboot": False}],
                "workload": {"command": ["sh", "-c", "echo 1"], "parser": "lines"},
                "runs_per_boot": 1, "boots_per_variant": 1}
        cdir = os.path.join(d, "campaign")
        rc, o, e = run_bytes([g, "campaign", "init", testlib.write(d, "plan.json", json.dumps(plan)), "-d", cdir])
        check(rc == 0, f"campaign init: rc {rc}: {e!r}")
        safe("campaign init", o + e)
        rc, o, e = run_bytes([g, "campaign", "status", cdir])
        text = safe("campaign status", o + e)
        check(rc == 0 and "campaign c\\u009b2J (" in text and "(b\\u009b2J)" in text,
              f"campaign status: name and labels escaped: {rc} {text!r}")

        # Option errors quote the argument given.
        rc, o, e = run_bytes([g, "compare", "--format", "\x1b[2Jtext", out])
        text = safe("compare: bad --format", o + e)
        check(rc == 2 and "\\x1b[2Jtext" in text, f"option error quotes the value escaped: {rc} {text!r}")
        rc, o, e = run_bytes([g, "\x1b[2Jsummary"])
        text = safe("unknown command", o + e)
        check(rc == 2 and "'\\x1b[2Jsummary'" in text, f"unknown command escaped: {rc} {text[:200]!r}")

        # JSON keeps the text verbatim (JSON's own escapes).
        rc, o, _ = run_bytes([g, "show", "--json", out])
        j = json.loads(o)
        check([v["variant"] for v in j["variants"]] == [PWNED, SPLIT, "third"], "show --json: labels verbatim")
        check(b"\\u001b]0;pwned\\u0007" in o and b"\x1b" not in o, "show --json: JSON escapes, no raw ESC")
        kernels = [v for e in j["environment"] if e["field"] == "tag:kernel" for v in e["values"]["third"]]
        check(kernels == [KERNEL], f"show --json: environment value verbatim: {kernels}")
        rc, o, _ = run_bytes([g, "summary", "--json", "--no-diagnostics", out])
        check([i["name"] for i in json.loads(o)["inputs"]] == [PWNED, SPLIT, "third"], "summary --json: verbatim")
        rc, o, _ = run_bytes([g, "compare", "--format", "json", "--bootstrap", "0", out])
        check(rc == 0 and b"\x1b" not in o, "compare json: escaped by JSON only, no raw ESC")
        labels = set()

        def collect(v):
            if isinstance(v, dict):
                labels.update(x for k, x in v.items() if k == "label" and isinstance(x, str))
                for x in v.values():
                    collect(x)
            elif isinstance(v, list):
                for x in v:
                    collect(x)
        collect(json.loads(o))
        check({PWNED, SPLIT} <= labels, f"compare json: labels verbatim: {labels}")
    return finish("escape cli: ok")


if __name__ == "__main__":
    sys.exit(main())
