"""Selector sums over blocks of deals (additive: chunks add, in any process), and the
:class:`PqlResult` they make.

Exact runs sum integer weights times integer numerators (Python ints where int64 could
overflow), so every selector comes out as a :class:`fractions.Fraction`.  Sampled runs sum
floats and give each selector its standard error.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ..cards import card_str
from .values import FLOP_CATEGORIES, HAND_TYPES, Num, rank_set_str

__all__ = ["Sums", "PqlColumn", "PqlResult", "bucket_label"]

_RANKS = "23456789TJQKA"


def _wsum(w: np.ndarray | None, x: np.ndarray) -> int:
    """Exact sum of w * x (int64 arrays; w None = ones)."""
    x = np.asarray(x)
    if w is None:
        if x.size and int(np.abs(x).max()) * len(x) >= (1 << 62):
            return int(x.astype(object).sum())
        return int(x.sum())
    if w.dtype == object or (x.size and float(np.abs(x).max()) * float(np.abs(w).max()) * len(x) >= 2.0 ** 62):
        return int((w.astype(object) * x.astype(object)).sum())
    return int(np.dot(w, x.astype(np.int64)))


def _values(value, n: int, kind: str):
    if isinstance(value, Num):
        return Num(np.broadcast_to(np.asarray(value.values), (n,)), value.den)
    return np.broadcast_to(np.asarray(value), (n,))


@dataclass
class Sums:
    """What one selector has summed so far (over accepted deals)."""
    selector: str
    kind: str
    exact: bool
    total: int = 0  # weight of the accepted deals
    top: Any = None  # count: weight true; avg: sum of values (Fraction or float)
    squares: float = 0.0
    extreme: Any = None
    buckets: dict = field(default_factory=dict)
    float_values: bool = False

    def add(self, value, w: np.ndarray | None, keep: np.ndarray) -> None:
        n = len(keep)
        value = _values(value, n, self.kind)
        wk = None if w is None else w[keep]
        self.total += int(keep.sum()) if w is None else _wsum(wk, np.ones(len(wk), np.int64))
        if self.selector == "count":
            v = value[keep]
            self.top = (self.top or 0) + (int(v.sum()) if w is None else _wsum(wk, v.astype(np.int64)))
        elif self.selector == "histogram":
            self._bucket(value, wk, keep)
        else:
            self._numeric(value, wk, keep)

    def _numeric(self, value: Num, wk, keep) -> None:
        v = np.asarray(value.values)[keep]
        if not len(v):
            return
        if value.den is not None:
            if self.selector == "avg":
                self.top = (self.top or 0) + Fraction(_wsum(wk, v), value.den)
                f = v / value.den
            else:
                best = int(v.max() if self.selector == "max" else v.min())
                self._extreme(Fraction(best, value.den))
                return
        else:
            self.float_values = True
            f = v.astype(np.float64)
            if self.selector != "avg":
                self._extreme(float(f.max() if self.selector == "max" else f.min()))
                return
            self.top = (self.top or 0) + float(f.sum() if wk is None else np.dot(wk, f))
        self.squares += float((f * f).sum() if wk is None else np.dot(wk.astype(np.float64), f * f))

    def _extreme(self, x) -> None:
        if self.extreme is None:
            self.extreme = x
        else:
            self.extreme = max(self.extreme, x) if self.selector == "max" else min(self.extreme, x)

    def _bucket(self, value, wk, keep) -> None:
        if isinstance(value, Num):
            v = np.asarray(value.values)[keep]
            if self.kind == "equity":
                keys = np.clip(np.floor(value.floats()[keep] * 100), 0, 99).astype(np.int64)
                label = lambda k: ("range", int(k))  # noqa: E731
            elif value.den is not None:
                keys, den = v.astype(np.int64), value.den
                label = lambda k: Fraction(int(k), den)  # noqa: E731
            else:
                keys, label = v, float
        else:
            keys = np.asarray(value)[keep].astype(np.int64)
            label = lambda k: (self.kind, int(k))  # noqa: E731
        if not len(keys):
            return
        uniq, inverse = np.unique(keys, return_inverse=True)
        weights = np.ones(len(keys), np.int64) if wk is None else wk
        for i, k in enumerate(uniq):
            b = label(k)
            self.buckets[b] = self.buckets.get(b, 0) + _wsum(weights[inverse == i], np.ones(int((inverse == i).sum()), np.int64))

    def merge(self, other: "Sums") -> None:
        self.total += other.total
        if other.top is not None:
            self.top = (self.top or 0) + other.top
        self.squares += other.squares
        if other.extreme is not None:
            self._extreme(other.extreme)
        for k, v in other.buckets.items():
            self.buckets[k] = self.buckets.get(k, 0) + v
        self.float_values |= other.float_values


def bucket_label(b) -> str:
    """A histogram bucket as text: ``1/4``, ``0.42-0.43``, ``flush``, ``Ah``, ``AK5``."""
    if isinstance(b, tuple):
        kind, k = b
        if kind == "range":
            return f"{k / 100:.2f}-{(k + 1) / 100:.2f}"
        if kind == "handtype":
            return HAND_TYPES[k] if 0 <= k < len(HAND_TYPES) else str(k)
        if kind == "flopcat":
            return FLOP_CATEGORIES[k].upper() if 0 <= k < len(FLOP_CATEGORIES) else str(k)
        if kind == "card":
            return card_str(k)
        if kind == "rank":
            return _RANKS[k] if 0 <= k < 13 else "-"
        if kind == "rankset":
            return rank_set_str(k)
        if kind == "bool":
            return "true" if k else "false"
        return str(k)
    if isinstance(b, (str, Fraction)):
        return str(b)
    return f"{b:g}"


def _sort_key(b):
    if isinstance(b, tuple):
        return (0, b[1])
    return (0, float(b))


@dataclass
class PqlColumn:
    """One selector's answer (see :func:`pokereval.query`)."""
    name: str
    selector: str
    value: Any
    count: int | None
    std_error: float
    fraction: Any = None

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"name": self.name, "selector": self.selector}
        if self.selector == "histogram":
            out["buckets"] = [{"bucket": bucket_label(b), "fraction": f, "count": c}
                              for b, f, c in self.value]
        else:
            out["value"] = self.value
        if self.count is not None:
            out["count"] = self.count
        out["std_error"] = self.std_error
        if self.fraction is not None and self.selector != "histogram":
            out["fraction"] = str(self.fraction)
        return out


def column(name: str, s: Sums, exact: bool) -> PqlColumn:
    n = s.total
    if s.selector == "count":
        hits = s.top or 0
        frac = Fraction(hits, n) if n else None
        p = float(frac) if frac is not None else math.nan
        se = 0.0 if exact or not n else math.sqrt(max(p * (1 - p), 0.0) / n)
        return PqlColumn(name, "count", p, int(hits), se, frac if exact else None)
    if s.selector == "histogram":
        rows, fracs = [], {}
        for b in sorted(s.buckets, key=_sort_key):
            c = s.buckets[b]
            key = bucket_label(b) if isinstance(b, tuple) else b  # codes as their names
            fracs[key] = Fraction(c, n)
            rows.append((key, c / n, int(c)))
        return PqlColumn(name, "histogram", rows, None, 0.0, fracs if exact else None)
    if s.selector == "avg":
        if not n or s.top is None:
            return PqlColumn(name, "avg", math.nan, None, math.nan)
        mean = s.top / n
        fm = float(mean)
        var = max(s.squares / n - fm * fm, 0.0)
        se = 0.0 if exact else math.sqrt(var / n)
        exact_frac = mean if exact and isinstance(mean, Fraction) and not s.float_values else None
        return PqlColumn(name, "avg", fm, None, se, exact_frac)
    x = s.extreme
    return PqlColumn(name, s.selector, float(x) if x is not None else math.nan, None, 0.0,
                     x if exact and isinstance(x, Fraction) else None)


@dataclass
class PqlResult:
    """The answer to one PQL statement.

    ``exact``: every consistent deal was walked (selectors are exact fractions);
    ``trials``: accepted trials (exact: the weight of the accepted deals); ``dealt``: trials
    dealt (exact: the weight of every deal); ``acceptance``: trials / dealt (how often
    ``where`` held); ``columns`` in select order, also as ``result["NAME"]``; ``partial``:
    stopped early (Ctrl-C), the figures so far.
    """
    query: str
    game: str
    exact: bool
    trials: int
    dealt: int
    columns: list[PqlColumn]
    seed: int | None = None
    partial: bool = False
    elapsed: float = 0.0

    @property
    def acceptance(self) -> float:
        return self.trials / self.dealt if self.dealt else math.nan

    def __getitem__(self, name: str) -> PqlColumn:
        for c in self.columns:
            if c.name.lower() == str(name).lower():
                return c
        raise KeyError(f"no column {name!r} (columns: {', '.join(c.name for c in self.columns)})")

    def to_dict(self) -> dict:
        return {"query": self.query, "game": self.game, "exact": self.exact,
                "trials": self.trials, "dealt": self.dealt, "acceptance": self.acceptance,
                "seed": self.seed, "partial": self.partial, "elapsed": self.elapsed,
                "columns": [c.to_dict() for c in self.columns]}
