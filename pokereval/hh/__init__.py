"""Hand histories: read a player's real hands, replay them through the table rules and
price every all-in (docs/HANDHISTORIES.md).

* :func:`read_hands` -- every hand of a history file, streamed: :class:`Hand`, or
  :class:`Refused` (where and why) for a hand that cannot be read;
* :func:`hand_report` -- per game and stake: hands, replay checks, all-ins, won,
  all-in EV adjusted won and luck;
* :func:`replay` and :func:`price` -- one hand's checks and all-in EV.
"""
from __future__ import annotations

import os

from .model import Action, Hand, HandHistoryError, Refused, Seat
from .phh import PHH_SUFFIXES, looks_like_phh, read_phh
from .pokerstars import read_pokerstars
from .pricing import Pricing, price
from .replay import Replay, replay
from .report import HandReport, hand_report

__all__ = ["read_hands", "hand_report", "replay", "price", "Hand", "Seat", "Action", "Refused",
           "Replay", "Pricing", "HandReport", "HandHistoryError", "FORMATS", "detect_format"]

#: The formats read
FORMATS = ("pokerstars", "phh")


def detect_format(source) -> str:
    """"phh" for a ``.phh`` / ``.phhs`` file or one whose first line is a TOML key or
    table header, else "pokerstars"."""
    name = os.fspath(source) if isinstance(source, (str, os.PathLike)) else \
        str(getattr(source, "name", "") or "")
    if name.lower().endswith(PHH_SUFFIXES):
        return "phh"
    if isinstance(source, (str, os.PathLike)):
        try:
            with open(source, "rb") as handle:
                head = handle.read(4096)
        except OSError:
            return "pokerstars"  # the reader names the error
        for raw in head.splitlines():
            text = raw.decode("utf-8", "replace").strip()
            if text and not text.startswith("#"):
                return "phh" if looks_like_phh(text) else "pokerstars"
    return "pokerstars"


def read_hands(source, *, format: str | None = None, encoding: str = "utf-8",
               skip_refused: bool = False):
    """Every hand of a hand history, one at a time (the file is never loaded whole).

    ``source``: a path, a binary or text file, or an iterable of lines.  Yields a
    :class:`Hand` per hand read and a :class:`Refused` (its line, hand number and the
    reason, in one line) per hand that cannot be read, or per stretch of text that is
    not a hand; ``skip_refused=True`` leaves those out.  ``encoding``: of a binary
    source (a UTF-8 or UTF-16 byte-order mark is honoured).  ``format``: "pokerstars" or
    "phh" (read with pokerkit, the ``hh`` extra); default: from the file's name
    (``.phh``, ``.phhs``) or its first line.

    >>> import io
    >>> [r] = read_hands(io.BytesIO(b"PokerStars Hand #7: Razz Limit ($1/$2 USD)\\n"))
    >>> print(r)
    <stream>:1: hand 7: hand ends before its table line
    """
    if format is None:
        format = detect_format(source)
    if format not in FORMATS:
        raise HandHistoryError(f"unknown hand-history format {format!r}: one of "
                               f"{', '.join(FORMATS)}")
    reader = read_phh if format == "phh" else read_pokerstars
    for item in reader(source, encoding):
        if skip_refused and not item.ok:
            continue
        yield item
