"""Starting-hand classes, shipped orderings, percent cuts and percentiles.

References are independent of the code under test: hold'em classes by brute
force over the 24 suit permutations, and cuts walked line by line over
ProPokerTools' published text files (tests/data, verbatim).
"""
import itertools
import json
from pathlib import Path

import numpy as np
import pytest

import pokereval as pe
from pokereval.classes import class_keys, combinations, hand_classes
from pokereval.cli import main
from pokereval.errors import PokerEvalError

DATA = Path(__file__).parent / "data"
RANKS = "23456789TJQKA"


def _ppt_lines(name):
    return [s.strip() for s in (DATA / name).read_text().splitlines()[8:] if s.strip()]


def _holdem_text(a, b):
    """PPT notation of the hold'em holding {a, b}: 'AA', '(AK)' suited, 'AK' offsuit."""
    ra, rb = sorted((a >> 2, b >> 2), reverse=True)
    text = RANKS[ra] + RANKS[rb]
    return f"({text})" if (a & 3) == (b & 3) else text


# --------------------------------------------------------------------------- classes

@pytest.mark.parametrize("hole,classes,combos", [(2, 169, 1326), (4, 16432, 270725),
                                                 (5, 134459, 2598960)])
def test_class_and_combo_counts(hole, classes, combos):
    hc = hand_classes(hole)
    assert len(hc) == classes
    assert hc.total == combos == len(combinations(hole))
    assert hc.combos.min() >= 1 and np.bincount(hc.class_of_combo, minlength=classes).tolist() \
        == hc.combos.tolist()


def test_holdem_classes_match_brute_force_suit_permutations():
    canon = {}
    for a, b in itertools.combinations(range(52), 2):
        canon[(a, b)] = min(tuple(sorted(4 * (c >> 2) + p[c & 3] for c in (a, b)))
                            for p in itertools.permutations(range(4)))
    hc = hand_classes(2)
    rows = combinations(2)
    ours = hc.class_of_combo
    # same partition: equal canonical forms <=> equal class
    pairs = {}
    for (a, b), cls in zip(map(tuple, rows.tolist()), ours.tolist()):
        pairs.setdefault(canon[(a, b)], set()).add(cls)
    assert len(pairs) == 169 and all(len(s) == 1 for s in pairs.values())


def test_omaha_class_key_invariant_under_suit_permutations():
    rng = np.random.default_rng(1)
    rows = np.array([rng.choice(52, 4, replace=False) for _ in range(300)], dtype=np.uint8)
    keys = class_keys(rows)
    for perm in itertools.permutations(range(4)):
        moved = (rows & ~np.uint8(3)) | np.array(perm, dtype=np.uint8)[rows & 3]
        assert (class_keys(moved) == keys).all()
    # and a different rank or suit pattern changes the key
    assert class_keys(np.array([[0, 4, 8, 12]], np.uint8))[0] != \
        class_keys(np.array([[0, 4, 8, 13]], np.uint8))[0]


def test_class_text_round_trip_and_holdings():
    for hole in (2, 4):
        hc = hand_classes(hole)
        for c in range(0, len(hc), 97):
            assert hc.parse_text(hc.text(c)) == c
            rows = hc.holdings([c])
            assert len(rows) == hc.combos[c] and (hc.classes_of(rows) == c).all()


# --------------------------------------------------------------------------- shipped orderings

@pytest.mark.parametrize("game,players,name", [("holdem", 10, "heordering.txt"),
                                               ("holdem", 6, "he6maxordering.txt"),
                                               ("omaha", 10, "ohordering.txt"),
                                               ("omaha", 6, "oh6maxordering.txt")])
def test_shipped_ppt_orderings_are_the_published_text(game, players, name):
    lines = _ppt_lines(name)
    ho = pe.hand_ordering(game, players)
    hc = hand_classes(4 if game == "omaha" else 2)
    assert [hc.parse_text(s) for s in lines] == [hc.parse_text(s) for s in ho.classes]
    assert "ProPokerTools.com" in ho.meta["credit"]


@pytest.mark.parametrize("game", ["omaha-hilo", "omaha5", "omaha5-hilo"])
@pytest.mark.parametrize("players", [10, 6])
def test_built_orderings_ship(game, players):
    ho = pe.hand_ordering(game, players)
    hc = hand_classes(pe.get_game(game).hole)
    assert len(ho.classes) == len(hc) and int(ho.combos.sum()) == hc.total
    assert np.all(np.diff(ho.stat) <= 0)  # ordered by the statistic
    assert "command" in ho.meta and "seed" in ho.meta


# --------------------------------------------------------------------------- percent cuts

def _reference_cut(lines, x):
    """Holdings (as frozensets) of the smallest prefix of lines reaching share x."""
    combos = {line: 6 if len(line) == 2 and line[0] == line[1] else 4 if "(" in line else 12
              for line in lines}
    chosen, total = [], 0
    while x > 0 and total < x * 1326 - 1e-9:
        chosen.append(lines[len(chosen)])
        total += combos[chosen[-1]]
    return {frozenset(ab) for ab in itertools.combinations(range(52), 2)
            if _holdem_text(*ab) in chosen}, total


@pytest.mark.parametrize("lo,hi", [(0, 0.15), (0.05, 0.10), (0, 6 / 1326), (0, 7 / 1326),
                                   (0, 1), (0.5, 0.5), (0, 0), (0.9, 1)])
def test_percent_cut_holdem_full_ring(lo, hi):
    lines = _ppt_lines("heordering.txt")
    top, n_hi = _reference_cut(lines, hi)
    low, n_lo = _reference_cut(lines, lo)
    rows, share = pe.percent_holdings("holdem", lo, hi)
    assert {frozenset(r) for r in rows.tolist()} == top - low
    assert share == (n_hi - n_lo) / 1326
    assert rows.dtype == np.uint8 and (np.diff(rows.astype(int), axis=1) > 0).all()


def test_percent_cut_six_handed_differs_and_matches_reference():
    lines = _ppt_lines("he6maxordering.txt")
    want, n = _reference_cut(lines, 0.2)
    rows, share = pe.percent_holdings("holdem", 0, 0.2, players=6)
    assert {frozenset(r) for r in rows.tolist()} == want and share == n / 1326


def test_percent_cut_omaha_is_minimal_prefix():
    rows, share = pe.percent_holdings("omaha", 0, 0.15)
    assert share >= 0.15 and len(rows) == round(share * 270725)
    assert len({r.tobytes() for r in rows}) == len(rows)
    assert (np.diff(rows.astype(int), axis=1) > 0).all()
    ho = pe.hand_ordering("omaha")
    cum = np.cumsum(ho.combos)
    k = int(np.argmax(cum >= 0.15 * 270725))
    assert cum[k] == len(rows) and cum[k - 1] < 0.15 * 270725
    hc = hand_classes(4)
    assert set(hc.classes_of(rows).tolist()) == {hc.parse_text(c) for c in ho.classes[:k + 1]}


# --------------------------------------------------------------------------- percentiles

def test_percentiles_ppt_convention():
    assert pe.percentile("holdem", "7c2d") == 12 / 1326
    assert pe.percentile("holdem", "AsAd") == 1.0
    assert pe.percentile("omaha", "AsAh7c2d") == 0.9675316280358297
    lines = _ppt_lines("he6maxordering.txt")  # walk the published list for a six-handed one
    combos = [6 if len(s) == 2 and s[0] == s[1] else 4 if "(" in s else 12 for s in lines]
    i = lines.index("(T9)")
    assert pe.percentile("holdem", "Th9h", players=6) == (1326 - sum(combos[:i])) / 1326


def test_percentile_every_game_with_an_ordering():
    for game, hand in [("omaha-hilo", "AsAh2c3d"), ("omaha5", "AsAhKsKhQd"),
                       ("omaha5-hilo", "AsAh2c3d4s")]:
        assert 0.5 < pe.percentile(game, hand) <= 1.0
        assert 0 < pe.percentile(game, hand, players=6) <= 1.0


# --------------------------------------------------------------------------- errors and CLI

@pytest.mark.parametrize("call", [
    lambda: pe.percent_holdings("stud", 0, 0.1),
    lambda: pe.percent_holdings("razz", 0, 0.1),
    lambda: pe.percent_holdings("courchevel", 0, 0.1),
    lambda: pe.percent_holdings("omaha", 0.2, 0.1),
    lambda: pe.percent_holdings("omaha", 0, 1.5),
    lambda: pe.percent_holdings("omaha", 0, 0.1, players=7),
    lambda: pe.percent_holdings("omaha", 0, 0.1, players=9),
    lambda: pe.percentile("omaha", "AsAh7c"),
    lambda: pe.percentile("omaha", "AsAsKcKd"),
    lambda: pe.hand_ordering("stud-hilo"),
])
def test_errors(call):
    with pytest.raises(PokerEvalError) as info:
        call()
    assert "\n" not in str(info.value)


def test_error_names_the_games_with_an_ordering():
    with pytest.raises(PokerEvalError, match="holdem, omaha, omaha-hilo, omaha5, omaha5-hilo"):
        pe.percentile("stud", "AsAhKsKhQdQh2c")


def test_cli_rank_and_range(capsys):
    assert main(["rank", "omaha", "AsAh7c2d", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["percentile"] == 0.9675316280358297 and data["combos"] == 12
    assert main(["rank", "holdem", "7c2d", "--players", "6"]) == 0
    assert "72" in capsys.readouterr().out
    assert main(["range", "holdem", "AA,AKs", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["combos"] == 10 and [c["class"] for c in data["first_classes"]] == ["AA", "AKs"]
    assert main(["rank", "stud", "AsAhKsKhQdQh2c"]) == 2
    assert "holdem, omaha" in capsys.readouterr().err
    assert main(["rank", "omaha", "AsAh"]) == 2


def test_class_cache_round_trip(tmp_path, monkeypatch):
    from pokereval import classes

    monkeypatch.setenv("POKEREVAL_CACHE_DIR", str(tmp_path))
    fresh = classes._build(4)            # computed, then written
    assert (tmp_path / "classes-4-v1.npz").exists()
    cached = classes._build(4)           # read back
    hc = hand_classes(4)
    for a, b, c in zip(fresh, cached, (hc.keys, hc.combos, hc.class_of_combo)):
        assert np.array_equal(a, b) and np.array_equal(a, c)
    (tmp_path / "classes-4-v1.npz").write_bytes(b"garbage")  # a broken cache is rebuilt
    assert np.array_equal(classes._build(4)[2], hc.class_of_combo)
