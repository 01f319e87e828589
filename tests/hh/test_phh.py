"""PHH (pokerkit's hand-history standard): hands pokerkit built and wrote read back to
the same Hand; a PHH all-in prices like the same hand written by PokerStars; variants
pokereval does not play, broken files and a missing pokerkit are refused in one line."""
from __future__ import annotations

import sys

import pytest

import pokereval as pe
from pokereval.hh import HandHistoryError, detect_format

from .histories import HOLDEM_SIDE_POT as PS_SIDE_POT, RAZZ_SIXTH as PS_RAZZ
from .phh_hands import HOLDEM_SIDE_POT, RAZZ_SIXTH, STUD_HILO, omaha_hilo_built, pk


def _write(tmp_path, text, name="hand.phh"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _one(path):
    [hand] = pe.read_hands(path)
    assert hand.ok, hand
    return hand


def test_pokerkit_dump_reads_back_to_the_same_hand(tmp_path):
    hand = _one(_write(tmp_path, omaha_hilo_built().dumps()))
    assert (hand.site, hand.hand_id, hand.game, hand.limit, hand.stakes, hand.currency) == \
        ("PHH", "41", "omaha-hilo", "limit", (2, 4), "USD")
    assert [(s.seat, s.name, s.stack) for s in hand.seats] == \
        [(2, "Ann", 100), (4, "Bob", 100), (6, "Cat", 100)]
    assert hand.button == 6
    assert hand.cards == {2: tuple("Ah Ad 2c 3s".split()), 4: tuple("Ks Kd Qh Jh".split()),
                          6: tuple("9c 9d 8c 8d".split())}
    assert hand.boards == (tuple("7c 8h 5d Ts Kc".split()),)
    betting = [(a.street, a.seat, a.kind, a.amount, a.to) for a in hand.actions
               if a.kind not in ("show", "collect")]
    assert betting == [
        ("preflop", 2, "small blind", 1, 0), ("preflop", 4, "big blind", 2, 0),
        ("preflop", 6, "fold", 0, 0), ("preflop", 2, "raise", 3, 4), ("preflop", 4, "call", 2, 0),
        ("flop", 2, "bet", 2, 0), ("flop", 4, "call", 2, 0),
        ("turn", 2, "check", 0, 0), ("turn", 4, "check", 0, 0),
        ("river", 2, "bet", 4, 0), ("river", 4, "call", 4, 0)]
    # Ann's A-2 low and Bob's kings split the 20
    assert hand.collected == {2: 10, 4: 10} and hand.total_pot == 20 and hand.rake == 0
    assert pe.api.replay(hand).status == "agrees"


def test_phhs_many_hands_stream_in_order(tmp_path):
    built = omaha_hilo_built()
    stud = pk.HandHistory.loads(STUD_HILO)
    text = pk.HandHistory.dumps_all([built, stud, built])
    hands = list(pe.read_hands(_write(tmp_path, text, "session.phhs")))
    assert [h.ok for h in hands] == [True, True, True]
    assert [h.hand_id for h in hands] == ["1", "2", "3"]  # the table names
    assert [h.game for h in hands] == ["omaha-hilo", "stud-hilo", "omaha-hilo"]
    assert [h.line for h in hands] == [1, text.splitlines().index("[2]") + 1,
                                       text.splitlines().index("[3]") + 1]


def test_stud_hilo_cards_streets_and_collections(tmp_path):
    hand = _one(_write(tmp_path, pk.HandHistory.loads(STUD_HILO).dumps()))
    assert hand.game == "stud-hilo" and hand.button is None and hand.stakes == (5, 10)
    # Ann folded her door card: her down cards stay unknown; Bob and Cat showed all seven
    assert hand.cards[1] == ("??", "??", "7h")
    assert hand.cards[2] == tuple("As Ad 2c 3c 4c 5d 6h".split())
    kinds = [(a.street, a.seat, a.kind, a.amount) for a in hand.actions
             if a.kind in ("ante", "bring-in", "raise", "bet", "call", "uncalled")]
    assert kinds[:5] == [("3rd", 1, "ante", 1), ("3rd", 2, "ante", 1), ("3rd", 3, "ante", 1),
                         ("3rd", 2, "bring-in", 2), ("3rd", 3, "raise", 5)]
    assert ("5th", 2, "call", 4) in kinds          # Bob all-in for his last 4
    assert [a for a in hand.actions if a.kind == "call" and a.seat == 2][-1].all_in
    assert hand.collected == {2: 30, 3: 31}         # low to Bob, high to Cat
    rep = pe.api.replay(hand)
    assert rep.status == "agrees" and "bring-in" in rep.checks


@pytest.mark.parametrize("phh, pokerstars", [(HOLDEM_SIDE_POT, PS_SIDE_POT), (RAZZ_SIXTH, PS_RAZZ)],
                         ids=["holdem-side-pot", "razz-sixth"])
def test_phh_allin_priced_like_the_pokerstars_hand(tmp_path, phh, pokerstars):
    phh_hand = _one(_write(tmp_path, phh))
    [ps_hand] = pe.read_hands(pokerstars.splitlines())
    a, b = pe.api.price(phh_hand), pe.api.price(ps_hand)
    assert a.status == b.status == "priced" and a.exact and b.exact
    assert a.street == b.street
    assert a.ev_fraction == b.ev_fraction
    assert phh_hand.collected == ps_hand.collected
    assert pe.api.replay(phh_hand).status == pe.api.replay(ps_hand).status == "agrees"


def test_unplayed_variants_and_broken_hands_are_refused_in_one_line(tmp_path):
    draw = ("variant = 'F2L3D'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nsmall_bet = 2\n"
            "big_bet = 4\nstarting_stacks = [100, 100]\nactions = ['d dh p1 7c5d4h3s2c', "
            "'d dh p2 ??????????', 'p2 f']\n")
    truncated = HOLDEM_SIDE_POT.replace(", 'd db Ks', 'd db 3d']", "]")
    bad_action = HOLDEM_SIDE_POT.replace("'p3 cc', 'p1 cc'", "'p3 cbr 99999', 'p1 cc'")
    text = "\n\n".join(f"[{i}]\n{t}" for i, t in enumerate(
        [draw, "variant = 'NT'\nantes = [0,", truncated, bad_action, RAZZ_SIXTH], 1))
    items = list(pe.read_hands(_write(tmp_path, text, "mixed.phhs")))
    assert [i.ok for i in items] == [False, False, False, False, True]
    reasons = [i.reason for i in items if not i.ok]
    assert "'F2L3D'" in reasons[0] and "not a game pokereval plays" in reasons[0]
    assert reasons[1].startswith("pokerkit: TOMLDecodeError")
    assert "truncated" in reasons[2] or "pokerkit" in reasons[2]
    assert all("\n" not in r for r in reasons)
    assert [i.hand_id for i in items[:4]] == ["1", "2", "3", "4"]


def test_phh_detected_by_name_and_content(tmp_path):
    assert detect_format(_write(tmp_path, RAZZ_SIXTH, "a.phh")) == "phh"
    assert detect_format(_write(tmp_path, RAZZ_SIXTH, "a.txt")) == "phh"
    assert detect_format(_write(tmp_path, "[7]\n" + RAZZ_SIXTH, "b.txt")) == "phh"
    assert detect_format(_write(tmp_path, PS_RAZZ, "c.txt")) == "pokerstars"
    assert _one(_write(tmp_path, RAZZ_SIXTH, "a.txt")).game == "razz"


def test_without_pokerkit_a_phh_file_names_the_extra(tmp_path, monkeypatch):
    path = _write(tmp_path, RAZZ_SIXTH)
    monkeypatch.setitem(sys.modules, "pokerkit", None)  # import pokerkit -> ImportError
    with pytest.raises(HandHistoryError) as info:
        list(pe.read_hands(path))
    message = str(info.value)
    assert "pip install pokerkit" in message and ".[hh]" in message and "\n" not in message
    from .test_cli import _run
    code, out, err = _run("hh", "report", str(path))
    assert code != 0 and "pip install pokerkit" in err and len(err.strip().splitlines()) == 1


def test_decimal_amounts_scale_to_a_whole_unit_and_short_deck_is_refused(tmp_path):
    cash = ("variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [0.25, 0.5]\nmin_bet = 0.5\n"
            "starting_stacks = [50.75, 20]\nactions = ['d dh p1 AsAh', 'd dh p2 KsKh', "
            "'p2 cbr 1.5', 'p1 f']\nhand = 5\ncurrency = 'USD'\n")
    hand = _one(_write(tmp_path, cash))
    assert str(hand.unit) == "0.01" and hand.stakes == (25, 50)
    assert [s.stack for s in hand.seats] == [5075, 2000]
    # heads-up: the first player posts the big blind, the button (p2) the small one
    assert [(a.seat, a.kind, a.amount) for a in hand.actions[:4]] == [
        (1, "big blind", 50), (2, "small blind", 25), (2, "raise", 125), (1, "fold", 0)]
    assert hand.collected == {2: 100} and pe.api.replay(hand).status == "agrees"
    short = cash.replace("'NT'", "'NS'")
    [refused] = pe.read_hands(_write(tmp_path, short, "short.phh"))
    assert not refused.ok and "short-deck" in refused.reason and "not a game" in refused.reason
