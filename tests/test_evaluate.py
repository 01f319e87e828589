"""Tests of the public evaluator: pe.evaluate and pe.evaluate_batch.

Judged by the reference vectors (tests/data) and by the naive oracle
(tests/support/naive.py); value encodings per docs/ARCHITECTURE.md.
"""
import random
import re
import zlib
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import naive
from naive import GAMES, parse_cards

import pokereval as pe
from pokereval.errors import PokerEvalError

VECTORS = naive.load_jsonl("eval_vectors.jsonl")
ALL_GAMES = list(GAMES)

RANK_WORDS = {2: "two|deuce", 3: "three|trey", 4: "four", 5: "five", 6: "six", 7: "seven",
              8: "eight", 9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace"}


# -- helpers --------------------------------------------------------------------

def card_set(cards):
    """The set of card indices in a `.cards` attribute (a string, or a sequence)."""
    if isinstance(cards, str):
        return set(parse_cards(cards))
    return {c if isinstance(c, int) else parse_cards(c)[0] for c in cards}


def sign(x):
    return (x > 0) - (x < 0)


def low_text(ranks):
    """(8, 6, 4, 2, 1) -> "8-6-4-2-A"; tens may read T or 10."""
    names = {1: "A", 10: "(T|10)", 11: "J", 12: "Q", 13: "K"}
    return "-".join(names.get(r, str(r)) for r in ranks)


def low_mask(ranks):
    """ARCHITECTURE.md: the 8-bit set of low ranks, bit 0 = ace ... bit 7 = eight."""
    return sum(1 << (r - 1) for r in ranks)


def one_line_error(excinfo, *needles):
    """The error is one line and quotes each needle (spaces/commas/quotes ignored)."""
    msg = str(excinfo.value)
    assert msg and "\n" not in msg.strip(), msg
    flat = re.sub(r"[\s,'\"\[\]()]", "", msg).lower()
    for needle in needles:
        assert re.sub(r"[\s,]", "", needle).lower() in flat, (needle, msg)


def strength(game, hole, board):
    """Naive (high, low) of one hand as sortable tuples, bigger = better.

    High: the high key (None in razz).  Low: hi/lo games (0,) for no low, else
    (1, negated ranks); razz the negated razz key; high-only games None.
    """
    pot = GAMES[game].pot
    high = naive.hand_high(game, hole, board)[0] if pot != "razz" else None
    if pot == "hilo":
        low = naive.hand_low8(game, hole, board)
        low = (0,) if low is None else (1, *(-r for r in low[0]))
    elif pot == "razz":
        low = tuple(-x for x in naive.hand_razz(hole, board)[0])
    else:
        low = None
    return high, low


# -- the reference vectors ------------------------------------------------------

def _check_line(v):
    """pe.evaluate on one vector line; returns the Evaluation."""
    game, where = v["game"], f"{v['game']} deal {v['deal']} seat {v['seat']}"
    hole, board = parse_cards(v["hole"]), parse_cards(v["board"])
    e = pe.evaluate(game, v["hole"], v["board"])
    used_from = set(hole) | set(board)

    if "high" in v:
        h = e.high
        assert h is not None, where
        assert h.category == v["high"]["category"], where
        assert h.value >> 12 == v["high"]["key"][0], where
        five = card_set(h.cards)
        assert len(five) == 5 and five <= used_from, where
        if GAMES[game].omaha:
            assert len(five & set(hole)) == 2, where
        assert list(naive.high_key(sorted(five))) == v["high"]["key"], where
    else:
        assert e.high is None, where                     # razz

    if "low" in v:
        if v["low"] is None:
            assert e.low is None, where
        else:
            lo = e.low
            assert lo is not None, where
            five = card_set(lo.cards)
            assert len(five) == 5 and five <= used_from, where
            if GAMES[game].omaha:
                assert len(five & set(hole)) == 2, where
            assert list(naive.low8_key(sorted(five))) == v["low"]["ranks"], where
            assert lo.value == 255 - low_mask(v["low"]["ranks"]), where
    elif "razz_low" in v:
        lo = e.low
        assert lo is not None, where
        five = card_set(lo.cards)
        assert len(five) == 5 and five <= used_from, where
        assert list(naive.razz_key(sorted(five))) == v["razz_low"]["key"], where
    else:
        assert e.low is None, where                      # high-only game
    return e


def _compare_objects(a, b, want, where):
    """a, b: hand objects (or None = no low); want: sign of "a beats b"."""
    if a is None or b is None:
        assert sign((a is not None) - (b is not None)) == want, where
        return
    assert (a > b, a == b, a < b) == (want > 0, want == 0, want < 0), where
    assert sign(a.value - b.value) == want, where


@pytest.mark.parametrize("game", sorted({v["game"] for v in VECTORS}))
def test_vectors(game):
    deals = {}
    for v in VECTORS:
        if v["game"] == game:
            deals.setdefault(v["deal"], []).append((v, _check_line(v)))
    assert len(deals) >= 100

    for deal, seats in deals.items():
        for (va, ea), (vb, eb) in combinations(seats, 2):
            where = f"{game} deal {deal} seats {va['seat']},{vb['seat']}"
            if "high" in va:
                ka, kb = va["high"]["key"], vb["high"]["key"]
                _compare_objects(ea.high, eb.high, sign((ka > kb) - (ka < kb)), where)
            if "low" in va:
                # smaller ranks are better; no low is worst
                la = va["low"]["ranks"] if va["low"] else [99]
                lb = vb["low"]["ranks"] if vb["low"] else [99]
                _compare_objects(ea.low, eb.low, sign((la < lb) - (la > lb)), where)
            if "razz_low" in va:
                ka, kb = va["razz_low"]["key"], vb["razz_low"]["key"]
                _compare_objects(ea.low, eb.low, sign((ka < kb) - (ka > kb)), where)


def test_vectors_strings():
    """str() names the hand: the category and its main rank; lows read "8-6-4-2-A"."""
    for v in VECTORS[::7]:
        e = pe.evaluate(v["game"], v["hole"], v["board"])
        if "high" in v:
            text = str(e.high).lower()
            key = v["high"]["key"]
            assert v["high"]["category"] in text, (text, v)
            words = "royal|ace" if key == [8, 14] else RANK_WORDS[key[1]]
            assert re.search(words, text), (text, v)
        if v.get("low"):
            assert re.search(low_text(v["low"]["ranks"]), str(e.low)), (str(e.low), v)
        if "razz_low" in v and v["razz_low"]["key"][0] == 0:   # no pair: the five ranks
            assert re.search(low_text(v["razz_low"]["ranks"]), str(e.low)), (str(e.low), v)


def test_readme_examples():
    e = pe.evaluate("holdem", "KhKd", "Ks5d5c2h9s")
    assert str(e.high) == "Full house, kings full of fives"
    assert e.high.category == "full house"
    assert card_set(e.high.cards) == set(parse_cards("KhKdKs5d5c"))
    e = pe.evaluate("omaha-hilo", "Ah2d7c9s", "8h6d4cKsQd")
    assert "8-6-4-2-A" in str(e.low)


def test_card_notation_variants():
    want = pe.evaluate("holdem", "AhKd", "2c3d4h5s7c")
    for hole, board in [("ah kd", "2c,3d,4h,5s,7c"), ("AH,KD", "2C 3D 4H 5S 7C")]:
        got = pe.evaluate("holdem", hole, board)
        assert got.high == want.high and got.high.value == want.high.value


# -- random hands: batch order == naive order ------------------------------------

FULL_DECK = list(range(52))
LOW_DECK = [c for c in range(52) if c // 4 in (0, 1, 2, 3, 4, 5, 6, 12)]
MIXED_DECK = [c for c in range(52) if c // 4 in (0, 1, 2, 3, 8, 9, 10, 11, 12)]  # A2345TJQK


def random_rows(n, hole, board, seed):
    """n random deals: uint8 holes [n, hole] and boards [n, board]; half full deck,
    a quarter from A-8 only, a quarter from A2345TJQK (lows, pairs, ties, wheels)."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        deck = (FULL_DECK, FULL_DECK, LOW_DECK, MIXED_DECK)[i % 4]
        rows.append(rng.sample(deck, hole + board))
    rows = np.array(rows, dtype=np.uint8).reshape(n, hole + board)
    return np.ascontiguousarray(rows[:, :hole]), np.ascontiguousarray(rows[:, hole:])


def shapes():
    """(game, hole cards, board cards) to test: full boards, partial boards, stud streets."""
    out = []
    for game, rules in GAMES.items():
        if rules.hole is None:
            out += [(game, 7, 0), (game, 6, 0), (game, 5, 0)]
        else:
            out += [(game, rules.hole, 5), (game, rules.hole, 4), (game, rules.hole, 3)]
    return out


def check_order(values, strengths, what):
    """values (ints) and strengths (sortable) induce the same order on the hands."""
    order = sorted(range(len(values)), key=lambda i: strengths[i])
    for i, j in zip(order, order[1:]):
        want = sign((strengths[j] > strengths[i]) - (strengths[j] < strengths[i]))
        assert sign(int(values[j]) - int(values[i])) == want, (what, i, j, strengths[i], strengths[j])


@pytest.mark.parametrize("game, nhole, nboard", shapes())
def test_batch_order_matches_naive(game, nhole, nboard):
    full = nboard == 5 or (nboard == 0 and nhole == 7)
    n = 1000 if full else 400
    holes, boards = random_rows(n, nhole, nboard, seed=zlib.crc32(f"{game}/{nhole}/{nboard}".encode()))
    high, low = pe.evaluate_batch(game, holes, boards)
    assert high.dtype == np.uint16 and low.dtype == np.uint16
    assert high.shape == low.shape == (n,)

    s = [strength(game, h.tolist(), b.tolist()) for h, b in zip(holes, boards)]
    pot = GAMES[game].pot
    if pot == "razz":
        assert not high.any()
        assert (low >= 1).all()
    else:
        check_order(high, [x[0] for x in s], "high")
        assert ((high >> 12) == [x[0][0] for x in s]).all()
    if pot == "high":
        assert not low.any()
    else:
        check_order(low, [x[1] for x in s], "low")
    if pot == "hilo":
        assert ((low == 0) == [x[1] == (0,) for x in s]).all()

    # single evaluate agrees with the batch
    for i in range(0, n, 10):
        hole, board = naive.cards_str(holes[i].tolist()), naive.cards_str(boards[i].tolist())
        e = pe.evaluate(game, hole, board)
        assert (e.high.value if e.high else 0) == high[i], (game, hole, board)
        assert (e.low.value if e.low else 0) == low[i], (game, hole, board)


def test_batch_accepts_empty():
    for game in ALL_GAMES:
        rules = GAMES[game]
        holes = np.zeros((0, rules.hole or 7), np.uint8)
        high, low = pe.evaluate_batch(game, holes, np.zeros((0, 0 if rules.hole is None else 5), np.uint8))
        assert high.shape == low.shape == (0,)


# -- the 56 qualifying lows -----------------------------------------------------

def _low_hand(ranks):
    """Cards of low ranks (ace = 1 .. eight = 8) with mixed suits."""
    return [4 * (12 if r == 1 else r - 2) + i % 4 for i, r in enumerate(ranks)]


WORST_TO_BEST = [(8, 7, 6, 5, 4), (8, 7, 3, 2, 1), (8, 6, 4, 2, 1), (8, 5, 4, 3, 2),
                 (7, 6, 5, 4, 3), (7, 5, 4, 3, 2), (7, 4, 3, 2, 1), (6, 5, 4, 3, 2),
                 (6, 4, 3, 2, 1), (5, 4, 3, 2, 1)]


def test_56_lows():
    lows = [tuple(sorted(c, reverse=True)) for c in combinations(range(1, 9), 5)]
    blockers = parse_cards("KsQh")          # two high cards that cannot play in a low
    stud, omaha = {}, {}
    for ranks in lows:
        cards = _low_hand(ranks)
        e = pe.evaluate("stud-hilo", naive.cards_str(cards + blockers))
        assert e.low is not None and e.low.value == 255 - low_mask(ranks), ranks
        assert card_set(e.low.cards) == set(cards)
        stud[ranks] = e.low
        # Omaha: two of the lows in the hole, three on the board
        hole = naive.cards_str(cards[:2] + blockers)
        board = naive.cards_str(cards[2:] + parse_cards("JdTc"))
        omaha[ranks] = pe.evaluate("omaha-hilo", hole, board).low
        assert omaha[ranks] == stud[ranks] and omaha[ranks].value == stud[ranks].value

    assert len({lo.value for lo in stud.values()}) == 56
    by_value = sorted(lows, key=lambda r: stud[r].value)       # worst first
    assert by_value == sorted(lows, reverse=True)              # ace-to-five: worst is 8-7-6-5-4
    assert by_value[0] == (8, 7, 6, 5, 4) and by_value[-1] == (5, 4, 3, 2, 1)
    assert all(stud[a] < stud[b] for a, b in zip(by_value, by_value[1:]))
    chain = [stud[r] for r in WORST_TO_BEST]
    assert all(a < b and b > a and a != b for a, b in zip(chain, chain[1:]))
    assert str(stud[(8, 6, 4, 2, 1)]).startswith("8-6-4-2-A")


def test_no_low_cases():
    assert pe.evaluate("stud-hilo", "AhAd2c3s4h9c9d").low is None          # only four low ranks
    assert pe.evaluate("omaha-hilo", "As2s3sKd", "7c8dKhQcJs").low is None  # needs 3 board lows
    assert pe.evaluate("omaha-hilo", "As2sKdKc", "3c4d5hKs9c").low.value == 255 - 0b11111
    assert pe.evaluate("omaha", "As2sKdKc", "3c4d5hKs9c").low is None        # high-only game
    assert pe.evaluate("razz", "KsKhQcQdJsJcTd").low is not None             # razz: no qualifier


# -- bad input -------------------------------------------------------------------

def test_unknown_card():
    with pytest.raises(PokerEvalError) as ex:
        pe.evaluate("holdem", "AhKx", "2c3d4h5s7c")
    one_line_error(ex, "Kx")
    with pytest.raises(PokerEvalError) as ex:
        pe.evaluate("holdem", "AhKd", "2c3d4h5s1c")
    one_line_error(ex, "1c")


def test_duplicate_cards():
    with pytest.raises(PokerEvalError) as ex:
        pe.evaluate("holdem", "AhKd", "Ah3d4h5s7c")
    one_line_error(ex, "Ah")
    with pytest.raises(PokerEvalError) as ex:
        pe.evaluate("omaha-hilo", "AhKdAh2c", "9s3d4h5s7c")
    one_line_error(ex, "Ah")


@pytest.mark.parametrize("game, hole, board", [
    ("holdem", "AhKdQc", "2c3d4h5s7c"),
    ("omaha", "AhKdQc", "2c3d4h5s7c"),
    ("omaha-hilo", "AhKdQcJc2h", "2c3d4h5s7c"),
    ("omaha5-hilo", "AhKdQcJc", "2c3d4h5s7c"),
    ("courchevel", "AhKdQc", "2c3d4h5s7c"),
    ("stud", "AhKdQcJc9s8s7s6s", ""),
])
def test_wrong_hole_count(game, hole, board):
    with pytest.raises(PokerEvalError) as ex:
        pe.evaluate(game, hole, board)
    one_line_error(ex, hole)


@pytest.mark.parametrize("game, hole", [("holdem", "AhKd"), ("omaha-hilo", "AhKd2c3c"),
                                        ("courchevel-hilo", "AhKd2c3c4c")])
def test_too_many_board_cards(game, hole):
    board = "5h6h7h8h9hTh"
    with pytest.raises(PokerEvalError) as ex:
        pe.evaluate(game, hole, board)
    one_line_error(ex, board)


def test_stud_with_board():
    with pytest.raises(PokerEvalError):
        pe.evaluate("stud-hilo", "AhKdQcJc9s", "2c3d")


def test_unknown_game():
    with pytest.raises(PokerEvalError) as ex:
        pe.evaluate("omaha-hilo-x", "AhKd2c3c", "2s3d4h5s7c")
    one_line_error(ex, "omaha-hilo-x")


@pytest.mark.parametrize("game", ALL_GAMES)
def test_batch_bad_rows(game):
    rules = GAMES[game]
    nhole, nboard = (rules.hole, 5) if rules.hole else (7, 0)
    holes, boards = random_rows(5, nhole, nboard, seed=7)
    pe.evaluate_batch(game, holes, boards)   # fine as dealt

    bad = holes.copy()
    bad[2, 0] = 52                                   # no such card
    with pytest.raises(PokerEvalError):
        pe.evaluate_batch(game, bad, boards)
    bad[2, 0] = 255
    with pytest.raises(PokerEvalError):
        pe.evaluate_batch(game, bad, boards)
    bad = holes.copy()
    bad[3, 1] = bad[3, 0]                            # repeated within the hole
    with pytest.raises(PokerEvalError):
        pe.evaluate_batch(game, bad, boards)
    if nboard:
        bad = boards.copy()
        bad[1, 4] = holes[1, 0]                      # hole card again on the board
        with pytest.raises(PokerEvalError):
            pe.evaluate_batch(game, holes, bad)
        with pytest.raises(PokerEvalError):           # board too long
            pe.evaluate_batch(game, holes, np.hstack([boards, boards[:, :1]]))
    with pytest.raises(PokerEvalError):              # wrong hole width
        pe.evaluate_batch(game, holes[:, :2] if nhole > 2 else holes[:, :1], boards)
    wide = holes.astype(np.int64)
    wide[4, 1] = -1                                  # negative card in a wider dtype
    with pytest.raises(PokerEvalError):
        pe.evaluate_batch(game, wide, boards)
    wide[4, 1] = 52
    with pytest.raises(PokerEvalError):
        pe.evaluate_batch(game, wide, boards)


# -- properties -------------------------------------------------------------------

def _shape(game):
    rules = GAMES[game]
    return (rules.hole, 5) if rules.hole else (7, 0)


def _values(e):
    return (e.high.value if e.high else 0, e.low.value if e.low else 0)


@given(game=st.sampled_from(ALL_GAMES), deck=st.permutations(range(52)), data=st.data())
def test_card_order_does_not_matter(game, deck, data):
    nhole, nboard = _shape(game)
    hole, board = deck[:nhole], deck[nhole:nhole + nboard]
    hole2 = data.draw(st.permutations(hole))
    board2 = data.draw(st.permutations(board))
    a = pe.evaluate(game, naive.cards_str(hole), naive.cards_str(board))
    b = pe.evaluate(game, naive.cards_str(hole2), naive.cards_str(board2))
    assert _values(a) == _values(b)


@given(game=st.sampled_from(ALL_GAMES), deck=st.permutations(range(52)),
       suits=st.permutations(range(4)))
def test_suit_relabelling_does_not_matter(game, deck, suits):
    nhole, nboard = _shape(game)
    hole, board = deck[:nhole], deck[nhole:nhole + nboard]
    relabel = lambda cards: [4 * (c // 4) + suits[c % 4] for c in cards]   # noqa: E731
    a = pe.evaluate(game, naive.cards_str(hole), naive.cards_str(board))
    b = pe.evaluate(game, naive.cards_str(relabel(hole)), naive.cards_str(relabel(board)))
    assert _values(a) == _values(b)
    ha, la = pe.evaluate_batch(game, np.array([hole, relabel(hole)], np.uint8),
                               np.array([board, relabel(board)], np.uint8).reshape(2, nboard))
    assert ha[0] == ha[1] and la[0] == la[1]
