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

__all__ = ["DIR", "PPT_CREDIT", "load", "save", "parse_ppt"]

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
            order = z["order"].astype(np.int64)
            stat = np.empty(len(order))
            stat[order] = z["stat"]
            return order, stat, json.loads(str(z["meta"]))
    except FileNotFoundError:
        return None


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
