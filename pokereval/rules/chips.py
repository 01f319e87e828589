"""Validated table input shared by the rules: seats, chip amounts and who holds what.

Chips are integers in the smallest unit of the game (chips, or cents), so every
split is exact and an odd chip is a real, indivisible thing.
"""
from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import PokerEvalError

__all__ = ["RulesError", "check_seat", "check_chips", "seat_map", "seat_set", "clockwise", "require"]


class RulesError(PokerEvalError):
    """Bad table input: an unknown seat, a negative or fractional chip amount, a
    live player without cards, or an impossible betting situation."""


def _is_int(value: object) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_seat(seat: Any, what: str = "seat") -> int:
    """A seat number: a non-negative int (a digit string such as "3" is accepted,
    for JSON input whose object keys are strings)."""
    if isinstance(seat, str) and seat.strip().isdigit():
        return int(seat)
    if not _is_int(seat) or seat < 0:
        raise RulesError(f"{what} must be a non-negative integer seat number, got {seat!r}")
    return int(seat)


def check_chips(value: Any, what: str) -> int:
    """A chip amount: a non-negative integer in the smallest unit."""
    if not _is_int(value):
        if isinstance(value, float) and value.is_integer() and value >= 0:
            return int(value)
        raise RulesError(f"{what} must be a whole number of chips in the smallest unit "
                         f"(e.g. cents), got {value!r}")
    if value < 0:
        raise RulesError(f"{what} must not be negative, got {value}")
    return int(value)


def seat_map(values: Any, what: str) -> dict[int, Any]:
    """``{seat: value}`` with checked seat numbers (the values are not checked)."""
    if not isinstance(values, Mapping):
        raise RulesError(f"{what} must be a {{seat: ...}} mapping, got {type(values).__name__}")
    out: dict[int, Any] = {}
    for seat, value in values.items():
        s = check_seat(seat, f"{what} seat")
        if s in out:
            raise RulesError(f"{what} lists seat {s} twice")
        out[s] = value
    return out


def seat_set(seats: Iterable[object] | None, what: str, known: Iterable[int]) -> set[int]:
    """A set of seats that must all be among ``known``."""
    if seats is None:
        return set()
    if isinstance(seats, (str, bytes)) or not isinstance(seats, Iterable):
        raise RulesError(f"{what} must be a list of seats, got {seats!r}")
    known = set(known)
    out = {check_seat(s, f"{what} seat") for s in seats}
    unknown = sorted(out - known)
    if unknown:
        raise RulesError(f"{what} names seat {unknown[0]}, which has no contribution "
                         f"(seats: {', '.join(map(str, sorted(known)))})")
    return out


def clockwise(seats: Iterable[int], button: int | None) -> list[int]:
    """Seats in clockwise order starting with the first seat left of ``button``
    (seat numbers grow clockwise).  Without a button: ascending seat order.

    >>> clockwise([1, 3, 5, 8], 5)
    [8, 1, 3, 5]
    """
    seats = sorted(seats)
    if button is None:
        return seats
    return sorted(seats, key=lambda s: (s <= button, s))


def require(condition: bool, message: str) -> None:
    if not condition:
        raise RulesError(message)

