"""Reliability: threads, Ctrl-C, process pools, refusals of over-sized requests, and the
batch stream's memory.  (Random inputs through every entry point: tests/test_fuzz.py.)
"""
from __future__ import annotations

import concurrent.futures as cf
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import fuzzing
import pokereval as pe
from pokereval import cli
from pokereval.equity import options, plan
from pokereval.errors import MAX_MESSAGE

ROOT = Path(__file__).resolve().parents[2]

# Spots that go through every engine path: C small exact, kernel exact, Monte Carlo
# (board and stud), ranges; Monte Carlo with a seed is reproducible on any thread count.
SPOTS = [
    ("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], "7c8d9h", "", {}),
    ("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], "", "", {"exact": True}),
    ("stud-hilo", ["AhKd2c3s", "3c4d5h6s"], "", "", {"exact": True}),
    ("stud-hilo", ["AhAd2c", "KsKdQh"], "", "9h", {"samples": 40_000, "seed": 7}),
    ("holdem", ["AhKh", "QsQd", "7c7d"], "", "", {"samples": 30_000, "seed": 11, "threads": 2}),
    ("omaha", ["AA**", "KsKdQhJh"], "2c3c4c", "", {"samples": 20_000, "seed": 3}),
    ("razz", ["Ah2c3d", "4s5s6h"], "", "", {"stderr": 0.01, "seed": 5}),
]
LONG_EXACT = ("stud", ["AhKd2c", "3c4d5h"], "", "", {"exact": True})  # ~1 minute of work
LONG_MC = ("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], "", "", {"samples": 10 ** 9, "seed": 1})


def answer(spec) -> dict:
    game, hands, board, dead, options = spec
    d = pe.equity(game, hands, board, dead, **options).to_dict()
    del d["elapsed"]
    return d


@pytest.fixture(scope="module")
def serial():
    return [answer(s) for s in SPOTS]


def _interrupt_after(calls: int):
    """A progress callback that raises KeyboardInterrupt (Ctrl-C) on its ``calls``-th call."""
    seen = []

    def progress(partial):
        seen.append(partial)
        if len(seen) >= calls:
            raise KeyboardInterrupt
    return progress


def check_partial(result, game: str, nplayers: int) -> None:
    assert result.partial
    fuzzing.check_result(result, nplayers, game)


# ---------------------------------------------------------------------------
# Threads
# ---------------------------------------------------------------------------

def test_eight_threads_give_the_serial_answers(serial):
    jobs = [i for i in range(len(SPOTS)) for _ in range(3)]
    with cf.ThreadPoolExecutor(max_workers=8) as pool:
        futures = [(i, pool.submit(answer, SPOTS[i])) for i in jobs]
        for i, f in futures:
            assert f.result(timeout=600) == serial[i], SPOTS[i]  # a deadlock times out


# ---------------------------------------------------------------------------
# Ctrl-C
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("spec", [LONG_EXACT, LONG_MC], ids=["exact", "monte-carlo"])
def test_interrupt_from_progress_then_next_call_is_right(spec, serial):
    game, hands, board, dead, options = spec
    result = pe.equity(game, hands, board, dead, progress=_interrupt_after(2), **options)
    check_partial(result, game, len(hands))
    assert 0 < result.samples
    assert [answer(s) for s in SPOTS] == serial


@pytest.mark.parametrize("spec", [LONG_EXACT, LONG_MC], ids=["exact", "monte-carlo"])
def test_interrupt_by_signal_then_next_call_is_right(spec, serial):
    """A real SIGINT during the run: the partial result comes back (or, if the signal
    lands outside the kernel loop, KeyboardInterrupt), and the process stays usable."""
    game, hands, board, dead, options = spec
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.8, os.kill, (os.getpid(), signal.SIGINT))
    try:
        timer.start()
        try:
            with fuzzing.time_limit(120):
                result = pe.equity(game, hands, board, dead, **options)
        except KeyboardInterrupt:
            pass
        else:
            check_partial(result, game, len(hands))
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert [answer(s) for s in SPOTS] == serial


#: Ranged spots whose kernels box their result when the signal lands (issue 29: a
#: SystemError chained to the KeyboardInterrupt came out of the kernel call).
RANGED_CLI = [["omaha-hilo", "AA**", "KK**", "15%"], ["omaha-hilo", "AA**", "KhKd9c8c"],
              ["holdem", "AKs", "QQ"]]


@pytest.mark.parametrize("spot", RANGED_CLI, ids=lambda s: " ".join(s))
def test_ctrl_c_in_the_cli_with_ranges_prints_the_partial_table(spot):
    """A real SIGINT to a real ``pokereval`` process sampling ranges: exit 130 and the
    partial table, never an internal error."""
    proc = subprocess.Popen([sys.executable, "-m", "pokereval", "equity", *spot,
                             "--samples", "1e10", "--seed", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COLUMNS": "120"})
    with proc:
        try:
            out, err = proc.communicate(timeout=4)  # the kernels load and start sampling
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=60)
    assert "internal error" not in err, err
    assert proc.returncode == 130, (proc.returncode, err)
    assert "PARTIAL" in out and "interrupted" in err
    assert out.count("\n") > len(spot), out  # a row per hand: the figures came back


def _in_worker(index: int, interrupt: bool) -> dict:
    """Run in a pool process: optionally a run stopped by Ctrl-C first, then spot ``index``."""
    if interrupt:
        game, hands, board, dead, options = LONG_MC
        partial = pe.equity(game, hands, board, dead, progress=_interrupt_after(2), **options)
        assert partial.partial and 0 < partial.samples
    return answer(SPOTS[index])


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_process_pool_with_interrupts(method, serial):
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {method} start method here")
    context = multiprocessing.get_context(method)
    jobs = [(i, i % 2 == 0) for i in range(len(SPOTS))]
    with cf.ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        futures = [(i, pool.submit(_in_worker, i, stop)) for i, stop in jobs]
        for i, f in futures:
            assert f.result(timeout=600) == serial[i], SPOTS[i]


# ---------------------------------------------------------------------------
# Over-sized requests are refused up front, naming the limit
# ---------------------------------------------------------------------------

REFUSALS = [
    ("exact stud 3-way third street", lambda: pe.equity(
        "stud-hilo", ["AhKd2c", "3c4d5h", "6s7s8s"], exact=True), "limit of 1 hour"),
    ("exact 10 random Hold'em hands", lambda: pe.equity("holdem", ["**"] * 10, exact=True),
     "1 hour"),
    ("too many samples", lambda: pe.equity("holdem", ["AhKh", "QsQd"], samples=10 ** 13),
     f"at most {options.MAX_SAMPLES:,}"),
    ("a million players", lambda: pe.equity("holdem", ["AhKh"] * 10 ** 6), "at most 10 players"),
    ("a million stud players", lambda: pe.equity("stud", iter(["AhKhQh"] * 10 ** 6)),
     "at most 8 players"),
    ("a megabyte hand", lambda: pe.equity("holdem", ["AhKh", "Qs" * 10 ** 6]), "duplicate card Qs"),
    ("a huge card list", lambda: pe.equity("holdem", ["AhKh", [0] * 10 ** 6]), "duplicate card 2c"),
    ("a megabyte game name", lambda: pe.equity("x" * 10 ** 6, ["AhKh", "QsQd"]), "unknown game"),
    ("a megabyte board", lambda: pe.evaluate("holdem", "AhKh", "2c" + " " * 10 ** 6 + "3c"),
     "board"),
    ("a newline hand", lambda: pe.evaluate("omaha-hilo", "\n", "2c3c4c"), "\\n"),
    ("control characters", lambda: pe.equity("holdem", ["Ah\x1b[2J", "QsQd"]), "\\x1b"),
    ("a line separator", lambda: pe.equity("razz\u2028x", ["AhKh", "QsQd"]), "\\u2028"),
]


@pytest.mark.parametrize("make, names", [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_oversized_or_hostile_requests_are_refused_in_one_line(make, names):
    with fuzzing.time_limit(60), pytest.raises(pe.PokerEvalError) as info:
        make()
    message = str(info.value)
    fuzzing.assert_one_line(message)
    assert len(message) <= MAX_MESSAGE + 60
    assert names in message


def test_error_messages_are_one_line_whatever_they_quote():
    for text in ("a\nb", "a\rb", "\x00", "\u2028\u2029", "\x85", "\udcff", "\t", "ok"):
        message = str(pe.HandError(f"bad {text!r} and {text!s}"))
        fuzzing.assert_one_line(message)
    long = str(pe.CardError("x" * 10 * MAX_MESSAGE))
    assert len(long) <= MAX_MESSAGE + 60 and "characters cut" in long


def test_exact_limit_is_an_estimate_above_the_auto_choice():
    assert plan.MAX_EXACT_SECONDS > plan.AUTO_EXACT_SECONDS


# ---------------------------------------------------------------------------
# The batch stream: bad lines anywhere, memory flat in the input size
# ---------------------------------------------------------------------------

GOOD_LINE = json.dumps({"game": "holdem", "hands": ["AhKh", "QsQd"], "board": "2c3c4c5d"})
BAD_LINES = [
    b"{", b"[]", b'{"game": "holdem"}', b'{"game": "holdem", "hands": ["Zz", "QsQd"]}',
    b"\xff\xfe not utf-8", b"[" * 100_000, b'{"game": "holdem", "hands": ["AhKh", "QsQd"], "id": '
    + b"[" * 3000 + b"]" * 3000 + b"}", b"x" * (cli.MAX_LINE_BYTES + 10), b"\x00", b"   ",
]


def write_stream(path: Path, lines: int) -> int:
    """``lines`` lines, a bad line of every kind spread through (the over-long one
    once, near the end); returns the non-blank count."""
    answered = 0
    with open(path, "wb") as f:
        for i in range(lines):
            line = BAD_LINES[i // 7 % len(BAD_LINES)] if i % 7 == 3 else GOOD_LINE.encode()
            if len(line) > cli.MAX_LINE_BYTES and i < lines - 100:
                line = b"{}"
            f.write(line + b"\n")
            answered += bool(line.strip())
    return answered


_MEASURE = ("import resource, sys; from pokereval.cli import main; rc = main(['batch', sys.argv[1]]); "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, rc, file=sys.stderr)")


def run_batch(path: Path) -> tuple[int, list[dict]]:
    """Peak RSS (KiB) of a fresh process answering ``path``, and its replies."""
    proc = subprocess.run([sys.executable, "-c", _MEASURE, str(path)], capture_output=True,
                          cwd=ROOT, timeout=900, env={**os.environ, "PYTHONPATH": str(ROOT)})
    peak, rc = proc.stderr.decode().split()[-2:]
    assert rc == "0", proc.stderr[-2000:]
    return int(peak), [json.loads(line) for line in proc.stdout.splitlines()]


def test_batch_survives_bad_lines_in_flat_memory(tmp_path):
    peaks = {}
    for lines in (2_000, 20_000):
        path = tmp_path / f"in{lines}.ndjson"
        answered = write_stream(path, lines)
        peaks[lines], replies = run_batch(path)
        assert len(replies) == answered
        assert [r["line"] for r in replies] == sorted(r["line"] for r in replies)
        errors = [r["error"] for r in replies if "error" in r]
        assert len(errors) == sum(1 for i in range(lines)
                                  if i % 7 == 3 and BAD_LINES[i // 7 % len(BAD_LINES)].strip())
        assert any("longer than" in e for e in errors)
        for e in errors:
            fuzzing.assert_one_line(e)
            assert not e.startswith(("internal error", "bad request")), e
        assert all(abs(sum(p["equity"] for p in r["players"]) - 1) < 1e-9
                   for r in replies if "error" not in r)
    # ten times the input, the same memory (a leak of 1 KiB a line would add ~18 MiB)
    assert peaks[20_000] - peaks[2_000] < 8 * 1024, peaks


def test_batch_answers_stay_one_line_whatever_they_echo():
    """U+2028, U+2029 and U+0085 break lines for many readers: escaped in the output."""
    lines = [json.dumps({"game": "holdem", "hands": ["AhKh", "QsQd"], "board": "2c3c4c5d9s",
                         "id": f"a{ch}b"}, ensure_ascii=False) for ch in "\u2028\u2029\x85"]
    code, out, err = fuzzing.run_cli(["batch"], stdin="\n".join(lines) + "\n")
    assert code == 0, err
    replies = [json.loads(line) for line in out.splitlines()]
    assert [r["id"] for r in replies] == [f"a{ch}b" for ch in "\u2028\u2029\x85"]
