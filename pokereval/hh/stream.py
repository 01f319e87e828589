"""A hand-history file as a stream of text blocks, one hand each, never loaded whole.

A block starts at a line the ``is_start`` test accepts (a PokerStars header) and ends
at the next such line, or at the first blank line after its summary has begun.  Lines
outside any hand that are not blank come out as a stray block (``start=False``), so
the reader can report them.  Bytes are decoded one line at a time: a line that is not
valid in the encoding becomes ``None`` in its block (the reader refuses that hand and
the file goes on).  A UTF-8 or UTF-16 byte-order mark is honoured.
"""
from __future__ import annotations

import codecs
import io
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from .model import HandHistoryError

__all__ = ["Block", "blocks", "open_source", "MAX_LINE"]

#: Longest line kept (characters); longer lines are cut (no history line comes close).
MAX_LINE = 10_000
#: Longest hand, in lines: a block longer than this is cut and refused.
MAX_BLOCK_LINES = 5_000


@dataclass
class Block:
    """Lines of one hand (``start``: it begins with a header) and the number of its first line."""

    line: int
    lines: list[str | None]
    start: bool
    summary: bool = False
    cut: bool = False


def open_source(source, encoding: str = "utf-8") -> tuple[Iterable, str, Callable | None]:
    """(line iterator, a name for messages, a close function or None) of a path or file."""
    if isinstance(source, (str, os.PathLike)):
        try:
            handle = open(source, "rb")
        except OSError as exc:
            raise HandHistoryError(f"cannot open hand history {os.fspath(source)!r}: "
                                   f"{exc.strerror}") from None
        return _decoded(handle, encoding), os.fspath(source), handle.close
    name = str(getattr(source, "name", "") or "<stream>")
    if isinstance(source, io.TextIOBase):
        return source, name, None
    if hasattr(source, "read") or isinstance(source, Iterable):
        return _decoded(source, encoding), name, None
    raise HandHistoryError(f"read_hands needs a path or a file, got {type(source).__name__}")


def _decoded(handle, encoding: str) -> Iterator[str | None]:
    """Lines of a binary file decoded one by one (``None``: a line not in ``encoding``)."""
    it = iter(handle)
    first = next(it, b"")
    if isinstance(first, str):  # an iterable of text lines after all
        yield first
        yield from it
        return
    if first.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        rest = first + b"".join(it)  # UTF-16 lines cannot be split on b"\n" safely
        stream = io.TextIOWrapper(io.BytesIO(rest), encoding="utf-16", errors="replace")
        yield from stream
        return
    codec = codecs.lookup(encoding).name
    for raw in _chain(first, it):
        try:
            yield raw.decode(codec)
        except UnicodeDecodeError:
            yield None


def _chain(first, rest):
    yield first
    yield from rest


def blocks(lines: Iterable[str | None], is_start: Callable[[str], bool]) -> Iterator[Block]:
    """The hands (and stray text) of a stream of lines."""
    current: Block | None = None
    for number, raw in enumerate(lines, 1):
        if raw is None:
            if current is None:
                current = Block(number, [], False)
            current.lines.append(None)
            continue
        line = raw.rstrip("\r\n").lstrip("\ufeff")
        if len(line) > MAX_LINE:
            line = line[:MAX_LINE]
        text = line.strip()
        if text and is_start(text):
            if current is not None:
                yield current
            current = Block(number, [line], True)
            continue
        if not text:
            if current is not None and (current.summary or not current.start):
                yield current
                current = None
            continue
        if current is None:
            current = Block(number, [], False)
        if len(current.lines) >= MAX_BLOCK_LINES:
            current.cut = True  # the reader refuses a cut hand
            continue
        current.lines.append(line)
        if text.startswith("*** SUMMARY ***"):
            current.summary = True
    if current is not None:
        yield current
