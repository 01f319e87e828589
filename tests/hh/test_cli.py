"""``pokereval hh report`` and ``pokereval hh show``."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

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


def _without_time(data):
    data.pop("elapsed")
    return data


def test_report_csv_and_png(tmp_path):
    pytest.importorskip("matplotlib")
    csv_path, png = tmp_path / "r.csv", tmp_path / "luck.png"
    code, out, _ = _run("hh", "report", *SMALL, "--samples", "2000", "--csv", str(csv_path),
                        "--png", str(png))
    assert code == 0 and "hand histories" in out
    rows = list(csv.DictReader(csv_path.read_text(encoding="utf-8").splitlines()))
    _, js, _ = _run("hh", "report", *SMALL, "--samples", "2000", "--json")
    want = json.loads(js)["rows"]
    assert len(rows) == len(want) and rows[0]["game"] == want[0]["game"]
    assert [int(r["hands"]) for r in rows] == [r["hands"] for r in want]
    assert sum(int(r["agrees"]) for r in rows) == sum(r["replay"]["agrees"] for r in want)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_on_a_dask_cluster_is_the_same_report():
    distributed = pytest.importorskip("distributed")
    files = [str(DATA / "tour-Flop-PLO8-9max-USD-STT-5.00-200505.hero.quartered.txt"), *SMALL]
    _, here, _ = _run("hh", "report", *files, "--samples", "2000", "--json")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        code, there, err = _run("hh", "report", *files, "--samples", "2000", "--json",
                                "--scheduler", cluster.scheduler_address)
    assert code == 0, err
    here, there = _without_time(json.loads(here)), _without_time(json.loads(there))
    assert sum(r["priced"] for r in here["rows"]) >= 1
    assert there == here


def test_report_to_an_unreachable_scheduler_is_one_line():
    pytest.importorskip("distributed")
    code, _, err = _run("hh", "report", SMALL[0], "--scheduler", "tcp://127.0.0.1:9",
                        "--timeout", "1")
    assert code != 0 and "Dask scheduler" in err and len(err.strip().splitlines()) == 1


def test_progress_bar_counts_the_hands(tmp_path):
    import pokereval as pe
    from rich.console import Console

    from pokereval.cli.hh_files import HandProgress

    screen = io.StringIO()
    bar = HandProgress(Console(file=screen, force_terminal=True, width=100), SMALL[:1])
    report = pe.hand_report(pe.read_hands(SMALL[0]), on_hand=bar, samples=2000)
    bar.close()
    assert bar.hands == report.hands + report.refused_count > 0
    assert "hands" in screen.getvalue()
    _, _, err = _run("hh", "report", SMALL[0])  # not a terminal: no bar
    assert "\x1b[" not in err


def test_report_in_two_local_processes_is_the_same_report():
    path = str(DATA / "tour-Flop-PLO8-9max-USD-STT-5.00-200505.hero.quartered.txt")
    _, here, _ = _run("hh", "report", path, "--json")
    code, there, err = _run("hh", "report", path, "--json", "--workers", "2")
    assert code == 0, err
    assert _without_time(json.loads(there)) == _without_time(json.loads(here))
