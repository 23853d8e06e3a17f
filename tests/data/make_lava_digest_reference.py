#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reference values for data/digest.h and formats/lava_block.h from
Python's hashlib and base64 (independent implementations): writes
tests/data/lava/digest_reference.json. Inputs are stored as hex, so that
reading them does not depend on the base64 code under test."""

import base64
import hashlib
import json
import os
import random

rnd = random.Random(20261203)
inputs = [b"", b"a", b"ab", b"abc", b"abcd", b"The quick brown fox jumps over the lazy dog",
          bytes(range(256)), b"a" * 55, b"a" * 56, b"a" * 63, b"a" * 64, b"a" * 65, b"a" * 119,
          b"<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=x RESULT=pass>\n\x1b[2J\r\n"]
inputs += [bytes(rnd.randrange(256) for _ in range(n)) for n in (1, 2, 3, 56, 57, 58, 113, 114, 1000, 4097)]
cases = []
for data in inputs:
    block = ["<GFXSTAT_RESULTS_BEGIN v1 name=results.json bytes=%d sha256=%s>" % (len(data), hashlib.sha256(data).hexdigest())]
    block += [base64.b64encode(data[i:i + 57]).decode() for i in range(0, len(data), 57)]
    block.append("<GFXSTAT_RESULTS_END v1>")
    cases.append({"hex": data.hex(), "sha256": hashlib.sha256(data).hexdigest(),
                  "base64": base64.b64encode(data).decode(), "block": "\n".join(block) + "\n"})
# A million 'a' (FIPS 180-2's long test vector), not stored: generated.
million = hashlib.sha256(b"a" * 1000000).hexdigest()
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lava", "digest_reference.json")
with open(out, "w") as f:
    json.dump({"cases": cases, "million_a_sha256": million}, f, indent=1)
    f.write("\n")
