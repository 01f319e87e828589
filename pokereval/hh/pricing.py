"""All-in EV of a hand: what each player could expect back when the betting ended before
the last card, and the luck of the run-out (collected - expected).

The spot: the first street after whose betting two or more players are still in and
at most one of them still has chips (nobody can bet again), when a card is still to
come.  Every pot is priced by :func:`pokereval.allin_ev` over the cards still to come:
main and side pots, hi/lo halves, ties and odd chips, the rake as the history states
it.  Exact where ``allin_ev`` enumerates (its automatic choice); otherwise sampled
(``allin_ev``'s sample count, or ``samples``) with a seed made from the hand number, so
a report is the same each time it is made.

What each player's cards were at the spot: the cards the history shows, cut to those
dealt by that street.  Dead cards: in stud, the folded players' face-up cards (every
player saw them); folded hole cards in board games are not used (nobody at the table
saw them all).  A live hand that was never shown: the spot is left out with that
reason (heads-up or multiway alike), never priced as if it were known.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..errors import PokerEvalError
from ..games import get_game
from ..equity.spot import parse_spot
from ..rules import allin_ev
from ..rules.allin import AUTO_EXACT_RUNOUTS, AUTO_EXACT_STUD
from .model import BETTING_KINDS, UNKNOWN, Hand
from .replay import contributions, showdown_cards

__all__ = ["Pricing", "price", "allin_street", "BOARD_COUNT"]

#: board cards dealt by each street of a board game (Courchevel: one more preflop)
BOARD_COUNT = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}


@dataclass(frozen=True)
class Pricing:
    """``status``: "priced", "left out" (``reason`` says why) or "none" (no all-in spot).
    ``ev``: each contributing seat's expected chips back (``ev_fraction`` when exact);
    ``luck``: collected - ev; ``won``: collected - contributed."""

    hand_id: str
    status: str
    street: str = ""
    reason: str = ""
    seats: tuple[int, ...] = ()
    ev: dict[int, float] | None = None
    ev_fraction: dict[int, Fraction] | None = None
    std_error: dict[int, float] | None = None
    exact: bool = False
    samples: int = 0
    luck: dict[int, float] | None = None
    hands: dict[int, str] | None = None
    board: str = ""

    def to_dict(self) -> dict:
        def seats(d):
            return None if d is None else {str(s): v for s, v in d.items()}
        return {"hand_id": self.hand_id, "status": self.status, "street": self.street,
                "reason": self.reason, "seats": list(self.seats), "exact": self.exact,
                "samples": self.samples, "board": self.board, "hands": seats(self.hands),
                "ev": seats(self.ev), "luck": seats(self.luck), "std_error": seats(self.std_error),
                "ev_fraction": None if self.ev_fraction is None else
                {str(s): str(v) for s, v in self.ev_fraction.items()}}


def allin_street(hand: Hand) -> tuple[str, list[int]] | None:
    """(street, live seats) where the betting ended with a card still to come, or None."""
    stacks = {s.seat: s.stack for s in hand.seats}
    put_in: dict[int, int] = {}
    folded: set[int] = set()
    all_in: set[int] = set()
    by_street: dict[str, list] = {}
    for a in hand.actions:
        if a.kind in BETTING_KINDS or a.kind == "uncalled":
            by_street.setdefault(a.street, []).append(a)
    for street in hand.streets[:-1]:
        for a in by_street.get(street, []):
            sign = -1 if a.kind == "uncalled" else 1
            put_in[a.seat] = put_in.get(a.seat, 0) + sign * a.amount
            if a.kind == "fold":
                folded.add(a.seat)
            if a.all_in or (a.kind != "uncalled" and put_in[a.seat] >= stacks.get(a.seat, 1 << 62)):
                all_in.add(a.seat)
        live = [s for s in put_in if s not in folded]
        if len(live) >= 2 and len([s for s in live if s not in all_in]) <= 1 and \
                any(s in all_in for s in live):
            later = [a for st in hand.streets[hand.streets.index(street) + 1:]
                     for a in by_street.get(st, []) if a.kind != "uncalled"]
            if any(a.kind in ("bet", "raise", "call", "fold") for a in later):
                return None  # the history goes on betting: not an all-in spot
            return street, sorted(live)
    return None


def price(hand: Hand, *, samples: int | None = None) -> Pricing:
    """The all-in EV of ``hand`` (see the module's description)."""
    spot = allin_street(hand)
    if spot is None:
        return Pricing(hand.hand_id, "none")
    street, live = spot
    contrib, folded, _ = contributions(hand)
    hands: dict[int, str] = {}
    unknown = []
    for s in live:
        text = showdown_cards(hand, s, street if hand.stud else None)
        if text is None:
            unknown.append(s)
        else:
            hands[s] = text
    if unknown:
        who = ", ".join(hand.name_of(s) for s in unknown)
        kind = "multiway" if len(live) > 2 else "heads-up"
        return Pricing(hand.hand_id, "left out", street,
                       f"{kind} all-in on the {street}: {who}'s cards never shown", tuple(live))
    if hand.run_twice and hand.boards[0][:_count(hand, street)] != hand.boards[1][:_count(hand, street)]:
        return Pricing(hand.hand_id, "left out", street, "run twice from different boards",
                       tuple(live))
    board = "" if hand.stud else "".join(hand.board[:_count(hand, street)])
    dead = _stud_dead(hand, folded, street) if hand.stud else ""
    seed = int(hand.hand_id) % (1 << 63) if hand.hand_id.isdigit() else 1
    try:
        if samples is not None and _runouts(hand, hands, board, dead) <= _auto_limit(hand):
            samples = None  # allin_ev enumerates this spot anyway
        r = allin_ev(hand.game, hands, board, dead, contributions=contrib, folded=sorted(folded),
                     button=hand.button, rake=hand.rake or 0, samples=samples, seed=seed)
    except PokerEvalError as exc:
        return Pricing(hand.hand_id, "left out", street, f"allin_ev refused the spot: {exc}",
                       tuple(live))
    luck = {s: hand.collected.get(s, 0) - r.ev[s] for s in r.ev}
    return Pricing(hand.hand_id, "priced", street, "", tuple(live), dict(r.ev), r.ev_fraction,
                   dict(r.std_error), r.exact, r.samples, luck, hands, board)


def _runouts(hand: Hand, hands: dict[int, str], board: str, dead: str) -> int:
    return parse_spot(hand.game, list(hands.values()), board, dead).runouts


def _auto_limit(hand: Hand) -> int:
    return AUTO_EXACT_STUD if hand.stud else AUTO_EXACT_RUNOUTS


def _count(hand: Hand, street: str) -> int:
    n = BOARD_COUNT[street]
    if street == "preflop" and get_game(hand.game).name.startswith("courchevel"):
        n = 1
    return n


def _stud_dead(hand: Hand, folded: set[int], street: str) -> str:
    """Folded players' face-up cards: 3rd street shows one, each later street one more."""
    dead = []
    for s in sorted(folded):
        up = hand.cards.get(s, ())[2:6]
        dead += [c for c in up if c != UNKNOWN]
    return "".join(dead)
