"""How a query runs: the exact-or-sampled choice, seeds and threads, executors, stderr
targets and Ctrl-C (the answers themselves are checked in test_pql_oracle/published)."""
from __future__ import annotations

import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import pytest

from pokereval import pql
from pokereval.query import PqlError
from pokereval.query.compile import compile_query
from pokereval.query.run import run_query

RANGED = ("select count(winsHi(p1)) as w, avg(riverEquity(p1)) as eq, "
          "histogram(handType(p1, river)) as types "
          "from game='omaha8', p1='A2**', p2='****' where madeLo(p1, river)")


def _figures(r):
    return r.trials, r.dealt, [(c.value, c.count, c.std_error) for c in r.columns]


def test_wide_ranges_are_sampled_by_default_and_refused_exactly():
    r = pql(RANGED, trials=2000, seed=1)
    assert not r.exact and r.trials == 2000 and 0 < r.acceptance < 1
    auto = pql(RANGED.replace("p2='****'", "p2='****', p3='****'"), seed=1)
    assert not auto.exact and auto.trials == 600_000
    started = time.perf_counter()
    with pytest.raises(PqlError, match="sample instead"):
        pql(RANGED.replace("p2='****'", "p2='****', p3='****'"), exact=True)
    assert time.perf_counter() - started < 2.0  # refused up front, not after a walk


def test_same_seed_same_answer_on_any_thread_count_and_in_processes():
    one = pql(RANGED, trials=60_000, seed=7, threads=1)
    assert _figures(pql(RANGED, trials=60_000, seed=7, threads=3)) == _figures(one)
    with ProcessPoolExecutor(2, mp_context=get_context("spawn")) as pool:
        there = run_query(compile_query(RANGED), exact=None, trials=60_000, stderr=None,
                          seed=7, threads=None, progress=None, executor=pool)
    assert _figures(there) == _figures(one)
    assert _figures(pql(RANGED, trials=60_000, seed=8)) != _figures(one)


def test_stderr_target_stops_when_every_avg_and_count_reaches_it():
    r = pql(RANGED, stderr=0.004, seed=3)
    assert not r.exact and r.trials < 600_000
    assert all(c.std_error <= 0.004 for c in r.columns if c.selector in ("avg", "count"))


def test_progress_sees_partial_results():
    seen = []
    pql(RANGED, trials=200_000, seed=2, threads=1, progress=seen.append)
    assert seen and all(p.partial for p in seen)
    assert [p.trials for p in seen] == sorted(p.trials for p in seen)


CHILD = """
import sys, pokereval as pe
pe.pql(sys.argv[1], trials=1_000, seed=1)  # warm: Numba imported, the kernels loaded
print("ready", flush=True)
r = pe.pql(sys.argv[1], trials=50_000_000, seed=1)
print(r.partial, r.trials, flush=True)
"""


def test_ctrl_c_returns_the_partial_result_within_a_second():
    child = subprocess.Popen([sys.executable, "-X", "faulthandler", "-c", CHILD, RANGED],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(2.0)
        sent = time.perf_counter()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
        waited = time.perf_counter() - sent
    finally:
        child.kill()
    partial, trials = out.split()
    assert partial == "True" and 0 < int(trials) < 50_000_000, err
    assert waited < 3.0, waited  # a wave of chunks finishes; loaded CI machines are slow
