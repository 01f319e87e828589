"""The first two lines of a PokerStars hand: hand number, game, limit, stakes, tournament,
table and button, and the amounts' unit.

>>> h = read_header("PokerStars Hand #96961585867:  5 Card Omaha Hi/Lo Pot Limit ($2/$4 USD)"
...                 " - 2013/04/10 19:06:22 WET [2013/04/10 14:06:22 ET]")
>>> h.hand_id, h.game, h.limit, h.currency, str(h.unit), h.stakes
('96961585867', 'omaha5-hilo', 'pot limit', 'USD', '0.01', (200, 400))
>>> h = read_header("PokerStars Game #29356803849: TOURNAMENT #169962475, $10+$1 "
...                 "7 CARD STUD HI/LO LIMIT - LEVEL I (25/50) - 2009/06/14 11:45:00 ET")
>>> h.game, h.tournament, h.stakes, h.unit
('stud-hilo', '169962475', (25, 50), Decimal('1'))
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from .model import HandHistoryError

__all__ = ["Header", "is_header", "read_header", "read_table_line", "to_units", "GAME_NAMES"]

#: PokerStars game names (lower case) -> pokereval games, longest first
GAME_NAMES = (("5 card omaha hi/lo", "omaha5-hilo"), ("5 card omaha", "omaha5"),
              ("courchevel hi/lo", "courchevel-hilo"), ("courchevel", "courchevel"),
              ("omaha hi/lo", "omaha-hilo"), ("omaha", "omaha"),
              ("7 card stud hi/lo", "stud-hilo"), ("7 card stud", "stud"), ("razz", "razz"),
              ("hold'em", "holdem"))
#: Games PokerStars deals that pokereval does not play (named in the refusal)
OTHER_GAMES = ("triple draw 2-7 lowball", "single draw 2-7 lowball", "5 card draw", "badugi",
               "6+ hold'em", "5 card stud", "2-7 single draw", "a-5 triple draw")
LIMITS = ("no limit", "pot limit", "fixed limit", "limit")

_HEADER = re.compile(r"^PokerStars\b[^#]*?\b(?:Hand|Game)\s+#(\d+):\s*(.*)$", re.I)
_GAME = re.compile(r"(" + "|".join(re.escape(n) for n in (*OTHER_GAMES, *(g for g, _ in GAME_NAMES)))
                   + r")\s+(" + "|".join(LIMITS) + r")\b", re.I)
_STAKES = re.compile(r"\((?:[^()]*?[,\s])?([$€£]?[\d,]*\.?\d+)/([$€£]?[\d,]*\.?\d+)"
                     r"(?:/[$€£]?[\d,]*\.?\d+)?(?:\s+([A-Z]{3}))?\)")
_TOURNAMENT = re.compile(r"\btournament\s+#(\d+)", re.I)
_TABLE = re.compile(r"^Table '(.*)'(?:\s+(\d+)-max)?(?:\s+\((?:Play Money|Real Money)\))?"
                    r"(?:\s+Seat #(\d+) is the button)?\s*$")
_SYMBOL = {"$": "USD", "€": "EUR", "£": "GBP"}


@dataclass(frozen=True)
class Header:
    hand_id: str
    game: str
    game_text: str
    limit: str
    stakes: tuple[int, int]
    currency: str
    unit: Decimal
    tournament: str | None
    mixed: str | None
    started: str


def is_header(line: str) -> bool:
    return line[:10].lower() == "pokerstars" and _HEADER.match(line) is not None


def to_units(text: str, unit: Decimal) -> int:
    """``"$1,234.50"`` -> whole units of ``unit``; raises when it is not a whole number of them."""
    raw = text.strip().lstrip("$€£").replace(",", "")
    try:
        value = Decimal(raw) / unit
    except InvalidOperation:
        raise HandHistoryError(f"amount {text!r} is not a number") from None
    if value != value.to_integral_value() or value < 0:
        raise HandHistoryError(f"amount {text!r} is not a whole number of {unit}")
    return int(value)


def read_header(line: str) -> Header:
    m = _HEADER.match(line.strip().lstrip("\ufeff"))
    if m is None:
        raise HandHistoryError(f"not a PokerStars hand header: {line[:80]!r}")
    hand_id, rest = m.group(1), m.group(2)
    g = _GAME.search(rest)
    if g is None:
        raise HandHistoryError(f"the header names no game pokereval knows: {rest[:80]!r}")
    name, limit = g.group(1).lower(), g.group(2).lower()
    game_text = f"{g.group(1)} {g.group(2)}"
    if name in OTHER_GAMES:
        raise HandHistoryError(f"{game_text} is not a game pokereval plays")
    game = dict(GAME_NAMES)[name]
    limit = "limit" if limit == "fixed limit" else limit
    prefix = rest[:g.start()].rstrip()
    mixed = None
    if prefix.endswith("("):
        mixed = re.split(r"[,}]|\b[A-Z]{3}\b|\d\s", prefix[:-1])[-1].strip() or None
    tournament = _TOURNAMENT.search(rest)
    s = _STAKES.search(rest, g.start() - 1 if mixed else g.end())
    if s is None:
        raise HandHistoryError(f"the header gives no stakes: {rest[:80]!r}")
    small, big, code = s.group(1), s.group(2), s.group(3)
    symbol = small[0] if small[0] in _SYMBOL else ""
    if tournament is not None:
        currency, unit = "", Decimal(1)
    elif symbol or code or "." in small + big:
        currency, unit = code or _SYMBOL.get(symbol, ""), Decimal("0.01")
    else:  # play money
        currency, unit = "", Decimal(1)
    stakes = (to_units(small, unit), to_units(big, unit))
    dates = re.findall(r"\d{4}/\d{2}/\d{2} \d{1,2}:\d{2}:\d{2} ?[A-Z]*", rest)
    started = dates[-1].strip() if dates else ""
    return Header(hand_id, game, game_text, limit, stakes, currency, unit,
                  tournament.group(1) if tournament else None, mixed, started)


def read_table_line(line: str) -> tuple[str, int | None, int | None]:
    """(table name, seats per table, button seat) of the ``Table '...'`` line."""
    m = _TABLE.match(line.strip())
    if m is None:
        raise HandHistoryError(f"second line is not a table line: {line[:80]!r}")
    return (m.group(1), int(m.group(2)) if m.group(2) else None,
            int(m.group(3)) if m.group(3) else None)
