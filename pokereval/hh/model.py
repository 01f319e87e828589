"""The one model of a hand read from a history: :class:`Hand`, its :class:`Seat` and
:class:`Action` lines, and :class:`Refused` for a hand that could not be read.

Amounts are integers in the hand's smallest unit (``Hand.unit`` of ``Hand.currency``:
cents in a dollar cash game, one chip in a tournament), so every pot splits exactly
as :func:`pokereval.settle` splits it.  Cards are two-character strings (``"Ah"``);
``"??"`` is a card dealt but never seen (a stud down card, an unreadable card).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from ..errors import PokerEvalError

__all__ = ["HandHistoryError", "Seat", "Action", "Hand", "Refused", "UNKNOWN",
           "BOARD_STREETS", "STUD_STREETS", "BETTING_KINDS"]

#: A card that was dealt but is not known.
UNKNOWN = "??"
#: Betting streets in order; "showdown" follows the last of them.
BOARD_STREETS = ("preflop", "flop", "turn", "river")
STUD_STREETS = ("3rd", "4th", "5th", "6th", "7th")
#: Action kinds that put chips in (or decide) during the betting
BETTING_KINDS = frozenset({"ante", "small blind", "big blind", "blinds", "post", "bring-in",
                           "bet", "call", "raise", "check", "fold"})


class HandHistoryError(PokerEvalError):
    """A hand history that cannot be read: the message names the line and what is wrong."""


@dataclass(frozen=True)
class Seat:
    """A player dealt into the hand (or sitting out): table seat, name, chips at the start."""

    seat: int
    name: str
    stack: int
    sitting_out: bool = False


@dataclass(frozen=True)
class Action:
    """One line of the hand that moves chips or cards.

    ``kind``: "ante", "small blind", "big blind", "blinds" (small and big together),
    "post", "bring-in", "bet", "call", "raise", "check", "fold" (the betting);
    "uncalled" (``amount`` given back), "collect" (``amount`` taken from ``pot``),
    "show" (``cards``), "muck".  ``amount``: chips this line put in (a raise: what
    the raiser added now); ``to``: a raise's total for the street.
    """

    street: str
    seat: int
    kind: str
    amount: int = 0
    to: int = 0
    all_in: bool = False
    cards: tuple[str, ...] = ()
    pot: str = ""
    line: int = 0


@dataclass(frozen=True)
class Hand:
    """A hand as the history tells it (nothing computed: see :mod:`pokereval.hh.replay`).

    ``game``: the pokereval game name (``"omaha-hilo"``), ``game_text`` as written,
    ``limit`` "no limit" / "pot limit" / "limit", ``mixed`` the mix it belongs to
    ("8-Game", "HORSE", ...); ``stakes``: (small, big) blinds, or the small and big bet
    of a limit game, in units; ``tournament``: its number, else None; ``button``: the
    dealer seat (None in stud).  ``cards``: every seat's known cards in dealt order
    (board games: the hole cards when seen; stud: 3 to 7 cards with ``"??"`` for the
    unseen ones).  ``boards``: the board(s) dealt, two when the hand was run twice
    (stud: the one shared 7th-street card when the deck ran short).  ``collected``:
    what each seat took from the pots, as the history states it; ``total_pot`` and
    ``rake`` as stated (None when the history gives none).  ``notes``: things read
    but not trusted (an unreadable card, a board line that disagrees).
    """

    site: str
    hand_id: str
    game: str
    game_text: str
    limit: str
    stakes: tuple[int, int]
    currency: str
    unit: Decimal
    seats: tuple[Seat, ...]
    actions: tuple[Action, ...]
    cards: dict[int, tuple[str, ...]] = field(default_factory=dict)
    boards: tuple[tuple[str, ...], ...] = ((),)
    collected: dict[int, int] = field(default_factory=dict)
    total_pot: int | None = None
    rake: int | None = None
    button: int | None = None
    tournament: str | None = None
    hero: int | None = None
    mixed: str | None = None
    table: str = ""
    max_seats: int | None = None
    started: str = ""
    source: str = ""
    line: int = 0
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return True

    @property
    def stud(self) -> bool:
        return self.game in ("stud", "stud-hilo", "razz")

    @property
    def streets(self) -> tuple[str, ...]:
        return STUD_STREETS if self.stud else BOARD_STREETS

    @property
    def board(self) -> tuple[str, ...]:
        """The (first) board."""
        return self.boards[0]

    @property
    def run_twice(self) -> bool:
        return len(self.boards) > 1

    def seat_of(self, name: str) -> int | None:
        for s in self.seats:
            if s.name == name:
                return s.seat
        return None

    def name_of(self, seat: int) -> str:
        for s in self.seats:
            if s.seat == seat:
                return s.name
        return f"seat {seat}"

    def money(self, units: int | float) -> Decimal:
        """An amount in units as money (or chips)."""
        return (Decimal(str(units)) * self.unit).normalize()

    def to_dict(self) -> dict:
        return {"site": self.site, "hand_id": self.hand_id, "game": self.game,
                "game_text": self.game_text, "limit": self.limit, "mixed": self.mixed,
                "stakes": list(self.stakes), "currency": self.currency, "unit": str(self.unit),
                "tournament": self.tournament, "hero": self.hero, "table": self.table,
                "button": self.button,
                "started": self.started,
                "seats": [{"seat": s.seat, "name": s.name, "stack": s.stack,
                           "sitting_out": s.sitting_out} for s in self.seats],
                "cards": {str(s): "".join(c) for s, c in self.cards.items()},
                "boards": ["".join(b) for b in self.boards],
                "actions": [{"street": a.street, "seat": a.seat, "kind": a.kind,
                             "amount": a.amount, "to": a.to, "all_in": a.all_in,
                             "cards": "".join(a.cards), "pot": a.pot} for a in self.actions],
                "collected": {str(s): v for s, v in self.collected.items()},
                "total_pot": self.total_pot, "rake": self.rake, "source": self.source,
                "line": self.line, "notes": list(self.notes)}


@dataclass(frozen=True)
class Refused:
    """A hand (or a stretch of text) that could not be read: where, and why in one line."""

    reason: str
    hand_id: str | None = None
    line: int = 0
    source: str = ""
    game_text: str = ""

    @property
    def ok(self) -> bool:
        return False

    def __str__(self) -> str:
        what = f"hand {self.hand_id}" if self.hand_id else "text"
        where = f"{self.source}:{self.line}" if self.source else f"line {self.line}"
        return f"{where}: {what}: {self.reason}"

    def to_dict(self) -> dict:
        return {"hand_id": self.hand_id, "line": self.line, "source": self.source,
                "reason": self.reason}
