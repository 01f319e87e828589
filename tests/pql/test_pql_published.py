"""PQL against published figures and against ``pe.equity``.

* ProPokerTools' spreadsheet documentation: ``select count(winsHi(p1)) from game='holdem',
  p1='TT', p2='AK'`` = 335,263 of 600,000 trials (99 vs QQ: 111,272; 22 vs A2: 384,166);
  600,000 trials seeded here land within 4 standard errors of those figures.
* Open PQL's exact hold'em vectors (AhAs vs KhKs on 2c3d4s: 301/330; on 2c3d4s7h: 21/22).
* ``avg(riverEquity(p))`` is ``pe.equity``'s exact fraction, and ``count(winsHi(p))``,
  ``count(tiesHi)``, ``count(winsLo)``, ``count(tiesLo)``, ``count(scoops)`` and
  ``histogram(fractionalRiverEquity(p))`` are its outcome table read off, for fixed hands
  and ranges (weights too) in every game; ``equity(p, street)`` and ``HvREquity`` are
  ``pe.equity`` on the board (stud: the cards) of that street.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import pokereval as pe
from pokereval.query import pql
from pokereval.errors import PokerEvalError

# --------------------------------------------------------------------------------------
# ProPokerTools' published figures (600,000 trials)
# --------------------------------------------------------------------------------------

PPT = [("TT", "AK", 335_263), ("99", "QQ", 111_272), ("22", "A2", 384_166)]


@pytest.mark.parametrize("p1, p2, wins", PPT)
def test_ppt_published_wins(p1, p2, wins):
    n = 600_000
    r = pql(f"select count(winsHi(p1)) from game='holdem', p1='{p1}', p2='{p2}'",
               trials=n, seed=1)
    col = r.columns[0]
    assert not r.exact and r.trials == n and r.acceptance == 1.0
    assert col.name == "COUNT 1" and col.count == round(col.value * n)
    published = wins / n
    se = math.sqrt(published * (1 - published) / n)
    assert abs(col.value - published) <= 4 * se, (col.value, published, se)
    assert col.std_error == pytest.approx(se, rel=0.02)
    # and the exact figure (pe.equity walks every board) is within 4 of PPT's errors too
    exact = pe.equity("holdem", [p1, p2], exact=True).players[0].high_win
    assert abs(exact - published) <= 4 * se
    assert abs(col.value - exact) <= 4 * se


def test_ppt_sampled_is_reproducible():
    q = "select count(winsHi(p1)) from game='holdem', p1='TT', p2='AK'"
    a = pql(q, trials=50_000, seed=7, threads=1)
    b = pql(q, trials=50_000, seed=7, threads=2)
    assert a.columns[0].count == b.columns[0].count


# --------------------------------------------------------------------------------------
# Open PQL's exact vectors
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("board, want", [("2c3d4s", Fraction(301, 330)),
                                         ("2c3d4s7h", Fraction(21, 22))])
def test_open_pql_vectors(board, want):
    r = pql(f"select avg(riverEquity(p1)) as eq from game='holdem', p1='AhAs', p2='KhKs', "
               f"board='{board}'", exact=True)
    assert r.exact and r["eq"].fraction == want
    r = pql(f"select avg(riverEquity(p2)) from game='holdem', p1='AhAs', p2='KhKs', "
               f"board='{board}'", exact=True)
    assert r.columns[0].fraction == 1 - want


# --------------------------------------------------------------------------------------
# riverEquity and the showdown functions = pe.equity, every game
# --------------------------------------------------------------------------------------

#: PQL game name -> pokereval game name
GAME = {"holdem": "holdem", "omahahi": "omaha", "omaha8": "omaha-hilo", "omahahi5": "omaha5",
        "omaha85": "omaha5-hilo", "courchevel": "courchevel", "courchevel-hilo": "courchevel-hilo",
        "studhi": "stud", "stud8": "stud-hilo", "razz": "razz"}

SPOTS = [
    # fixed hands
    ("holdem", ["AhAs", "KhKs"], "2c3d4s"),
    ("holdem", ["AhAs", "KhKs"], ""),                       # preflop: 1.7M boards
    ("holdem", ["AhKh", "QsQd", "Tc9c"], "Jh7h2c"),
    ("omahahi", ["AhKhQsJs", "9c8c7d6d"], "Th5h2c"),
    ("omaha8", ["Ah2h3sKs", "Ad2dQcJc"], "5h7c9d"),
    ("omaha8", ["Ah2h3sKs", "Ad2dQcJc", "As2s9h9c"], "5h7c9dTd"),
    ("omahahi5", ["AsKsQhJh9c", "8d8c7s6s2h"], "Ts8h3s"),
    ("omaha85", ["Ah2h3sKsQd", "Ad2dJcTc9h"], "5h7c8d"),
    ("courchevel", ["AhKhQsJs2d", "9c8c7d6d3h"], "Th5h2c"),
    ("courchevel-hilo", ["Ah2h3sKsQd", "Ad4dJcTc9h"], "5h7c8d"),
    ("studhi", ["AhAsKd7c2d9h", "QcQdJs8s8h3c"], ""),
    ("studhi", ["AhAsKd7c2d", "QcQdJs8s8h"], ""),             # fifth street: two cards each to come
    ("stud8", ["Ah2d3c9s4hKd", "As5c6d7hQhJc", "2c3d8s8hTcTd"], ""),
    ("razz", ["Ah2d3c9s4hKd", "As5c6d7hQh2c"], ""),
    # ranges (weights too).  A list of exact hands carries an "@1" because pe.equity reads
    # "AhAs, KdKc" as one hand of four cards (PQL reads it as a range of two)
    ("holdem", ["AA@3, 77", "KK"], "Kd7h2c3d"),
    ("holdem", ["AK", "QQ, JJ@2", "76s"], "Qh7h2c"),
    ("omahahi", ["AhAsKdQd, AcAdKhQh@2, 9s9h8s8h", "9c8c7d6d"], "Th5h2c3s"),
    ("omaha8", ["A2**", "KsKdQhJh"], "7c8d9hTs"),
    ("omahahi5", ["AsKsQhJh9c@1, AsAhQhJh9c", "8d8c7s6s2h"], "Ts8h3s4d"),
    ("omaha85", ["Ah2h3sKsQd, Ac2c3dKdQh@3", "Ad4dJcTc9h"], "5h7c8dKc"),
    ("courchevel", ["AhKhQsJs2d@1, AdKdQcJc2h", "9c8c7d6d3h"], "Th5h2c4c"),
    ("courchevel-hilo", ["Ah2h3sKsQd", "Ad4dJcTc9h@1, As4s5d6d7h"], "5h7c8dKc"),
    ("studhi", ["AhAsKd7c2d9h, AhAsKd7c2d9c@2", "QcQdJs8s8h3c"], ""),
    ("stud8", ["Ah2d3c9s4hKd@1, Ah2d3c9s4h5s", "As5c6d7hQhJc"], ""),
    ("razz", ["Ah2d3c9s4hKd", "As5c6d7hQh2c, As5c6d7hQh8c@2"], ""),
]


def _quoted(game, hands, board, dead=""):
    players = ", ".join(f"p{i + 1}='{h}'" for i, h in enumerate(hands))
    text = f"game='{game}', {players}"
    text += f", board='{board}'" if board else ""
    return text + (f", dead='{dead}'" if dead else "")


def _share(pot: str, row: int, col: int) -> Fraction:
    """A cell of the outcome table as a pot share (row: 0 lost the high, 1 won it alone,
    k + 1 tied with k others; col: 0 no qualifying low, 1 lost the low, 2 won it alone,
    k + 2 tied with k others)."""
    high = Fraction(1, row) if row else Fraction(0)
    low = Fraction(1, col - 1) if col >= 2 else Fraction(0)
    if pot == "razz":
        return low
    if pot == "high" or col == 0:
        return high
    return (high + low) / 2


def _from_outcomes(player, pot: str) -> dict:
    o = np.asarray(player.outcomes).astype(object)
    total = int(o.sum())

    def f(x) -> Fraction:
        return Fraction(int(x), total)
    out = {"winsHi": f(o[1, :].sum()), "tiesHi": f(o[2:, :].sum()),
           "winsLo": f(o[:, 2].sum()), "tiesLo": f(o[:, 3:].sum())}
    out["scoops"] = {"split": f(o[1, 0] + o[1, 2]), "razz": out["winsLo"],
                     "high": out["winsHi"]}[pot]
    hist: dict = {}
    for (row, col), count in np.ndenumerate(o):
        if count:
            s = _share(pot, row, col)
            hist[s] = hist.get(s, 0) + f(count)
    out["histogram"] = hist
    return out


@pytest.mark.parametrize("game, hands, board", SPOTS,
                         ids=[f"{g}-{'-'.join(h)}-{b}".replace(" ", "") for g, h, b in SPOTS])
def test_river_equity_is_pe_equity(game, hands, board):
    g = pe.get_game(GAME[game])
    ref = pe.equity(g.name, hands, board=board, exact=True)
    assert ref.exact
    names = ["scoops"] + (["winsHi", "tiesHi"] if g.high else []) + \
            (["winsLo", "tiesLo"] if g.low else [])
    for p in range(len(hands)):
        sel = [f"avg(riverEquity(p{p + 1})) as eq", f"histogram(fractionalRiverEquity(p{p + 1})) as h"]
        sel += [f"count({n}(p{p + 1})) as {n}" for n in names]
        r = pql(f"select {', '.join(sel)} from {_quoted(game, hands, board)}", exact=True)
        assert r.exact
        player = ref.players[p]
        assert r["eq"].fraction == player.fraction, (p, r["eq"].fraction, player.fraction)
        want = _from_outcomes(player, g.pot)
        assert r["h"].fraction == want["histogram"], p
        fields = {"winsHi": "high_win", "tiesHi": "high_tie", "winsLo": "low_win",
                  "tiesLo": "low_tie", "scoops": "scoop"}
        for n in names:
            assert r[n].fraction == want[n], (p, n, r[n].fraction, want[n])
            assert r[n].value == getattr(player, fields[n]), (p, n)


# --------------------------------------------------------------------------------------
# equity(p, street) and HvREquity = pe.equity on that street
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("game, hands, board, street, cut", [
    ("holdem", ["AhAs", "KhKs"], "2c3d4s", "preflop", 0),
    ("holdem", ["AhKh", "QsQd", "Tc9c"], "Jh7h2c3d", "flop", 3),
    ("omaha8", ["Ah2h3sKs", "Ad2dQcJc"], "5h7c9dTd", "flop", 3),
    ("omaha85", ["Ah2h3sKsQd", "Ad2dJcTc9h"], "5h7c8dKc", "flop", 3),
    ("courchevel-hilo", ["Ah2h3sKsQd", "Ad4dJcTc9h"], "5h7c8dKc", "flop", 3),
    ("courchevel", ["AhKhQsJs2d", "9c8c7d6d3h"], "Th5h2c", "preflop", 1),
    ("studhi", ["AhAsKd7c2d9h", "QcQdJs8s8h3c"], "", "fifth", 5),
    ("razz", ["Ah2d3c9s4hKd", "As5c6d7hQh2c"], "", "fifth", 5),
])
def test_street_equity_is_pe_equity(game, hands, board, street, cut):
    """equity(p, street): every hand and the board (stud: each player's cards) up to the
    street, the rest walked from every unseen card -- not the query's own later cards."""
    g = pe.get_game(GAME[game])
    if g.stud:
        ref = pe.equity(g.name, [h[:2 * cut] for h in hands], exact=True)
    else:
        ref = pe.equity(g.name, hands, board=board[:2 * cut], exact=True)
    sel = ", ".join(f"avg(equity(p{p + 1}, {street}))" for p in range(len(hands)))
    r = pql(f"select {sel} from {_quoted(game, hands, board)}", exact=True)
    assert [c.fraction for c in r.columns] == [p.fraction for p in ref.players]


@pytest.mark.parametrize("game, hands, board, street", [
    ("holdem", ["AhKh", "QQ, JJ@2"], "Jh7h2c3d", "turn"),
    ("omaha8", ["Ah2h3sKs", "KcKdQhJh@1, AdAc3h4h"], "7c8d9hTs", "turn"),
    ("razz", ["Ah2d3c9s4hKd", "As5c6d7hQh2c, As5c6d7hQh8c@2"], "", "sixth"),
])
def test_hvr_equity_is_pe_equity(game, hands, board, street):
    """HvREquity(p1, street) with p1 fixed and the board given: p1 against the others'
    ranges as written = pe.equity of that spot."""
    ref = pe.equity(GAME[game], hands, board=board, exact=True)
    r = pql(f"select avg(HvREquity(p1, {street})) from {_quoted(game, hands, board)}",
               exact=True)
    assert r.columns[0].fraction == ref.players[0].fraction


def test_exact_trials_and_card_clash():
    """An exact answer's trials are the deals walked, weighted: fixed hands on a flop are
    the ordered turn-river pairs' unordered sets (every consistent deal once)."""
    r = pql("select count(winsHi(p1)) from " + _quoted("holdem", ["AhAs", "KhKs"], "2c3d4s"),
               exact=True)
    assert r.trials == r.dealt == math.comb(45, 2)
    with pytest.raises(PokerEvalError):
        pql("select count(winsHi(p1)) from game='holdem', p1='AhAs', p2='AhKs'", exact=True)


@pytest.mark.parametrize("game, hands, board, dead", [
    ("holdem", ["AhAs", "KhKs"], "Kc8d*", ""),
    ("omaha8", ["Ah2h3sKs", "Ad2dQcJc"], "5h7c*", "9d"),
])
def test_board_range_is_pe_equity(game, hands, board, dead):
    """A flop range: every flop of the range (by weight), then every turn and river."""
    ref = pe.equity(GAME[game], hands, board=board, dead=dead, exact=True)
    r = pql(f"select avg(riverEquity(p1)), avg(equity(p1, flop)), avg(equity(p2, turn)) "
            f"from {_quoted(game, hands, board, dead)}", exact=True)
    assert r.exact
    assert [c.fraction for c in r.columns] == [ref.players[0].fraction, ref.players[0].fraction,
                                               ref.players[1].fraction]


def test_hvr_equity_with_a_ranged_hero():
    """HvREquity(p1, flop) with p1 a range: each deal's value is p1's dealt holding against
    p2's range (pe.equity), averaged over the deals: a holding's weight is its own times
    the weight of p2's holdings it leaves possible."""
    game, r1, r2, board = "holdem", "AA, KK@2", "QQ, AK", "Jh7h2c"
    g = pe.get_game(game)
    board_mask = set(pe.parse_cards(board))
    h1, h2 = pe.parse_range(g, r1), pe.parse_range(g, r2)
    num = den = Fraction(0)
    for cards, w in zip(h1.holdings, h1.weights):
        mine = {int(c) for c in cards}
        if mine & board_mask:
            continue
        room = sum(Fraction(float(w2)) for c2, w2 in zip(h2.holdings, h2.weights)
                   if not ({int(c) for c in c2} & (mine | board_mask)))
        eq = pe.equity(game, [pe.cards_str(cards), r2], board=board, exact=True).players[0].fraction
        num += Fraction(float(w)) * room * eq
        den += Fraction(float(w)) * room
    r = pql(f"select avg(HvREquity(p1, flop)) from {_quoted(game, [r1, r2], board)}", exact=True)
    assert r.columns[0].fraction == num / den


@pytest.mark.parametrize("game, hands, board, where", [
    ("omaha8", ["A2**", "KcKdQhJh"], "7c8d9hTs", "madeLo(p1, river)"),
    ("holdem", ["AA@3, 77", "KK, QQ"], "Kd7h2c", "flushingBoard(river) or pairedBoard(turn)"),
    ("stud8", ["Ah2d3c9s4hKd", "As5c6d7hQhJc"], "", "madeLo(p2, seventh)"),
])
def test_sampled_agrees_with_exact(game, hands, board, where):
    """The Monte Carlo deal model is the exact one: 100,000 seeded trials land within 4
    standard errors of the exact answer, for every selector and for the acceptance rate."""
    q = (f"select avg(riverEquity(p1)) as eq, count(scoops(p2)) as sc, count(winsHi(p1)) as hi "
         f"from {_quoted(game, hands, board)} where {where}")
    exact = pql(q, exact=True)
    sampled = pql(q, trials=100_000, seed=3)
    assert exact.exact and not sampled.exact and sampled.trials == 100_000
    for name in ("eq", "sc", "hi"):
        want, got = float(exact[name].fraction), sampled[name]
        se = got.std_error if name == "eq" else math.sqrt(want * (1 - want) / sampled.trials)
        assert abs(got.value - want) <= 4 * se + 1e-12, (name, got.value, want, se)
    p = exact.acceptance
    se = math.sqrt(p * (1 - p) / sampled.dealt)
    assert abs(sampled.acceptance - p) <= 4 * se + 1e-12
