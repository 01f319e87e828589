"""Shipped starting-hand orderings: one ``<game>-<players>.npz`` per table.

Each file holds ``order`` (class indices of :mod:`pokereval.classes`, best
first, uint16 or uint32), ``stat`` (float16, best first like ``order`` so that
it compresses: the mean net winnings per trial in the last pass; NaN when the
ordering was not simulated here) and ``meta`` (a JSON string: source, credit, the command, seed
and trial counts that rebuild it).

The hold'em and omaha (high) orderings are ProPokerTools' published ones:
Copyright 2006-2012 ProPokerTools.com, "unlimited use so long as credit is given
to ProPokerTools.com" (pokercoder.blogspot.com, "Towards a Meaningful Ordering of
Hands", 2006, and "6-Handed Hand Orderings", 2012).  The omaha hi/lo and
5-card omaha ones are built by :mod:`pokereval.tables` (see docs/TABLES.md).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..classes import HandClasses
from ..errors import PokerEvalError

__all__ = ["DIR", "PPT_CREDIT", "load", "read", "save", "parse_ppt"]

DIR = Path(__file__).parent
PPT_CREDIT = ("Hand ordering by ProPokerTools.com (Copyright ProPokerTools.com; unlimited use "
              "so long as credit is given to ProPokerTools.com)")


def path(game: str, players: int) -> Path:
    return DIR / f"{game}-{players}.npz"


def load(game: str, players: int) -> tuple[np.ndarray, np.ndarray, dict] | None:
    """``(order int64, stat float64 in class-index order, meta)`` of a shipped
    ordering, or None."""
    try:
        with np.load(path(game, players), allow_pickle=False) as z:
            return _arrays(z)
    except FileNotFoundError:
        return None


def read(file) -> tuple[np.ndarray, np.ndarray, dict]:
    """``(order, stat, meta)`` as :func:`load` gives them, of any ordering file
    (one :func:`save` wrote: ``pokereval table build ordering ... --out FILE``);
    a file that cannot be read, or is no ordering, is a one-line PokerEvalError
    naming it.  ``order`` is checked to be indices, not to be a permutation of
    the classes of a game (the caller knows the game)."""
    name = str(file)
    try:
        # opened here: np.load leaves the file open when it is no archive
        with open(file, "rb") as handle:
            z = np.load(handle, allow_pickle=False)
            if not hasattr(z, "files"):
                raise ValueError("a single array (.npy), not an .npz archive")
            with z:
                if "order" not in z.files:
                    what = "an equity table" if "equity" in z.files else "an archive"
                    raise PokerEvalError(f"ordering file {name!r} is {what} without an "
                                         f"'order' array, not a hand ordering")
                order, stat, meta = _arrays(z)
    except OSError as exc:
        raise PokerEvalError(f"cannot read ordering file {name!r}: "
                             f"{exc.strerror or exc}") from None
    except PokerEvalError:
        raise
    except Exception as exc:  # noqa: BLE001 - a corrupt file fails in many ways (zip, JSON, dtype)
        raise PokerEvalError(f"ordering file {name!r} is not a readable ordering table "
                             f"({type(exc).__name__}: {str(exc)[:200]})") from None
    if not isinstance(meta, dict):
        raise PokerEvalError(f"ordering file {name!r} has no metadata dictionary")
    return order, stat, meta


def _arrays(z) -> tuple[np.ndarray, np.ndarray, dict]:
    """The arrays of an opened ordering archive (``stat`` back in class-index order)."""
    raw = z["order"]
    if raw.ndim != 1 or raw.dtype.kind not in "ui" or (len(raw) and raw.min() < 0):
        raise ValueError(f"'order' must be class indices, got {raw.dtype} {raw.shape}")
    order = raw.astype(np.int64)
    if len(order) and (order.max() >= len(order) or len(np.unique(order)) != len(order)):
        raise ValueError("'order' does not list each class once")
    stat = np.empty(len(order))
    stat[order] = z["stat"] if "stat" in z.files else np.nan
    meta = json.loads(str(z["meta"])) if "meta" in z.files else {}
    return order, stat, meta


def save(file: str | Path, order: np.ndarray, stat: np.ndarray | None, meta: dict) -> None:
    """Write an ordering file (compressed; indices in the smallest unsigned type);
    ``stat`` is per class in class-index order."""
    order = np.asarray(order)
    dtype = np.uint16 if len(order) < 65536 else np.uint32
    stat = np.full(len(order), np.nan) if stat is None else np.asarray(stat)[order]
    np.savez_compressed(file, order=order.astype(dtype), stat=stat.astype(np.float16),
                        meta=np.array(json.dumps(meta, sort_keys=True)))


def parse_ppt(text: str, hc: HandClasses) -> np.ndarray:
    """int64 class indices, best first, of a PPT ordering file's text (an 8-line
    header, then one class per line in PPT notation, see :meth:`HandClasses.parse_text`)."""
    lines = [s.strip() for s in text.splitlines()[8:] if s.strip()]
    order = np.array([hc.parse_text(s) for s in lines], dtype=np.int64)
    if len(order) != len(hc) or len(np.unique(order)) != len(hc):
        raise PokerEvalError(f"a PPT ordering must list each of the {len(hc)} classes once")
    return order
