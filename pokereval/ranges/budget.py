"""The bounds of a range read, and the thread-local work meter that enforces them.

Every range text is read in bounded time and memory: the limits below cap the
text, the patterns a term expands to, the candidate holdings a term lists and
the card checks (rows times assignments tried) the whole read may cost.  The
meter is thread-local, so two threads reading ranges each count their own.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

MAX_CANDIDATES = 3_000_000
"""The most candidate holdings one term may enumerate (C(52,5) = 2,598,960 fits)."""
MAX_WORK = 500_000_000
"""The most card checks (candidate rows times assignments tried) one range may
cost; with MAX_CANDIDATES it bounds the time and memory of any range text."""
MAX_TEXT = 100_000
"""The longest range text read (characters)."""
MAX_PATTERNS = 5_000
"""The most concrete patterns one term may expand to (spans, bracket lists)."""
MAX_DEALS = 3_000_000
"""The most ordered stud deals :meth:`Range.deals` lists."""
MAX_DEAL_WALK = 10_000_000
"""The most partial stud deals (cards at the positions the patterns constrain)
one range may walk to count its holdings' orders."""
TERM_WORK = 20_000  # work charged per term: bounds the Python overhead of long lists
UNION_WORK = 20  # work charged per row of a union: bounds its memory (15 M rows)


class RangeProblem(Exception):
    """Raised inside the reader (the parser, the matcher, the meter); turned into
    a RangeError that quotes the text (``pos``: 0-based in the text without spaces)."""

    def __init__(self, message: str, pos: int | None, hint: str = ""):
        super().__init__(message)
        self.message, self.pos, self.hint = message, pos, hint


_WORK = threading.local()


def charge(units: int) -> None:
    """Count work against MAX_WORK for the range being read (see :func:`metered`);
    outside a read nothing is counted."""
    left = getattr(_WORK, "left", None)
    if left is None:
        return
    left -= units
    _WORK.left = left
    if left < 0:
        _WORK.left = None  # report once
        raise RangeProblem(f"range too costly to read (more than {MAX_WORK:,} card checks; "
                           "narrow the patterns or write known cards)", None)


@contextlib.contextmanager
def metered() -> Iterator[None]:
    """One read's meter, MAX_WORK units; a read inside a read (a percent term
    reads its ordering) gets its own and gives the outer one back after."""
    outer = getattr(_WORK, "left", None)
    _WORK.left = MAX_WORK
    try:
        yield
    finally:
        _WORK.left = outer
