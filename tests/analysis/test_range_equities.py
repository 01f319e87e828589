"""A range holding by holding (pokereval.analysis.range_equities): each holding's
equity against an exact pe.equity run of that holding, the weighted mean against
the player's pe.equity, suit classes."""
import numpy as np
import pytest

import pokereval as pe
from pokereval.errors import HandError
from pokereval.suits import class_keys


def test_range_equities_by_holding():
    hands = ["AhKd2c3s", "AA**"]
    r = pe.range_equities("omaha-hilo", hands, board="7c8d9h")
    e = pe.equity("omaha-hilo", hands, board="7c8d9h", exact=True)
    assert r.player == 1 and r.exact and not r.classes
    assert r.equity == pytest.approx(e.players[1].equity, abs=1e-12)
    eqs = [h.equity for h in r.holdings]
    assert eqs == sorted(eqs, reverse=True)
    assert sum(h.weight for h in r.holdings) == pytest.approx(1.0)
    for h in (r.holdings[0], r.holdings[-1], r.holdings[len(r.holdings) // 2]):
        fixed = pe.equity("omaha-hilo", ["AhKd2c3s", h.holding], board="7c8d9h", exact=True)
        assert h.fraction == fixed.players[1].equity_fraction


def test_range_equities_two_ranges():
    r = pe.range_equities("holdem", ["KK", "QQ,JJ"], board="2c7d9h", player=1)
    e = pe.equity("holdem", ["KK", "QQ,JJ"], board="2c7d9h", exact=True)
    assert r.exact and len(r.holdings) == 12
    assert r.equity == pytest.approx(e.players[1].equity, abs=1e-12)
    for h in r.holdings[:2] + r.holdings[-2:]:
        fixed = pe.equity("holdem", ["KK", h.holding], board="2c7d9h", exact=True)
        assert h.fraction == fixed.players[1].equity_fraction
    assert sum(h.weight for h in r.holdings) == pytest.approx(1.0)
    assert r.holdings[0].weight == pytest.approx(1 / 12)


def test_range_equities_runs_each_holding_when_too_big_to_walk():
    r = pe.range_equities("stud", ["AhAd2c3s4s5s", "KsKdQhJhTh*"], exact=True)
    assert r.exact and len(r.holdings) == 52 - 11  # one holding per unseen card
    e = pe.equity("stud", ["AhAd2c3s4s5s", "KsKdQhJhTh*"], exact=True)
    assert r.equity == pytest.approx(e.players[1].equity, abs=1e-12)
    for h in r.holdings[:3]:
        fixed = pe.equity("stud", ["AhAd2c3s4s5s", h.holding], exact=True)
        assert h.fraction == fixed.players[1].equity_fraction


def test_range_equities_suit_classes():
    r = pe.range_equities("holdem", ["AKs", "QQ"], samples=2000, seed=3)
    assert r.classes and len(r.holdings) == 1
    assert (r.holdings[0].combos, r.holdings[0].weight) == (4, pytest.approx(1.0))
    keys = class_keys(np.array([[48, 44], [49, 45], [48, 45]], dtype=np.uint8))
    assert keys[0] == keys[1] != keys[2]
    with pytest.raises(HandError, match="suit classes"):
        pe.range_equities("holdem", ["AKs", "QsQd"], classes=True)


def test_range_equities_errors():
    with pytest.raises(HandError, match="range"):
        pe.range_equities("holdem", ["AhAd", "7c8c"])
    with pytest.raises(HandError, match="player must be"):
        pe.range_equities("holdem", ["AhAd", "KK"], player=0)


def test_range_equities_classes_sum_their_members_weights():
    """Merged suit classes: each class counts its members and sums their weights
    (6 pairs and 12 offsuit combos at weight 2, 4 suited combos at weight 1)."""
    r = pe.range_equities("holdem", ["AA@2,AKs@1,72o@2", "QQ"], samples=2000, seed=5)
    assert r.classes
    got = {h.holding[0] + h.holding[2]: (h.combos, h.weight) for h in r.holdings}
    assert got == {"AA": (6, pytest.approx(0.3)), "AK": (4, pytest.approx(0.1)),
                   "72": (12, pytest.approx(0.6))}
    single = pe.range_equities("holdem", ["AA@2,AKs@1,72o@2", "QQ"], samples=2000, seed=5,
                               classes=False)
    assert len(single.holdings) == 22 and {h.combos for h in single.holdings} == {1}
    assert sum(h.weight for h in single.holdings if h.holding[0] == "7") == pytest.approx(0.6)
