"""A real ``pokereval serve`` in a subprocess on a free localhost port, for the web tests."""
from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 60


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``python -m pokereval serve --port PORT ARGS...``; ``url``, ``log()``, ``get``/``post``."""

    def __init__(self, *args: str, prelude: str = "", env: dict | None = None):
        """``prelude``: Python run in the server process first (e.g. installing stand-ins)."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._log = tempfile.TemporaryFile(mode="w+")  # closed by stop()
        self._final_log = ""
        path = os.pathsep.join([str(ROOT), str(ROOT / "tests" / "support"), os.environ.get("PYTHONPATH", "")])
        env = {**os.environ, **(env or {}), "PYTHONPATH": path}
        start = ["-m", "pokereval"]
        if prelude:
            start = ["-c", f"{prelude}\nimport sys\nfrom pokereval.cli import main\nsys.exit(main(sys.argv[1:]))"]
        try:
            self.process = subprocess.Popen(
                [sys.executable, *start, "serve", "--port", str(self.port), *args],
                cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT)
        except BaseException:
            self._log.close()
            raise
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            try:
                self.get("/api/health")
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"pokereval serve did not start:\n{self.log()}")
                time.sleep(0.1)

    def log(self) -> str:
        if self._log.closed:  # stopped: what it wrote before
            return self._final_log
        self._log.seek(0)
        return self._log.read()

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.url + path, timeout=30) as response:
            return json.load(response)

    def post(self, path: str, body: dict, timeout: float = 120) -> tuple[int, dict]:
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as exc:
            return exc.code, json.load(exc)

    def wait_busy(self, busy: int, seconds: float = 120) -> bool:
        """Wait until /api/health reports ``busy`` running computations."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.get("/api/health")["busy"] == busy:
                return True
            time.sleep(0.05)
        return False

    def stop(self) -> None:
        """End the server and close its log file (kept readable through ``log()``)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if not self._log.closed:
            self._final_log = self.log()
            self._log.close()


@contextlib.contextmanager
def serve(*args: str, prelude: str = "", env: dict | None = None):
    server = Server(*args, prelude=prelude, env=env)
    try:
        yield server
    finally:
        server.stop()
