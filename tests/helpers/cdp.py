"""A headless Chromium driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``: JSON messages
separated by NUL bytes on file descriptors 3 and 4), so tests can press real keys, reload a page and catch a
download without a websocket library."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def browser_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


class Browser:
    """One headless Chromium with one page; ``call`` sends a command to the page and returns its result."""

    def __init__(self, profile: Path, downloads: Path) -> None:
        path = browser_path()
        if path is None:
            raise RuntimeError("no Chromium")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # Above fd 9, so that putting one end on fd 3 or 4 cannot overwrite the other.
        to_browser_r, from_browser_w = (_high(fd) for fd in (to_browser_r, from_browser_w))
        # The browser reads commands on fd 3 and writes replies on fd 4: a small Python step puts the pipes
        # there and becomes the browser.
        self._proc = subprocess.Popen(
            [
                sys.executable, "-c", _WIRE, str(to_browser_r), str(from_browser_w),
                path, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-sync", "--disable-background-networking", "--disable-component-update",
                "--remote-debugging-pipe", f"--user-data-dir={profile}", "about:blank",
            ],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(to_browser_r, from_browser_w),
        )  # fmt: skip
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.send("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads),
                                                  "eventsEnabled": True})  # fmt: skip
        self.call("Page.enable")
        self.call("Runtime.enable")

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> Any:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def call(self, method: str, params: dict[str, Any] | None = None) -> Any:
        return self.send(method, params, self.session)

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(str(result["exceptionDetails"]))
        return result["result"].get("value")

    def open(self, url: str) -> None:
        self.call("Page.navigate", {"url": url})
        self.wait_for("document.readyState === 'complete' && !!document.getElementById('card')")

    def reload(self) -> None:
        self.call("Page.reload")
        time.sleep(0.3)
        self.wait_for("document.readyState === 'complete' && !!document.getElementById('card')")

    def press(self, key: str) -> None:
        """A real key press (keyDown, then keyUp) as the keyboard sends it."""
        codes = {"ArrowLeft": 37, "ArrowRight": 39, "Enter": 13}
        params: dict[str, Any] = {"key": key}
        if key in codes:
            params.update(code=key, windowsVirtualKeyCode=codes[key])
        else:
            params.update(text=key, code=f"Key{key.upper()}", windowsVirtualKeyCode=ord(key.upper()))
        self.call("Input.dispatchKeyEvent", {"type": "keyDown", **params})
        self.call("Input.dispatchKeyEvent", {"type": "keyUp", **{k: v for k, v in params.items() if k != "text"}})

    def phone(self, width: int = 390, height: int = 844) -> None:
        """Show pages as a phone of ``width`` × ``height`` CSS pixels would, touch included."""
        self.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 3, "mobile": True},
        )
        self.call("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})

    def tap(self, selector: str) -> None:
        """A finger's tap (touch start, then end) on the middle of the first element ``selector`` matches."""
        box = self.evaluate(
            f"(() => {{ const b = document.querySelector({json.dumps(selector)}).getBoundingClientRect(); "
            "return [b.left + b.width / 2, b.top + b.height / 2]; })()"
        )
        point = {"x": box[0], "y": box[1]}
        self.call("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
        self.call("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    def wait_for(self, expression: str, timeout: float = 20.0) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                if self.evaluate(expression):
                    return
            except RuntimeError:
                pass  # the page is navigating
            time.sleep(0.05)
        raise TimeoutError(expression)

    def _read(self) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            chunk = os.read(self._from_browser, 65536)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        reply: dict[str, Any] = json.loads(message)
        return reply

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, OSError):
            self.send("Browser.close")
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
        os.close(self._to_browser)
        os.close(self._from_browser)


_WIRE = (
    "import os, sys; os.dup2(int(sys.argv[1]), 3); os.dup2(int(sys.argv[2]), 4); os.execv(sys.argv[3], sys.argv[3:])"
)


def _high(fd: int) -> int:
    """A copy of ``fd`` numbered 10 or more; ``fd`` is closed."""
    high = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return high
