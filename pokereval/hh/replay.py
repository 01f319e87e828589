"""Replay a hand through the table rules and check it against what the history states.

* the chips: every seat's contribution from its action lines (antes, blinds, bring-in,
  bets, calls, raises, less any bet returned); a bet nobody could call is returned
  even where an old history has no "Uncalled bet" line;
* the pot: the contributions add up to the stated total pot;
* the result: :func:`pokereval.settle` (side pots, hi/lo halves, odd chips, the stated
  rake) gives every seat what the history says it collected;
* stud: :func:`pokereval.bring_in` names the seat that brought in and
  :func:`pokereval.first_to_act` the first to act on 4th to 7th street.

A hand run twice: each pot (after the rake) is cut in two, the first board's half taking
the odd chip, and each half is split by its own board's showdown (hi/lo halves, ties,
odd chips clockwise from the button), as PokerStars pays it.

A check that cannot run (a live hand never shown, no showdown) leaves the hand
``"unchecked"`` with the reason; a check that disagrees makes it ``"differs"`` with
every disagreement named.  Nothing is adjusted to make a hand agree.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import PokerEvalError
from ..rules import bring_in, first_to_act, settle
from ..rules.chips import clockwise
from ..rules.showdown import divide
from .model import BETTING_KINDS, STUD_STREETS, UNKNOWN, Hand

__all__ = ["Replay", "replay", "contributions", "showdown_cards", "settle_runs"]


@dataclass(frozen=True)
class Replay:
    """``status``: "agrees", "differs" or "unchecked"; ``problems``: each disagreement in
    one line; ``reason``: why the result was not checked; ``checks``: the checks that ran."""

    hand_id: str
    status: str
    contributions: dict[int, int]
    folded: tuple[int, ...]
    settled: dict[int, int] | None
    problems: tuple[str, ...] = ()
    reason: str = ""
    checks: tuple[str, ...] = ()
    returned: int = 0

    def to_dict(self) -> dict:
        return {"hand_id": self.hand_id, "status": self.status, "reason": self.reason,
                "problems": list(self.problems), "checks": list(self.checks),
                "contributions": {str(s): v for s, v in self.contributions.items()},
                "settled": None if self.settled is None else
                {str(s): v for s, v in self.settled.items()}}


def contributions(hand: Hand) -> tuple[dict[int, int], set[int], int]:
    """(chips each seat put in, the seats that folded, chips returned without a line)."""
    contrib: dict[int, int] = {}
    folded: set[int] = set()
    for a in hand.actions:
        if a.kind in BETTING_KINDS:
            contrib[a.seat] = contrib.get(a.seat, 0) + a.amount
            if a.kind == "fold":
                folded.add(a.seat)
        elif a.kind == "uncalled":
            contrib[a.seat] = contrib.get(a.seat, 0) - a.amount
    returned = 0
    if len(contrib) >= 2:  # the part of the biggest bet nobody matched goes back
        top, second = sorted(contrib.values(), reverse=True)[:2]
        if top > second:
            seat = max(contrib, key=contrib.get)
            returned = top - second
            contrib[seat] = second
    return dict(sorted(contrib.items())), folded, returned


def showdown_cards(hand: Hand, seat: int, street: str | None = None) -> str | None:
    """The seat's cards as ``settle`` / ``allin_ev`` want them (on ``street``: the cards
    dealt by then), or None when some are not known."""
    cards = hand.cards.get(seat)
    if not cards:
        return None
    if hand.stud:
        count = 3 + STUD_STREETS.index(street) if street else len(cards)
        if hand.board and count == 7:
            count = 6
        cards = cards[:count]
        if len(cards) < count or (street is None and len(cards) + len(hand.board) != 7):
            return None
    if UNKNOWN in cards:
        return None
    return "".join(cards)


def replay(hand: Hand) -> Replay:
    """Replay ``hand`` and check it (see the module's description)."""
    contrib, folded, returned = contributions(hand)
    problems: list[str] = []
    checks: list[str] = []
    total = sum(contrib.values())
    if hand.total_pot is not None:
        checks.append("pot")
        if total != hand.total_pot:
            problems.append(f"pot: the actions put in {total}, the history says {hand.total_pot}")
        stated = sum(hand.collected.values()) + (hand.rake or 0)
        if stated != hand.total_pot:
            problems.append(f"pot: collected plus rake is {stated}, the total pot "
                            f"{hand.total_pot}")
    if hand.stud:
        problems += _stud_order(hand, contrib, folded, checks)
    settled, reason = None, ""
    live = [s for s in contrib if s not in folded]
    if not live:
        reason = "every player folded"
    else:
        hands, missing = {}, []
        if len(live) > 1:
            for s in live:
                text = showdown_cards(hand, s)
                if text is None:
                    missing.append(s)
                else:
                    hands[s] = text
        if missing:
            reason = (f"{hand.name_of(missing[0])}'s cards are not all known"
                      + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""))
        else:
            try:
                if hand.run_twice:
                    collected, result = settle_runs(hand, hands, contrib, folded)
                else:
                    result = settle(hand.game, hands, "".join(hand.board),
                                    contributions=contrib, folded=sorted(folded),
                                    button=hand.button, rake=hand.rake or 0)
                    collected = result.collected
            except PokerEvalError as exc:
                reason = f"settle refused the hand: {exc}"
            else:
                checks.append("collected" + (" (run twice)" if hand.run_twice else ""))
                settled = {s: v for s, v in collected.items() if v}
                if settled != hand.collected:
                    problems.append(_collected_problem(hand, settled, result))
    status = "differs" if problems else ("agrees" if settled is not None else "unchecked")
    return Replay(hand.hand_id, status, contrib, tuple(sorted(folded)), settled,
                  tuple(problems), reason if status == "unchecked" else "", tuple(checks),
                  returned)


def settle_runs(hand: Hand, hands: dict[int, str], contrib: dict[int, int],
                folded: set[int]):
    """(what each seat collects, the first board's settlement) of a hand run twice:
    every contested pot halved (the first run takes the odd chip), each half paid by
    its own board's winners."""
    runs = [settle(hand.game, hands, "".join(board), contributions=contrib,
                   folded=sorted(folded), button=hand.button, rake=hand.rake or 0)
            for board in hand.boards]
    collected = {s: 0 for s in contrib}
    for k, first in enumerate(runs[0].pots):
        if len(first.eligible) == 1:  # an uncalled or uncontested layer goes back whole
            collected[first.eligible[0]] += first.amount
            continue
        left = first.amount
        for i, run in enumerate(runs):
            pot = run.pots[k]
            part = first.amount - first.amount // 2 if i == 0 else left
            left -= part
            order = clockwise(pot.eligible, hand.button)
            low = part // 2 if pot.high_winners and pot.low_winners else 0
            if not pot.high_winners:
                low = part
            for amount, winners in ((part - low, pot.high_winners), (low, pot.low_winners)):
                if winners and amount:
                    for s, v in divide(amount, winners, order).items():
                        collected[s] += v
    return collected, runs[0]


def _collected_problem(hand: Hand, settled: dict[int, int], result) -> str:
    diff = ", ".join(f"{hand.name_of(s)} {settled.get(s, 0)} (history {hand.collected.get(s, 0)})"
                     for s in sorted(set(settled) | set(hand.collected))
                     if settled.get(s, 0) != hand.collected.get(s, 0))
    contested = [p for p in result.pots if not p.uncalled and len(p.eligible) > 1]
    if (hand.rake and len(contested) > 1 and set(settled) == set(hand.collected)
            and sum(settled.values()) == sum(hand.collected.values())):
        return f"collected: the rake's spread over the side pots differs: {diff}"
    return f"collected: settle gives {diff}"


def _stud_order(hand: Hand, contrib, folded, checks) -> list[str]:
    """Bring-in and first actor of each stud street against the rules."""
    problems: list[str] = []
    dealt = [s for s in hand.cards if len(hand.cards[s]) >= 3]
    doors = {s: hand.cards[s][2] for s in dealt}
    if not dealt or UNKNOWN in doors.values():
        return problems
    by_street: dict[str, list] = {}
    for a in hand.actions:
        if a.kind in BETTING_KINDS and a.kind != "ante":
            by_street.setdefault(a.street, []).append(a)
    antes = {s: 0 for s in dealt}
    stacks = {s.seat: s.stack for s in hand.seats}
    for a in hand.actions:
        if a.kind == "ante" and a.seat in antes:
            antes[a.seat] += a.amount
    all_in = {s for s in dealt if antes[s] and antes[s] >= stacks.get(s, 0)}
    first = by_street.get("3rd", [None])[0]
    if first is not None and len(doors) >= 2:
        checks.append("bring-in")
        want = bring_in(hand.game, doors, all_in=all_in)
        if first.seat != want:
            problems.append(f"bring-in: the rules name {hand.name_of(want)}, "
                            f"{hand.name_of(first.seat)} acted first")
    out: set[int] = set()
    put_in = dict(antes)
    for i, street in enumerate(STUD_STREETS):
        acts = by_street.get(street, [])
        if i > 0 and acts:
            live = [s for s in dealt if s not in out]
            up = {s: "".join(hand.cards[s][2:min(i + 3, 6)]) for s in live}
            if len(live) >= 2 and all(UNKNOWN not in u and u for u in up.values()):
                checks.append(f"first to act {street}")
                try:
                    want = first_to_act(hand.game, up, all_in=all_in & set(live))
                except PokerEvalError:
                    want = None
                if want is not None and acts[0].seat != want:
                    problems.append(f"first to act on {street}: the rules name "
                                    f"{hand.name_of(want)}, {hand.name_of(acts[0].seat)} acted")
        for a in acts:
            put_in[a.seat] = put_in.get(a.seat, 0) + a.amount
            if a.kind == "fold":
                out.add(a.seat)
            if a.all_in or put_in[a.seat] >= stacks.get(a.seat, 1 << 62):
                all_in.add(a.seat)
    return problems
