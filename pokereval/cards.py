"""Card notation <-> card indices.

A card is an integer ``c = 4*rank + suit``: ``rank`` 0..12 stands for
``2 3 4 5 6 7 8 9 T J Q K A`` and ``suit`` 0..3 for ``c d h s``:

====  ====  ====  ====  ====
rank   c     d     h     s
====  ====  ====  ====  ====
 2      0     1     2     3
 3      4     5     6     7
 4      8     9    10    11
 5     12    13    14    15
 6     16    17    18    19
 7     20    21    22    23
 8     24    25    26    27
 9     28    29    30    31
 T     32    33    34    35
 J     36    37    38    39
 Q     40    41    42    43
 K     44    45    46    47
 A     48    49    50    51
====  ====  ====  ====  ====

Text notation: a rank (``23456789TJQKA`` or ``10``, any case) followed by a
suit (``cdhs`` any case, or ``♣♦♥♠`` / ``♧♢♡♤``). Several cards may be written
back to back or separated by spaces and/or commas.

>>> parse_cards("Ah Kd, 10c")
[50, 45, 32]
>>> cards_str([50, 45, 32])
'AhKdTc'
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Mapping

from .errors import CardError

__all__ = [
    "RANKS",
    "SUITS",
    "parse_card",
    "holdings_str",
    "rank_index",
    "suit_index",
    "parse_cards",
    "card_str",
    "cards_str",
    "check_disjoint",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"

# Rank and suit spellings (keys upper-case for ranks, as written for suits).
_RANK = {r: i for i, r in enumerate(RANKS)}
_RANK["10"] = RANKS.index("T")
_SUIT = {s: i for i, s in enumerate(SUITS)}
_SUIT.update({s.upper(): i for i, s in enumerate(SUITS)})
_SUIT.update({s: i for i, s in enumerate("♣♦♥♠")})
_SUIT.update({s: i for i, s in enumerate("♧♢♡♤")})

_NAMES = tuple(r + s for r in RANKS for s in SUITS)  # _NAMES[c] is the text of card c
_SEPARATORS = re.compile(r"[\s,]+")


def rank_index(text: str) -> int | None:
    """The rank (0 = deuce .. 12 = ace) that ``text`` spells (``23456789TJQKA`` any case,
    or ``10``), or None: the one notation table for every parser (cards, ranges, spots).

    >>> rank_index("t"), rank_index("10"), rank_index("X")
    (8, 8, None)
    """
    return _RANK.get(text.upper())


def suit_index(text: str) -> int | None:
    """The suit (0..3 = c d h s) that ``text`` spells (``cdhs`` any case, ``♣♦♥♠`` or the
    outline ``♧♢♡♤``), or None.

    >>> suit_index("H"), suit_index("♠"), suit_index("♡"), suit_index("x")
    (2, 3, 2, None)
    """
    return _SUIT.get(text)


def _card(rank: str, suit: str) -> int | None:
    """The index of the card spelled ``rank`` + ``suit``, or None."""
    r = _RANK.get(rank.upper())
    s = _SUIT.get(suit)
    return None if r is None or s is None else 4 * r + s


def _scan(text: str) -> Iterable[tuple[str, int | None]]:
    """Yield (token, index or None) for each card-sized token of ``text``.

    A token is a rank ("10" or one character) and the character after it,
    whatever it is, so that a bad token is reported as it was written.
    """
    # U+FE0F asks for emoji presentation ("♥️"); it carries no meaning here.
    text = text.replace("\ufe0f", "")
    for chunk in _SEPARATORS.split(text):
        i = 0
        while i < len(chunk):
            # "10" is the only two-character rank; "1" alone is never a rank,
            # so this cannot swallow the suit of a valid card.
            j = i + 2 if chunk.startswith("10", i) else i + 1
            token = chunk[i : j + 1]
            yield token, _card(chunk[i:j], chunk[j : j + 1])
            i = j + 1


def _place(what: str) -> str:
    return f" in {what}" if what else ""


def parse_card(text: str) -> int:
    """Parse one card.

    >>> parse_card("Ah"), parse_card("2c"), parse_card("10♠"), parse_card("tD")
    (50, 0, 35, 33)
    >>> parse_card("Zz")
    Traceback (most recent call last):
    ...
    pokereval.errors.CardError: unknown card 'Zz'
    """
    if not isinstance(text, str):
        raise CardError(f"unknown card {text!r}")
    tokens = list(_scan(text.strip()))
    if len(tokens) != 1 or tokens[0][1] is None:
        raise CardError(f"unknown card {text.strip()!r}")
    return tokens[0][1]


def parse_cards(value: str | Iterable[int | str], what: str = "hand") -> list[int]:
    """Parse a group of distinct cards (a hand, a board, dead cards).

    ``value`` is a string of cards, or an iterable of card indices (0..51)
    or of one-card strings. ``what`` names the group in error messages.

    >>> parse_cards("AhKd"), parse_cards("ah,kd"), parse_cards("A♥ K♦")
    ([50, 45], [50, 45], [50, 45])
    >>> parse_cards([50, "Kd"]), parse_cards("")
    ([50, 45], [])
    >>> parse_cards("AhZz", "player 2's hand")
    Traceback (most recent call last):
    ...
    pokereval.errors.CardError: unknown card 'Zz' in player 2's hand
    >>> parse_cards("Ah 7c ah", "board")
    Traceback (most recent call last):
    ...
    pokereval.errors.CardError: duplicate card Ah in board
    """
    where = _place(what)
    pairs: Iterable[tuple[int | None, object]]
    if isinstance(value, str):
        pairs = ((card, token) for token, card in _scan(value))
    else:
        try:
            items = iter(value)
        except TypeError:
            raise CardError(f"expected cards{where}, got {value!r}") from None
        pairs = ((_one(item, where), item) for item in items)
    # Duplicates are caught as the cards come, so any input, however long, is
    # refused by its 53rd card at the latest (bounded time on hostile input).
    cards: list[int] = []
    seen: set[int] = set()
    for card, token in pairs:
        if card is None:
            raise CardError(f"unknown card {token!r}{where}" + _range_hint(value))
        if card in seen:
            raise CardError(f"duplicate card {_NAMES[card]}{where}")
        seen.add(card)
        cards.append(card)
    return cards


_RANGE_LIKE = re.compile(r"[*%,:$@+!]|^[2-9TJQKA]{2}[so]?$", re.I)


def _range_hint(value: object) -> str:
    """What to say when a card group was written as a range (``AA**``, ``AKs``, ``15%``)
    where exact cards are needed (evaluate, all-in EV, settle)."""
    if isinstance(value, str) and _RANGE_LIKE.search(value.strip()):
        return f": {value.strip()!r} is a range; this needs exact cards (e.g. AhKd)"
    return ""


def _one(item: object, where: str) -> int:
    """One element of an iterable given to parse_cards."""
    if isinstance(item, str):
        tokens = list(_scan(item.strip()))
        if len(tokens) == 1 and tokens[0][1] is not None:
            return tokens[0][1]
    elif not isinstance(item, bool):  # True is an int, but never a card
        try:
            card = operator.index(item)  # type: ignore[arg-type]  # int, numpy ints
        except TypeError:
            pass
        else:
            if 0 <= card < 52:
                return card
    raise CardError(f"unknown card {item!r}{where}")


def card_str(card: int) -> str:
    """The text of one card index.

    >>> card_str(0), card_str(50), card_str(51)
    ('2c', 'Ah', 'As')
    """
    try:
        index = operator.index(card)  # int, numpy integers
    except TypeError:
        index = -1
    if isinstance(card, bool) or not 0 <= index < 52:
        raise CardError(f"unknown card {card!r}")
    return _NAMES[index]


def cards_str(cards: Iterable[int]) -> str:
    """The text of several card indices, concatenated.

    >>> cards_str([50, 45]), cards_str([])
    ('AhKd', '')
    """
    return "".join(card_str(c) for c in cards)


def holdings_str(rows: Iterable[Iterable[int]]) -> list[str]:
    """The text of each holding, its cards high to low (many at once: no per-card checks,
    the rows are card indices the engine made).

    >>> holdings_str([[45, 50], [0, 51]])
    ['AhKd', 'As2c']
    """
    return ["".join([_NAMES[c] for c in sorted(row, reverse=True)]) for row in rows]


def check_disjoint(groups: Mapping[str, Iterable[int]]) -> None:
    """Raise CardError if any card appears twice among the labelled groups.

    >>> check_disjoint({"player 1": [50, 45], "player 2": [0, 1], "board": []})
    >>> check_disjoint({"player 1": [50, 45], "player 2": [0, 50]})
    Traceback (most recent call last):
    ...
    pokereval.errors.CardError: duplicate card Ah in player 1 and player 2
    """
    owner: dict[int, str] = {}
    for label, cards in groups.items():
        for card in cards:
            if card in owner:
                first = owner[card]
                places = label if first == label else f"{first} and {label}"
                raise CardError(f"duplicate card {card_str(card)} in {places}")
            owner[card] = label
