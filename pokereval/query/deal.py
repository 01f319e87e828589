"""PQL's deal model: the ``from`` clause read into a table, and its deals as blocks of rows.

A deal is one row of cards: each player's hole cards (stud: the seven cards in the order
dealt), then the five board cards in the order dealt (board games).  A trial gives every
player a holding from its range by weight and the board from the board range; a deal with
a card twice is redrawn as a whole (ProPokerTools' rule), and the cards nobody chose come
from the rest of the deck.  :func:`.block.sample_block` draws such rows (in a kernel);
:func:`enumerate_blocks` walks every consistent deal, weighted, for exact answers.
Exactly is "every ordered run-out",
but the cards between two streets the query looks at are walked as one unordered set
(the same distribution, with far fewer rows).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Iterator

import numpy as np

from ..analysis.board_range import card_range, is_card_range
from ..cards import CardError, parse_cards
from ..classes import subsets
from ..errors import HandError
from ..games import Game
from ..ranges import RangeError, parse_range
from ..ranges.rows import row_masks
from .syntax import PqlError

__all__ = ["Seat", "Table", "Block", "read_table", "enumerate_blocks", "exact_rows",
           "open_columns"]

_ONE = np.uint64(1)


@dataclass(frozen=True)
class Seat:
    """One player: ``fixed`` cards, or a ``listing`` (uint8 [k, m] rows in deal order,
    int64 [k] weights); ``text`` as written in the query."""
    name: str
    text: str
    fixed: tuple[int, ...] | None
    listing: tuple[np.ndarray, np.ndarray] | None

    @property
    def known(self) -> int:
        return len(self.fixed) if self.fixed is not None else self.listing[0].shape[1]


@dataclass(frozen=True)
class Table:
    """The ``from`` clause: game, seats in order, board (fixed or a flop range), dead cards."""
    game: Game
    seats: tuple[Seat, ...]
    board: tuple[int, ...]
    board_listing: tuple[np.ndarray, np.ndarray] | None
    dead: tuple[int, ...]
    board_text: str = ""

    @property
    def width(self) -> int:
        return sum(self.hole_width for _ in self.seats) + (0 if self.game.stud else 5)

    @property
    def hole_width(self) -> int:
        return 7 if self.game.stud else self.game.hole

    def hole_columns(self, p: int) -> np.ndarray:
        return np.arange(p * self.hole_width, (p + 1) * self.hole_width)

    @property
    def board_start(self) -> int:
        return len(self.seats) * self.hole_width

    @property
    def board_known(self) -> int:
        return self.board_listing[0].shape[1] if self.board_listing is not None else len(self.board)

    def fixed_mask(self) -> int:
        cards = list(self.board) + list(self.dead)
        for s in self.seats:
            cards += list(s.fixed or ())
        return sum(1 << c for c in cards)

    def listings(self) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """[(first column of each row's cards, rows, weights)] for the ranged seats and a
        board range."""
        out = [(p * self.hole_width, *s.listing) for p, s in enumerate(self.seats) if s.listing]
        if self.board_listing is not None:
            out.append((self.board_start, *self.board_listing))
        return out


def _weights(w: np.ndarray) -> np.ndarray:
    """Range weights as int64 (exact counting): scaled by the lcm of their denominators."""
    values, inverse = np.unique(np.asarray(w, dtype=np.float64), return_inverse=True)
    fr = [Fraction(float(x)).limit_denominator(10 ** 6) for x in values]  # few distinct weights
    den = math.lcm(*(f.denominator for f in fr)) if fr else 1
    return np.array([int(f * den) for f in fr], dtype=np.int64)[inverse.reshape(-1)]


def _seat(game: Game, name: str, text: str, column: int, ordering) -> Seat:
    try:
        cards = parse_cards(text, name)
    except CardError:
        cards = None
    if cards is not None and (len(cards) == game.hole if not game.stud else 1 <= len(cards) <= 7):
        return Seat(name, text, tuple(cards), None)
    try:
        rng = parse_range(game, text, ordering=ordering)
        if game.stud:
            rows, weights = rng.deals()
        else:
            rows, weights = rng.holdings, rng.weights
    except (RangeError, HandError) as error:
        raise PqlError(f"{name}='{text}' at column {column}: {error}") from None
    if not len(rows):
        raise PqlError(f"{name}='{text}' at column {column}: the range is empty")
    return Seat(name, text, None, (np.ascontiguousarray(rows, np.uint8), _weights(weights)))


def read_table(game: Game, players: list[tuple[str, str, int]], board: tuple[str, int] | None,
               dead: tuple[str, int] | None, ordering=None) -> Table:
    """The seats, board and dead cards of a ``from`` clause (text, column), checked."""
    seats = tuple(_seat(game, n, t, c, ordering) for n, t, c in players)
    board_cards: list[int] = []
    listing = None
    board_text = board[0] if board else ""
    if board and board[0].strip():
        text, column = board
        if game.stud:
            raise PqlError(f"{game.name} has no board (board='{text}' at column {column})")
        try:
            if is_card_range(text):
                rows, weights = card_range(game, text, "board")
                if rows.shape[1] > 3:
                    raise PqlError(f"board='{text}' at column {column}: a board range covers the "
                                   f"flop (up to 3 cards); give the turn and river as cards")
                listing = (np.ascontiguousarray(rows, np.uint8), _weights(weights))
            else:
                board_cards = parse_cards(text, "board")
        except (RangeError, HandError, CardError) as error:
            raise PqlError(f"board='{text}' at column {column}: {error}") from None
        if len(board_cards) > 5:
            raise PqlError(f"board='{text}' at column {column}: {len(board_cards)} cards, at most 5")
    dead_cards: list[int] = []
    if dead and dead[0].strip():
        try:
            dead_cards = parse_cards(dead[0], "dead")
        except CardError as error:
            raise PqlError(f"dead='{dead[0]}' at column {dead[1]}: {error}") from None
    table = Table(game, seats, tuple(board_cards), listing, tuple(dead_cards), board_text)
    _check_cards(table)
    return table


def _check_cards(table: Table) -> None:
    seen: dict[int, str] = {}
    places = [(s.name, s.fixed) for s in table.seats if s.fixed] + [("board", table.board),
                                                                      ("dead", table.dead)]
    for where, cards in places:
        for c in cards:
            if c in seen:
                from ..cards import card_str
                raise PqlError(f"card {card_str(c)} is in both {seen[c]} and {where}")
            seen[c] = where
    need = sum(table.hole_width for _ in table.seats) + (0 if table.game.stud else 5) + len(table.dead)
    if need > 52:
        raise PqlError(f"{len(table.seats)} players of {table.game.name} need {need} cards; "
                       f"the deck has 52")


@dataclass
class Block:
    """Deals: ``rows`` uint8 [N, width]; ``weights`` int64 [N] (exact) or None (sampled: 1 each)."""
    rows: np.ndarray
    weights: np.ndarray | None


def _bits(masks: np.ndarray) -> np.ndarray:
    return ((masks[:, None] >> np.arange(52, dtype=np.uint64)) & _ONE).astype(bool)


def open_columns(table: Table) -> list[tuple[int, int]]:
    """[(first column, count)] of the cards no range or fixed card chooses, in deal order."""
    out = []
    if not table.game.stud and table.board_known < 5:
        out.append((table.board_start + table.board_known, 5 - table.board_known))
    for p, s in enumerate(table.seats):
        if s.known < table.hole_width:
            out.append((p * table.hole_width + s.known, table.hole_width - s.known))
    return out


def _segments(table: Table, streets: frozenset[int]) -> list[np.ndarray]:
    """The open columns split where the query looks at a street (``streets``: board card
    counts, or stud card counts); each segment is walked as one unordered set."""
    out = []
    groups = []
    if not table.game.stud:
        groups.append((table.board_start, table.board_known, 5))
    for p, s in enumerate(table.seats):
        if not table.game.stud:
            if s.known < table.hole_width:  # a hole never split by street
                groups.append((p * table.hole_width, s.known, table.hole_width))
        else:
            groups.append((p * table.hole_width, s.known, 7))
    for start, known, end in groups:
        cut = known
        for b in sorted(streets) + [end]:
            if known < b <= end and b > cut:
                out.append(np.arange(start + cut, start + b))
                cut = b
    return out


@lru_cache(maxsize=32)
def _complement(m: int, k: int) -> np.ndarray:
    sub = subsets(m, k)
    keep = np.ones((len(sub), m), dtype=bool)
    keep[np.arange(len(sub))[:, None], sub] = False
    out = np.nonzero(keep)[1].astype(np.uint8).reshape(len(sub), m - k)
    out.flags.writeable = False
    return out


def _patterns(deck: int, sizes: list[int], most: int) -> Iterator[np.ndarray]:
    """Every sequence of disjoint subsets of range(deck) of the given sizes, as uint8
    [rows, sum(sizes)] position rows, in pieces of at most ``most`` rows."""
    def expand(prefix: np.ndarray, remaining: np.ndarray, todo: list[int]):
        if not todo:
            yield prefix
            return
        s, rest = todo[0], todo[1:]
        sub = subsets(remaining.shape[1], s)
        comp = _complement(remaining.shape[1], s) if rest else None
        step = max(1, most // max(1, len(prefix)))
        for lo in range(0, len(sub), step):
            part = sub[lo:lo + step]
            chosen = remaining[:, part].reshape(-1, s)
            new_prefix = np.hstack([np.repeat(prefix, len(part), axis=0), chosen])
            new_rem = remaining[:, comp[lo:lo + step]].reshape(len(new_prefix), -1) if rest else None
            for start in range(0, len(new_prefix), most):
                yield from expand(new_prefix[start:start + most],
                                  None if new_rem is None else new_rem[start:start + most], rest)
    first = np.arange(deck, dtype=np.uint8)[None, :]
    yield from expand(np.zeros((1, 0), np.uint8), first, list(sizes))


def _tuples(table: Table, most: int) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    """Every consistent choice of the listings: (index per listing, masks, int weights)."""
    listings = table.listings()
    picks: list[np.ndarray] = []
    masks = np.array([table.fixed_mask()], dtype=np.uint64)
    weights = np.ones(1, dtype=object)
    for _, r, w in listings:
        m = row_masks(r)
        if len(masks) * len(r) > most:
            raise PqlError(f"exact: the ranges make over {most:,} combinations; sample instead "
                           f"(trials=N)")
        a = np.repeat(np.arange(len(masks)), len(r))
        b = np.tile(np.arange(len(r)), len(masks))
        ok = (masks[a] & m[b]) == 0
        a, b = a[ok], b[ok]
        picks = [x[a] for x in picks] + [b]
        masks = masks[a] | m[b]
        weights = weights[a] * w[b].astype(object)
    return picks, masks, weights


def check_possible(table: Table) -> None:
    """Refuse ranges that cannot be dealt together at all (``AA`` three times in hold'em),
    when they are small enough to tell at once."""
    try:
        _, masks, _ = _tuples(table, 2_000_000)
    except PqlError:  # too many combinations to list: sampling will tell
        return
    if not len(masks):
        raise PqlError("no deal is possible: the players' ranges, the board and the dead cards "
                       "always share a card")


def exact_rows(table: Table, streets: frozenset[int]) -> tuple[int, int]:
    """(choices of the ranges, run-outs per choice) of the exact walk: rows = their product."""
    picks, masks, _ = _tuples(table, 50_000_000)
    deck = 52 - bin(table.fixed_mask()).count("1") - sum(r.shape[1] for _, r, _ in table.listings())
    count = 1
    for seg in _segments(table, streets):
        count *= math.comb(deck, len(seg))
        deck -= len(seg)
    return len(masks), count


def enumerate_blocks(table: Table, streets: frozenset[int], most: int = 1 << 17) -> Iterator[Block]:
    """Every consistent deal once, weighted (int64 weights; object when they overflow)."""
    picks, masks, weights = _tuples(table, 50_000_000)
    listings = table.listings()
    segments = _segments(table, streets)
    sizes = [len(s) for s in segments]
    columns = np.concatenate(segments) if segments else np.zeros(0, np.int64)
    base = np.zeros(table.width, dtype=np.uint8)
    for p, s in enumerate(table.seats):
        if s.fixed:
            base[p * table.hole_width:p * table.hole_width + len(s.fixed)] = s.fixed
    base[table.board_start:table.board_start + len(table.board)] = table.board
    big = any(int(w) >= (1 << 62) for w in weights)
    weights = weights if big else weights.astype(np.int64)
    decks = np.nonzero(~_bits(masks))[1].astype(np.uint8).reshape(len(masks), -1)
    for pattern in _patterns(decks.shape[1], sizes, most):
        step = max(1, most // len(pattern))
        for t0 in range(0, len(masks), step):
            ts = np.arange(t0, min(len(masks), t0 + step))
            heads = np.tile(base, (len(ts), 1))
            for (col, r, _), pick in zip(listings, picks):
                heads[:, col:col + r.shape[1]] = r[pick[ts]]
            rows = np.repeat(heads, len(pattern), axis=0)
            rows[:, columns] = decks[ts][:, pattern].reshape(len(rows), len(columns))
            yield Block(rows, np.repeat(weights[ts], len(pattern)))
