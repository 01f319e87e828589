"""``pokereval batch``: one JSON equity request per input line, one JSON answer per line.

The request's shape is :func:`pokereval.protocol.parse_request` (the web's
``POST /api/equity`` takes the same); answers are flushed line by line.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, TextIO

from .. import api
from ..errors import PokerEvalError
from ..games import get_game
from ..protocol import RequestError, dumps, one_line, parse_request, result_dict
from .common import EXIT_INTERRUPTED, EXIT_OK, PROG, Formatter, UsageError

__all__ = ["register", "cmd_batch", "MAX_LINE_BYTES"]

EPILOG = """\
Each input line is one JSON object, for example
  {"game": "omaha-hilo", "hands": ["AcAs3d4h", "KhKcJdTd"], "board": "7c8d9h"}
with optional fields board, dead, exact, samples, stderr, seed, threads, breakdown
(true: what each hand makes, won / tied / lost) and id.
Each output line is the result (the same fields as 'pokereval equity --json', plus
"line" and the request's "id" if it had one) or {"line": N, "error": "..."} for a
line that could not be answered; blank lines are skipped. Output is flushed line by
line. Exit code 0 once the input is read to the end (errors are reported in-band),
2 if the input (or the --ordering file) cannot be opened, 130 when interrupted.
--ordering FILE is the hand ordering the percent terms (15%) of every line cut; a
request cannot name one."""

#: Longest batch input line (bytes); a longer one is answered with an error and skipped
#: in bounded chunks, so memory stays flat whatever the input.
MAX_LINE_BYTES = 1_000_000


def register(commands: Any) -> None:
    """Add ``batch`` to the subcommands."""
    bt = commands.add_parser(
        "batch", help="answer JSON equity requests, one per line",
        description="Read one JSON equity request per line and write one JSON result per "
                    "line, so a script can ask thousands of questions with one start-up.",
        epilog=EPILOG, formatter_class=Formatter)
    bt.add_argument("file", metavar="FILE", nargs="?", default="-",
                    help="file of requests ('-' or nothing: standard input)")
    bt.add_argument("--ordering", metavar="FILE",
                    help="an ordering file ('pokereval table build ordering ... --out FILE') "
                         "for the percent terms (15%%) of every request")
    bt.set_defaults(run=cmd_batch)


def _open_input(name: str):
    """The input as a binary stream when possible (each line is decoded on its own, so
    one line that is not UTF-8 is one bad line), and whether to close it."""
    if name == "-":
        return getattr(sys.stdin, "buffer", sys.stdin), False
    try:
        return open(name, "rb"), True
    except OSError as exc:
        raise UsageError(f"cannot read {name!r}: {exc.strerror or exc}") from None


def _batch_lines(stream):
    """Yield ``(number, text, problem)`` per input line: ``problem`` names why a line
    cannot be read (too long, not UTF-8); at most MAX_LINE_BYTES are held at once."""
    number = 0
    while True:
        line = stream.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        number += 1
        newline = b"\n" if isinstance(line, bytes) else "\n"
        if len(line) > MAX_LINE_BYTES and not line.endswith(newline):
            while True:  # skip the rest of the line
                more = stream.readline(MAX_LINE_BYTES)
                if not more or more.endswith(newline):
                    break
            yield number, "", f"line longer than {MAX_LINE_BYTES:,} bytes (the limit)"
            continue
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield number, "", f"line is not UTF-8 text (byte {exc.start + 1})"
                continue
        yield number, line, None


def _answer(number: int, line: str, problem: str | None,
            ordering=None) -> tuple[dict[str, Any], bool]:
    """The reply to one input line, and whether its run was interrupted (``ordering``:
    the command line's, for percent terms; never from the request)."""
    reply: dict[str, Any] = {"line": number}
    partial = False
    try:
        if problem:
            raise UsageError(problem)
        try:
            obj = json.loads(line)
        except ValueError as exc:
            raise UsageError(f"invalid JSON: {getattr(exc, 'msg', exc)} "
                             f"at column {getattr(exc, 'colno', '?')}") from None
        except RecursionError:
            raise UsageError("invalid JSON: nested too deeply") from None
        call, options = parse_request(obj)
        if "id" in obj:
            reply["id"] = obj["id"]
        get_game(call[0])
        if ordering is not None:
            options["ordering"] = ordering
        result = api.equity(*call, **options)
        reply.update(result_dict(result))
        partial = bool(result.partial)
    except (UsageError, RequestError, PokerEvalError) as exc:
        reply["error"] = one_line(exc)
    except (ValueError, TypeError) as exc:  # a check the engine missed
        reply["error"] = f"bad request: {one_line(exc)}"
    except Exception as exc:  # noqa: BLE001 - one bad line must not end the stream
        if os.environ.get("POKEREVAL_DEBUG"):
            raise
        reply["error"] = f"internal error: {type(exc).__name__}: {one_line(exc)}"
    return reply, partial


def cmd_batch(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    # a bad ordering file stops the run before any line (exit 2); its game is each line's
    ordering = api.read_ordering(args.ordering) if args.ordering is not None else None
    stream, close = _open_input(args.file)
    try:
        for number, line, problem in _batch_lines(stream):
            if not (line.strip() or problem):
                continue
            reply, partial = _answer(number, line, problem, ordering)
            try:
                text = dumps(reply)
            except (RecursionError, ValueError, TypeError):  # e.g. an "id" nested too deeply
                text = dumps({"line": number, "error": "the request's id cannot be echoed "
                              "(nested too deeply)"})
            out.write(text + "\n")
            out.flush()
            if partial:
                print(f"{PROG}: interrupted at line {number}", file=err)
                return EXIT_INTERRUPTED
    finally:
        if close:
            stream.close()
    return EXIT_OK
