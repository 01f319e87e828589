"""The PQL functions that walk more than the deal itself: equity on a street (every
remaining run-out), equity against the ranges, the nuts and outs (every holding or next
card unseen by the player), range membership and hand rankings.

Each is cached per distinct key (hands and board so far) in :class:`Nested`, which lives
for one query: a fixed-hand query on the flop walks each flop once however many trials
land on it.  Costs (see docs/PQL.md): ``equity`` on the flop is one C walk of ~1,000
run-outs per distinct (hands, flop); ``HvREquity`` one ``pe.equity`` run per distinct
(hand, board); ``nutLo`` is a table lookup per row (the best of 28 low rank pairs, from the
low ranks still unseen and the board's low ranks); ``nutHi`` evaluates ~100 candidate
holdings per row (one per rank pair, plus the suited pairs of a flush suit) instead of the
~1,300 unseen pairs; outs functions repeat that for each of the ~45 next cards.  Every
nested function in a selector computes only the rows the WHERE accepts
(:attr:`hands.Hands.live`), and looks up one key per run of equal consecutive keys.
"""
from __future__ import annotations

import threading
from functools import lru_cache
from fractions import Fraction
from math import lcm

import numpy as np

from .. import _native
from ..analysis.board_range import card_range
from ..cards import cards_str
from ..classes import subsets
from ..equity.options import parse_options
from ..equity.run import run
from ..equity.spot import parse_spot
from ..equity.tally import lcm_upto, share_units
from ..percent import percentile
from ..ranges import parse_range
from .block import nut_low_values
from .deal import Table
from .hands import Hands, high_rating, street_cards
from .values import Num

__all__ = ["Nested"]

_ONE = np.uint64(1)
_DECK = np.uint64((1 << 52) - 1)
_CARDS = np.arange(52, dtype=np.uint8)


def _mask_of(cards) -> int:
    return sum(1 << int(c) for c in cards)


def _fraction_column(fractions: list) -> Num:
    """Exact fractions over one denominator, or floats when some are not exact."""
    if all(isinstance(f, Fraction) for f in fractions):
        den = lcm(*(f.denominator for f in fractions)) if fractions else 1
        if den < (1 << 40):
            return Num(np.array([f.numerator * (den // f.denominator) for f in fractions],
                                dtype=np.int64), den)
    return Num(np.array([float(f) for f in fractions], dtype=np.float64), None)


def _runs(keys: np.ndarray, rows: np.ndarray):
    """(rows, heads, run_of): of the given rows, those that start a run of equal keys
    (consecutive deals that share hands and board: exact walks list the later cards
    innermost), and the run of each row; a nested walk looks up one key per run."""
    k = keys[rows]
    new = np.ones(len(k), dtype=bool)
    if len(k) > 1:
        new[1:] = (k[1:] != k[:-1]).any(axis=1)
    return rows, rows[new], np.cumsum(new) - 1


def _expand(heads: Num, n: int, rows: np.ndarray, run_of: np.ndarray) -> Num:
    """The per-run column as a column of all n rows (0 off ``rows``)."""
    values = np.asarray(heads.values)
    out = np.zeros(n, dtype=values.dtype)
    out[rows] = values[run_of]
    return Num(out, heads.den)


class Nested:
    """One query's caches of nested walks (thread-safe: a lock per cache fill)."""

    def __init__(self, table: Table, seed: int) -> None:
        self.table, self.game, self.seed = table, table.game, seed
        self.dead_mask = _mask_of(table.dead)
        self._equity: dict = {}
        self._hvr: dict = {}
        self._ranges: dict = {}
        self._percentile: dict = {}
        self._lock = threading.Lock()
        # set when the query is stopped (Ctrl-C, the web's Cancel): the chunks running on
        # other threads raise at their next nested walk instead of finishing (a chunk of
        # HvREquity trials is minutes of equity runs)
        self.stopped = threading.Event()

    def check(self) -> None:
        """Raise KeyboardInterrupt when the query was stopped."""
        if self.stopped.is_set():
            raise KeyboardInterrupt

    def _options(self):
        """A nested equity run's options: seeded, one thread, stopped with the query."""
        return parse_options(None, None, None, self.seed, 1, lambda partial: self.check())

    # equity on a street -------------------------------------------------------------
    def equity(self, h: Hands, p: int, st: str) -> Num:
        g, k, n = self.game, street_cards(self.game, st), h.n
        if g.stud:
            return self._stud_equity(h, p, k)
        holes = np.stack([h.hole(q) for q in range(n)], axis=1)  # [N, n, hole]
        board = h.board(k)
        keys = np.hstack([holes.reshape(len(h), -1), board])
        rows, heads, run_of = _runs(keys, h.live_rows())
        names = [bytes(keys[i]) for i in heads]
        todo = [j for j, key in enumerate(names) if key not in self._equity]
        if todo:  # walk the new keys, then tally their counts in one go
            free = ((_masks(keys[heads[todo]]) | np.uint64(self.dead_mask))[:, None]
                    >> _CARDS.astype(np.uint64) & _ONE) == 0
            walked = []
            for t, j in enumerate(todo):
                self.check()
                walked.append(_native.board_exact_counts(holes[heads[j]], g.exactly_two, g.eight,
                                                         board[heads[j]], _CARDS[free[t]]))
            counts = np.stack(walked)
            shares = (counts * share_units(g.pot, n)).sum(axis=(2, 3))
            runs = counts[:, 0].sum(axis=(1, 2))
            for t, j in enumerate(todo):
                self._equity[names[j]] = (shares[t], int(runs[t]))
        hits = [self._equity[key] for key in names]
        values = np.array([hit[0][p] for hit in hits], dtype=np.int64)
        runouts = hits[-1][1] if hits else None
        out = np.zeros(len(h), dtype=np.int64)
        out[rows] = values[run_of]
        return Num(out, (runouts or 1) * 2 * lcm_upto(n))

    def _stud_equity(self, h: Hands, p: int, k: int) -> Num:
        n = h.n
        cards = [h.hole(q, k) for q in range(n)]
        rows, heads, run_of = _runs(np.hstack(cards), h.live_rows())
        dead = cards_str(self.table.dead)
        values = []
        for i in heads:
            hands = tuple(cards_str(c[i]) for c in cards)
            hit = self._equity.get(hands)
            if hit is None:
                r = run(parse_spot(self.game, list(hands), "", dead), self._options(), 0.0)
                self.check()  # a stopped run's partial answer is not cached
                hit = [pl.fraction if r.exact else pl.equity for pl in r.players]
                self._equity[hands] = hit
            values.append(hit[p])
        return _expand(_fraction_column(values), len(h), rows, run_of)

    def hvr_equity(self, h: Hands, p: int, st: str) -> Num:
        """p's actual hand against the other seats' ranges as written, board so far."""
        k = street_cards(self.game, st)
        mine = h.hole(p, k) if self.game.stud else h.hole(p)
        board = None if self.game.stud else h.board(k)
        rows, heads, run_of = _runs(mine if board is None else np.hstack([mine, board]),
                                    h.live_rows())
        values = []
        for i in heads:
            hand = cards_str(mine[i])
            b = cards_str(board[i]) if board is not None else ""
            hit = self._hvr.get((p, hand, b))
            if hit is None:
                texts = [hand if q == p else s.text for q, s in enumerate(self.table.seats)]
                r = run(parse_spot(self.game, texts, b, cards_str(self.table.dead)),
                        self._options(), 0.0)
                self.check()
                hit = r.players[p].fraction if r.exact else r.players[p].equity
                self._hvr[(p, hand, b)] = hit
            values.append(hit)
        return _expand(_fraction_column(values), len(h), rows, run_of)

    # the nuts -------------------------------------------------------------------------
    def _nut_values(self, hole: np.ndarray, board: np.ndarray, low: bool) -> np.ndarray:
        """The best value any two-card holding of cards unseen by the player (not his, not
        on the board, not dead) makes on each row's board: see :func:`nut_low` and
        :func:`nut_high` (a better Omaha hand needs only two hole cards, so pairs suffice)."""
        unseen = ~(_masks(hole) | _masks(board) | np.uint64(self.dead_mask)) & _DECK
        if low:
            return nut_low(unseen, board)
        return nut_high(unseen, board, self.game.exactly_two)

    def nut(self, h: Hands, p: int, st: str, low: bool) -> np.ndarray:
        k = street_cards(self.game, st)
        rows = h.live_rows()
        if low:  # the block's cached lows, and the nut low in one kernel call
            mine = h.lo(p, st)[rows]
            block = h.rows if h.live is None else h.rows[rows]
            nut = nut_low_values(self.table, block, p, k, self.dead_mask, _low_table(),
                                 _LOW_PAIRS, _LOW_RANK)
        else:
            mine = _native_value(h, p, st, low)[rows]
            nut = self._nut_values(h.hole(p)[rows], h.board(k)[rows], low)
        out = np.zeros(len(h), dtype=bool)
        out[rows] = (mine >= nut) & ((mine > 0) if low else True)
        return out

    def outs(self, h: Hands, p: int, st: str, test) -> Num:
        """Cards unseen by p that, as the next board card, make ``test(hole, board)`` true."""
        k, live = street_cards(self.game, st), h.live_rows()
        hole, board = h.hole(p)[live], h.board(k)[live]
        seen = _masks(hole) | _masks(board) | np.uint64(self.dead_mask)
        count = np.zeros(len(live), dtype=np.int64)
        for c in range(52):
            self.check()
            free = ((seen >> np.uint64(c)) & _ONE) == 0
            rows = np.nonzero(free)[0]
            if not len(rows):
                continue
            nxt = np.hstack([board[rows], np.full((len(rows), 1), c, dtype=np.uint8)])
            count[rows] += test(hole[rows], nxt)
        out = np.zeros(len(h), dtype=np.int64)
        out[live] = count
        return Num(out, 1)

    def stud_outs(self, h: Hands, p: int, st: str, category: int) -> Num:
        """Stud: cards unseen by p (not p's cards so far, not another player's up cards so
        far, not dead) that, as p's next card, give p at least hand type ``category``."""
        k, live = street_cards(self.game, st), h.live_rows()
        mine = h.hole(p, k)[live]
        seen = _masks(mine) | np.uint64(self.dead_mask)
        for q in range(h.n):
            if q != p and min(k, 6) > 2:  # third to sixth street are dealt face up
                seen |= _masks(h.hole(q, min(k, 6))[live, 2:])
        count = np.zeros(len(live), dtype=np.int64)
        for c in range(52):
            self.check()
            rows = np.nonzero(((seen >> np.uint64(c)) & _ONE) == 0)[0]
            if not len(rows):
                continue
            cards = np.hstack([mine[rows], np.full((len(rows), 1), c, dtype=np.uint8)])
            count[rows] += (high_rating(cards) >> 20) >= category
        out = np.zeros(len(h), dtype=np.int64)
        out[live] = count
        return Num(out, 1)

    def nut_test(self, low: bool):
        def test(hole, board):
            mine = _value(self.game, hole, board, low)
            return (mine >= self._nut_values(hole, board, low)) & ((mine > 0) if low else True)
        return test

    def type_test(self, category: int):
        def test(hole, board):
            return (_value(self.game, hole, board, False) >> 12) >= category
        return test

    # ranges and rankings ------------------------------------------------------------------
    def in_range(self, h: Hands, p: int, text: str) -> np.ndarray:
        g = self.game
        hit = self._ranges.get(("hand", text))
        if hit is None:
            r = parse_range(g, text)
            rows = r.deals()[0] if g.stud else r.holdings
            hit = (rows.shape[1], np.unique(_row_keys(rows, g.stud)))
            self._ranges[("hand", text)] = hit
        m, keys = hit
        mine = h.hole(p, m) if g.stud else h.hole(p)
        if mine.shape[1] != m:
            return np.zeros(len(h), dtype=bool)
        return np.isin(_row_keys(mine, g.stud), keys)

    def board_in_range(self, h: Hands, text: str) -> np.ndarray:
        hit = self._ranges.get(("board", text))
        if hit is None:
            rows, _ = card_range(self.game, text, "board")
            hit = (rows.shape[1], np.unique(_row_keys(rows, False)))
            self._ranges[("board", text)] = hit
        m, keys = hit
        return np.isin(_row_keys(h.board(m), False), keys)

    def hand_ranking(self, h: Hands, p: int) -> Num:
        hole = h.hole(p)
        out = np.empty(len(h), dtype=np.float64)
        for i, key in enumerate(map(bytes, np.sort(hole, axis=1))):
            hit = self._percentile.get(key)
            if hit is None:
                hit = percentile(self.game, cards_str(hole[i]))
                self._percentile[key] = hit
            out[i] = hit
        return Num(out, None)


def _masks(cards: np.ndarray) -> np.ndarray:
    m = np.zeros(len(cards), dtype=np.uint64)
    for i in range(cards.shape[1]):
        m |= _ONE << cards[:, i].astype(np.uint64)
    return m


# nut lows: from ranks alone -------------------------------------------------------------
_LOW_RANK = np.array([12, 0, 1, 2, 3, 4, 5, 6])  # low bit (ace 0, deuce 1 ... eight 7) -> rank
_LOW_PAIRS = subsets(8, 2)  # two distinct low ranks: the only hole pairs that make an Omaha low


@lru_cache(maxsize=1)
def _low_table() -> np.ndarray:
    """uint16 [28, 256]: the Omaha eight-or-better low of hole low ranks ``_LOW_PAIRS[i]``
    with a board whose distinct low ranks are the bit set ``b`` (the C evaluator's value,
    which depends on those rank sets only); evaluated once on stand-in cards."""
    table = np.zeros((len(_LOW_PAIRS), 256), dtype=np.uint16)
    boards = [b for b in range(256) if 3 <= bin(b).count("1") <= 5]
    rows_h, rows_b, where = [], [], []
    for i, (x, y) in enumerate(_LOW_PAIRS):
        for b in boards:
            ranks = [int(_LOW_RANK[r]) for r in range(8) if b >> r & 1]
            pad = [40 + 3, 36 + 3, 32 + 3]  # Qs Js Ts: no low
            rows_b.append([r * 4 + 2 for r in ranks] + pad[:5 - len(ranks)])
            rows_h.append([_LOW_RANK[x] * 4, _LOW_RANK[y] * 4 + 1, 44, 45])  # two lows, Kc Kd
            where.append((i, b))
    _, lo = _native.eval_omaha_batch(np.array(rows_h, dtype=np.uint8),
                                     np.array(rows_b, dtype=np.uint8), low=True)
    idx = np.array(where)
    table[idx[:, 0], idx[:, 1]] = lo
    table.flags.writeable = False
    return table


def nut_low(unseen: np.ndarray, board: np.ndarray) -> np.ndarray:
    """Per row, the best Omaha eight-or-better low (0: none) of two unseen cards on the
    board.  An Omaha low is two distinct low ranks from the hole and three from the board,
    so it depends only on which low ranks are still unseen and the board's low rank set:
    the best of the 28 low rank pairs both unseen, read from :func:`_low_table`."""
    b = np.zeros(len(board), dtype=np.int64)
    for i in range(board.shape[1]):
        r = (board[:, i] >> 2).astype(np.int64)
        b |= np.where((r <= 6) | (r == 12), np.int64(1) << np.where(r == 12, 0, r + 1), 0)
    have = np.stack([(unseen >> np.uint64(4 * int(r))) & np.uint64(15) for r in _LOW_RANK]) != 0
    both = have[_LOW_PAIRS[:, 0]] & have[_LOW_PAIRS[:, 1]]  # [28, N]
    values = np.where(both, _low_table()[:, b], 0)
    return values.max(axis=0).astype(np.int64)


# nut highs: a few candidate holdings per row ---------------------------------------------
_LOWEST = np.array([-1] + [(x & -x).bit_length() - 1 for x in range(1, 16)])  # lowest suit of a nibble
_SECOND = np.array([-1 if bin(x).count("1") < 2 else ((x & (x - 1)) & -(x & (x - 1))).bit_length() - 1
                    for x in range(16)])
_RANK_PAIRS = [(a, b) for a in range(13) for b in range(a, 13)]
_SUITED = subsets(13, 2)


def _lowest_card(m: np.ndarray) -> np.ndarray:
    """The lowest card in each 52-bit set (-1: empty)."""
    low = m & (~m + _ONE)
    out = np.full(len(m), -1, dtype=np.int64)
    nz = low != 0
    out[nz] = np.log2(low[nz].astype(np.float64)).astype(np.int64)
    return out


def _candidates(unseen: np.ndarray, board: np.ndarray, omaha: bool):
    """(rows, pairs): two-card holdings of unseen cards whose values, best per row, are the
    best of all unseen holdings.  A holding's hand is either no flush (its value depends on
    its two ranks only: one real holding of each pair of ranks stands for all of them) or a
    flush of a suit with three or more board cards: Omaha (exactly two hole cards) needs
    both cards of that suit, so every unseen suited pair of it; hold'em also one card of a
    suit with four on the board, with any other unseen card."""
    n = len(unseen)
    nibble = np.stack([((unseen >> np.uint64(4 * r)) & np.uint64(15)).astype(np.int64)
                       for r in range(13)])  # [13, N]
    rows, pairs = [], []
    all_rows = np.arange(n)
    for a, b in _RANK_PAIRS:
        sa = _LOWEST[nibble[a]]
        sb = _SECOND[nibble[a]] if a == b else _LOWEST[nibble[b]]
        ok = (sa >= 0) & (sb >= 0)
        rows.append(all_rows[ok])
        pairs.append(np.stack([a * 4 + sa[ok], b * 4 + sb[ok]], axis=1))
    suits = ((board[:, :, None] & 3) == np.arange(4)).sum(axis=1)  # [N, 4]
    for s in range(4):
        flushy = np.nonzero(suits[:, s] >= 3)[0]
        if not len(flushy):
            continue
        u = unseen[flushy]
        for a, b in _SUITED:
            ca, cb = a * 4 + s, b * 4 + s
            ok = ((u >> np.uint64(ca)) & (u >> np.uint64(cb)) & _ONE) == 1
            rows.append(flushy[ok])
            pairs.append(np.tile(np.array([ca, cb]), (int(ok.sum()), 1)))
        if omaha:
            continue
        four = flushy[suits[flushy, s] >= 4]
        u = unseen[four]
        for r in range(13):
            c = r * 4 + s
            ok = ((u >> np.uint64(c)) & _ONE) == 1
            other = _lowest_card(u[ok] & ~(_ONE << np.uint64(c)))
            has = other >= 0
            rows.append(four[ok][has])
            pairs.append(np.stack([np.full(int(has.sum()), c), other[has]], axis=1))
    return np.concatenate(rows), np.concatenate(pairs).astype(np.uint8)


def nut_high(unseen: np.ndarray, board: np.ndarray, omaha: bool, chunk: int = 4096) -> np.ndarray:
    """Per row, the best high (C value) any two unseen cards make on the board."""
    out = np.zeros(len(unseen), dtype=np.int64)
    for start in range(0, len(unseen), chunk):
        part = slice(start, start + chunk)
        rows, pairs = _candidates(unseen[part], board[part], omaha)
        b = board[part][rows]
        if omaha:
            best = np.zeros(len(rows), dtype=np.int64)
            for t in subsets(b.shape[1], 3):
                v = _native.eval_hi_batch(np.hstack([pairs, b[:, t]]))
                best = np.maximum(best, v.astype(np.int64))
        else:
            best = _native.eval_hi_batch(np.hstack([pairs, b])).astype(np.int64)
        top = np.zeros(min(chunk, len(unseen) - start), dtype=np.int64)
        np.maximum.at(top, rows, best)
        out[part] = top
    return out


def _row_keys(rows: np.ndarray, ordered: bool) -> np.ndarray:
    """One int per row: the card set (bit mask), or in stud the deal order (down cards as
    a set, then the up cards in order)."""
    rows = rows.astype(np.uint64)
    if not ordered:
        key = np.zeros(len(rows), dtype=np.uint64)
        for i in range(rows.shape[1]):
            key |= _ONE << rows[:, i]
        return key
    down = np.sort(rows[:, :2], axis=1)
    key = down[:, 0] * np.uint64(52) + down[:, 1]
    for i in range(2, rows.shape[1]):
        key = key * np.uint64(52) + rows[:, i]
    return key


def _value(game, hole: np.ndarray, board: np.ndarray, low: bool) -> np.ndarray:
    """C value (uint16 scale) of holes with boards under the game's rule."""
    if game.exactly_two:
        hi, lo = _native.eval_omaha_batch(hole, board, low=low)
        return (lo if low else hi).astype(np.int64)
    cards = np.hstack([hole, board])
    return (_native.eval_low8_batch(cards) if low else _native.eval_hi_batch(cards)).astype(np.int64)


def _native_value(h: Hands, p: int, st: str, low: bool) -> np.ndarray:
    return _value(h.game, h.hole(p), h.board(street_cards(h.game, st)), low)
