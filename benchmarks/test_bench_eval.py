"""Hand evaluation throughput: the C batch API against the Numba kernels' evaluator.

Each case evaluates the same card arrays (see ``conftest.hands``) with

* ``c``:     one call of the C batch wrappers in ``pokereval._native`` (one thread);
* ``numba``: a small ``@njit`` loop over the rows that calls the kernels' own
  evaluation functions (``pokereval.kernels.handeval``: ``high7``,
  ``omaha_nonflush``, ``omaha_flush``, ``board_values``) and reads the same tables.

Before timing, the Numba result is checked against C row by row (a benchmark of a
wrong answer would be worthless).  Rates: ``hands_per_s`` (5/7-card) or
``showdowns_per_s`` (Omaha: one (hole, board) pair, high and low) in ``extra_info``.

    pytest benchmarks/test_bench_eval.py --benchmark-only
"""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from pokereval import _native

try:
    from pokereval import kernels as K
    from pokereval.games import get_game
    from pokereval.kernels.handeval import (BOARD_SLOTS, board_summary, board_values, high7,
                                            low8_value, omaha_flush, omaha_nonflush, razz_value,
                                            suit_of_flag)

    HAVE_KERNELS = True
except ImportError:  # pragma: no cover - kernels not there yet / renamed
    HAVE_KERNELS = False

# Like the kernels' hot loops (``pokereval.kernels._jit``, ``hot=True``): compiled without
# the runtime's reference counting, so the loops touch no reference counts; outputs and
# scratch arrays are allocated by the Python caller (inside the timed call, as the C
# wrappers allocate theirs).
NB = dict(nogil=True, error_model="numpy", boundscheck=False, _nrt=False)
try:
    njit(**NB)(lambda: 0)()  # options are checked when compiling
except (KeyError, TypeError):  # pragma: no cover - a Numba without the private _nrt flag
    del NB["_nrt"]

if HAVE_KERNELS:
    @njit(**NB)
    def nb_high(KT, cards, out, hsm):
        """High value of each row of 5..7 cards (the stud / hold'em path: ``high7``)."""
        card_w = KT[6]
        rows, width = cards.shape
        for i in range(rows):
            key = np.int64(0)
            packed = np.int64(0)
            for s in range(4):
                hsm[s] = 0
            for j in range(width):
                c = np.int64(cards[i, j])
                key += card_w[c]
                packed += np.int64(1) << ((c & 3) << 2)
                hsm[c & 3] |= np.int64(1) << (c >> 2)
            out[i] = high7(KT, key, packed, hsm, cards[i], 0, 0, -1)

    @njit(**NB)
    def nb_low8(KT, cards, out):
        """Eight-or-better low of each row (``low8_value``, as ``stud_values``)."""
        card_low = KT[7]
        rows, width = cards.shape
        for i in range(rows):
            low = np.int64(0)
            for j in range(width):
                low |= card_low[np.int64(cards[i, j])]
            out[i] = low8_value(KT, low)

    @njit(**NB)
    def nb_razz(KT, cards, out):
        """Razz value of each row (``razz_value``, as ``stud_values``)."""
        card_w = KT[6]
        rows, width = cards.shape
        for i in range(rows):
            key = np.int64(0)
            for j in range(width):
                key += card_w[np.int64(cards[i, j])]
            out[i] = razz_value(KT, key)

    @njit(**NB)
    def nb_omaha(KT, holes, boards, want_low, hi, lo, pk, hsm):
        """Omaha high (and low) of each (hole, board) row, no cache: ``omaha_nonflush``
        over the hole pairs x board triples, ``omaha_flush`` when the board has a
        three-flush and the hole two of that suit, ``omaha_low8`` for the low."""
        card_w = KT[6]
        card_low = KT[7]
        rows, nh = holes.shape
        npairs = nh * (nh - 1) // 2
        for i in range(rows):
            hl = np.int64(0)
            hpack = np.int64(0)
            for s in range(4):
                hsm[s] = 0
            q = 0
            for a in range(nh):
                ca = np.int64(holes[i, a])
                hl |= card_low[ca]
                hpack += np.int64(1) << ((ca & 3) << 2)
                hsm[ca & 3] |= np.int64(1) << (ca >> 2)
                for b in range(a + 1, nh):
                    pk[q] = card_w[ca] + card_w[np.int64(holes[i, b])]
                    q += 1
            bl = np.int64(0)
            bpack = np.int64(0)
            for j in range(5):
                c = np.int64(boards[i, j])
                bl |= card_low[c]
                bpack += np.int64(1) << ((c & 3) << 2)
            v = omaha_nonflush(pk, npairs, boards[i], card_w, KT[0], KT[1])
            flag = (bpack + 0x5555) & 0x8888
            if flag:
                fs = suit_of_flag(flag)
                if ((hpack >> (fs << 2)) & 0xF) >= 2:
                    bsm = np.int64(0)
                    for j in range(5):
                        c = np.int64(boards[i, j])
                        if (c & 3) == fs:
                            bsm |= np.int64(1) << (c >> 2)
                    f = omaha_flush(hsm[fs], bsm, KT[3])
                    if f > v:
                        v = f
            hi[i] = v
            if want_low:
                lo[i] = KT[5][(hl << 8) | bl]

    @njit(**NB)
    def nb_omaha_one_holding(KT, G, H, boards, hi, lo, cache, who, hv, lv):
        """One holding against every row of ``boards`` through ``board_values`` with the
        kernels' per-holding no-flush cache (fresh for each call), as the equity loop runs."""
        rows = boards.shape[0]
        for i in range(rows):
            key, low, packed = board_summary(KT, boards[i])
            board_values(KT, G, H, who, 1, boards[i], key, low, packed, cache, hv, lv)
            hi[i] = hv[0]
            lo[i] = lv[0]


def _u16(n):
    return np.empty(n, np.uint16)


def _high(KT, cards):
    out = _u16(len(cards))
    nb_high(KT, cards, out, np.zeros(4, np.int64))
    return out


def _low8(KT, cards):
    out = _u16(len(cards))
    nb_low8(KT, cards, out)
    return out


def _razz(KT, cards):
    out = _u16(len(cards))
    nb_razz(KT, cards, out)
    return out


def _omaha(KT, holes, boards):
    hi, lo = _u16(len(holes)), _u16(len(holes))
    nh = holes.shape[1]
    nb_omaha(KT, holes, boards, True, hi, lo, np.zeros(nh * (nh - 1) // 2, np.int64),
             np.zeros(4, np.int64))
    return hi, lo


def _omaha_one_holding(KT, hole, boards):
    G, H = _o8_holding(hole)
    hi, lo = _u16(len(boards)), _u16(len(boards))
    one = np.zeros(1, np.int64)
    nb_omaha_one_holding(KT, G, H, boards, hi, lo, np.zeros((1, BOARD_SLOTS), np.uint16),
                         one, one.copy(), one.copy())
    return hi, lo


def _o8_holding(hole_row):
    g = get_game("omaha-hilo")
    G = K.game_flags(g)
    H = K.prep_holdings(K.kernel_tables(), hole_row.reshape(1, -1), G[0])
    return G, H


# case -> (unit, rows-key(s), C callable, Numba callable); callables take the hands dict
CASES = {
    "5card-hi": ("hands", lambda d: _native.eval_hi_batch(d["five"]),
                 lambda KT, d: _high(KT, d["five"])),
    "7card-hi-sequential": ("hands", lambda d: _native.eval_hi_batch(d["seven_seq"]),
                            lambda KT, d: _high(KT, d["seven_seq"])),
    "7card-hi-shuffled": ("hands", lambda d: _native.eval_hi_batch(d["seven_shuffled"]),
                          lambda KT, d: _high(KT, d["seven_shuffled"])),
    "7card-hi-random": ("hands", lambda d: _native.eval_hi_batch(d["seven"]),
                        lambda KT, d: _high(KT, d["seven"])),
    "7card-low8": ("hands", lambda d: _native.eval_low8_batch(d["seven"]),
                   lambda KT, d: _low8(KT, d["seven"])),
    "7card-razz": ("hands", lambda d: _native.eval_razz_batch(d["seven"]),
                   lambda KT, d: _razz(KT, d["seven"])),
    "omaha4-hilo": ("showdowns", lambda d: _native.eval_omaha_batch(d["o4_hole"], d["o4_board"], True),
                    lambda KT, d: _omaha(KT, d["o4_hole"], d["o4_board"])),
    "omaha5-hilo": ("showdowns", lambda d: _native.eval_omaha_batch(d["o5_hole"], d["o5_board"], True),
                    lambda KT, d: _omaha(KT, d["o5_hole"], d["o5_board"])),
    "omaha4-hilo-one-holding": (
        "showdowns",
        lambda d: _native.eval_omaha_batch(d["o4_fixed_hole"], d["o4_fixed_board"], True),
        lambda KT, d: _omaha_one_holding(KT, d["o4_fixed_hole"][0], d["o4_fixed_board"])),
}


def _rows(case: str, d) -> int:
    return {"5card-hi": len(d["five"]), "omaha4-hilo": len(d["o4_hole"]),
            "omaha5-hilo": len(d["o5_hole"]), "omaha4-hilo-one-holding": len(d["o4_fixed_hole"])
            }.get(case, len(d["seven"]))


def _as_pair(result):
    return result if isinstance(result, tuple) else (result, None)


@pytest.mark.parametrize("engine", ["c", "numba"])
@pytest.mark.parametrize("case", list(CASES))
def test_eval(benchmark, rate, hands, case, engine):
    unit, c_fn, nb_fn = CASES[case]
    benchmark.group = f"eval {case}"
    if engine == "c":
        fn = lambda: c_fn(hands)  # noqa: E731
    else:
        if not HAVE_KERNELS:
            pytest.skip("pokereval.kernels.handeval evaluation functions not available")
        KT = K.kernel_tables()
        fn = lambda: nb_fn(KT, hands)  # noqa: E731
        # compile, then check against C before timing anything
        got_hi, got_lo = _as_pair(fn())
        want_hi, want_lo = _as_pair(c_fn(hands))
        np.testing.assert_array_equal(got_hi, want_hi)
        if want_lo is not None:
            np.testing.assert_array_equal(got_lo, want_lo)
    benchmark.pedantic(fn, rounds=5, iterations=1, warmup_rounds=1)
    rate(_rows(case, hands), unit, engine=engine, rows=_rows(case, hands))
