"""The soak test of ``pokereval serve`` (benchmarks/web_soak.py, issue 26 goal 4), short:
4 clients for 10 s of mixed valid and invalid requests from their own loopback
addresses; every answer checked (valid ones against the serial engine, invalid ones
a one-line 4xx), no 5xx, the server still answering, its RSS not growing.  The full
run (20 clients, 10 minutes) is ``python benchmarks/web_soak.py``; its figures are in
benchmarks/README.md."""
from __future__ import annotations

import importlib.util
import io
import json
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "web_soak.py"


def test_short_soak(tmp_path):
    spec = importlib.util.spec_from_file_location("web_soak", SCRIPT)
    soak = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(soak)
    out = io.StringIO()
    status = soak.main(["--clients", "4", "--seconds", "10", "--json", str(tmp_path / "r.json")], out)
    report = json.loads((tmp_path / "r.json").read_text())
    assert status == 0, out.getvalue()
    assert report["failures"] == {} and report["5xx"] == 0 and report["server_alive"]
    assert report["requests"] >= 40
    valid = sum(n for k, n in report["kinds"].items() if k.startswith("valid"))
    invalid = sum(n for k, n in report["kinds"].items() if k.startswith("invalid"))
    assert valid and invalid, report["kinds"]
    assert report["rss_kib"]["max_over_start"] < 0.5, report["rss_kib"]
