"""All-in EV of hand-made histories equals the average of settle over every run-out
(exact fractions); unknown hands leave the spot out with the reason."""
from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest

import pokereval as pe
from pokereval.cards import card_str

from .histories import HOLDEM_SIDE_POT, OMAHA_HILO_FLOP, RAZZ_SIXTH, STUD_HILO_SIXTH

DATA = Path(__file__).resolve().parents[1] / "data" / "pokerstars_hh"


def _hand(text: str):
    [hand] = pe.read_hands(text.splitlines())
    assert hand.ok, hand
    return hand


def _unseen(*groups: str) -> list[str]:
    seen = {"".join(p) for g in groups for p in zip(g[::2], g[1::2])}
    return [c for c in map(card_str, range(52)) if c not in seen]


def _board_average(game, hands, board, contrib, folded, button, rake):
    unseen = _unseen(board, *hands.values())
    total, n = {s: Fraction(0) for s in contrib}, 0
    for extra in itertools.combinations(unseen, 5 - len(board) // 2):
        r = pe.settle(game, hands, board + "".join(extra), contributions=contrib, folded=folded,
                      button=button, rake=rake)
        for s, v in r.collected.items():
            total[s] += v
        n += 1
    return {s: v / n for s, v in total.items()}


def _stud_average(game, hands, contrib):
    (s1, h1), (s2, h2) = hands.items()
    total, n = {s: Fraction(0) for s in contrib}, 0
    for a, b in itertools.permutations(_unseen(h1, h2), 2):
        r = pe.settle(game, {s1: h1 + a, s2: h2 + b}, contributions=contrib)
        for s, v in r.collected.items():
            total[s] += v
        n += 1
    return {s: v / n for s, v in total.items()}


@pytest.mark.parametrize("text,spot", [
    (OMAHA_HILO_FLOP, ("flop", "7c8d5h", {1: 2000, 2: 50, 3: 2000}, [2], 1, 100)),
    (HOLDEM_SIDE_POT, ("flop", "2c7d9h", {1: 500, 2: 1500, 3: 1500}, [], 3, 0)),
], ids=["omaha-hilo heads-up", "holdem 3-way side pot"])
def test_board_game_ev_is_the_average_of_settle(text, spot):
    street, board, contrib, folded, button, rake = spot
    hand = _hand(text)
    p = pe.api.price(hand)
    assert (p.status, p.street, p.exact, p.board) == ("priced", street, True, board)
    want = _board_average(hand.game, p.hands, board, contrib, folded, button, rake)
    assert p.ev_fraction == want
    assert sum(p.luck.values()) == pytest.approx(0, abs=1e-9)
    assert all(p.luck[s] == pytest.approx(hand.collected.get(s, 0) - float(want[s])) for s in want)


def test_side_pot_is_priced_per_pot():
    p = pe.api.price(_hand(HOLDEM_SIDE_POT))
    # the short stack can only win the main pot (3 x 500): its EV is a share of that
    assert 0 < p.ev_fraction[1] < 1500 and p.ev_fraction[2] + p.ev_fraction[3] > 2000


@pytest.mark.parametrize("text", [STUD_HILO_SIXTH, RAZZ_SIXTH], ids=["stud-hilo", "razz"])
def test_stud_sixth_street_ev_is_the_average_of_settle(text):
    hand = _hand(text)
    p = pe.api.price(hand)
    assert (p.status, p.street, p.exact, p.samples) == ("priced", "6th", True, 40 * 39)
    assert p.ev_fraction == _stud_average(hand.game, p.hands, {1: 295, 2: 295})


def test_unknown_hand_in_a_multiway_all_in_is_left_out():
    text = HOLDEM_SIDE_POT.replace("Cat: shows [7c 7h] (three of a kind, Sevens)\n",
                                   "Cat: mucks hand\n")
    text = text.replace("Seat 3: Cat (button) showed [7c 7h] and lost with three of a kind, "
                        "Sevens", "Seat 3: Cat (button) mucked")
    p = pe.api.price(_hand(text))
    assert p.status == "left out" and p.ev is None
    assert p.reason == "multiway all-in on the flop: Cat's cards never shown"


def test_unknown_hand_heads_up_is_left_out():
    text = OMAHA_HILO_FLOP.replace("Cat: shows [Ks Kd Qh Jh] (HI: three of a kind, Kings)\n",
                                   "Cat: mucks hand\n")
    text = text.replace("showed [Ks Kd Qh Jh] and won", "mucked and won")
    p = pe.api.price(_hand(text))
    assert p.status == "left out" and "heads-up" in p.reason and "Cat" in p.reason


def test_no_spot_when_betting_goes_on():
    hand = next(h for h in pe.read_hands(DATA / "cash-Flop-5-Card-PLO8-6max-USD-2.00-4.00-"
                                                 "201304.txt"))
    assert pe.api.price(hand).status == "none"


def test_real_all_ins_priced():
    hands = [h for p in sorted(DATA.glob("*.txt")) for h in pe.read_hands(p, skip_refused=True)
             if "Knockout" not in p.name]  # the 73-hand knockout sample: slow preflop spots
    priced = [(h.hand_id, pe.api.price(h, samples=2000)) for h in hands]
    spots = {i: p for i, p in priced if p.status != "none"}
    assert {p.status for p in spots.values()} == {"priced"}
    assert spots["1676150046"].street == "turn" and spots["1676150046"].exact  # 3-way, quartered
    assert spots["91733835979"].street == "3rd" and not spots["91733835979"].exact
    assert spots["97007286518"].street == "flop"  # run twice: priced once, from the flop


def test_report_luck_adds_up():
    r = pe.hand_report(pe.read_hands(OMAHA_HILO_FLOP.splitlines()), "Ann")
    [row] = r.rows.values()
    p = pe.api.price(_hand(OMAHA_HILO_FLOP))
    assert row.won == 1975 - 2000 and row.luck == pytest.approx(p.luck[1])
    assert row.ev_won == pytest.approx(float(p.ev_fraction[1]) - 2000)
