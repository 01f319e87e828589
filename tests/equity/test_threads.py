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
