#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reference cases for formats/yaml_reader.h: YAML written by PyYAML the
ways LAVA writes it (the results export's block style, lava-run's one flow
mapping per log line, older flow-style exports, long scalars folded at
80 columns) with what PyYAML's safe_load reads back. Leaves are strings
(or None), as in LAVA's exports, so that the reader's text is compared
exactly. Writes tests/data/lava/yaml_cases.json. Run with Debian's
/usr/bin/python3 (python3-yaml)."""

import json
import os

import yaml

TRICKY = ["plain", "1.5000000000", "None", "", "null", "yes", "a: b", "#not a comment", "- dash", "  lead",
          "trail  ", "multi\nline", "two\n\nbreaks", "caf\u00e9 \u2013 \u65e5\u672c", "bell\x07esc\x1b", "it's",
          'say "hi"', "back\\slash", "{flow}", "[seq]", "x, y", "tab\there", "\u2028sep", "~",
          "a long value with many words " * 6, "http://lava.example/results/12/0_gfx/fps"]


def case(name, data, **kw):
    return {"name": name, "yaml": yaml.safe_dump(data, **kw) if kw.get("flow_line") is None else None,
            "expected": data}


def as_text(v):
    """A loaded value as the reader keeps it: scalars as their text."""
    if isinstance(v, dict):
        return {k: as_text(x) for k, x in v.items()}
    if isinstance(v, list):
        return [as_text(x) for x in v]
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    return v


cases = []
export = [{"id": str(100 + i), "job": "4242", "suite": "0_gfxstat-perf", "name": f"fps-{i}", "result": "pass",
           "measurement": "%d.5000000000" % i, "unit": "fps", "duration": "", "timeout": "", "level": "1.1",
           "logged": "2023-01-01 10:00:0%d.123456+00:00" % i, "url": "/results/4242/0_gfxstat-perf/fps-%d" % i,
           "metadata": {"case": f"fps-{i}", "definition": "0_gfxstat-perf", "result": "pass",
                        "measurement": "%d.5" % i, "units": "fps", "set": "baseline",
                        "extra": [{"k": "v"}, {"list": ["a", "b"]}]}} for i in range(3)]
for style_name, kw in [("block", {}), ("flow_leaves", {"default_flow_style": None}),
                       ("flow", {"default_flow_style": True}), ("narrow", {"width": 20}),
                       ("double_quoted", {"default_style": '"'}), ("single_quoted", {"default_style": "'"}),
                       ("indent4", {"indent": 4})]:
    cases.append({"name": "export_" + style_name, "yaml": yaml.safe_dump(export, **kw), "expected": export})
    tricky = {"k%02d" % i: s for i, s in enumerate(TRICKY)}
    tricky["nested"] = {"list": TRICKY[:8], "empty_list": [], "empty_map": {}, "none": None}
    cases.append({"name": "tricky_" + style_name, "yaml": yaml.safe_dump(tricky, allow_unicode=True, **kw),
                  "expected": tricky})
    cases.append({"name": "tricky_ascii_" + style_name, "yaml": yaml.safe_dump([tricky], **kw),
                  "expected": [tricky]})
# lava-run's log lines (lava_common.log.dump: flow style, every scalar in
# double quotes, one line).
log = []
for lvl, msg in [("info", "start: 1 tftp-deploy"), ("target", "<LAVA_SIGNAL_TESTSET START baseline>"),
                 ("target", "bell\x07 \u00e9 \"q\" \\"), ("target", ""),
                 ("results", {"definition": "0_gfx", "case": "fps", "result": "pass", "measurement": "1.5",
                              "units": "fps", "set": "baseline", "duration": "0.01", "level": "3.1.1"}),
                 ("debug", {"nested": {"deep": ["x", "y"]}}),
                 # What the dispatcher really logs: a float measurement
                 # (its decimal.Decimal as float), ints, booleans, None.
                 ("results", {"definition": "0_gfx", "case": "fps", "result": "pass", "measurement": 16.574,
                              "units": "fps", "count": 3, "ok": True, "extra": None, "list": [1.5, None]})]:
    data = {"dt": "2023-01-01T00:00:00.123456", "lvl": lvl, "msg": msg}
    text = as_text(data)
    # libyaml's emitter (lava_common.compat's Dumper) writes `! "1.5"`,
    # PyYAML's own `!!float "1.5"`: both.
    for dumper in (yaml.CDumper, yaml.Dumper):
        line = yaml.dump(data, Dumper=dumper, default_flow_style=True, default_style='"', width=10**6)[:-1]
        log.append({"line": "- " + line, "expected": text, "loaded": data})
        log.append({"line": line, "expected": text, "loaded": data})
# Each case is what PyYAML itself reads back: a case it does not is no reference.
for c in cases:
    assert yaml.safe_load(c["yaml"]) == c["expected"], c["name"]
for c in log:
    assert yaml.safe_load(c["line"]) in (c["loaded"], [c["loaded"]]), c["line"]
    del c["loaded"]
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lava", "yaml_cases.json")
with open(out, "w") as f:
    json.dump({"documents": cases, "log_lines": log}, f, indent=1, ensure_ascii=True)
    f.write("\n")
