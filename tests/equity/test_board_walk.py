"""The C walk of exact board spots by board rank multisets (``csrc/board_exact.c``): every
cell of the outcome counts as the NumPy tally of the spot's run-outs listed as rows (an
independent path: the C batch evaluator, no rank multisets), on random spots of every
board game (suit-heavy decks, dead cards, up to nine players, every street); its units
are the rank multisets of the missing cards, and any split of them into batches and
shares gives the same counts."""
from itertools import combinations
from math import comb
import random

import numpy as np
import pytest

import pokereval as pe
from pokereval._native import board_exact_counts, board_rank_sets
from pokereval.cards import cards_str
from pokereval.equity.spot import parse_spot
from pokereval.errors import HandError
from pokereval.games import games

BOARD_GAMES = [g for g in games() if not g.stud]


def _args(spot):
    g = spot.game
    return (np.array(spot.holes, dtype=np.uint8), g.exactly_two, g.low == "eight",
            np.array(spot.board, dtype=np.uint8), np.array(spot.unseen, dtype=np.uint8))


def _random_spot(game, rnd, board):
    """A spot of ``game`` with ``board`` known cards; half of them dealt from a deck whose
    first cards are of one or two suits (flushes for the players and the board)."""
    deck = list(range(52))
    rnd.shuffle(deck)
    if rnd.random() < 0.5:
        suits = rnd.sample(range(4), rnd.choice([1, 2]))
        deck.sort(key=lambda c: (c & 3) not in suits)
        head = deck[:20]
        rnd.shuffle(head)
        deck[:20] = head
    n = rnd.randint(2, 9 if game.hole == 2 else 4)
    hands = [cards_str(deck[i * game.hole:(i + 1) * game.hole]) for i in range(n)]
    used = n * game.hole
    dead = cards_str(deck[used + board:used + board + rnd.choice([0, 0, 2, 9])])
    return parse_spot(game.name, hands, cards_str(deck[used:used + board]), dead)


@pytest.mark.parametrize("game", BOARD_GAMES, ids=[g.name for g in BOARD_GAMES])
def test_the_walk_is_the_tally_of_every_run_out(game):
    rnd = random.Random(f"rank-walk-{game.name}")
    for board in (2, 2, 3, 4, 5) + ((1,) if game.name.startswith("courchevel") else (0,)):
        spot = _random_spot(game, rnd, board if board or game.hole != 5 else 1)
        if spot.runouts > 250_000:
            continue  # the row tally of a preflop spot takes a while: test_tally has some
        walked = board_exact_counts(*_args(spot))
        rows = pe.equity(game.name, list(spot.hand_text), cards_str(spot.board),
                         cards_str(spot.dead), breakdown=True)
        assert rows.exact and rows.samples == spot.runouts == walked[0].sum()
        np.testing.assert_array_equal(walked, [p.outcomes for p in rows.players])


def test_the_units_are_the_rank_multisets_of_the_missing_cards():
    rnd = random.Random(3)
    for nboard in range(6):
        deck = sorted(rnd.sample(range(52), 5 - nboard + rnd.randint(0, 9)))
        multisets = {tuple(sorted(c >> 2 for c in cards))
                     for cards in combinations(deck, 5 - nboard)}
        assert board_rank_sets(np.array(deck, dtype=np.uint8), nboard) == len(multisets)
    assert board_rank_sets(np.arange(52, dtype=np.uint8), 0) == 6175  # at most 4 of a rank


def test_any_split_into_batches_and_shares_gives_the_same_counts():
    spot = parse_spot("omaha-hilo", ["AcAd2c3d", "KcKdQcQd", "5h6h7s8s"], "4c", "")
    args = _args(spot)
    whole = board_exact_counts(*args)
    assert whole[0].sum() == spot.runouts == comb(len(spot.unseen), 4)
    units = board_rank_sets(args[4], 1)
    for parts in (1, 2, 3, 7):
        pieces = sum(board_exact_counts(*args, first=first, count=77, part=part, parts=parts)
                     for first in range(0, units, 77) for part in range(parts))
        np.testing.assert_array_equal(whole, pieces)
    # a share alone is part of the whole: nothing counted twice, nothing left out
    assert 0 < board_exact_counts(*args, part=1, parts=2)[0].sum() < spot.runouts
    assert board_exact_counts(*args, first=units)[0].sum() == 0


@pytest.mark.parametrize("change, what", [
    (dict(holes=np.zeros((1, 4), np.uint8)), "1 players"),
    (dict(holes=np.zeros((11, 4), np.uint8)), "11 players"),
    (dict(holes=np.zeros((2, 4), np.uint8), omaha=False), "of 4 cards"),
    (dict(board=np.arange(40, 46, dtype=np.uint8)), "6 board cards"),
    (dict(deck=np.arange(8, 11, dtype=np.uint8)), "3 unseen"),
])
def test_spots_out_of_range_are_refused(change, what):
    args = dict(holes=np.array([[0, 1, 2, 3], [4, 5, 6, 7]], np.uint8), omaha=True, low8=True,
                board=np.zeros(0, np.uint8), deck=np.arange(8, 52, dtype=np.uint8))
    args.update(change)
    with pytest.raises(HandError, match=what):
        board_exact_counts(**args)
    with pytest.raises(HandError, match="unsupported spot"):
        board_exact_counts(args["holes"], True, True, np.zeros(0, np.uint8),
                           np.arange(8, 52, dtype=np.uint8), part=2, parts=2)
