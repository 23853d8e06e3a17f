# SPDX-License-Identifier: MIT
"""An Xvfb server on a free display for the length of a `with` block.

Xvfb picks the display number itself (`-displayfd`: it binds the first
free one and writes its number to the descriptor once it accepts
connections), so two tests, or a developer's own X server, never race
for the same number; the server is stopped on the way out, whatever
happened inside the block."""

import os
import select
import shutil
import signal
import subprocess
import time


class XvfbUnavailable(Exception):
    """Xvfb is not installed or did not come up: the reason, for a SKIP line."""


class XvfbDisplay:
    # Not smaller: gfxrecon-replay 0.9.18 replaying a 160x120 vkcube capture
    # never ends on a 320x240 screen (it does on 400x300 and larger).
    def __init__(self, size="640x480x24", timeout_s=15):
        self.size = size
        self.timeout_s = timeout_s
        self.proc = None
        self.display = None

    def __enter__(self):
        xvfb = shutil.which("Xvfb")
        if not xvfb:
            raise XvfbUnavailable("Xvfb is not installed (Debian package xvfb, scripts/install-deps.sh)")
        r, w = os.pipe()
        try:
            self.proc = subprocess.Popen(
                [xvfb, "-displayfd", str(w), "-screen", "0", self.size, "-nolisten", "tcp", "-noreset"],
                pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        finally:
            os.close(w)
        number = b""
        deadline = time.monotonic() + self.timeout_s
        try:
            while not number.endswith(b"\n"):
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([r], [], [], left)[0]:
                    break
                chunk = os.read(r, 16)
                if not chunk:  # Xvfb exited
                    break
                number += chunk
        finally:
            os.close(r)
        if not number.strip().isdigit():
            err = self._stop()
            raise XvfbUnavailable(f"Xvfb did not start: {err.strip()[-300:] or 'no display number'}")
        self.display = ":" + number.strip().decode()
        return self

    def _stop(self):
        """Stops the server (SIGTERM, then SIGKILL); returns its stderr."""
        if self.proc is None:
            return ""
        err = ""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                _, err_b = self.proc.communicate(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                _, err_b = self.proc.communicate()
        else:
            _, err_b = self.proc.communicate()
        err = (err_b or b"").decode(errors="replace")
        self.proc = None
        return err

    def __exit__(self, *exc):
        self._stop()
        return False
