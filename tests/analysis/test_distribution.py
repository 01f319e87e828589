"""Next-street distributions (pokereval.analysis.distribution) and the graph command.

Judged against ``pe.equity`` (the law of total expectation: the weighted mean of
the next-street equities is the equity now, exactly, as Fractions) and against
the independent brute force in ``naive`` (the curve of a turn -> river spot).
"""
import json
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

import naive
import pokereval as pe
from pokereval.cli import main
from pokereval.errors import HandError

# one exact spot per game whose next street the kernels (board games) or the
# per-deal runs (stud) walk quickly
IDENTITY_SPOTS = [
    ("holdem", ["AhAd", "7c8c"], "2c9cKd"),
    ("holdem", ["AhKh", "QsQd", "7c7d"], "2h9cKd"),
    ("holdem", ["AhKh", "QsQd", "7c7d", "5s6s"], "2h9cKd"),  # per-player fields, not joint
    ("omaha", ["AhAd2c3s", "KsKdQhJh"], "7c8d9h"),
    ("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], "7c8d9h"),
    ("omaha-hilo", ["As2s3d4d", "KsKdQhJh", "6c7c8hTh"], "5c9dJs"),
    ("omaha5", ["AhAd2c3s4h", "KsKdQhJhTd"], "7c8d9h"),
    ("omaha5-hilo", ["AhAd2c3s4h", "KsKdQhJhTd"], "7c8d9h5s"),
    ("omaha5-hilo", ["AhAd2c3s4h", "KsKdQhJhTd", "5d6d7h8h9s", "2h3h4c5c6c"], "7c8d9h"),
    ("courchevel", ["AhAd2c3s4h", "KsKdQhJhTd"], "7c8d9h"),
    ("courchevel-hilo", ["AhAd2c3s4h", "KsKdQhJhTd"], "7c"),
    ("stud", ["AhAd2c3s4s5s", "KsKdQhJhTh9d"], ""),
    ("stud-hilo", ["Ah2d3c4s9s9h", "KsKdQhJhTh8d"], ""),
    ("razz", ["Ah2d3c4sKsKh", "5s6d7hJhTh8d"], ""),
]


def _ids(spots):
    return [f"{g}-{len(h)}p-{b or 'stud'}" for g, h, b in spots]


@pytest.mark.parametrize("game,hands,board", IDENTITY_SPOTS, ids=_ids(IDENTITY_SPOTS))
def test_weighted_mean_is_the_equity_exactly(game, hands, board):
    r = pe.equity_distribution(game, hands, board)
    e = pe.equity(game, hands, board, exact=True)
    assert r.exact
    for p, q in zip(r.players, e.players):
        assert p.equity_fraction is not None and p.equity_fraction == q.equity_fraction
        assert abs(sum(w for _, w in p.curve) - 1.0) < 1e-9
        eqs = [x for x, _ in p.curve]
        assert eqs == sorted(eqs) and len(set(eqs)) == len(eqs)
        assert abs(sum(x * w for x, w in p.curve) - p.equity) < 1e-9
        if e.players and pe.get_game(game).split:
            # scoop and low per deal average to the scoop / low figures now: both
            # the correctly rounded ratios of the same whole numbers
            assert p.scoop == q.scoop
            assert p.low == pytest.approx(q.low_win + q.low_tie, abs=1e-15)
    assert abs(sum(r.weights) - 1.0) < 1e-9 and len(r.weights) == r.deals
    json.dumps(r.to_dict())


def test_preflop_to_flop_identity():
    r = pe.equity_distribution("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"])
    assert r.street == "flop" and r.deals == 13_244
    e = pe.equity("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], exact=True)
    assert [p.equity_fraction for p in r.players] == [p.equity_fraction for p in e.players]


def _naive_curve(game, hands, board, dead=""):
    """{equity Fraction: deals} of each player over every next card, by brute force."""
    hands_c = [naive.parse_cards(h) for h in hands]
    known = {c for h in hands_c for c in h} | set(naive.parse_cards(board)) | \
        set(naive.parse_cards(dead))
    curves = [Counter() for _ in hands]
    for c in naive.DECK:
        if c in known:
            continue
        ref = naive.reference_equity(game, hands, naive.cards_str(naive.parse_cards(board) + [c]),
                                     dead)
        for p, row in enumerate(ref.players):
            curves[p][row["equity"]] += 1
    return curves


CURVE_SPOTS = [
    ("holdem", ["AhKh", "QsQd"], "2h7hTc5d"),
    ("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], "7c8d9h2d"),
    ("omaha5-hilo", ["As2s3d4d5c", "KsKdQhJhTd"], "6c9dJs8h"),
    ("courchevel", ["As2s3d4d5c", "KsKdQhJhTd", "6h6d7s7c9c"], "Tc9dJs8h"),
]


@pytest.mark.parametrize("game,hands,board", CURVE_SPOTS, ids=_ids(CURVE_SPOTS))
def test_turn_to_river_curve_matches_brute_force(game, hands, board):
    r = pe.equity_distribution(game, hands, board, dead="4h")
    expected = _naive_curve(game, hands, board, "4h")
    assert r.street == "river" and r.deals == sum(expected[0].values())
    for p, curve in zip(r.players, expected):
        total = sum(curve.values())
        want = sorted((float(eq), n / total) for eq, n in curve.items())
        assert len(p.curve) == len(want)
        for (e1, w1), (e2, w2) in zip(p.curve, want):
            assert e1 == pytest.approx(e2, abs=1e-12) and w1 == pytest.approx(w2, abs=1e-12)
        for level, key in ((0.25, "25%"), (0.5, "50%"), (0.75, "75%")):
            hit = sum(n for eq, n in curve.items() if eq >= Fraction(level).limit_denominator())
            assert p.at_least[key] == pytest.approx(hit / total, abs=1e-12)


# each deal's label goes with its own figures (the curves never look at the labels):
# a deal's equity is the equity once its cards are dealt
LABEL_SPOTS = [
    ("holdem", ["AhAd", "KsKc"], ""),  # flops, three cards a deal (the kernel's colex order)
    ("courchevel-hilo", ["AhAd2c3s4h", "KsKdQhJhTd"], "7c"),  # two cards a deal
    ("omaha-hilo", ["AA**", "KhKdQcJc"], "7c8d9h"),  # a range: one card a deal
    ("stud-hilo", ["Ah2d3c4s9s", "KsKdQhJhTh"], ""),  # heads-up stud: a card a player
]


@pytest.mark.parametrize("game,hands,board", LABEL_SPOTS,
                         ids=["flops", "courchevel", "range", "stud"])
def test_each_deal_is_labelled_with_its_cards(game, hands, board):
    r = pe.equity_distribution(game, hands, board, exact=True)
    stud = pe.get_game(game).stud
    for i in range(0, r.deals, max(1, r.deals // 60)):
        cards = r.next_cards[i]
        if stud:  # one new card a player, in seat order
            now = [h + cards[2 * p:2 * p + 2] for p, h in enumerate(hands)]
            e = pe.equity(game, now, exact=True)
        else:
            e = pe.equity(game, hands, board + cards, exact=True)
        for p, q in zip(r.players, e.players):
            assert p.by_deal["equity"][i] == pytest.approx(q.equity, abs=1e-12), (i, cards)


def test_stud_next_street_deals_every_player_a_card_jointly():
    hands = ["Ah2d3c4s9s", "KsKdQhJhTh"]
    r = pe.equity_distribution("stud-hilo", hands, dead="5c6c")
    known = set(pe.parse_cards("".join(hands) + "5c6c"))
    unseen = 52 - len(known)
    assert r.street == "sixth street" and r.deals == unseen * (unseen - 1)
    seen = set()
    for text in r.next_cards:
        cards = pe.parse_cards(text)
        assert len(cards) == 2 and len(set(cards)) == 2 and not set(cards) & known
        seen.add(tuple(cards))
    assert len(seen) == r.deals  # every ordered pair once
    assert np.allclose(r.weights, 1 / r.deals)


def test_stud_seventh_street_shared_card():
    # eight players on sixth street: 4 unseen cards, the seventh card is shared
    deck = [pe.card_str(c) for c in range(48)]
    hands = ["".join(deck[6 * i:6 * i + 6]) for i in range(8)]
    r = pe.equity_distribution("stud", hands, exact=True)
    assert r.street == "seventh street" and r.deals == 4
    assert all(len(pe.parse_cards(t)) == 1 for t in r.next_cards)
    e = pe.equity("stud", hands, exact=True)
    assert [p.equity_fraction for p in r.players] == [p.equity_fraction for p in e.players]


def test_sampled_distribution_is_near_the_equity():
    hands = ["AhKh", "QsQd", "7c7d"]
    r = pe.equity_distribution("holdem", hands, "2h9cKd", samples=100_000, seed=7)
    assert not r.exact and r.samples == 100_000 and r.deals == 43
    e = pe.equity("holdem", hands, "2h9cKd", exact=True)
    for p, q in zip(r.players, e.players):
        assert p.equity == pytest.approx(q.equity, abs=5 * p.std_error)
        assert 0 < p.std_error < 0.005
    again = pe.equity_distribution("holdem", hands, "2h9cKd", samples=100_000, seed=7)
    assert again.players[0].curve == r.players[0].curve


def test_sampled_stud_distribution_is_near_the_equity():
    r = pe.equity_distribution("razz", ["Ah2d3c", "KsKdQh", "5h6h7h"], samples=300_000, seed=7)
    assert not r.exact and r.samples == 300_000
    for text in r.next_cards:  # one card a player, none twice, none known
        cards = pe.parse_cards(text)
        assert len(set(cards)) == 3 and not set(cards) & set(pe.parse_cards("Ah2d3cKsKdQh5h6h7h"))
    e = pe.equity("razz", ["Ah2d3c", "KsKdQh", "5h6h7h"], samples=1_000_000, seed=1)
    for p, q in zip(r.players, e.players):
        assert p.equity == pytest.approx(q.equity, abs=5 * (p.std_error + q.std_error))
        assert 0 < p.std_error < 0.002


def test_sampled_stud_ranges():
    r = pe.equity_distribution("stud", ["AhAd2c3s4s", "KK***"], samples=100_000, seed=2)
    e = pe.equity("stud", ["AhAd2c3s4s", "KK***"], samples=1_000_000, seed=2)
    assert r.street == "sixth street" and not r.exact
    assert r.players[0].equity == pytest.approx(e.players[0].equity, abs=0.01)
    assert sum(w for _, w in r.players[1].curve) == pytest.approx(1.0)


# --------------------------------------------------------------------------
# Ranges
# --------------------------------------------------------------------------

def test_range_distribution_identity_exact():
    hands = ["AhKd2c3s", "AA**"]
    r = pe.equity_distribution("omaha-hilo", hands, board="7c8d9h")
    e = pe.equity("omaha-hilo", hands, board="7c8d9h", exact=True)
    assert r.exact
    assert [p.equity_fraction for p in r.players] == [p.equity_fraction for p in e.players]


def test_range_distribution_deal_weights_follow_card_removal():
    # villain holds one of six pairs of kings: a king on the turn leaves three of them
    hands = ["AhAd", "KK"]
    r = pe.equity_distribution("holdem", hands, board="2c7d9h")
    w = dict(zip(r.next_cards, r.weights))
    assert w["Ks"] == pytest.approx(w["2d"] / 2)
    assert r.deals == 52 - 5  # every unseen card is still possible
    e = pe.equity("holdem", hands, board="2c7d9h", exact=True)
    assert r.players[0].equity_fraction == e.players[0].equity_fraction


# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------

def test_errors():
    with pytest.raises(HandError, match="complete: there is no next street"):
        pe.equity_distribution("holdem", ["AhAd", "7c8c"], "2c9cKdTs3h")
    with pytest.raises(HandError, match="7 cards: there is no next street"):
        pe.equity_distribution("stud", ["AhAd2c3s4s5s6s", "KsKdQhJhTh9d8d"])
    with pytest.raises(pe.CardError):
        pe.equity_distribution("holdem", ["AhAd", "Ah8c"])
    with pytest.raises(HandError, match="too many seventh street deals to walk exactly"):
        pe.equity_distribution("stud", ["AhAd2c3s4s5s", "KsKdQhJhTh9d", "2h3h4h5h6h7h",
                                        "8c9cTcJcQcKc"], exact=True)
    with pytest.raises(HandError, match="needs at least 1 board card"):
        pe.equity_distribution("courchevel", ["AhAd2c3s4h", "KsKdQhJhTd"])


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------

def test_cli_graph(capsys, tmp_path):
    assert main(["graph", "omaha-hilo", "AhAd2c3s", "KsKdQhJh", "--board", "7c8d9h"]) == 0
    out = capsys.readouterr().out
    assert "equity on the turn" in out and ">=50%" in out and "Scoop" in out and "41 turn" in out
    assert main(["graph", "holdem", "AhAd", "7c8c", "-b", "2c9cKd", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["deals"] == 45 and data["players"][0]["equity_fraction"] == "601/990"
    png, svg = tmp_path / "g.png", tmp_path / "g.svg"
    assert main(["graph", "holdem", "AhAd", "7c8c", "-b", "2c9cKd", "--png", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["graph", "razz", "Ah2d3c4sKsKh", "5s6d7hJhTh8d", "--svg", str(svg)]) == 0
    assert "<svg" in svg.read_text()
    capsys.readouterr()
    assert main(["graph", "holdem", "AhAd", "7c8c", "-b", "2c9cKdTs3h"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no next street" in err


@pytest.mark.parametrize("game", ["stud-hilo", "razz"])
def test_heads_up_stud_curve_matches_brute_force(game):
    hands = ["Ah2d3c4s9s8h", "KsKdQhJhTh8d"]
    r = pe.equity_distribution(game, hands, dead="5c6c")
    parsed = [naive.parse_cards(h) for h in hands]
    known = {c for h in parsed for c in h} | set(naive.parse_cards("5c6c"))
    unseen = [c for c in naive.DECK if c not in known]
    curves = [Counter() for _ in hands]
    for x in unseen:
        for y in unseen:
            if x != y:
                ref = naive.reference_equity(game, [parsed[0] + [x], parsed[1] + [y]],
                                             dead="5c6c")
                for p, row in enumerate(ref.players):
                    curves[p][row["equity"]] += 1
    assert r.exact and r.deals == len(unseen) * (len(unseen) - 1)
    for p, curve in zip(r.players, curves):
        want = sorted((float(eq), n / r.deals) for eq, n in curve.items())
        assert len(p.curve) == len(want)
        for (e1, w1), (e2, w2) in zip(p.curve, want):
            assert e1 == pytest.approx(e2, abs=1e-12) and w1 == pytest.approx(w2, abs=1e-12)


def _plain(r):
    d = r.to_dict()
    d.pop("elapsed")
    if hasattr(r, "next_cards"):
        d["deals"] = [r.next_cards, [{k: v.tolist() for k, v in p.by_deal.items()}
                                     for p in r.players]]
    return d


CHUNK_CALLS = {
    "joint": lambda: pe.equity_distribution("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], "7c8d9h"),
    "fields": lambda: pe.equity_distribution("holdem", ["AhKh", "QsQd", "7c7d", "5s6s"],
                                             "2h9cKd"),
    "ranged": lambda: pe.equity_distribution("omaha-hilo", ["AA**", "KhKdQcJc"], "7c8d9h2s"),
    "by holding": lambda: pe.range_equities("holdem", ["AK", "QQ+"], board="2c3d4h"),
}


@pytest.mark.parametrize("call", CHUNK_CALLS.values(), ids=CHUNK_CALLS.keys())
def test_scatter_sums_do_not_depend_on_the_chunks(monkeypatch, call):
    """Each chunk of the walk has sums of its own, zeroed and added up in parallel:
    any number of chunks (the kernel's last argument; more than the threads here)
    gives the same answer."""
    from pokereval.analysis import scatter

    real = scatter.parallel
    answers = []
    for chunks in (1, 2, 5, 16):
        monkeypatch.setattr(scatter, "parallel", lambda kernel, *args, threads=None, c=chunks:
                            real(kernel, *args[:-1], c, threads=threads))
        answers.append(_plain(call()))
    assert all(a == answers[0] for a in answers[1:])
