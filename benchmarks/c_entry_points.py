"""Exercise every C entry point of the evaluator once over its valid shapes and its
error paths, with nothing else running (no Numba): a small program to run under
valgrind or a sanitizer build.

    PYTHONMALLOC=malloc valgrind --error-exitcode=99 --leak-check=full \\
        --errors-for-leak-kinds=definite python benchmarks/c_entry_points.py
    python benchmarks/c_entry_points.py --enumerate7     # also the 133,784,560-hand walk

Each result is checked against the scalar entry point (batch == scalar) so the run also
fails loudly if a call reads the wrong memory.  Exit code 0 when every check holds.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from pokereval import _native  # noqa: E402  (pe_init and pe_tables run at import)
from pokereval._native import ffi, lib  # noqa: E402


def u8(cards) -> object:
    return ffi.new("uint8_t[]", list(cards))


def ptr(array: np.ndarray, ctype: str):
    return ffi.cast(ctype, ffi.from_buffer(array))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=300, help="random rows per batch call")
    parser.add_argument("--enumerate7", action="store_true", help="also run pe_enumerate7")
    args = parser.parse_args()
    rnd = random.Random(16)
    tables = _native.TABLES
    assert all(len(t) for t in tables), "empty table"
    calls = 0

    # scalar 5..7-card evaluators, and their batch forms on the same rows
    for n in (5, 6, 7):
        rows = np.array([rnd.sample(range(52), n) for _ in range(args.rows)], dtype=np.uint8)
        for scalar, batch in ((lib.pe_eval_hi, lib.pe_eval_hi_batch),
                              (lib.pe_eval_low8, lib.pe_eval_low8_batch),
                              (lib.pe_eval_razz, lib.pe_eval_razz_batch)):
            expect = [scalar(u8(r), n) for r in rows.tolist()]
            out = np.empty(len(rows), dtype=np.uint16)
            bad = batch(ptr(rows, "uint8_t *"), len(rows), n, ptr(out, "uint16_t *"))
            assert bad == -1 and out.tolist() == expect, (scalar, n, bad)
            # error paths: a card over 51, a repeated card, and no rows at all
            for poison in (52, 255, int(rows[-1, 0])):
                broken = rows.copy()
                broken[-1, -1] = poison
                bad = batch(ptr(broken, "uint8_t *"), len(broken), n, ptr(out, "uint16_t *"))
                assert bad == len(broken) - 1, (scalar, n, poison, bad)
            empty = np.empty((0, n), dtype=np.uint8)
            assert batch(ptr(empty, "uint8_t *"), 0, n, ptr(out, "uint16_t *")) == -1
            calls += len(rows) + 5

    # Omaha: exactly two hole cards and three board cards, 4- and 5-card holes
    for nhole in (4, 5):
        for nboard in (3, 4, 5):
            deal = [rnd.sample(range(52), nhole + nboard) for _ in range(args.rows)]
            holes = np.array([d[:nhole] for d in deal], dtype=np.uint8)
            boards = np.array([d[nhole:] for d in deal], dtype=np.uint8)
            hi_expect = [lib.pe_eval_omaha_hi(u8(h), nhole, u8(b), nboard)
                         for h, b in zip(holes.tolist(), boards.tolist())]
            lo_expect = [lib.pe_eval_omaha_low8(u8(h), nhole, u8(b), nboard)
                         for h, b in zip(holes.tolist(), boards.tolist())]
            hi = np.empty(len(deal), dtype=np.uint16)
            lo = np.empty(len(deal), dtype=np.uint16)
            bad = lib.pe_eval_omaha_batch(ptr(holes, "uint8_t *"), nhole, ptr(boards, "uint8_t *"),
                                          nboard, len(deal), ptr(hi, "uint16_t *"),
                                          ptr(lo, "uint16_t *"))
            assert bad == -1 and hi.tolist() == hi_expect and lo.tolist() == lo_expect
            bad = lib.pe_eval_omaha_batch(ptr(holes, "uint8_t *"), nhole, ptr(boards, "uint8_t *"),
                                          nboard, len(deal), ptr(hi, "uint16_t *"), ffi.NULL)
            assert bad == -1 and hi.tolist() == hi_expect
            broken = boards.copy()
            broken[-1, 0] = holes[-1, 0]  # a card on the board and in the hand
            bad = lib.pe_eval_omaha_batch(ptr(holes, "uint8_t *"), nhole, ptr(broken, "uint8_t *"),
                                          nboard, len(deal), ptr(hi, "uint16_t *"),
                                          ptr(lo, "uint16_t *"))
            assert bad == len(deal) - 1, bad
            calls += 2 * len(deal) + 3

    if args.enumerate7:
        counts = np.zeros(9, dtype=np.uint64)
        lib.pe_enumerate7(ptr(counts, "uint64_t *"))
        assert int(counts.sum()) == 133_784_560, counts
        calls += 1
    print(f"C entry points: {calls:,} calls checked, all consistent")
    return 0


if __name__ == "__main__":
    sys.exit(main())
