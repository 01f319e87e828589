"""Parallel kernels from several Python threads: every call takes the one kernel lock
(pokereval.equity.backends.numba.parallel), so a distribution in one thread and an
equity run in another give the serial answers instead of aborting the process
(Numba's workqueue layer: "Concurrent access has been detected", SIGABRT).

The threads run in a child process, so an abort fails this test instead of killing
pytest.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pokereval

#: the tree whose pokereval this test imported (the child imports the same one)
ROOT = Path(pokereval.__file__).resolve().parents[1]

CHILD = textwrap.dedent("""
    import sys
    import threading

    import pokereval as pe

    ROUNDS = 3

    def distribution():  # the scatter kernel, every thread (a preflop spot's flops)
        r = pe.equity_distribution("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"])
        return [(p.equity, p.curve) for p in r.players]

    def sampled():  # the ranged Monte Carlo kernel
        r = pe.equity("omaha-hilo", ["AhAd2c3s", "KK**"], samples=200_000, seed=1)
        return [(p.equity, p.outcomes.tolist()) for p in r.players], r.samples

    serial = {"distribution": distribution(), "sampled": sampled()}
    start = threading.Barrier(2)
    answers = {"distribution": [], "sampled": []}

    def worker(name, call):
        for _ in range(ROUNDS):
            start.wait()  # both threads enter their kernels together
            answers[name].append(call())

    threads = [threading.Thread(target=worker, args=("distribution", distribution)),
               threading.Thread(target=worker, args=("sampled", sampled))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for name, got in answers.items():
        assert len(got) == ROUNDS, (name, len(got))
        assert all(a == serial[name] for a in got), name
    print("ok")
""")


def test_distribution_and_equity_in_two_threads_give_the_serial_answers():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])}
    child = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, env=env, capture_output=True,
                           text=True, timeout=600)
    assert child.returncode == 0 and child.stdout.strip() == "ok", (
        f"exit status {child.returncode}: {child.stderr[-2000:]}")


MIXED = textwrap.dedent("""
    import concurrent.futures as cf
    import json

    import numpy as np

    import pokereval as pe
    from pokereval import protocol

    HOLES = np.array([pe.parse_cards("AhKd2c3s"), pe.parse_cards("QhQd4c3s")], dtype=np.uint8)
    BOARDS = np.array([pe.parse_cards("Ks5d8h7cKh")] * 2, dtype=np.uint8)

    def plain(result):
        d = result.to_dict() if hasattr(result, "to_dict") else result
        if isinstance(d, dict):
            d.pop("elapsed", None)
        return json.loads(protocol.dumps(d))

    CALLS = {
        "equity exact": lambda: plain(pe.equity("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], "7c8d9h")),
        "equity kernels": lambda: plain(pe.equity("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], exact=True)),
        "equity sampled": lambda: plain(pe.equity("stud-hilo", ["AhAd2c", "KsKdQh"], samples=50_000, seed=3)),
        "equity ranges": lambda: plain(pe.equity("omaha-hilo", ["AA**", "KhKdQcJc"], samples=50_000, seed=4)),
        "board range": lambda: plain(pe.equity("holdem", ["AhKh", "QsQd"], board="K**", seed=5)),
        "breakdown": lambda: plain(pe.equity("holdem", ["AhKh", "QsQd"], "2h9hTc", breakdown=True)),
        "distribution": lambda: [list(p.curve) for p in pe.equity_distribution(
            "omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], board="7c8d9h").players],
        "range equities": lambda: plain(pe.range_equities("holdem", ["QQ+,AK", "7h7d"], board="2c9dTh").to_dict()),
        "by street": lambda: [[p.equity for p in s.result.players] for s in pe.equity_by_street(
            "holdem", ["AhKh", "QsQd"], "2h9hTc5d")],
        "allin": lambda: [str(x) for x in pe.allin_ev("holdem", {1: "AhAd", 2: "KsKd", 3: "7c2d"},
            "Kc8d2h", contributions={1: 500, 2: 200, 3: 500}).ev_fraction.values()],
        "evaluate": lambda: str(pe.evaluate("omaha-hilo", "AhKd2c3s", "Ks5d8h7cKh")),
        "evaluate batch": lambda: [a.tolist() for a in pe.evaluate_batch("omaha-hilo", HOLES, BOARDS)],
        "parse range": lambda: pe.parse_range("omaha", "AA**:$ds, KK**@50, 15%").holdings.tolist()[:50],
        "percentile": lambda: pe.percentile("omaha", "AsAh7c2d"),
    }
    names = sorted(CALLS)
    serial = {name: CALLS[name]() for name in names}
    jobs = [names[i % len(names)] for i in range(200)]
    with cf.ThreadPoolExecutor(max_workers=4) as pool:
        futures = [(name, pool.submit(CALLS[name])) for name in jobs]
        for name, future in futures:
            assert future.result(timeout=600) == serial[name], name
    print("ok", len(jobs), len(names))
""")


def test_every_entry_point_from_four_threads_gives_the_serial_answers():
    # issue 26, goal 1: 200 calls over every entry point from 4 threads at once
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])}
    child = subprocess.run([sys.executable, "-c", MIXED], cwd=ROOT, env=env, capture_output=True,
                           text=True, timeout=900)
    assert child.returncode == 0 and child.stdout.split() == ["ok", "200", "14"], (
        f"exit status {child.returncode}: {child.stderr[-3000:]}")
