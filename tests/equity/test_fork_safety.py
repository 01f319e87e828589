"""A forked child killed inside Numba's thread launch must not stall the parent.

Numba guards its threading layer's start with a multiprocessing lock that a forked
child shares with its parent, and takes it on every kernel call's get_num_threads():
a pool worker killed while holding it (a cancelled job) left the parent's next kernel
call waiting forever (a CI run hung in a web test after such a kill).
"""
from __future__ import annotations

import os
import signal
import threading
import time

import pytest

import pokereval as pe


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_killed_forked_child_leaves_the_kernels_usable():
    import numba

    import pokereval.kernels  # noqa: F401  (Numba loaded and its threads launched)

    spot = dict(game="omaha-hilo", hands=["AhAd2c3s", "KsKdQhJh"], samples=20_000, seed=1)
    expected = pe.equity(**spot).equities
    for _ in range(20):
        pid = os.fork()
        if pid == 0:  # the child takes and drops Numba's launch lock over and over
            try:
                while True:
                    numba.get_num_threads()
            finally:
                os._exit(0)
        time.sleep(0.005)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    answers = []
    worker = threading.Thread(target=lambda: answers.append(pe.equity(**spot).equities),
                              daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "the parent's kernel call waits on a lock a dead child held"
    assert answers == [expected]
