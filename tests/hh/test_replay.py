"""The replay against the real hands: every hand whose showdown is recorded in
tests/data/pokerstars/showdown.jsonl (the records the rules' own tests use) and is in a
copied raw file agrees to the chip; no hand of the copied files disagrees."""
from __future__ import annotations

import json
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pokereval as pe

DATA = Path(__file__).resolve().parents[1] / "data"
RECORDS = {r["id"]: r for r in map(json.loads, (DATA / "pokerstars" / "showdown.jsonl")
                                   .read_text().splitlines())}
HANDS = [h for p in sorted((DATA / "pokerstars_hh").glob("*.txt"))
         for h in pe.read_hands(p, skip_refused=True)]


def test_recorded_showdowns_agree_to_the_chip():
    recorded = [h for h in HANDS if h.hand_id in RECORDS]
    assert len(recorded) == 110
    for hand in recorded:
        rec = RECORDS[hand.hand_id]
        unit = Decimal(rec["unit"])
        want = {int(s): int(Decimal(v) / unit) for s, v in rec["collected"].items()}
        assert hand.collected == want, hand.hand_id  # the reader reads what the record says
        r = pe.api.replay(hand)
        assert r.status == "agrees", (hand.hand_id, r.problems, r.reason)
        assert r.settled == want
        assert r.contributions == {int(s): int(Decimal(v) / unit)
                                   for s, v in rec["contributions"].items()
                                   if Decimal(v) > 0} | {s: 0 for s in r.contributions
                                                         if not r.contributions[s]}


def test_every_hand_agrees_or_says_why_not():
    status = Counter()
    for hand in HANDS:
        r = pe.api.replay(hand)
        status[r.status] += 1
        assert r.status != "differs", (hand.hand_id, r.problems)
        if r.status == "unchecked":
            assert r.reason
    assert status == {"agrees": 250, "unchecked": 1}  # the run-twice hand agrees too


def test_stud_rules_checked():
    checks = Counter(c.split(" ")[0] for h in HANDS if h.stud
                     for c in pe.api.replay(h).checks)
    assert checks["bring-in"] == 87 and checks["first"] > 150


def test_a_wrong_collection_is_reported():
    hand = next(h for h in HANDS if h.hand_id == "96961585867")
    wrong = type(hand)(**{**hand.__dict__, "collected": {4: 1700, 5: 19}})
    r = pe.api.replay(wrong)
    assert r.status == "differs"
    assert any(p.startswith("collected: settle gives") for p in r.problems)
    assert any(p.startswith("pot:") is False for p in r.problems)


def test_silent_uncalled_bet_is_returned():
    """2005: no 'Uncalled bet' line; the raiser's unmatched 302 goes back."""
    hand = next(h for h in HANDS if h.hand_id == "1676150046")
    r = pe.api.replay(hand)
    assert r.returned == 302 and r.status == "agrees"


def test_run_twice_each_pot_halved_and_paid_per_board():
    from .histories import HOLDEM_RUN_TWICE

    [hand] = pe.read_hands(HOLDEM_RUN_TWICE.splitlines())
    assert hand.ok and hand.run_twice
    assert hand.collected == {1: 752, 2: 1376, 3: 1373}
    rep = pe.api.replay(hand)
    assert rep.status == "agrees", rep
    assert "collected (run twice)" in rep.checks
    # the same chips paid the other way round (the second run taking the odd chip) differ
    swapped = HOLDEM_RUN_TWICE.replace("Ann collected 752", "Ann collected 751").replace(
        "Bob collected 376", "Bob collected 377").replace("won (752)", "won (751)").replace(
        "won (876)", "won (877)")
    [other] = pe.read_hands(swapped.splitlines())
    bad = pe.api.replay(other)
    assert bad.status == "differs" and "Ann 752 (history 751)" in bad.problems[0]


def test_run_twice_priced_once_from_the_common_cards():
    from .histories import HOLDEM_RUN_TWICE

    [hand] = pe.read_hands(HOLDEM_RUN_TWICE.splitlines())
    p = pe.api.price(hand)
    assert p.status == "priced" and p.street == "preflop" and p.board == ""
    assert abs(sum(p.ev.values()) - 3501) < 1e-6
