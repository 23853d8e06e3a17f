#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A label holding a code point XML cannot hold still gives well-formed
XML: the JUnit file, the HTML page and the SVG charts.

The wrong answer guarded against: a variant named "x" U+FFFE (valid UTF-8,
but not an XML character) made `compare --junit` and `report` write files
that xmllint rejects ("Char 0xFFFE out of allowed range"), so GitLab
dropped the JUnit report and the gate's <failure> with it. One escaper
(text/xml_escape.h) now serves JUnit, the HTML page and SVG; the label
reads "x\\ufffe" there, and the gate's failure is in the file.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import check, finish, paths, run  # noqa: E402

GFXSTAT, SRC = paths()
XMLLINT = shutil.which("xmllint")
if not XMLLINT:
    print("SKIP: xmllint (Debian libxml2-utils) is not installed")
    sys.exit(77)


def well_formed(path, what):
    p = subprocess.run([XMLLINT, "--noout", path], capture_output=True)
    check(p.returncode == 0, f"{what}: xmllint --noout: {p.stderr.decode(errors='replace')[:400]}")
    try:
        return ET.parse(path).getroot()
    except ET.ParseError as e:
        check(False, f"{what}: xml.etree: {e}")
        return None


# U+FFFE and U+FFFF (XML's forbidden noncharacters); U+FDD0 (a noncharacter
# XML allows) and é stay as they are.
LABELS = {"fffe": "x\ufffe", "ffff": "y\uffff", "fdd0": "z\ufdd0é"}

with tempfile.TemporaryDirectory() as d:
    for key, label in LABELS.items():
        csv = os.path.join(d, key + ".csv")
        with open(csv, "w", encoding="utf-8") as f:
            f.write("variant,fps\n")
            for v in (10, 11, 12, 10.5, 11.5):
                f.write(f"base,{v}\n")
            for v in (5, 5.5, 6, 5.2, 5.7):  # the candidate is half as fast: a regression
                f.write(f"{label},{v}\n")
        results = os.path.join(d, key + ".json")
        rc, out, err = run([GFXSTAT, "import", "--from", "csv", "--higher-is-better", csv, "-o", results])
        if not check(rc == 0, f"{key}: import: rc {rc}, {err}"):
            continue

        # JUnit, with the gate's failure in it.
        junit = os.path.join(d, key + ".xml")
        rc, out, err = run([GFXSTAT, "compare", "--gate", results, "--junit", junit])
        check(rc == 1, f"{key}: the gate fails on the regression: rc {rc}, {err}")
        root = well_formed(junit, f"{key}: JUnit")
        if root is not None:
            failures = root.findall(".//failure")
            check(len(failures) == 1, f"{key}: the gate's <failure> is in the JUnit file: {len(failures)}")
            names = [c.get("name") for c in root.iter("testcase")]
            if key == "fdd0":
                check(any(label in n for n in names), f"{key}: an XML character stays as it is: {names!r}")
            else:
                shown = "\\u" + key
                check(any(shown in n for n in names), f"{key}: the label reads {shown} in the testcase: {names!r}")
        raw = open(junit, "rb").read()
        check(b"\xef\xbf\xbe" not in raw and b"\xef\xbf\xbf" not in raw, f"{key}: no U+FFFE/U+FFFF bytes in JUnit")

        # The HTML page (well-formed XML, its SVG inline) and compare --plot's SVG.
        page = os.path.join(d, key + ".html")
        rc, out, err = run([GFXSTAT, "report", results, "-o", page])
        if check(rc == 0, f"{key}: report: rc {rc}, {err}"):
            well_formed(page, f"{key}: HTML page")
            raw = open(page, "rb").read()
            check(b"\xef\xbf\xbe" not in raw and b"\xef\xbf\xbf" not in raw, f"{key}: no U+FFFE/U+FFFF bytes in HTML")
            if key != "fdd0":
                check(("\\u" + key).encode() in raw, f"{key}: the label is shown as \\u{key} in the page")
        plots = os.path.join(d, key + "-plots")
        os.mkdir(plots)
        rc, out, err = run([GFXSTAT, "compare", results, "--plot", os.path.join(plots, "chart.svg")])
        if check(rc == 0, f"{key}: compare --plot: rc {rc}, {err}"):
            svgs = [f for f in os.listdir(plots) if f.endswith(".svg")]
            check(len(svgs) >= 1, f"{key}: compare --plot wrote SVG files: {svgs}")
            for f in svgs:
                well_formed(os.path.join(plots, f), f"{key}: {f}")

    # Control characters and markup still come out as before: visible, and
    # as entities.
    csv = os.path.join(d, "ctl.csv")
    with open(csv, "w", encoding="utf-8") as f:
        f.write("variant,fps\n")
        for v in (10, 11, 12):
            f.write(f"base,{v}\n")
        for v in (10, 11, 12.5):
            f.write(f"\"a<b>&'\x1b[2J\",{v}\n")
    results = os.path.join(d, "ctl.json")
    rc, out, err = run([GFXSTAT, "import", "--from", "csv", "--higher-is-better", csv, "-o", results])
    if check(rc == 0, f"control label: import: rc {rc}, {err}"):
        junit = os.path.join(d, "ctl.xml")
        page = os.path.join(d, "ctl.html")
        rc1, _, err1 = run([GFXSTAT, "compare", results, "--junit", junit])
        rc2, _, err2 = run([GFXSTAT, "report", results, "-o", page])
        check(rc1 == 0 and rc2 == 0, f"control label: compare {rc1} {err1}, report {rc2} {err2}")
        if rc1 == 0:
            root = well_formed(junit, "control label: JUnit")
            names = [c.get("name") for c in root.iter("testcase")] if root is not None else []
            check(any("a<b>&'\\x1b[2J" in n for n in names), f"control label: read back as shown: {names!r}")
        if rc2 == 0:
            well_formed(page, "control label: HTML page")
            check(b"\x1b" not in open(page, "rb").read(), "control label: no raw ESC in the page")

    # The JUnit file of runs that failed (exit 4: <error>, not <failure>)
    # goes through the same escaper.
    for key in ("fffe", "ffff"):
        junit = os.path.join(d, key + "-failed.xml")
        rc, out, err = run([GFXSTAT, "ab", "-o", os.path.join(d, key + "-failed.json"), "--variant", "base",
                            "--variant", LABELS[key], "--parser", "lines", "--no-check", "--gate", "--junit", junit,
                            "--", "sh", "-c", "exit 1"])
        check(rc == 4, f"{key}: runs that fail: exit 4: rc {rc}, {err}")
        if check(os.path.exists(junit), f"{key}: the runs-failed JUnit file is written"):
            root = well_formed(junit, f"{key}: runs-failed JUnit")
            if root is not None:
                check(len(root.findall(".//error")) == 1, f"{key}: one <error> in the runs-failed JUnit file")
            raw = open(junit, "rb").read()
            check(b"\xef\xbf\xbe" not in raw and b"\xef\xbf\xbf" not in raw and ("\\u" + key).encode() in raw,
                  f"{key}: the label reads \\u{key} in the runs-failed JUnit file")

sys.exit(finish("labels with code points XML cannot hold give well-formed XML"))
