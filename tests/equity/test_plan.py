"""pokereval.equity.plan: the plan of a run as a value (exact or sampled, C walk or
kernels, the sample target, the batches, why), a pure function of the spot and the
options, called directly; and the runners following the plan they are given."""
import dataclasses
import os
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest

import naive
import pokereval
from pokereval.equity.options import (DEFAULT_MAX_SAMPLES, DEFAULT_STDERR, MAX_SAMPLES,
                                      parse_options)
from pokereval.equity.plan import (AUTO_EXACT_SECONDS, MAX_TUPLES, SMALL_EXACT, Plan,
                                   combinations_to_list, exact_cost_ns, exact_units, plan,
                                   rank_units, rank_walk_ns)
from pokereval.equity.run import RangedRunner, execute
from pokereval.equity.spot import parse_spot
from pokereval.errors import HandError
from pokereval.games import get_game

SPOTS = naive.load_jsonl("spots.jsonl")
SMALL_SPOTS = [s for s in SPOTS if s["runouts"] * len(s["hands"]) <= SMALL_EXACT]
BIGGER_BOARD_SPOTS = [s for s in SPOTS if s["runouts"] * len(s["hands"]) > SMALL_EXACT
                      and not get_game(s["game"]).stud]
BIGGER_STUD_SPOTS = [s for s in SPOTS if s["runouts"] * len(s["hands"]) > SMALL_EXACT
                     and get_game(s["game"]).stud]



def options(exact=None, samples=None, stderr=None, seed=None):
    return parse_options(exact, samples, stderr, seed, None, None)


def spot_of(s):
    return parse_spot(s["game"], s["hands"], s["board"], s["dead"])


PREFLOP = parse_spot("omaha-hilo", ["AcAs3d4h", "KhKcJdTd"], "", "")
FLOP = parse_spot("omaha-hilo", ["AcAs3d4h", "KhKcJdTd"], "7c8d9h", "")


# --------------------------------------------------------------------------
# Exact fixed-hand spots: C walk or kernels
# --------------------------------------------------------------------------

def test_the_lists_of_spots_are_not_empty():
    assert SMALL_SPOTS and BIGGER_BOARD_SPOTS and BIGGER_STUD_SPOTS


def test_small_reference_spots_are_walked_in_c():
    for s in SMALL_SPOTS:
        p = plan(spot_of(s), options(exact=True))
        assert (p.method, p.backend) == ("exact", "c"), s["id"]


def test_every_exact_board_spot_is_walked_in_c_by_rank_multisets():
    for s in SPOTS:
        spot = spot_of(s)
        if spot.game.stud:
            continue
        p = plan(spot, options(exact=True))
        assert (p.method, p.backend, p.cost_ns) == ("exact", "c", rank_walk_ns(spot)), s["id"]
        assert f"at most {rank_units(spot):,} board rank multisets" in p.reason
    # the preflop walk: at most 6,188 multisets of five ranks for its million run-outs
    assert rank_units(PREFLOP) == 6188 and rank_units(FLOP) == 91
    assert rank_walk_ns(PREFLOP) < 0.05 * exact_cost_ns(PREFLOP)  # the run-out walk's


def test_bigger_stud_spots_are_enumerated_in_the_kernels():
    for s in BIGGER_STUD_SPOTS:
        p = plan(spot_of(s), options(exact=True))
        assert (p.method, p.backend) == ("exact", "numba"), s["id"]


# --------------------------------------------------------------------------
# Exact or sampled
# --------------------------------------------------------------------------

def test_auto_enumerates_cheap_spots_and_samples_dear_ones():
    for s in SPOTS:
        spot = spot_of(s)
        p = plan(spot, options())
        cost = exact_cost_ns(spot) if spot.game.stud else rank_walk_ns(spot)
        cheap = cost <= AUTO_EXACT_SECONDS * 1e9
        assert p.method == ("exact" if cheap else "sample"), s["id"]
        if not cheap:
            # fixed-hand stud samples in C, board games in the kernels
            backend = "c" if spot.game.stud else "numba"
            assert (p.samples, p.stderr, p.backend) == (DEFAULT_MAX_SAMPLES, DEFAULT_STDERR, backend)
    big = parse_spot("stud", ["As2s3d4d", "KhKdQcJc", "7h7d8c8s"], "", "")
    assert exact_cost_ns(big) > AUTO_EXACT_SECONDS * 1e9
    p = plan(big, options())
    assert (p.method, p.samples, p.stderr) == ("sample", DEFAULT_MAX_SAMPLES, DEFAULT_STDERR)
    assert "over 2 s" in p.reason


def test_samples_and_stderr_are_the_plan_s_target():
    p = plan(FLOP, options(samples=12_345, seed=1))
    assert (p.method, p.backend, p.samples, p.stderr, p.counted) == \
        ("sample", "numba", 12_345, None, True)
    p = plan(FLOP, options(stderr=0.01))
    assert (p.samples, p.stderr, p.sample_budget, p.counted) == (None, 0.01, MAX_SAMPLES, False)
    p = plan(FLOP, options(samples=1000, stderr=0.01))
    assert (p.samples, p.stderr, p.counted) == (1000, 0.01, False)
    # exact=False alone: the plan's default target (a fixed-hand spot)
    p = plan(FLOP, options(exact=False))
    assert (p.method, p.samples, p.stderr) == ("sample", DEFAULT_MAX_SAMPLES, DEFAULT_STDERR)


def test_refused_exact_run_says_why():
    huge = parse_spot("razz", ["As2s3d", "KhKdQc", "7h7d8c"], "", "")
    with pytest.raises(HandError, match="hours on one core, over the limit of 1 hour"):
        plan(huge, options(exact=True))
    assert plan(huge, options()).method == "sample"


def test_plan_is_a_frozen_value_and_a_pure_function():
    opts = options(exact=True)
    before = dataclasses.astuple(opts)
    p = plan(PREFLOP, opts)
    assert plan(PREFLOP, opts) == p and dataclasses.astuple(opts) == before
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.backend = "numba"
    assert p.reason and "C" in p.reason
    stud = spot_of(BIGGER_STUD_SPOTS[0])
    assert "kernels" in plan(stud, opts).reason
    with pytest.raises(ValueError):
        Plan("sample", "gpu", "no such backend")
    with pytest.raises(ValueError):
        Plan("guess", "numba", "no such method")


def test_exact_batches_cover_about_the_batch_seconds():
    stud = spot_of(BIGGER_STUD_SPOTS[0])
    p = plan(stud, options(exact=True))
    assert p.ns_per_unit == pytest.approx(exact_cost_ns(stud) / exact_units(stud))
    assert p.units_per_batch(4) == int(p.batch_seconds * 1e9 * 4 / p.ns_per_unit)
    assert replace(p, batch_seconds=0.01).units_per_batch(4) < p.units_per_batch(4)


# --------------------------------------------------------------------------
# Ranges: the plan counts the compatible combinations of holdings
# --------------------------------------------------------------------------

RANGED = parse_spot("holdem", ["AhAd", "KK"], "2c7d9h", "")


def test_ranged_plan_needs_the_count_of_combinations():
    with pytest.raises(ValueError, match="combinations"):
        plan(RANGED, options())
    assert combinations_to_list(RANGED, options()) >= 6
    assert combinations_to_list(RANGED, options(samples=1000)) == 0  # any at all?
    assert combinations_to_list(RANGED, options(exact=True)) <= MAX_TUPLES


def test_ranged_auto_enumerates_few_combinations_and_samples_many():
    budget = combinations_to_list(RANGED, options())
    p = plan(RANGED, options(), combinations=6)
    assert (p.method, p.backend) == ("exact", "c")  # walked in C, by board rank multisets
    p = plan(RANGED, options(), combinations=budget + 1)
    assert (p.method, p.samples, p.stderr) == ("sample", DEFAULT_MAX_SAMPLES, DEFAULT_STDERR)
    p = plan(RANGED, options(samples=5000, seed=1), combinations=6)
    assert (p.method, p.samples, p.stderr) == ("sample", 5000, None)


def test_ranged_exact_false_samples_to_the_default_target():
    # exact=False with ranges and no samples / stderr sampled with no target at all (up
    # to MAX_SAMPLES, hours); it gets the engine's own target, as fixed hands do
    p = plan(RANGED, options(exact=False), combinations=1)
    assert (p.method, p.samples, p.stderr) == ("sample", DEFAULT_MAX_SAMPLES, DEFAULT_STDERR)
    r = pokereval.equity("omaha-hilo", ["AA**", "KhKdQcJc"], exact=False, seed=1)
    assert not r.exact and max(q.std_error for q in r.players) <= DEFAULT_STDERR


def test_ranged_refusals():
    with pytest.raises(HandError, match="no combination of the players' holdings is possible"):
        plan(RANGED, options(), combinations=0)
    most = combinations_to_list(RANGED, options(exact=True))
    with pytest.raises(HandError, match="too many combinations of holdings"):
        plan(RANGED, options(exact=True), combinations=most + 1)


def test_ranged_stud_combinations_walk_in_c_when_small():
    spot = parse_spot("stud-hilo", ["Ah2h3h4d5c*:*****[6-7]", "KdKc4h9s9dQh"], "", "8c8d")
    opts = options(exact=True)
    p = plan(spot, opts, combinations=3)
    assert (p.method, p.backend) == ("exact", "c")
    big = parse_spot("stud", ["As2s3d", "KK*"], "", "")
    assert plan(big, opts, combinations=3).backend == "numba"


# --------------------------------------------------------------------------
# The runners follow the plan
# --------------------------------------------------------------------------

def test_the_runner_follows_the_plan():
    opts = options(exact=True)
    stud = next(spot_of(s) for s in SMALL_SPOTS if get_game(s["game"]).stud)
    p = plan(stud, opts)
    walked_c = execute(stud, opts, p, time.perf_counter())
    in_kernels = execute(stud, opts, replace(p, backend="numba"), time.perf_counter())
    assert walked_c.exact and in_kernels.exact and walked_c.samples == stud.runouts
    assert [q.outcomes.tolist() for q in walked_c.players] == \
        [q.outcomes.tolist() for q in in_kernels.players]
    with pytest.raises(ValueError, match="board games are enumerated in C"):
        execute(FLOP, opts, replace(plan(FLOP, opts), backend="numba"), time.perf_counter())
    p = plan(FLOP, opts)
    sampled = replace(p, method="sample", backend="numba", samples=20_000, stderr=None)
    r = execute(FLOP, options(seed=5), sampled, time.perf_counter())
    assert not r.exact and not r.partial and r.samples == 20_000 and r.seed == 5


def test_the_ranged_runner_follows_the_plan():
    opts = options(seed=3)
    listed = RangedRunner(RANGED, opts, 0.0).compatible_tuples(combinations_to_list(RANGED, opts))
    p = plan(RANGED, opts, combinations=len(listed))
    assert p.method == "exact"
    exact = execute(RANGED, opts, p, time.perf_counter())
    assert exact.exact and exact.samples == 6 * RANGED.runouts
    r = execute(RANGED, opts, replace(p, method="sample", samples=30_000), time.perf_counter())
    assert not r.exact and r.samples == 30_000
    assert abs(r.players[0].equity - exact.players[0].equity) < 0.02


# --------------------------------------------------------------------------
# run(): the process state read once; exact board spots never load Numba
# --------------------------------------------------------------------------

ROOT = Path(pokereval.__file__).resolve().parents[1]

CHILD = textwrap.dedent("""
    import sys

    import pokereval as pe

    def loaded():
        return "pokereval.kernels" in sys.modules or "numba" in sys.modules

    hands = ["AcAs3d4h", "KhKcJdTd"]
    a = pe.equity("omaha-hilo", hands, exact=True)  # a preflop walk, in C
    b = pe.equity("omaha5", ["AcAs3d4h5h", "KhKcJdTd9c", "2c2d3h3s4c"], exact=True)
    print(loaded())
    pe.equity("omaha-hilo", hands, samples=2000, seed=1)  # sampled: the kernels
    c = pe.equity("omaha-hilo", hands, exact=True)  # in C still, the kernels loaded
    print(loaded())
    print([p.outcomes.tolist() for p in a.players] == [p.outcomes.tolist() for p in c.players])
    print(a.samples, b.samples)  # C(44, 5) and C(37, 5) run-outs
""")


def test_run_walks_exact_board_spots_in_c_without_loading_numba():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                         env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "True", "True", "1086008", "435897"]


def test_an_unreachable_stderr_target_is_refused_up_front():
    # issue 29: stderr=1e-9 ran 10 minutes and 27 billion samples
    dear = parse_spot("stud", ["AhKd2c", "3c4d5h"], "", "")  # about a minute to enumerate
    with pytest.raises(HandError, match=r"^stderr=1e-09 is out of reach: .* or exact=True$") as e:
        plan(dear, options(stderr=1e-9))
    assert e.value.field == "option"
    ranged = parse_spot("omaha-hilo", ["AA**", "KhKdQcJc"], "", "")
    with pytest.raises(HandError, match="out of reach"):
        plan(ranged, options(stderr=1e-9), combinations=1)
    # a sample cap given too: the run stops at whichever comes first, as asked
    assert plan(dear, options(stderr=1e-9, samples=10_000)).method == "sample"
    assert plan(dear, options(stderr=1e-4)).method == "sample"


def test_an_unreachable_target_on_a_cheap_spot_is_answered_exactly():
    cheap = parse_spot("holdem", ["AhKh", "QsQd"], "", "")  # 1,712,304 run-outs, ~1 ms
    p = plan(cheap, options(stderr=1e-9))
    assert p.method == "exact" and "answered exactly" in p.reason
    assert plan(cheap, options(stderr=1e-5)).method == "sample"  # reachable: as asked
    with pytest.raises(HandError, match="out of reach"):
        plan(cheap, options(exact=False, stderr=1e-9))
    r = pokereval.equity("holdem", ["AhKh", "QsQd"], stderr=1e-9)
    assert r.exact and r.samples == 1_712_304


def test_the_cli_refuses_an_unreachable_target_in_one_line(capsys):
    from pokereval.cli import main

    assert main(["equity", "stud", "AhKd2c", "3c4d5h", "--stderr", "1e-9"]) == 2
    err = capsys.readouterr().err
    assert "out of reach" in err and err.count("\n") == 1
