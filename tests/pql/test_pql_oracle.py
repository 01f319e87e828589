"""PQL's functions against the independent brute-force oracle (tests/support/pql_oracle.py).

Each spot is small (fixed hands, a given flop or turn; stud from sixth street), so the
oracle walks every ordered run-out in plain Python over the reference evaluator; the
engine answers the same query with ``exact=True``, and every selector is compared as an
exact Fraction (histograms bucket by bucket), with the acceptance rate of ``where``.
"""
from __future__ import annotations

import math
from fractions import Fraction

import pytest

import pokereval as pe
from pokereval.query import PqlError, pql
from pql_oracle import Spot

H, V, W = 0, 1, 2  # hero, villain, villain2 (players in the order written)


def bucket(x: Fraction) -> str:
    """The engine's histogram bucket of an equity (100 equal-width buckets over [0, 1])."""
    k = min(max(math.floor(x * 100), 0), 99)
    return f"{k / 100:.2f}-{(k + 1) / 100:.2f}"


def _label(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return Fraction(v)
    return v


def check(game, players: dict, board, selectors, where=None, dead=""):
    """Run the query in the engine (exact) and the oracle; compare every selector.

    ``selectors``: (selector, PQL expression, oracle function of a Deal); ``where``: (PQL
    condition, oracle predicate) or None."""
    spot = Spot(game, list(players.values()), board, dead)
    cols = ", ".join(f"{s}({e}) as c{i}" for i, (s, e, _) in enumerate(selectors))
    binds = ", ".join(f"{name}='{hand}'" for name, hand in players.items())
    query = f"select {cols} from game='{game}', {binds}"
    query += f", board='{board}'" if board else ""
    query += f", dead='{dead}'" if dead else ""
    query += f" where {where[0]}" if where else ""
    result = pql(query, exact=True)
    assert result.exact
    accept = where[1] if where else None
    wrong = []
    for i, (selector, expr, f) in enumerate(selectors):
        got = result[f"c{i}"]
        if selector == "histogram":
            want = {}
            for k, v in spot.histogram(f, accept).items():
                want[_label(k)] = want.get(_label(k), 0) + v
        else:
            want = getattr(spot, selector)(f, accept)
        if got.fraction != want:
            wrong.append(f"{selector}({expr}): engine {got.fraction}, oracle {want}")
    assert Fraction(result.trials, result.dealt) == spot.acceptance(accept), "acceptance"
    assert not wrong, f"{game} {players} board={board!r}:\n  " + "\n  ".join(wrong)


# --------------------------------------------------------------------------------------
# hold'em
# --------------------------------------------------------------------------------------

HOLDEM_FLOP = ("holdem", {"hero": "AhKh", "villain": "QsQd"}, "Jh7h2c")


def test_holdem_flop_showdown():
    check(*HOLDEM_FLOP, [
        ("avg", "riverEquity(hero)", lambda d: d.river_equity(H)),
        ("avg", "riverEquity(villain)", lambda d: d.river_equity(V)),
        ("histogram", "fractionalRiverEquity(hero)", lambda d: d.fractional_river_equity(H)),
        ("count", "winsHi(hero)", lambda d: d.wins_hi(H)),
        ("count", "tiesHi(villain)", lambda d: d.ties_hi(V)),
        ("count", "scoops(villain)", lambda d: d.scoops(V)),
        ("histogram", "winningHandType()", lambda d: d.winning_hand_type()),
        ("min", "riverEquity(hero)", lambda d: d.river_equity(H)),
    ])


def test_holdem_flop_hands_on_streets():
    check(*HOLDEM_FLOP, [
        ("histogram", "handType(hero, preflop)", lambda d: d.hand_type(H, "preflop")),
        ("histogram", "handType(villain, flop)", lambda d: d.hand_type(V, "flop")),
        ("histogram", "handType(hero, turn)", lambda d: d.hand_type(H, "turn")),
        ("histogram", "handType(hero, river)", lambda d: d.hand_type(H, "river")),
        ("count", "minHandType(hero, river, flush)", lambda d: d.min_hand_type(H, "river", "flush")),
        ("count", "exactHandType(hero, turn, pair)", lambda d: d.exact_hand_type(H, "turn", "pair")),
        ("count", "handType(villain, river) >= trips", lambda d: d.min_hand_type(V, "river", "trips")),
        ("count", "minHiRating(villain, river, rateHiHand('QQQ22'))",
         lambda d: d.min_hi_rating(V, "river", "QQQ22")),
        ("count", "hiRating(hero, turn) > hiRating(villain, turn)",
         lambda d: d.hi_rating(H, "turn") > d.hi_rating(V, "turn")),
        ("count", "hiRating(hero, river) >= rateHiHand('AKQJ9')",
         lambda d: d.min_hi_rating(H, "river", "AKQJ9")),
        ("count", "bestHiRating(hero, turn)", lambda d: d.best_hi_rating(H, "turn")),
        ("count", "bestHiRating(villain, river)", lambda d: d.best_hi_rating(V, "river")),
    ])


def test_holdem_flop_equity_and_nuts():
    check(*HOLDEM_FLOP, [
        ("avg", "equity(hero, flop)", lambda d: d.equity(H, "flop")),
        ("avg", "equity(hero, turn)", lambda d: d.equity(H, "turn")),
        ("avg", "HvHEquity(villain, turn)", lambda d: d.equity(V, "turn")),
        ("max", "equity(hero, turn)", lambda d: d.equity(H, "turn")),
        ("histogram", "equity(hero, turn)", lambda d: bucket(d.equity(H, "turn"))),
        ("count", "minEquity(hero, turn, 0.5)", lambda d: d.equity(H, "turn") >= Fraction(1, 2)),
        ("count", "nutHi(hero, flop)", lambda d: d.nut_hi(H, "flop")),
        ("count", "nutHi(hero, turn)", lambda d: d.nut_hi(H, "turn")),
        ("count", "nutHi(villain, turn)", lambda d: d.nut_hi(V, "turn")),
        ("avg", "nutHiOuts(hero, flop)", lambda d: d.nut_hi_outs(H, "flop")),
        ("avg", "outsToHandType(hero, flop, flush)", lambda d: d.outs_to_hand_type(H, "flop", "flush")),
        ("avg", "outsToHandType(villain, turn, trips)",
         lambda d: d.outs_to_hand_type(V, "turn", "trips")),
        ("count", "minOutsToHandType(hero, turn, pair, 6)",
         lambda d: d.min_outs_to_hand_type(H, "turn", "pair", 6)),
    ])


def test_holdem_flop_board_texture():
    check(*HOLDEM_FLOP, [
        ("count", "flushingBoard(flop)", lambda d: d.flushing_board("flop")),
        ("count", "flushingBoard(river)", lambda d: d.flushing_board("river")),
        ("count", "monotoneBoard(turn)", lambda d: d.monotone_board("turn")),
        ("count", "twoToneBoard(turn)", lambda d: d.two_tone_board("turn")),
        ("count", "rainbowBoard(turn)", lambda d: d.rainbow_board("turn")),
        ("count", "pairedBoard(turn)", lambda d: d.paired_board("turn")),
        ("count", "pairedBoard(river)", lambda d: d.paired_board("river")),
        ("count", "straightBoard(flop)", lambda d: d.straight_board("flop")),
        ("count", "straightBoard(turn)", lambda d: d.straight_board("turn")),
        ("count", "straightBoard(river)", lambda d: d.straight_board("river")),
        ("histogram", "boardSuitCount(river)", lambda d: d.board_suit_count("river")),
        ("histogram", "boardLoCardCount(river)", lambda d: d.board_lo_card_count("river")),
        ("count", "boardAllowsMadeLo(river)", lambda d: d.board_allows_made_lo("river")),
        ("histogram", "turnCard()", lambda d: d.turn_card()),
        ("count", "riverCard() = 'Ah'", lambda d: d.river_card() == "Ah"),
    ])


def test_holdem_flop_where():
    check(*HOLDEM_FLOP, [
        ("avg", "riverEquity(hero)", lambda d: d.river_equity(H)),
        ("count", "winsHi(hero)", lambda d: d.wins_hi(H)),
        ("histogram", "handType(hero, river)", lambda d: d.hand_type(H, "river")),
    ], where=("flushingBoard(turn) and not pairedBoard(river)",
              lambda d: d.flushing_board("turn") and not d.paired_board("river")))


def test_holdem_turn_three_players_dead_card():
    players = {"hero": "AhKh", "villain": "QsQd", "villain2": "Tc9c"}
    check("holdem", players, "Jh7h2c3d", [
        ("avg", "riverEquity(hero)", lambda d: d.river_equity(H)),
        ("histogram", "fractionalRiverEquity(villain2)", lambda d: d.river_equity(W)),
        ("count", "tiesHi(hero)", lambda d: d.ties_hi(H)),
        ("count", "nutHi(hero, river)", lambda d: d.nut_hi(H, "river")),
        ("count", "nutHi(villain2, river)", lambda d: d.nut_hi(W, "river")),
        ("avg", "nutHiOuts(villain2, turn)", lambda d: d.nut_hi_outs(W, "turn")),
        ("avg", "outsToHandType(hero, turn, pair)", lambda d: d.outs_to_hand_type(H, "turn", "pair")),
        ("avg", "equity(villain2, flop)", lambda d: d.equity(W, "flop")),
        ("avg", "equity(villain2, turn)", lambda d: d.equity(W, "turn")),
    ], dead="8s")


# --------------------------------------------------------------------------------------
# Omaha (high, hi/lo, five cards), Courchevel
# --------------------------------------------------------------------------------------

def test_omahahi_flop():
    check("omahahi", {"hero": "AhKhQsJs", "villain": "9c8c7d6d"}, "Th5h2c", [
        ("avg", "riverEquity(hero)", lambda d: d.river_equity(H)),
        ("histogram", "fractionalRiverEquity(villain)", lambda d: d.river_equity(V)),
        ("count", "winsHi(villain)", lambda d: d.wins_hi(V)),
        ("count", "tiesHi(hero)", lambda d: d.ties_hi(H)),
        ("histogram", "winningHandType()", lambda d: d.winning_hand_type()),
        ("histogram", "handType(hero, turn)", lambda d: d.hand_type(H, "turn")),
        ("histogram", "handType(villain, river)", lambda d: d.hand_type(V, "river")),
        ("count", "bestHiRating(villain, turn)", lambda d: d.best_hi_rating(V, "turn")),
        ("avg", "equity(hero, turn)", lambda d: d.equity(H, "turn")),
        ("count", "nutHi(hero, flop)", lambda d: d.nut_hi(H, "flop")),
        ("count", "nutHi(hero, turn)", lambda d: d.nut_hi(H, "turn")),
        ("count", "nutHi(villain, turn)", lambda d: d.nut_hi(V, "turn")),
        ("avg", "nutHiOuts(hero, flop)", lambda d: d.nut_hi_outs(H, "flop")),
        ("avg", "outsToHandType(villain, flop, straight)",
         lambda d: d.outs_to_hand_type(V, "flop", "straight")),
        ("avg", "outsToHandType(hero, flop, 'flush')", lambda d: d.outs_to_hand_type(H, "flop", "flush")),
        ("count", "straightBoard(turn)", lambda d: d.straight_board("turn")),
    ])


OMAHA8_FLOP = ("omaha8", {"hero": "Ah2h3sKs", "villain": "Ad2dQcJc"}, "5h7c9d")


def test_omaha8_flop_showdown_and_lows():
    check(*OMAHA8_FLOP, [
        ("avg", "riverEquity(hero)", lambda d: d.river_equity(H)),
        ("histogram", "fractionalRiverEquity(hero)", lambda d: d.river_equity(H)),
        ("count", "winsHi(hero)", lambda d: d.wins_hi(H)),
        ("count", "winsLo(hero)", lambda d: d.wins_lo(H)),
        ("count", "tiesLo(villain)", lambda d: d.ties_lo(V)),
        ("count", "scoops(hero)", lambda d: d.scoops(H)),
        ("count", "scoops(villain)", lambda d: d.scoops(V)),
        ("count", "madeLo(hero, flop)", lambda d: d.made_lo(H, "flop")),
        ("count", "madeLo(villain, turn)", lambda d: d.made_lo(V, "turn")),
        ("count", "madeLo(hero, river)", lambda d: d.made_lo(H, "river")),
        ("count", "minLoRating(hero, river, rateLoHand('7532A'))",
         lambda d: d.min_lo_rating(H, "river", "7532A")),
        ("count", "bestLoRating(hero, river)", lambda d: d.best_lo_rating(H, "river")),
        ("count", "bestLoRating(villain, turn)", lambda d: d.best_lo_rating(V, "turn")),
        ("count", "bestHiRating(villain, river)", lambda d: d.best_hi_rating(V, "river")),
        ("count", "boardAllowsMadeLo(turn)", lambda d: d.board_allows_made_lo("turn")),
        ("histogram", "boardLoCardCount(river)", lambda d: d.board_lo_card_count("river")),
    ])


def test_omaha8_flop_nuts_and_equity():
    check(*OMAHA8_FLOP, [
        ("avg", "equity(hero, turn)", lambda d: d.equity(H, "turn")),
        ("avg", "equity(villain, flop)", lambda d: d.equity(V, "flop")),
        ("count", "nutLo(hero, flop)", lambda d: d.nut_lo(H, "flop")),
        ("count", "nutLo(hero, turn)", lambda d: d.nut_lo(H, "turn")),
        ("count", "nutLo(villain, turn)", lambda d: d.nut_lo(V, "turn")),
        ("count", "nutHi(hero, turn)", lambda d: d.nut_hi(H, "turn")),
        ("avg", "nutLoOuts(hero, flop)", lambda d: d.nut_lo_outs(H, "flop")),
        ("avg", "nutHiOuts(villain, flop)", lambda d: d.nut_hi_outs(V, "flop")),
    ], where=("not pairedBoard(turn)", lambda d: not d.paired_board("turn")))


def test_omaha85_turn():
    players = {"hero": "Ah2h3sKsQd", "villain": "Ad2dJcTc9h"}
    check("omaha85", players, "5h7c8dKc", [
        ("avg", "riverEquity(hero)", lambda d: d.river_equity(H)),
        ("histogram", "fractionalRiverEquity(villain)", lambda d: d.river_equity(V)),
        ("count", "winsLo(hero)", lambda d: d.wins_lo(H)),
        ("count", "tiesLo(hero)", lambda d: d.ties_lo(H)),
        ("count", "winsHi(villain)", lambda d: d.wins_hi(V)),
        ("count", "scoops(villain)", lambda d: d.scoops(V)),
        ("count", "madeLo(villain, river)", lambda d: d.made_lo(V, "river")),
        ("count", "nutLo(hero, river)", lambda d: d.nut_lo(H, "river")),
        ("count", "nutLo(villain, turn)", lambda d: d.nut_lo(V, "turn")),
        ("count", "nutHi(villain, river)", lambda d: d.nut_hi(V, "river")),
        ("avg", "nutLoOuts(villain, turn)", lambda d: d.nut_lo_outs(V, "turn")),
        ("avg", "nutHiOuts(hero, turn)", lambda d: d.nut_hi_outs(H, "turn")),
        ("avg", "equity(hero, flop)", lambda d: d.equity(H, "flop")),
        ("histogram", "handType(villain, river)", lambda d: d.hand_type(V, "river")),
    ])


def test_omahahi5_turn():
    check("omahahi5", {"hero": "AsKsQhJh9c", "villain": "8d8c7s6s2h"}, "Ts8h3s4d", [
        ("avg", "riverEquity(villain)", lambda d: d.river_equity(V)),
        ("count", "winsHi(hero)", lambda d: d.wins_hi(H)),
        ("count", "nutHi(hero, river)", lambda d: d.nut_hi(H, "river")),
        ("avg", "outsToHandType(villain, turn, fullhouse)",
         lambda d: d.outs_to_hand_type(V, "turn", "fullhouse")),
        ("histogram", "riverCard()", lambda d: d.river_card()),
    ])


def test_courchevel_flop():
    check("courchevel", {"hero": "AhKhQsJs2d", "villain": "9c8c7d6d3h"}, "Th5h2c", [
        ("avg", "riverEquity(hero)", lambda d: d.river_equity(H)),
        ("count", "winsHi(villain)", lambda d: d.wins_hi(V)),
        ("histogram", "handType(hero, river)", lambda d: d.hand_type(H, "river")),
        ("count", "monotoneBoard(preflop)", lambda d: d.monotone_board("preflop")),
        ("histogram", "boardSuitCount(turn)", lambda d: d.board_suit_count("turn")),
        ("avg", "equity(villain, turn)", lambda d: d.equity(V, "turn")),
        ("count", "nutHi(hero, turn)", lambda d: d.nut_hi(H, "turn")),
    ])


def test_courchevel_hilo_turn():
    players = {"hero": "Ah2h3sKsQd", "villain": "Ad4dJcTc9h"}
    check("courchevel-hilo", players, "5h7c8dKc", [
        ("avg", "riverEquity(hero)", lambda d: d.river_equity(H)),
        ("histogram", "fractionalRiverEquity(hero)", lambda d: d.river_equity(H)),
        ("count", "winsLo(villain)", lambda d: d.wins_lo(V)),
        ("count", "nutLo(hero, river)", lambda d: d.nut_lo(H, "river")),
        ("avg", "nutLoOuts(hero, turn)", lambda d: d.nut_lo_outs(H, "turn")),
        ("count", "madeLo(villain, river)", lambda d: d.made_lo(V, "river")),
    ])


# --------------------------------------------------------------------------------------
# Stud (sixth street known: each player's seventh card to come)
# --------------------------------------------------------------------------------------

def test_studhi_sixth():
    players = {"hero": "AhAsKd7c2d9h", "villain": "QcQdJs8s8h3c"}
    check("studhi", players, "", [
        ("avg", "riverEquity(hero)", lambda d: d.river_equity(H)),
        ("histogram", "fractionalRiverEquity(villain)", lambda d: d.river_equity(V)),
        ("count", "winsHi(villain)", lambda d: d.wins_hi(V)),
        ("count", "tiesHi(hero)", lambda d: d.ties_hi(H)),
        ("count", "scoops(hero)", lambda d: d.scoops(H)),
        ("histogram", "winningHandType()", lambda d: d.winning_hand_type()),
        ("histogram", "handType(hero, third)", lambda d: d.hand_type(H, "third")),
        ("histogram", "handType(villain, fourth)", lambda d: d.hand_type(V, "fourth")),
        ("histogram", "handType(villain, seventh)", lambda d: d.hand_type(V, "seventh")),
        ("count", "bestHiRating(hero, fourth)", lambda d: d.best_hi_rating(H, "fourth")),
        ("count", "bestHiRating(villain, fifth)", lambda d: d.best_hi_rating(V, "fifth")),
        ("count", "minHiRating(hero, seventh, rateHiHand('AAK77'))",
         lambda d: d.min_hi_rating(H, "seventh", "AAK77")),
        ("avg", "equity(hero, sixth)", lambda d: d.equity(H, "sixth")),
        ("avg", "equity(villain, seventh)", lambda d: d.equity(V, "seventh")),
        ("histogram", "upCard(hero, sixth)", lambda d: d.up_card(H, "sixth")),
        ("count", "upCard(villain, third) = 'Js'", lambda d: d.up_card(V, "third") == "Js"),
    ])


def test_stud8_sixth():
    players = {"hero": "Ah2d3c9s4hKd", "villain": "As5c6d7hQhJc"}
    check("stud8", players, "", [
        ("avg", "riverEquity(hero)", lambda d: d.river_equity(H)),
        ("histogram", "fractionalRiverEquity(hero)", lambda d: d.river_equity(H)),
        ("count", "winsLo(hero)", lambda d: d.wins_lo(H)),
        ("count", "tiesLo(villain)", lambda d: d.ties_lo(V)),
        ("count", "winsHi(villain)", lambda d: d.wins_hi(V)),
        ("count", "scoops(villain)", lambda d: d.scoops(V)),
        ("count", "madeLo(hero, sixth)", lambda d: d.made_lo(H, "sixth")),
        ("count", "madeLo(villain, seventh)", lambda d: d.made_lo(V, "seventh")),
        ("count", "minLoRating(villain, seventh, rateLoHand('7654A'))",
         lambda d: d.min_lo_rating(V, "seventh", "7654A")),
        ("count", "bestLoRating(villain, seventh)", lambda d: d.best_lo_rating(V, "seventh")),
        ("count", "bestLoRating(hero, sixth)", lambda d: d.best_lo_rating(H, "sixth")),
        ("avg", "equity(villain, sixth)", lambda d: d.equity(V, "sixth")),
    ])


def test_razz_sixth():
    players = {"hero": "Ah2d3c9s4hKd", "villain": "As5c6d7hQh2c"}
    check("razz", players, "", [
        ("avg", "riverEquity(hero)", lambda d: d.river_equity(H)),
        ("histogram", "fractionalRiverEquity(villain)", lambda d: d.river_equity(V)),
        ("count", "winsLo(hero)", lambda d: d.wins_lo(H)),
        ("count", "tiesLo(hero)", lambda d: d.ties_lo(H)),
        ("count", "scoops(villain)", lambda d: d.scoops(V)),
        ("count", "minLoRating(villain, seventh, rateLoHand('7532A'))",
         lambda d: d.min_lo_rating(V, "seventh", "7532A")),
        ("count", "minLoRating(hero, seventh, rateLoHand('8432A'))",
         lambda d: d.min_lo_rating(H, "seventh", "8432A")),
        ("count", "bestLoRating(villain, seventh)", lambda d: d.best_lo_rating(V, "seventh")),
        ("count", "bestLoRating(hero, sixth)", lambda d: d.best_lo_rating(H, "sixth")),
        ("avg", "equity(hero, sixth)", lambda d: d.equity(H, "sixth")),
        ("histogram", "upCard(villain, sixth)", lambda d: d.up_card(V, "sixth")),
    ])


# --------------------------------------------------------------------------------------
# Three players: split lows (quarters and sixths), board-plays nuts
# --------------------------------------------------------------------------------------

def test_omaha8_turn_three_players():
    players = {"hero": "Ah2h3sKs", "villain": "Ad2dQcJc", "villain2": "As2s9h9c"}
    check("omaha8", players, "5h7c9dTd", [
        ("avg", "riverEquity(hero)", lambda d: d.river_equity(H)),
        ("histogram", "fractionalRiverEquity(hero)", lambda d: d.river_equity(H)),
        ("histogram", "fractionalRiverEquity(villain2)", lambda d: d.river_equity(W)),
        ("count", "winsLo(hero)", lambda d: d.wins_lo(H)),
        ("count", "tiesLo(villain2)", lambda d: d.ties_lo(W)),
        ("count", "tiesHi(villain)", lambda d: d.ties_hi(V)),
        ("count", "scoops(villain2)", lambda d: d.scoops(W)),
        ("count", "bestLoRating(villain, river)", lambda d: d.best_lo_rating(V, "river")),
        ("count", "nutLo(villain2, river)", lambda d: d.nut_lo(W, "river")),
        ("avg", "equity(villain2, flop)", lambda d: d.equity(W, "flop")),
        ("avg", "nutLoOuts(hero, turn)", lambda d: d.nut_lo_outs(H, "turn")),
    ], where=("madeLo(hero, river)", lambda d: d.made_lo(H, "river")))


def test_stud8_sixth_three_players():
    players = {"hero": "Ah2d3c9s4hKd", "villain": "As5c6d7hQhJc", "villain2": "2c3d8s8hTcTd"}
    check("stud8", players, "", [
        ("avg", "riverEquity(villain2)", lambda d: d.river_equity(W)),
        ("histogram", "fractionalRiverEquity(hero)", lambda d: d.river_equity(H)),
        ("count", "tiesLo(hero)", lambda d: d.ties_lo(H)),
        ("count", "winsHi(villain2)", lambda d: d.wins_hi(W)),
        ("count", "bestHiRating(villain2, sixth)", lambda d: d.best_hi_rating(W, "sixth")),
        ("histogram", "winningHandType()", lambda d: d.winning_hand_type()),
        ("avg", "equity(hero, sixth)", lambda d: d.equity(H, "sixth")),
    ])


def test_holdem_board_plays_nuts():
    players = {"hero": "Ts2d", "villain": "9s9d"}
    check("holdem", players, "AsKsQsJs", [
        ("count", "nutHi(hero, turn)", lambda d: d.nut_hi(H, "turn")),
        ("count", "nutHi(villain, turn)", lambda d: d.nut_hi(V, "turn")),
        ("count", "nutHi(villain, river)", lambda d: d.nut_hi(V, "river")),
        ("count", "tiesHi(villain)", lambda d: d.ties_hi(V)),
        ("histogram", "winningHandType()", lambda d: d.winning_hand_type()),
        ("count", "rainbowBoard(flop)", lambda d: d.rainbow_board("flop")),
        ("count", "monotoneBoard(river)", lambda d: d.monotone_board("river")),
        ("count", "straightBoard(flop)", lambda d: d.straight_board("flop")),
        ("histogram", "boardSuitCount(river)", lambda d: d.board_suit_count("river")),
    ])


def test_holdem_flop_rainbow_wheel_board():
    """A rainbow flop of low cards: the wheel counts for straightBoard, lows for the
    low-card functions (hold'em has no low pot, but the board functions still read)."""
    check("holdem", {"hero": "AdKc", "villain": "8h8s"}, "Ac3h5s", [
        ("count", "rainbowBoard(flop)", lambda d: d.rainbow_board("flop")),
        ("count", "rainbowBoard(turn)", lambda d: d.rainbow_board("turn")),
        ("count", "twoToneBoard(river)", lambda d: d.two_tone_board("river")),
        ("count", "straightBoard(flop)", lambda d: d.straight_board("flop")),
        ("count", "boardAllowsMadeLo(flop)", lambda d: d.board_allows_made_lo("flop")),
        ("histogram", "boardLoCardCount(river)", lambda d: d.board_lo_card_count("river")),
        ("count", "nutHi(villain, turn)", lambda d: d.nut_hi(V, "turn")),
        ("avg", "nutHiOuts(hero, flop)", lambda d: d.nut_hi_outs(H, "flop")),
        ("avg", "outsToHandType(hero, flop, straight)",
         lambda d: d.outs_to_hand_type(H, "flop", "straight")),
    ])


def test_razz_partial_streets():
    """Third and fourth street lows (fewer than five cards): pairs count as in razz, so one
    pair (KK45) beats two pair (2233) on fourth street."""
    players = {"hero": "2d2c3s3hAh9s", "villain": "KdKc4d5dQh7c"}
    check("razz", players, "", [
        ("count", "bestLoRating(hero, third)", lambda d: d.best_lo_rating(H, "third")),
        ("count", "bestLoRating(hero, fourth)", lambda d: d.best_lo_rating(H, "fourth")),
        ("count", "bestLoRating(villain, fourth)", lambda d: d.best_lo_rating(V, "fourth")),
        ("count", "bestLoRating(villain, fifth)", lambda d: d.best_lo_rating(V, "fifth")),
        ("avg", "riverEquity(hero)", lambda d: d.river_equity(H)),
    ])


def test_expressions_case_arithmetic_where():
    """case, arithmetic and comparisons over the functions, exact (the oracle computes the
    same expressions in Python)."""
    def case_share(d):
        return 1 if d.wins_hi(H) else Fraction(1, 2) if d.ties_hi(H) else 0
    check(*HOLDEM_FLOP, [
        ("avg", "case when winsHi(hero) then 1 when tiesHi(hero) then 0.5 else 0 end", case_share),
        ("avg", "riverEquity(hero) * 2 - equity(hero, turn)",
         lambda d: 2 * d.river_equity(H) - d.equity(H, "turn")),
        ("avg", "case handType(hero, river) when flush then 3 when straight then 2 else 1 end",
         lambda d: {"flush": 3, "straight": 2}.get(d.hand_type(H, "river"), 1)),
        ("count", "minHiRating(hero, river, rateHiHand('AsKsQsJsTs')) or "
                  "hiRating(villain, river) < rateHiHand('QQJJ2')",
         lambda d: d.min_hi_rating(H, "river", "AsKsQsJsTs") or
         d.hi_rating(V, "river") < (2, 12, 11, 2)),
        ("max", "boardLoCardCount(river)", lambda d: d.board_lo_card_count("river")),
        ("min", "equity(villain, turn)", lambda d: d.equity(V, "turn")),
    ], where=("minEquity(hero, turn, 0.3) and handType(hero, turn) <> highcard",
              lambda d: d.equity(H, "turn") >= Fraction(3, 10) and d.hand_type(H, "turn") != "highcard"))


def test_stud_one_player_from_fifth():
    """One stud player from fifth street: sixth and seventh both to come, in order."""
    check("studhi", {"hero": "AhKdKs7c7d"}, "", [
        ("histogram", "handType(hero, sixth)", lambda d: d.hand_type(H, "sixth")),
        ("histogram", "handType(hero, seventh)", lambda d: d.hand_type(H, "seventh")),
        ("count", "upCard(hero, sixth) = 'Ac'", lambda d: d.up_card(H, "sixth") == "Ac"),
        ("count", "minHiRating(hero, sixth, rateHiHand('KKK77'))",
         lambda d: d.min_hi_rating(H, "sixth", "KKK77")),
    ], where=("handType(hero, sixth) = twopair", lambda d: d.hand_type(H, "sixth") == "twopair"))


def test_stud_outs_to_hand_type():
    players = {"hero": "AhAsKd7c2d9h", "villain": "QcQdJs8s8h3c"}
    check("studhi", players, "", [
        ("avg", "outsToHandType(hero, fifth, twopair)",
         lambda d: d.stud_outs_to_hand_type(H, "fifth", "twopair")),
        ("avg", "outsToHandType(villain, sixth, fullhouse)",
         lambda d: d.stud_outs_to_hand_type(V, "sixth", "fullhouse")),
    ])


def test_stud_outs_on_early_streets_and_min_outs():
    """Third street (four cards after the out: pairs and kickers only), fourth street, and
    three players in stud8, where villain's up cards and a dead card are not outs."""
    players = {"hero": "7h7d7c8s9sTs", "villain": "2c3c8h8dJdJh", "villain2": "6s5s4h3hKcAd"}
    check("stud8", players, "", [
        ("avg", "outsToHandType(hero, third, quads)", lambda d: d.stud_outs_to_hand_type(H, "third", "quads")),
        ("avg", "outsToHandType(villain, third, pair)",
         lambda d: d.stud_outs_to_hand_type(V, "third", "pair")),
        ("avg", "outsToHandType(villain2, fourth, straight)",
         lambda d: d.stud_outs_to_hand_type(W, "fourth", "straight")),
        ("avg", "outsToHandType(hero, fifth, fullhouse)",
         lambda d: d.stud_outs_to_hand_type(H, "fifth", "fullhouse")),
        ("avg", "outsToHandType(villain2, fifth, straight)",
         lambda d: d.stud_outs_to_hand_type(W, "fifth", "straight")),
        ("count", "minOutsToHandType(villain, sixth, fullhouse, 3)",
         lambda d: d.stud_outs_to_hand_type(V, "sixth", "fullhouse") >= 3),
        ("count", "minOutsToHandType(villain, sixth, fullhouse, 4)",
         lambda d: d.stud_outs_to_hand_type(V, "sixth", "fullhouse") >= 4),
    ], dead="9h")


def test_stud_outs_refusals():
    with pytest.raises(PqlError, match="third to sixth"):
        pql("select avg(outsToHandType(hero, seventh, flush)) from game='studhi', hero='AhKh2c3d4s5s6s'")
    with pytest.raises(PqlError, match="has no board"):
        pql("select avg(nutHiOuts(hero, fifth)) from game='studhi', hero='AhKh2c3d4s5s6s'")
    with pytest.raises(PqlError, match="has no high"):
        pql("select avg(outsToHandType(hero, fifth, flush)) from game='razz', hero='AhKh2c3d4s5s6s'")


def test_holdem_turn_nuts_on_the_river_with_a_where():
    """Four-flush rivers (one-card flushes), straights, and nested selectors under a WHERE
    that rejects rows (the engine computes them on the accepted rows only)."""
    check("holdem", {"hero": "AhQh", "villain": "KsKd"}, "Jh7h2cTs", [
        ("count", "nutHi(villain, river)", lambda d: d.nut_hi(V, "river")),
        ("avg", "nutHiOuts(hero, turn)", lambda d: d.nut_hi_outs(H, "turn")),
        ("avg", "equity(villain, turn)", lambda d: d.equity(V, "turn")),
        ("avg", "riverEquity(hero)", lambda d: d.river_equity(H)),
    ], where=("not nutHi(hero, river)", lambda d: not d.nut_hi(H, "river")))


def test_omahahi_turn_nut_high_flush_board():
    check("omahahi", {"hero": "AhKh9s8s", "villain": "QcQd7h6h"}, "Jh5h2cTs", [
        ("count", "nutHi(hero, turn)", lambda d: d.nut_hi(H, "turn")),
        ("count", "nutHi(villain, river)", lambda d: d.nut_hi(V, "river")),
        ("count", "nutHi(hero, river)", lambda d: d.nut_hi(H, "river")),
    ], where=("flushingBoard(river) or pairedBoard(river)",
              lambda d: d.flushing_board("river") or d.paired_board("river")))


def test_omaha8_turn_nut_low_where_nested():
    check("omaha8", {"hero": "As2d5c9h", "villain": "Ad3h4sKc"}, "7c8dJs6h", [
        ("count", "nutLo(villain, river)", lambda d: d.nut_lo(V, "river")),
        ("avg", "equity(hero, turn)", lambda d: d.equity(H, "turn")),
        ("count", "tiesLo(hero)", lambda d: d.ties_lo(H)),
    ], where=("nutLo(hero, river) or nutLo(villain, river)",
              lambda d: d.nut_lo(H, "river") or d.nut_lo(V, "river")))
