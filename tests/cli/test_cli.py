"""The ``pokereval`` command line, driven through ``main(argv)`` (and a few subprocesses).

Numbers are never hard-coded: the CLI's output is checked against ``pokereval``'s
own API on the same spot.
"""
from __future__ import annotations

import importlib
import io
import json
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import pokereval as pe
import pokereval.api
from pokereval import cli, protocol
from pokereval.cli import main

ROOT = Path(__file__).resolve().parents[2]
SPOT = ("omaha-hilo", ["AcAs3d4h", "KhKcJdTd"], "7c8d9h")


# the engine as it is, taken before any test stands in for it (the CLI looks up
# ``pokereval.api.equity`` when a command runs: the seam the tests below patch)
api_equity = pokereval.api.equity


@pytest.fixture(autouse=True)
def _plain_output(monkeypatch):
    """No colour and no terminal width games, whatever the test runner's environment."""
    monkeypatch.setenv("NO_COLOR", "1")
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS", "POKEREVAL_DEBUG"):
        monkeypatch.delenv(name, raising=False)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "\x1b[" not in out and "\x1b[" not in err, "colour codes in captured output"
    return code, out, err


def strip_elapsed(d: dict) -> dict:
    return {k: v for k, v in d.items() if k not in ("elapsed", "line", "id")}


# ---------------------------------------------------------------------------
# help, usage
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("command", [None, "equity", "eval", "games", "batch"])
def test_help(capsys, command):
    argv = ["--help"] if command is None else [command, "--help"]
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == ""
    assert out.startswith(f"usage: pokereval{'' if command is None else ' ' + command}")
    if command == "equity":
        for option in ("--board", "--dead", "--exact", "--samples", "--stderr", "--seed",
                       "--threads", "--json"):
            assert option in out


def test_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and pe.__version__ in out


def test_no_command_is_a_usage_error(capsys):
    code, out, err = run(capsys, )
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "command is required" in err


def test_script_entry_point_resolves():
    """pyproject's [project.scripts] points at entry (main, then the exit)."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, _, name = scripts["pokereval"].partition(":")
    assert getattr(importlib.import_module(module), name) is cli.entry


@pytest.mark.parametrize("argv,code", [
    (["equity", "holdem", "AhKh", "QsQd", "--samples", "20000", "--seed", "1"], 0),  # Numba loaded
    (["equity", "holdem", "AhKh", "QsQd", "--board", "2c3c4c"], 0),  # C only
    (["equity", "holdem", "Ah", "QsQd"], 2)])
def test_entry_exits_with_mains_code_and_all_output(argv, code):
    """The quick exit after a Numba run still flushes everything main wrote to a pipe."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # stdout buffered
    proc = subprocess.run([sys.executable, "-m", "pokereval", *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == code
    if code == 0:
        assert proc.stdout.rstrip().splitlines()[-1].startswith(("sampled", "exact"))
    else:
        assert proc.stderr.startswith("pokereval: error:")


def test_entry_flushes_what_a_command_left_buffered():
    code = ("import sys, numba; from pokereval import cli\n"
            "cli.main = lambda: sys.stdout.write('left in the buffer') and 3\n"
            "cli.entry()")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert (proc.returncode, proc.stdout) == (3, "left in the buffer")


# ---------------------------------------------------------------------------
# games
# ---------------------------------------------------------------------------


def test_games_table(capsys):
    code, out, err = run(capsys, "games")
    assert code == 0 and err == ""
    rows = {line.split()[0]: line for line in out.splitlines() if line.strip()}
    for game in pe.games():
        row = rows[game.name]
        assert game.title in row
        assert ("split hi/lo" in row) == game.split
        for alias in game.aliases:
            assert alias in row
    assert " 4 " in rows["omaha-hilo"] and " 5 " in rows["omaha5"]
    assert "5*" in rows["courchevel"] and "low only" in rows["razz"]


def test_games_json(capsys):
    code, out, _ = run(capsys, "games", "--json")
    assert code == 0
    data = json.loads(out)
    assert [g["name"] for g in data] == [g.name for g in pe.games()]
    by_name = {g["name"]: g for g in data}
    assert by_name["omaha-hilo"]["split"] is True and by_name["omaha"]["split"] is False
    assert "plo8" in by_name["omaha-hilo"]["aliases"]
    assert by_name["courchevel-hilo"]["min_board"] == 1


# ---------------------------------------------------------------------------
# eval
# ---------------------------------------------------------------------------


def test_eval_full_house(capsys):
    code, out, err = run(capsys, "eval", "holdem", "KhKd", "--board", "Ks5d5c2h9s")
    assert code == 0 and err == ""
    assert "Full house, kings full of fives" in out
    assert "KhKdKs5d5c" in out
    assert "Low" not in out  # no low in hold'em


def test_eval_high_and_low(capsys):
    code, out, _ = run(capsys, "eval", "omaha-hilo", "AhKd2c3s", "--board", "Ks5d8h7cKh")
    assert code == 0
    e = pe.evaluate("omaha-hilo", "AhKd2c3s", "Ks5d8h7cKh")
    high = next(line for line in out.splitlines() if line.startswith("High"))
    low = next(line for line in out.splitlines() if line.startswith("Low"))
    assert str(e.high) in high and e.high.cards in high
    assert "8-7-5-2-A low" in low and e.low.cards in low


def test_eval_no_qualifying_low(capsys):
    code, out, _ = run(capsys, "eval", "o8", "AhKdQc9s", "-b", "Ks5d8h7cKh")
    assert code == 0
    assert "no qualifying low" in out


def test_eval_razz(capsys):
    code, out, _ = run(capsys, "eval", "razz", "9s9h7d4c2s3h3d")
    assert code == 0
    assert str(pe.evaluate("razz", "9s9h7d4c2s3h3d").low) in out
    assert "High" not in out


def test_eval_json(capsys):
    code, out, _ = run(capsys, "eval", "omaha-hilo", "AhKd2c3s", "--board", "Ks5d8h7cKh", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["game"] == "omaha-hilo"
    assert data["high"]["name"] == "Three of a kind, kings"
    assert data["low"]["name"] == "8-7-5-2-A low" and len(data["low"]["cards"]) == 10


# ---------------------------------------------------------------------------
# equity
# ---------------------------------------------------------------------------


def table_rows(out: str, hands) -> list[list[str]]:
    return [line.split() for line in out.splitlines() if line.split()[:1] and line.split()[0] in hands]


def header_text(out: str) -> str:
    """The (one- or two-line) table header: the lines above the rule."""
    lines = out.splitlines()
    rule = next(i for i, line in enumerate(lines) if line.startswith("─"))
    return " ".join(lines[1:rule])


def cell(x: float) -> str:
    return f"{100 * x:.2f}"


def test_equity_table_exact(capsys):
    game, hands, board = SPOT
    code, out, err = run(capsys, "equity", game, *hands, "--board", board)
    assert code == 0 and err == ""
    r = api_equity(game, hands, board)
    lines = out.splitlines()
    assert lines[0].startswith("Omaha Hi/Lo") and board in lines[0]
    assert header_text(out).split() == ["High", "High", "Low", "Low", "Hand", "Equity", "win",
                                        "tie", "win", "tie", "Scoop", "3/4", "Quartered"]
    rows = table_rows(out, hands)
    assert [row[0] for row in rows] == [p.hand for p in r.players] == hands  # input order
    for row, p in zip(rows, r.players):
        assert row[1:] == [cell(x) for x in (p.equity, p.high_win, p.high_tie, p.low_win,
                                             p.low_tie, p.scoop, p.three_quarters, p.quartered)]
    assert "±" not in out
    assert f"No low qualifies on {cell(r.players[0].no_low)}% of run-outs" in out
    assert lines[-1].startswith(f"exact: {r.samples:,} run-outs walked")


def test_equity_table_fits_80_columns(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, "equity", "omaha5-hilo", "AcAs3d4h5h", "KhKcJdTdTs", "9s8s7h6h2h",
                       "--samples", "10000", "--seed", "2")
    assert code == 0
    table = out.splitlines()[:6]
    assert max(map(len, table)) <= 80 and "…" not in out


def test_equity_table_high_only_has_no_low_columns(capsys):
    code, out, _ = run(capsys, "equity", "omaha", "AcAs3d4h", "KhKcJdTd", "--board", "7c8d9h")
    assert code == 0
    assert header_text(out).split() == ["Hand", "Equity", "Win", "Tie"]
    assert "low" not in out.lower()


def test_equity_table_razz_reports_the_low(capsys):
    code, out, _ = run(capsys, "equity", "razz", "As2s3s4s5s", "KhKdQcJh9h", "--dead", "6h")
    assert code == 0
    r = api_equity("razz", ["As2s3s4s5s", "KhKdQcJh9h"], dead="6h")
    for row, p in zip(table_rows(out, ["As2s3s4s5s", "KhKdQcJh9h"]), r.players):
        assert row[1:] == [cell(p.equity), cell(p.low_win), cell(p.low_tie)]


def test_equity_table_sampled(capsys):
    args = ("holdem", ["AhAd", "KsKd"])
    code, out, _ = run(capsys, "equity", *args[0:1], *args[1], "--samples", "20000", "--seed", "7")
    assert code == 0
    r = api_equity(*args, samples=20000, seed=7)
    assert not r.exact
    for row, p in zip(table_rows(out, args[1]), r.players):
        assert row[1:4] == [cell(p.equity), f"±{100 * p.std_error:.2f}", cell(p.high_win)]
    footer = out.splitlines()[-1]
    assert footer.startswith(f"sampled: {r.samples:,} run-outs, standard error")
    assert "seed 7" in footer


def test_equity_json_matches_api(capsys):
    game, hands, board = SPOT
    code, out, err = run(capsys, "equity", game, *hands, "--board", board, "--json")
    assert code == 0 and err == ""
    data = json.loads(out)  # nothing else on stdout
    expected = json.loads(json.dumps(api_equity(game, hands, board).to_dict()))
    assert strip_elapsed(data) == strip_elapsed(expected)
    assert data["exact"] is True and data["partial"] is False
    assert data["samples"] == expected["samples"] > 0
    assert isinstance(data["elapsed"], float)
    for field in ("hand", "equity", "high_win", "high_tie", "low_win", "low_tie", "scoop",
                  "std_error", "three_quarters", "quartered", "no_low", "outcomes"):
        assert field in data["players"][0]
    assert sum(p["equity"] for p in data["players"]) == pytest.approx(1.0)


def test_equity_json_sampled_is_reproducible(capsys):
    argv = ["equity", "omaha-hilo", "AhAd2c3s", "KsKdQhJh", "--samples", "30000", "--seed", "11",
            "--json"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    data = json.loads(out)
    direct = api_equity("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], samples=30000, seed=11)
    assert data["exact"] is False and data["samples"] == direct.samples
    assert strip_elapsed(data) == strip_elapsed(json.loads(json.dumps(direct.to_dict())))


def test_equity_options_reach_the_engine(capsys, monkeypatch):
    seen = {}

    def fake(*args, **kwargs):
        seen["args"], seen["kwargs"] = args, kwargs
        return api_equity(*SPOT)

    monkeypatch.setattr(pokereval.api, "equity", fake)
    code, _, _ = run(capsys, "equity", "PLO8", "AA**:$ds", "KhKcJdTd", "-b", "7c 8d 9h",
                     "-d", "2h", "--stderr", "0.5%", "--seed", "3", "--threads", "2")
    assert code == 0
    # hand text (even range text) passes through untouched; the game name as given
    assert seen["args"] == ("PLO8", ["AA**:$ds", "KhKcJdTd"], "7c 8d 9h", "2h")
    kw = seen["kwargs"]
    assert kw["stderr"] == pytest.approx(0.005) and kw["seed"] == 3 and kw["threads"] == 2
    assert kw["exact"] is None and kw["samples"] is None
    assert "progress" not in kw  # stderr is not a terminal

    run(capsys, "equity", "holdem", "AhAd", "KsKd", "--exact")
    assert seen["kwargs"]["exact"] is True
    run(capsys, "equity", "holdem", "AhAd", "KsKd", "-n", "1e6")
    assert seen["kwargs"]["samples"] == 1_000_000


class _TTY(io.StringIO):
    def isatty(self):
        return True


def test_progress_only_on_a_terminal_and_never_with_json(capsys, monkeypatch):
    seen = []

    def fake(*args, **kwargs):
        seen.append(kwargs.get("progress"))
        return api_equity(*SPOT)

    monkeypatch.setattr(pokereval.api, "equity", fake)
    monkeypatch.setattr(sys, "stderr", _TTY())
    assert main(["equity", "holdem", "AhAd", "KsKd"]) == 0
    assert main(["equity", "holdem", "AhAd", "KsKd", "--json"]) == 0
    assert isinstance(seen[0], cli.ProgressReporter)
    assert seen[1] is None


class _Partial:
    """What a progress callback receives (duck-typed)."""

    def __init__(self, samples, exact=False, std_error=0.01, fraction_done=None):
        self.samples, self.exact, self.fraction_done = samples, exact, fraction_done
        self.players = [type("P", (), {"std_error": std_error})() for _ in range(2)]


def test_progress_reporter():
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=100)
    clock = iter([0.0, 0.1, 1.0, 1.5, 2.0, 2.5]).__next__
    reporter = cli.ProgressReporter(console, samples=1000, clock=clock)
    reporter(_Partial(100))  # at 0.1 s: too early for a bar
    assert reporter.progress is None
    reporter(_Partial(500))  # at 1.0 s: the bar starts
    assert reporter.progress is not None
    assert reporter.fraction(_Partial(500)) == 0.5
    reporter.close()
    assert reporter.progress is None and "sampling" in buffer.getvalue()

    # the engine's own fraction wins; exact runs without one are indeterminate
    plain = cli.ProgressReporter(console, stderr=0.001, delay=0)
    assert plain.fraction(_Partial(10, exact=True, fraction_done=0.25)) == 0.25
    assert plain.fraction(_Partial(10, exact=True)) is None
    assert plain.fraction(_Partial(10, std_error=0.002)) == pytest.approx(0.25)
    plain(_Partial(10, exact=True))
    plain.close()


def test_interrupted_run_prints_partial_result(capsys, monkeypatch):
    """Ctrl-C in the middle of a run: the figures so far, marked partial, exit 130."""

    def interrupt(*args, **kwargs):
        calls = []

        def progress(partial):
            calls.append(partial)
            raise KeyboardInterrupt

        kwargs["progress"] = progress
        return api_equity(*args, **kwargs)

    monkeypatch.setattr(pokereval.api, "equity", interrupt)
    argv = ["equity", "holdem", "AhAd", "KsKd", "--samples", "5e6", "--seed", "1"]
    code, out, err = run(capsys, *argv)
    assert code == 130
    assert "PARTIAL" in out.splitlines()[0] and out.splitlines()[-1].startswith("PARTIAL")
    assert "partial" in err and "Traceback" not in err

    code, out, err = run(capsys, *argv, "--json")
    assert code == 130
    data = json.loads(out)
    assert data["partial"] is True and 0 < data["samples"] < 5_000_000


def test_engine_reraising_ctrl_c(capsys, monkeypatch):
    def boom(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(pokereval.api, "equity", boom)
    code, out, err = run(capsys, "equity", "holdem", "AhAd", "KsKd")
    assert code == 130 and out == "" and err.strip() == "pokereval: interrupted"


def test_json_has_no_nan():
    """A partial result with nothing counted yet still writes valid JSON (null)."""
    text = protocol.dumps({"equity": float("nan"), "x": [float("inf"), 1.0]})
    assert json.loads(text) == {"equity": None, "x": [None, 1.0]}


# ---------------------------------------------------------------------------
# bad input: exit 2, one line on stderr naming the problem, nothing on stdout
# ---------------------------------------------------------------------------

BAD_EQUITY = [
    (["omaha-hilo", "AcAsZz4h", "KhKcJdTd"], "unknown card 'Zz'"),
    (["holdem", "AhKd", "AhQc"], "duplicate card Ah in player 1 and player 2"),
    (["holdem", "AhKd", "QcJc", "--board", "Ah7c8d"], "duplicate card Ah"),
    (["holdem", "AhKd", "QcJc", "--dead", "Qc"], "duplicate card Qc"),
    (["omaha-hilo", "AcAs3d", "KhKcJdTd"], "omaha-hilo needs 4 hole cards but player 1 has 3"),
    (["courchevel-hilo", "AcAs3d4h5h", "KhKcJdTdTs"], "omaha5"),
    (["omaha9", "AcAs3d4h", "KhKcJdTd"], "unknown game 'omaha9'"),
    (["holdem", "AhKd", "QcJc", "--board", "2c3c4c5c6c7c"], "board"),
    (["holdem", "AhKd"], "at least 2"),
    (["stud", "AhKdQc", "2c3c4c5c"], "same street"),
    (["stud", "AhKdQc", "2c3c4c", "--board", "5d"], "no board"),
    (["holdem", "AhAd", "KsKd", "--samples", "0"], "--samples"),
    (["holdem", "AhAd", "KsKd", "--samples", "lots"], "--samples"),
    (["holdem", "AhAd", "KsKd", "--stderr", "2"], "--stderr"),
    (["holdem", "AhAd", "KsKd", "--stderr", "x"], "--stderr"),
    (["holdem", "AhAd", "KsKd", "--seed", "-1"], "--seed"),
    (["holdem", "AhAd", "KsKd", "--threads", "0"], "--threads"),
    (["holdem", "AhAd", "KsKd", "--exact", "--samples", "10"], "not allowed with"),
    (["holdem", "AhAd", "KsKd", "--frobnicate"], "--frobnicate"),
    (["holdem"], "required: HAND"),
]


@pytest.mark.parametrize("argv, message", BAD_EQUITY, ids=[m for _, m in BAD_EQUITY])
def test_bad_equity_input(capsys, argv, message):
    code, out, err = run(capsys, "equity", *argv)
    assert code == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("pokereval")
    assert message in err
    assert "Traceback" not in err and "usage:" not in err


@pytest.mark.parametrize("argv, message", [
    (["eval", "holdem", "KhZz", "--board", "Ks5d5c2h9s"], "unknown card 'Zz'"),
    (["eval", "omaha", "AhKd2c", "--board", "Ks5d8h7cKh"], "needs 4 hole cards"),
    (["eval", "omaha", "AhKd2c3c", "--board", "Ks5d"], "board"),
    (["eval", "nope", "AhKd"], "unknown game 'nope'"),
    (["eval", "holdem", "KhKd", "--board", "Kh5d5c2h9s"], "duplicate card Kh"),
    (["frobnicate"], "invalid choice"),
    (["games", "extra"], "unrecognized arguments"),
    (["batch", "/nonexistent/requests.jsonl"], "cannot read '/nonexistent/requests.jsonl'"),
])
def test_bad_input_other_commands(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


# ---------------------------------------------------------------------------
# batch
# ---------------------------------------------------------------------------

GOOD = {"game": "omaha-hilo", "hands": ["AcAs3d4h", "KhKcJdTd"], "board": "7c8d9h", "id": "a"}
SAMPLED = {"game": "holdem", "hands": ["AhAd", "KsKd"], "samples": 20000, "seed": 5}
BATCH_LINES = [
    json.dumps(GOOD),
    "",  # blank lines are skipped (but counted)
    "this is not json",
    json.dumps({"game": "holdem", "hands": ["AhZz", "KsKd"]}),
    json.dumps(["not", "an", "object"]),
    json.dumps(SAMPLED),
    json.dumps({"game": "holdem", "hands": "AhAd KsKd"}),
    json.dumps({"game": "holdem", "hands": ["AhAd", "KsKd"], "colour": "red"}),
    json.dumps({"hands": ["AhAd", "KsKd"]}),
    json.dumps({"game": "courchevel", "hands": ["AcAs3d4h5h", "KhKcJdTdTs"]}),
    json.dumps({"game": "holdem", "hands": ["AhAd", "KsKd"], "samples": "many"}),
]


def check_batch_output(out: str):
    replies = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in replies] == [1, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    by_line = {r["line"]: r for r in replies}

    good = by_line[1]
    assert good["id"] == "a" and "error" not in good
    direct = api_equity(GOOD["game"], GOOD["hands"], GOOD["board"])
    assert strip_elapsed(good) == strip_elapsed(json.loads(json.dumps(direct.to_dict())))

    sampled = by_line[6]
    direct = api_equity(SAMPLED["game"], SAMPLED["hands"], samples=20000, seed=5)
    assert strip_elapsed(sampled) == strip_elapsed(json.loads(json.dumps(direct.to_dict())))

    assert by_line[3]["error"].startswith("invalid JSON")
    assert "unknown card 'Zz' in player 1" in by_line[4]["error"]
    assert "JSON object" in by_line[5]["error"]
    assert "'hands'" in by_line[7]["error"]
    assert "unknown field 'colour'" in by_line[8]["error"]
    assert "missing field 'game'" in by_line[9]["error"]
    assert "omaha5" in by_line[10]["error"]
    assert "samples" in by_line[11]["error"]
    for line in (3, 4, 5, 7, 8, 9, 10, 11):
        assert set(by_line[line]) == {"line", "error"}


def test_batch_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(BATCH_LINES) + "\n"))
    code, out, err = run(capsys, "batch")
    assert code == 0 and err == ""
    check_batch_output(out)


def test_batch_file(capsys, tmp_path):
    path = tmp_path / "requests.jsonl"
    path.write_text("\n".join(BATCH_LINES))  # no final newline
    code, out, err = run(capsys, "batch", str(path))
    assert code == 0 and err == ""
    check_batch_output(out)


# ---------------------------------------------------------------------------
# the installed script and python -m
# ---------------------------------------------------------------------------


def _env():
    env = dict(os.environ, NO_COLOR="1")
    env.pop("FORCE_COLOR", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def test_python_dash_m_games():
    proc = subprocess.run([sys.executable, "-m", "pokereval", "games"], capture_output=True,
                          text=True, env=_env(), timeout=120)
    assert proc.returncode == 0 and proc.stderr == ""
    assert "omaha-hilo" in proc.stdout and "\x1b[" not in proc.stdout


def test_python_dash_m_bad_input_exit_code():
    proc = subprocess.run([sys.executable, "-m", "pokereval", "equity", "holdem", "AhZz", "KsKd"],
                          capture_output=True, text=True, env=_env(), timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == "pokereval: error: unknown card 'Zz' in player 1"


def test_installed_script_help():
    script = shutil.which("pokereval") or shutil.which("pokereval", path=str(Path(sys.executable).parent))
    if script is None:
        pytest.skip("the pokereval script is not installed (pip install -e .)")
    proc = subprocess.run([script, "--help"], capture_output=True, text=True, env=_env(), timeout=120)
    assert proc.returncode == 0 and proc.stdout.startswith("usage: pokereval")


def test_batch_streams_line_by_line():
    """One request in, its answer out, before the input ends."""
    # the with-block closes the child's pipes (an unclosed one is a ResourceWarning)
    with subprocess.Popen([sys.executable, "-m", "pokereval", "batch"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=_env()) as proc:
        try:
            for request, check in ((GOOD, lambda r: r["id"] == "a" and r["exact"] is True),
                                   ({"game": "holdem", "hands": ["Zz"]},
                                    lambda r: "unknown card 'Zz'" in r["error"])):
                proc.stdin.write(json.dumps(request) + "\n")
                proc.stdin.flush()
                deadline = time.monotonic() + 120
                ready = []
                while not ready and time.monotonic() < deadline:
                    ready, _, _ = select.select([proc.stdout], [], [], 1.0)
                assert ready, "no answer while the input is still open"
                assert check(json.loads(proc.stdout.readline()))
            proc.stdin.close()
            assert proc.wait(timeout=60) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def test_range_shows_stud_deals(capsys):
    """PPT's stud example: KsJhTd and KsTdJh are two deals of one holding, JhKsTd the first."""
    code, out, _ = run(capsys, "range", "stud", "KsJhTd, KsTdJh, JhKsTd", "--deals", "5", "--json")
    data = json.loads(out)
    assert code == 0 and data["combos"] == 1 and data["deals"] == 2
    assert {(d["down"], d["up"]) for d in data["first_deals"]} == {("JhKs", "Td"), ("TdKs", "Jh")}
    code, out, _ = run(capsys, "range", "stud", "KK*@2, *KK", "--deals", "2")
    assert code == 0 and "292 combos" in out and "876 ordered deals" in out and "Down" in out
    code, _, err = run(capsys, "range", "omaha", "AA", "--deals", "2")
    assert code == 2 and "--deals is for stud games" in err
    code, out, _ = run(capsys, "range", "omaha", "AA", "--json")
    assert "deals" not in json.loads(out)
