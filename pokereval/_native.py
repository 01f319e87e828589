"""The compiled C evaluator (cffi module ``pokereval._ffi``): tables and batch calls.

The tables are built once by ``pe_init()`` and exposed as read-only NumPy views of the
library's own memory, so the Numba kernels read exactly what the C code reads.
Batch wrappers check shapes and card values before calling C (C trusts its input).
"""
from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

import numpy as np

from ._ffi import ffi, lib
from .errors import CardError, HandError

if lib.pe_init() != 0:  # pragma: no cover - only on out-of-memory
    raise MemoryError("pokereval: could not build the evaluator tables")

PH_SHIFT = lib.PE_PH_SHIFT


class CTables(NamedTuple):
    """The C library's lookup tables as read-only views (``TABLES``); the kernels' own
    :class:`pokereval.kernels.structs.Tables` (``KT``) is built from these."""

    rank_weight: np.ndarray  # uint32[13]
    ph_offset: np.ndarray  # int32[rows]: index = key + ph_offset[key >> PH_SHIFT]
    hi_rank: np.ndarray  # uint16[76155]
    razz_rank: np.ndarray  # uint16[76155]
    hi_flush: np.ndarray  # uint16[8192]
    low8: np.ndarray  # uint16[256]
    omaha_low8: np.ndarray  # uint16[65536]
    card_lowbit: np.ndarray  # uint8[52]


def _view(c_tables, name: str, dtype) -> np.ndarray:
    ptr, length = getattr(c_tables, name), getattr(c_tables, name + "_len")
    array = np.frombuffer(ffi.buffer(ptr, length * np.dtype(dtype).itemsize), dtype=dtype)
    array.flags.writeable = False
    return array


def _load_tables() -> CTables:
    c_tables = lib.pe_tables()
    dtypes = {"rank_weight": np.uint32, "ph_offset": np.int32, "card_lowbit": np.uint8}
    return CTables(**{f: _view(c_tables, f, dtypes.get(f, np.uint16)) for f in CTables._fields})


TABLES = _load_tables()


def as_card_rows(cards, width: int | tuple[int, ...], what: str = "cards") -> np.ndarray:
    """``cards`` as a C-contiguous uint8 array [rows, width] (no copy when it already is one).

    Only the shape and the integer range are checked here; C checks each row for cards
    over 51 and repeats as it evaluates (see ``_raise_bad_row``).
    """
    array = np.asarray(cards)
    if array.ndim == 1:
        array = array.reshape(1, -1)
    widths = (width,) if isinstance(width, int) else width
    if array.ndim != 2 or array.shape[1] not in widths:
        raise HandError(f"{what}: expected rows of {' or '.join(map(str, widths))} cards, got shape {array.shape}")
    if array.dtype != np.uint8 and array.size:
        if not np.issubdtype(array.dtype, np.integer) or array.min() < 0 or array.max() > 51:
            raise CardError(f"{what}: card indices must be integers 0..51")
    return np.ascontiguousarray(array, dtype=np.uint8)


def _raise_bad_row(bad: int, what: str, *arrays: np.ndarray) -> None:
    if bad >= 0:
        cards = [c for a in arrays for c in a[bad].tolist()]
        raise CardError(f"{what}: row {bad} {cards} has a card outside 0..51 or a repeated card")


def _ptr(array: np.ndarray, ctype: str):
    return ffi.cast(ctype, ffi.from_buffer(array))


def _batch(fn, cards, what: str) -> np.ndarray:
    rows = as_card_rows(cards, (5, 6, 7), what)
    out = np.empty(len(rows), dtype=np.uint16)
    _raise_bad_row(fn(_ptr(rows, "uint8_t *"), len(rows), rows.shape[1], _ptr(out, "uint16_t *")), what, rows)
    return out


def eval_hi_batch(cards) -> np.ndarray:
    """High value of the best five of each row of 5..7 cards."""
    return _batch(lib.pe_eval_hi_batch, cards, "eval_hi_batch")


def eval_low8_batch(cards) -> np.ndarray:
    """Eight-or-better low value (0 = none) of each row of 5..7 cards."""
    return _batch(lib.pe_eval_low8_batch, cards, "eval_low8_batch")


def eval_razz_batch(cards) -> np.ndarray:
    """Razz value of each row of 5..7 cards."""
    return _batch(lib.pe_eval_razz_batch, cards, "eval_razz_batch")


def eval_omaha_batch(holes, boards, low: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
    """Omaha (exactly 2 hole + 3 board) high and, if ``low``, eight-or-better low values."""
    holes = as_card_rows(holes, (4, 5), "holes")
    boards = as_card_rows(boards, (3, 4, 5), "boards")
    if len(holes) != len(boards):
        raise HandError(f"holes and boards differ in length: {len(holes)} != {len(boards)}")
    hi = np.empty(len(holes), dtype=np.uint16)
    lo = np.empty(len(holes), dtype=np.uint16) if low else None
    bad = lib.pe_eval_omaha_batch(_ptr(holes, "uint8_t *"), holes.shape[1], _ptr(boards, "uint8_t *"),
                                  boards.shape[1], len(holes), _ptr(hi, "uint16_t *"),
                                  _ptr(lo, "uint16_t *") if low else ffi.NULL)
    _raise_bad_row(bad, "eval_omaha_batch", holes, boards)
    return hi, lo


def board_exact_counts(holes: np.ndarray, omaha: bool, low8: bool, board: np.ndarray,
                       deck: np.ndarray, first: int = 0, count: int = -1, part: int = 0,
                       parts: int = 1) -> np.ndarray:
    """Outcome counts int64[n, n + 1, n + 2] of the run-outs of a board-game spot, walked in
    C by the rank multisets of the missing cards (the units, :func:`board_rank_sets`): the
    units ``u`` in ``[first, first + count)`` (``count`` -1: to the last) with ``u % parts ==
    part``; the defaults walk every run-out (valid, disjoint cards assumed: a parsed spot)."""
    holes = np.ascontiguousarray(holes, dtype=np.uint8)
    board = np.ascontiguousarray(board, dtype=np.uint8)
    deck = np.ascontiguousarray(deck, dtype=np.uint8)
    n, nhole = holes.shape
    counts = np.empty((n, n + 1, n + 2), dtype=np.int64)
    done = lib.pe_board_exact(_ptr(holes, "uint8_t *"), n, nhole, int(omaha), int(low8),
                              _ptr(board, "uint8_t *"), len(board), _ptr(deck, "uint8_t *"),
                              len(deck), first, count, part, parts, _ptr(counts, "int64_t *"))
    if done < 0:
        raise HandError(f"board_exact_counts: unsupported spot ({n} players of {nhole} cards, "
                        f"{len(board)} board cards, {len(deck)} unseen)")
    return counts


def board_exact_tuples_counts(rows: np.ndarray, tuples: np.ndarray, tgroup: np.ndarray,
                              ngroups: int, omaha: bool, low8: bool, board: np.ndarray,
                              deck: np.ndarray, first: int = 0, count: int | None = None
                              ) -> tuple[np.ndarray, int]:
    """``(counts int64[ngroups, n, n + 1, n + 2], run-outs)`` of the combinations of holdings
    ``tuples[first:first + count]`` (rows of ``rows``, one per player), each walked in C
    over the run-outs of ``deck`` less its cards, counted in its group ``tgroup[t]``."""
    rows = np.ascontiguousarray(rows, dtype=np.uint8)
    tuples = np.ascontiguousarray(tuples, dtype=np.int32)
    tgroup = np.ascontiguousarray(tgroup, dtype=np.int64)
    board = np.ascontiguousarray(board, dtype=np.uint8)
    deck = np.ascontiguousarray(deck, dtype=np.uint8)
    n = tuples.shape[1]
    if count is None:
        count = len(tuples) - first
    if not (0 <= first and first + count <= len(tuples) == len(tgroup)):
        raise HandError(f"board_exact_tuples_counts: combinations [{first}, {first + count}) "
                        f"of {len(tuples)} ({len(tgroup)} groups given)")
    counts = np.zeros((ngroups, n, n + 1, n + 2), dtype=np.int64)
    if len(tgroup) and not 0 <= int(tgroup[first:first + count].max(initial=0)) < ngroups:
        raise HandError(f"board_exact_tuples_counts: a group out of [0, {ngroups})")
    done = lib.pe_board_exact_tuples(_ptr(rows, "uint8_t *"), len(rows), rows.shape[1],
                                     _ptr(tuples, "int32_t *"), _ptr(tgroup, "int64_t *"), n,
                                     first, count, int(omaha), int(low8), _ptr(board, "uint8_t *"),
                                     len(board), _ptr(deck, "uint8_t *"), len(deck),
                                     _ptr(counts, "int64_t *"))
    if done < 0:
        raise HandError(f"board_exact_tuples_counts: unsupported spot ({n} players of "
                        f"{rows.shape[1]} cards, {len(board)} board cards, {len(deck)} unseen, "
                        f"rows of {len(rows)})")
    return counts, int(done)


def board_rank_sets(deck: np.ndarray, nboard: int) -> int:
    """How many rank multisets the ``5 - nboard`` missing board cards from ``deck`` have
    (the units of :func:`board_exact_counts`)."""
    deck = np.ascontiguousarray(deck, dtype=np.uint8)
    sets = lib.pe_board_rank_sets(_ptr(deck, "uint8_t *"), len(deck), nboard)
    if sets < 0:
        raise HandError(f"board_rank_sets: {len(deck)} unseen cards cannot complete "
                        f"{nboard} board cards")
    return int(sets)


def enumerate7_counts() -> np.ndarray:
    """Category counts (9) over all 133,784,560 seven-card hands, walked in C."""
    counts = np.zeros(9, dtype=np.uint64)
    lib.pe_enumerate7(_ptr(counts, "uint64_t *"))
    return counts


#: The C library's code of each stud game (pe_stud_mc).
STUD_GAMES = {"stud": lib.PE_STUD_HIGH, "stud-hilo": lib.PE_STUD_HILO, "razz": lib.PE_RAZZ}


def stud_mc_counts(known: np.ndarray, unseen: np.ndarray, mo: int, shared: bool, game: str,
                   seed: int, first_chunk: int, nchunks: int, chunk: int, total: int) -> np.ndarray:
    """Outcome counts int64[n, n + 1, n + 2] of stud Monte Carlo chunks ``[first_chunk,
    first_chunk + nchunks)`` in one C call (csrc/stud_mc.c; valid, disjoint cards
    assumed: a parsed spot)."""
    known = np.ascontiguousarray(known, dtype=np.uint8)
    unseen = np.ascontiguousarray(unseen, dtype=np.uint8)
    n, nknown = known.shape
    counts = np.empty((n, n + 1, n + 2), dtype=np.int64)
    done = lib.pe_stud_mc(_ptr(known, "uint8_t *"), n, nknown, _ptr(unseen, "uint8_t *"),
                          len(unseen), mo, int(shared), STUD_GAMES[game], seed, first_chunk,
                          nchunks, chunk, total, _ptr(counts, "int64_t *"))
    if done < 0:
        raise HandError(f"stud_mc_counts: unsupported spot ({n} players of {nknown} cards, "
                        f"{mo} more each{' and a shared card' if shared else ''}, "
                        f"{len(unseen)} unseen)")
    return counts


def pair_high_table() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The C library's Omaha pair table (``pe_pair_high``, built on first call), read-only:
    ``(slot_of uint16[PE_RANK_MULTISETS], high uint16[6175, 91], pair_class uint8[13, 13])``
    with ``high[slot_of[i], pair_class[r1, r2]]`` the best no-flush two + three high of hole
    ranks r1, r2 with the five-card board whose rank key has perfect-hash index ``i``."""
    view = lib.pe_pair_high()
    slot_of = _view(view, "slot_of", np.uint16)
    high = _view(view, "high", np.uint16).reshape(lib.PE_BOARD_RANK_SETS, lib.PE_RANK_PAIRS)
    pair_class = np.frombuffer(ffi.buffer(view.pair_class, 169), dtype=np.uint8).reshape(13, 13)
    pair_class.flags.writeable = False
    return slot_of, high, pair_class


def board_hash() -> tuple[np.ndarray, np.ndarray]:
    """The pair table's small hash of five-card board rank keys (``pe_pair_high``),
    read-only: ``(board_off int32[rows], board_slot uint16[size])``, the board's row being
    ``board_slot[key + board_off[key >> PE_BOARD_HASH_SHIFT]]``."""
    view = lib.pe_pair_high()
    return _view(view, "board_off", np.int32), _view(view, "board_slot", np.uint16)


# ---------------------------------------------------------------------------
# players given as ranges (pe_ranged_mc; the Numba kernels read the same rows)
# ---------------------------------------------------------------------------

class PlayerKind(IntEnum):
    """How a ranged Monte Carlo run finds player ``p``'s holding (``kind[p]``; pokereval.h's
    ``PE_PLAYER_*``)."""

    EXACT = lib.PE_PLAYER_EXACT    # an exact hand (or a one-holding range): its one row
    LISTED = lib.PE_PLAYER_LISTED  # a listed range: a holding row drawn by weight (or walked)
    DEALT = lib.PE_PLAYER_DEALT    # every holding of the unseen cards, equal weights: dealt


class RangeRows(NamedTuple):
    """The players' holdings stacked, player ``p``'s rows ``[pstart[p], pstart[p] +
    pcount[p])``, with what a draw by weight needs (:func:`range_rows`)."""

    holes: np.ndarray    # uint8[rows, c]: each holding's cards
    pstart: np.ndarray   # int64[n]
    pcount: np.ndarray   # int64[n]
    prob: np.ndarray     # uint64[rows]: alias-method threshold on 53 random bits
    alias: np.ndarray    # int64[rows]: alias (local row index)
    uniform: np.ndarray  # int64[n]: 1 when all of a player's weights are equal (no coin)
    masks: np.ndarray    # uint64[rows]: each holding's cards as a bit mask


def alias_table(weights: np.ndarray, prob: np.ndarray, alias: np.ndarray) -> None:
    """Walker / Vose alias table of ``weights`` (float64[m] > 0) into ``prob`` (uint64[m]
    thresholds on 53 random bits) and ``alias`` (int64[m] local indices), in C."""
    weights = np.ascontiguousarray(weights, dtype=np.float64)
    m = len(weights)
    assert prob.dtype == np.uint64 and alias.dtype == np.int64 and len(prob) == len(alias) == m
    assert prob.flags.c_contiguous and alias.flags.c_contiguous
    if lib.pe_alias_table(_ptr(weights, "double *"), m, _ptr(prob, "uint64_t *"),
                          _ptr(alias, "int64_t *")) != 0:  # pragma: no cover - out of memory
        raise MemoryError("pokereval: no memory for an alias table")


def range_rows(blocks: list[np.ndarray], weights: list) -> RangeRows:
    """:class:`RangeRows` of per-player blocks of holdings (uint8[m, c], one row for an
    exact hand) and weights (float64[m] each, or None: all equal)."""
    holes = np.ascontiguousarray(np.vstack(blocks).astype(np.uint8))
    counts = np.array([len(b) for b in blocks], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    prob = np.full(len(holes), np.uint64(1 << 53), dtype=np.uint64)
    alias = np.zeros(len(holes), dtype=np.int64)
    uniform = np.ones(len(blocks), dtype=np.int64)
    for p, wts in enumerate(weights):
        if wts is None or counts[p] == 1:
            continue
        wts = np.asarray(wts, dtype=np.float64)
        if np.all(wts == wts[0]):
            continue
        uniform[p] = 0
        s, m = starts[p], counts[p]
        alias_table(wts, prob[s:s + m], alias[s:s + m])
    bits = np.uint64(1) << holes.astype(np.uint64)
    masks = np.bitwise_or.reduce(bits, axis=1).astype(np.uint64)
    return RangeRows(holes, starts, counts, prob, alias, uniform, masks)


def ranged_mc_counts(rows: RangeRows, kind: np.ndarray, game: str | None, omaha: bool, low8: bool,
                     known: np.ndarray, mo: int, shared: bool, deck: np.ndarray, seed: int,
                     first_chunk: int, nchunks: int, chunk: int, total: int,
                     maxfactor: int) -> tuple[np.ndarray, np.ndarray]:
    """``(counts int64[n, n + 1, n + 2], info int64[nchunks, 2])`` of the ranged Monte Carlo
    chunks ``[first_chunk, first_chunk + nchunks)`` in one C call (a board game with
    ``game`` None, else that stud game): ``info[c] = (accepted, attempts)``, the chunks
    independent of the call's layout.  Valid, disjoint cards assumed."""
    kind = np.ascontiguousarray(kind, dtype=np.int64)
    known = np.ascontiguousarray(known, dtype=np.uint8)
    deck = np.ascontiguousarray(deck, dtype=np.uint8)
    n, nc = len(kind), rows.holes.shape[1]
    R = ffi.new("pe_ranges_t *", {
        "n": n, "nc": nc, "holes": _ptr(rows.holes, "uint8_t *"),
        "pstart": _ptr(rows.pstart, "int64_t *"), "pcount": _ptr(rows.pcount, "int64_t *"),
        "alias": _ptr(rows.alias, "int64_t *"), "uniform": _ptr(rows.uniform, "int64_t *"),
        "kind": _ptr(kind, "int64_t *"), "prob": _ptr(rows.prob, "uint64_t *"),
        "masks": _ptr(rows.masks, "uint64_t *")})
    D = ffi.new("pe_deal_t *", {
        "game": lib.PE_BOARD_GAME if game is None else STUD_GAMES[game], "omaha": int(omaha),
        "low": int(low8), "known": _ptr(known, "uint8_t *"), "nknown": len(known), "mo": mo,
        "shared": int(shared), "deck": _ptr(deck, "uint8_t *"), "ndeck": len(deck)})
    counts = np.empty((n, n + 1, n + 2), dtype=np.int64)
    info = np.empty((max(nchunks, 1), 2), dtype=np.int64)
    if lib.pe_ranged_mc(R, D, seed, first_chunk, nchunks, chunk, total, maxfactor,
                        _ptr(counts, "int64_t *"), _ptr(info, "int64_t *")) < 0:
        raise HandError(f"ranged_mc_counts: unsupported spot ({n} players of {nc} cards, "
                        f"{len(deck)} cards to come from)")
    return counts, info[:nchunks]
