"""The table engine: the same table from any executor, resumable after SIGKILL, errors."""
import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from pokereval.classes import hand_classes
from pokereval.cli import main
from pokereval.errors import PokerEvalError
from pokereval.games import get_game
from pokereval.tables.engine import build_equity, build_ordering
from pokereval.tables.executors import InlineExecutor

ROOT = Path(__file__).resolve().parents[2]
SMALL = dict(passes=3, trials=8, seed=7, chunk_trials=300, progress=False)


@pytest.fixture(scope="module")
def reference():
    return build_ordering("holdem", executor=InlineExecutor(), **SMALL)


def _same(a, b):
    assert np.array_equal(a.order, b.order) and np.array_equal(a.stat, b.stat)


def test_ordering_is_a_permutation_by_the_statistic(reference):
    assert sorted(reference.order.tolist()) == list(range(169))
    assert np.all(np.diff(reference.stat[reference.order]) <= 0)
    assert reference.stat.max() > 0 > reference.stat.min()


def test_same_table_from_thread_and_process_pools(reference):
    with ThreadPoolExecutor(3) as ex:
        _same(reference, build_ordering("holdem", executor=ex, **SMALL))
    _same(reference, build_ordering("holdem", workers=2, **SMALL))


def test_chunk_layout_does_not_change_the_table(reference):
    _same(reference, build_ordering("holdem", executor=InlineExecutor(),
                                    **dict(SMALL, chunk_trials=5000)))


def test_same_table_on_a_dask_local_cluster(reference):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        _same(reference, build_ordering("holdem", scheduler=cluster.scheduler_address, **SMALL))
        with distributed.Client(cluster) as client:
            eq = build_equity("holdem", opponents=2, trials=64, seed=3, progress=False,
                              executor=client.get_executor(), chunk_trials=2000)
    local = build_equity("holdem", opponents=2, trials=64, seed=3, progress=False,
                         executor=InlineExecutor(), chunk_trials=500)
    assert np.array_equal(eq.equity, local.equity)


def test_equity_table_against_known_heads_up_equities():
    hc = hand_classes(2)
    aa, seven_deuce = hc.parse_text("AA"), hc.parse_text("72")
    for cls, want in ((aa, 0.8520), (seven_deuce, 0.3458)):  # well-known all-in equities
        eq = build_equity("holdem", opponents=3, trials=20000, progress=False,
                          executor=InlineExecutor(), classes=(cls, cls + 1)).equity[cls]
        assert abs(eq[0] - want) < 0.012  # > 3 standard errors at 20,000 trials
        assert eq[0] > eq[1] > eq[2] > 0


def test_killed_build_resumes_bit_identical(tmp_path):
    args = dict(passes=3, trials=512, seed=11, chunk_trials=10000)
    store = tmp_path / "store"
    out = tmp_path / "resumed.npz"
    cmd = [sys.executable, "-m", "pokereval", "table", "build", "ordering", "holdem",
           "--passes", "3", "--trials", "512", "--seed", "11", "--chunk-trials", "10000",
           "--workers", "1", "--store", str(store), "--out", str(out), "--no-progress"]
    with subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL) as proc:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(list(store.glob("*.npy"))) < 4 \
                and proc.poll() is None:
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
        assert proc.wait(timeout=10) == -signal.SIGKILL
    stored = len(list(store.glob("*.npy")))
    assert 4 <= stored and not out.exists()  # killed mid-way
    done = subprocess.run(cmd + ["--json"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    uninterrupted = build_ordering("holdem", executor=InlineExecutor(), progress=False, **args)
    with np.load(out) as z:
        assert np.array_equal(z["order"], uninterrupted.order)
        assert np.array_equal(z["stat"], uninterrupted.stat[uninterrupted.order].astype(np.float16))
    assert len(list(store.glob("*.npy"))) > stored


def test_store_refuses_another_build(tmp_path):
    build_ordering("holdem", store=str(tmp_path), executor=InlineExecutor(), **SMALL)
    with pytest.raises(PokerEvalError, match="different build"):
        build_ordering("holdem", store=str(tmp_path), executor=InlineExecutor(),
                       **dict(SMALL, seed=8))


@pytest.mark.parametrize("call", [
    lambda: build_ordering("stud", passes=1, trials=1),
    lambda: build_ordering("omaha5", players=10, passes=1, trials=1),
    lambda: build_ordering("holdem", passes=0, trials=1),
    lambda: build_equity("omaha5", opponents=9, trials=1),
    lambda: build_equity("holdem", trials=1, classes=(5, 500)),
])
def test_engine_errors(call):
    with pytest.raises(PokerEvalError):
        call()


def test_cli_table_build_and_show(tmp_path, capsys):
    out = tmp_path / "o.npz"
    assert main(["table", "build", "ordering", "holdem", "--passes", "2", "--trials", "4",
                 "--workers", "1", "--out", str(out), "--json", "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == 10
    assert main(["table", "show", str(out), "--top", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["classes"]) == 3 and data["meta"]["trials"] == 4
    eq = tmp_path / "e.npz"
    assert main(["table", "build", "equity", "holdem", "--opponents", "2", "--trials", "8",
                 "--workers", "1", "--out", str(eq), "--no-progress"]) == 0
    assert main(["table", "show", str(eq), "--top", "2"]) == 0
    assert "vs 2" in capsys.readouterr().out
    assert main(["table", "show", "omaha", "--players", "6", "--top", "2", "--json"]) == 0
    assert "ProPokerTools" in capsys.readouterr().out
    capsys.readouterr()
    spare = str(tmp_path / "x.npz")
    assert main(["table", "build", "ordering", "razz", "--workers", "1", "--out", spare]) == 2
    assert "razz" in capsys.readouterr().err
    assert main(["table", "build", "ordering", "holdem", "--scheduler", "tcp://127.0.0.1:1",
                 "--timeout", "1", "--no-progress", "--out", spare]) == 2
    assert "scheduler" in capsys.readouterr().err


@pytest.mark.parametrize("out,says", [(None, "required: --out"),
                                      ("/nonexistent/dir/x.npz", "no directory"),
                                      (".", "is a directory")])
def test_cli_table_build_checks_its_output_first(out, says, capsys):
    # issue 29: the build ran for its whole length and then failed to write (or, without
    # --out, threw the table away); now the path is refused before any work, exit 2
    args = ["table", "build", "ordering", "holdem", "--workers", "1", "--no-progress"]
    assert main(args + (["--out", out] if out else [])) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and "internal error" not in err


@pytest.mark.parametrize("game,opponents,trials", [("holdem", 1, 400), ("holdem", 4, 400),
                                                   ("omaha-hilo", 1, 4), ("omaha-hilo", 3, 4),
                                                   ("omaha5-hilo", 2, 1)])
def test_equity_table_is_fair_on_average(game, opponents, trials):
    """Over every starting hand (weighted by its combos) a seat wins 1/(n+1) of the
    pots: shares of a pot (halves, ties) must add up to exactly one pot."""
    hc = hand_classes(get_game(game).hole)
    eq = build_equity(game, opponents=opponents, trials=trials, seed=5, progress=False,
                      executor=InlineExecutor()).equity[:, opponents - 1]
    mean = float(np.average(eq, weights=hc.combos))
    samples = len(hc) * trials
    assert abs(mean - 1 / (opponents + 1)) < 5 * 0.5 / np.sqrt(samples)
