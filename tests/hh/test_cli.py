"""``pokereval hh report`` and ``pokereval hh show``."""
from __future__ import annotations

import io
import json
from pathlib import Path

from pokereval.cli import main

DATA = Path(__file__).resolve().parents[1] / "data" / "pokerstars_hh"
SMALL = [str(p) for p in sorted(DATA.glob("*.txt")) if p.stat().st_size < 30_000]


def _run(*argv):
    out, err = io.StringIO(), io.StringIO()
    import sys
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = main(list(argv))
    finally:
        sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()


def test_report_json():
    code, out, err = _run("hh", "report", *SMALL, "--json", "--samples", "2000")
    assert code == 0
    data = json.loads(out)
    assert data["refused_count"] == 1 and "hand cancelled" in err
    assert data["hands"] == sum(r["hands"] for r in data["rows"]) == 59
    assert sum(r["replay"]["differs"] for r in data["rows"]) == 0


def test_report_table_for_a_player_and_game():
    path = str(DATA / "tour-Flop-PLO8-9max-USD-STT-5.00-200505.hero.quartered.txt")
    code, out, _ = _run("hh", "report", path, "--player", "Hero", "--game", "omaha8")
    assert code == 0 and "omaha-hilo" in out and "Hero" in out


def test_show_prints_the_all_in():
    path = str(DATA / "tour-Flop-PLO8-9max-USD-STT-5.00-200505.hero.quartered.txt")
    code, out, _ = _run("hh", "show", path, "1676150046")
    assert code == 0
    assert "replay: agrees" in out and "all-in on the turn (exact, 36 run-outs)" in out
    assert out.count("equity ") == 3


def test_show_unknown_hand_is_a_usage_error():
    code, _, err = _run("hh", "show", SMALL[0], "12345")
    assert code == 2 and "no hand 12345" in err


def test_malformed_file_exits_0_with_the_refused_count(tmp_path):
    good = (DATA / "cash-Flop-5-Card-PLO8-6max-USD-2.00-4.00-201304.txt").read_bytes()
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"junk\n\n" + good[:300] + b"\n\n" + good + b"\n\n\xff\xfe\xfa\n")
    code, out, err = _run("hh", "report", str(bad), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["refused_count"] == 3 and data["hands"] == 1
    assert len([line for line in err.splitlines() if line.startswith("refused: ")]) == 3
