"""Hold'em shorthand: AKs AKo AK 22+ A2s+ JTs-76s TT-77 (read in hold'em only).

``AKs`` is the 4 suited ace-kings, ``AKo`` the 12 offsuit ones, ``AK`` all 16;
``+`` raises the lower card up to below the upper one (``A2s+`` = A2s..AKs) or a
pair up to aces (``22+``); a span walks from one end to the other keeping a
pair, the top card or the gap (``TT-77``, ``A5s-A2s``, ``JTs-76s``).

>>> holdem_shorthand("AKs").tolist()
[[44, 48], [45, 49], [46, 50], [47, 51]]
>>> len(holdem_shorthand("22+")), holdem_shorthand("AA*") is None
(78, True)
"""

from __future__ import annotations

import re

import numpy as np

from ..cards import RANKS

_RANK_OF = {r: i for i, r in enumerate(RANKS)}
_SH = r"([2-9TJQKA])([2-9TJQKA])([so]?)"
_SHORTHAND = re.compile(rf"{_SH}(\+?)", re.IGNORECASE)
_SHORTHAND_SPAN = re.compile(rf"{_SH}-{_SH}", re.IGNORECASE)


def _holdem_rows(classes: list[tuple[int, int]], kind: str) -> np.ndarray:
    rows = []
    for hi, lo in classes:
        for s1 in range(4):
            for s2 in range(4):
                a, b = 4 * hi + s1, 4 * lo + s2
                if hi == lo:
                    if s1 < s2:
                        rows.append((a, b))
                elif kind != "s" and s1 != s2 or kind != "o" and s1 == s2:
                    rows.append((b, a))
    return np.array(rows, np.uint8).reshape(-1, 2)


def holdem_shorthand(raw: str) -> np.ndarray | str | None:
    """Rows for a hold'em shorthand term, an error message, or None (not shorthand)."""

    def side(r1, r2, kind):
        hi, lo = sorted((_RANK_OF[r1.upper()], _RANK_OF[r2.upper()]), reverse=True)
        return hi, lo, kind.lower()

    single = _SHORTHAND.fullmatch(raw)
    span = _SHORTHAND_SPAN.fullmatch(raw)
    if single:
        hi, lo, kind = side(*single.group(1, 2, 3))
        plus = single.group(4)
        if hi == lo:
            classes = [(r, r) for r in range(hi, 13)] if plus else [(hi, lo)]
        else:
            classes = [(hi, k) for k in range(lo, hi)] if plus else [(hi, lo)]
    elif span:
        a_hi, a_lo, kind = side(*span.group(1, 2, 3))
        b_hi, b_lo, kind2 = side(*span.group(4, 5, 6))
        if kind != kind2:
            return f"both ends of the span {raw!r} must have the same suffix"
        if (a_hi, a_lo) < (b_hi, b_lo):
            a_hi, a_lo, b_hi, b_lo = b_hi, b_lo, a_hi, a_lo
        if a_hi == a_lo and b_hi == b_lo:
            classes = [(r, r) for r in range(b_hi, a_hi + 1)]
        elif a_hi == b_hi and a_lo != a_hi and b_lo != b_hi:
            classes = [(a_hi, k) for k in range(b_lo, a_lo + 1)]
        elif a_hi - a_lo == b_hi - b_lo and a_hi != a_lo:
            classes = [(b_hi + d, b_lo + d) for d in range(a_hi - b_hi + 1)]
        else:
            return (f"cannot span {raw!r}: give two pairs (TT-77), the same top card "
                    "(A5s-A2s) or the same gap (JTs-76s)")
    else:
        return None
    if kind and any(h == l for h, l in classes):
        return f"a pair cannot be suited or offsuit in {raw!r}"
    return _holdem_rows(classes, kind)
