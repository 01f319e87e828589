"""Column values of a PQL expression over a block of deals.

A numeric column is a :class:`Num`: int64 numerators over one common denominator (exact:
pot shares, counts, equities walked in full) or float64 (``den`` None, after a division
or when the numerators would overflow).  Booleans are NumPy bool arrays; hand types,
ratings, cards, ranks and rank sets are int64 arrays of their codes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

__all__ = ["Num", "HAND_TYPES", "FLOP_CATEGORIES", "RANK_NAMES", "rank_set_str"]

#: High hand categories, in order (the C evaluator's ``value >> 12``).
HAND_TYPES = ("highcard", "pair", "twopair", "trips", "straight", "flush", "fullhouse",
              "quads", "straightflush")
#: Flop hand categories, weakest first (PPT's constants; see :mod:`query.categories`).
FLOP_CATEGORIES = ("flopnothing", "flopunderpair", "flopthirdpair", "floppocket23",
                   "flopsecondpair", "floppocket12", "floptoppair", "flopoverpair",
                   "flopbottomtwo", "floptopandbottom", "floptoptwo", "floptrips", "flopset",
                   "flopstraight", "flopflush", "flopfullhouse", "flopquads",
                   "flopstraightflush")
#: Rank names as PQL constants (index = rank 0..12 = 2..A).
RANK_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
              "queen", "king", "ace")
_RANK_CHARS = "23456789TJQKA"
_BIG = 1 << 62


def rank_set_str(mask: int) -> str:
    """A 13-bit rank set as text, highest first (``'AK5'``; the empty set ``'-'``)."""
    return "".join(_RANK_CHARS[r] for r in range(12, -1, -1) if mask >> r & 1) or "-"


@dataclass(frozen=True)
class Num:
    """Numbers of a block: ``values / den`` (``den`` None: float64 values)."""
    values: np.ndarray
    den: int | None = 1

    @staticmethod
    def const(x: Fraction) -> "Num":
        return Num(np.int64(x.numerator), x.denominator)

    def floats(self) -> np.ndarray:
        v = np.asarray(self.values)
        return v.astype(np.float64) if self.den is None else v / self.den

    def _scaled(self, den: int) -> np.ndarray:
        return np.asarray(self.values, dtype=np.int64) * (den // self.den)

    def _fits(self, den: int) -> bool:
        top = int(np.max(np.abs(self.values), initial=0))
        return top * (den // self.den) < _BIG

    def common_den(self, other: "Num"):
        """Both as int64 over one denominator, or None (then floats)."""
        if self.den is None or other.den is None:
            return None
        den = math.lcm(self.den, other.den)
        if den >= _BIG or not (self._fits(den) and other._fits(den)):
            return None
        return self._scaled(den), other._scaled(den), den

    def add(self, other: "Num", sign: int = 1) -> "Num":
        common = self.common_den(other)
        if common is None:
            return Num(self.floats() + sign * other.floats(), None)
        a, b, den = common
        return Num(a + sign * b, den)

    def mul(self, other: "Num") -> "Num":
        if self.den is not None and other.den is not None:
            top = int(np.max(np.abs(self.values), initial=0)) * int(np.max(np.abs(other.values), initial=0))
            den = self.den * other.den
            if top < _BIG and den < _BIG:
                return Num(np.asarray(self.values, dtype=np.int64) * other.values, den)
        return Num(self.floats() * other.floats(), None)

    def div(self, other: "Num") -> "Num":
        divisor = np.asarray(other.values)
        if other.den is not None and self.den is not None and divisor.ndim == 0 and int(divisor):
            num, d = int(divisor), other.den  # x / (num/d) = x*d / (den*num)
            den = self.den * abs(num)
            if den < _BIG:
                return Num(np.asarray(self.values, dtype=np.int64) * (d if num > 0 else -d), den)
        with np.errstate(divide="ignore", invalid="ignore"):
            return Num(self.floats() / other.floats(), None)

    def neg(self) -> "Num":
        return Num(-np.asarray(self.values), self.den)

    def compare(self, other: "Num", op: str) -> np.ndarray:
        common = self.common_den(other)
        a, b = (common[0], common[1]) if common is not None else (self.floats(), other.floats())
        return _COMPARE[op](a, b)


_COMPARE = {"=": np.equal, "<>": np.not_equal, "<": np.less, "<=": np.less_equal,
            ">": np.greater, ">=": np.greater_equal}


def compare(a, b, op: str) -> np.ndarray:
    """Compare two code columns (hand types, ratings, cards, ranks, rank sets)."""
    return _COMPARE[op](a, b)
