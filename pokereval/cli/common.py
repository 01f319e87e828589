"""What every ``pokereval`` command shares: the exit codes, the one-line usage error, the
argument parser and help formatter, the argument types, and the rich console.

The commands' modules (:mod:`.equity`, :mod:`.batch`, ...) import this one and
:mod:`pokereval.protocol`; nothing here imports the engine.
"""
from __future__ import annotations

import argparse
import math
import os
from typing import Any, TextIO

from rich.console import Console

from ..protocol import dumps

__all__ = ["output_file", "PROG", "EXIT_OK", "EXIT_INTERNAL", "EXIT_USAGE", "EXIT_INTERRUPTED", "UsageError",
           "Parser", "Formatter", "positive_int", "seed", "stderr_target", "console", "show",
           "plus_minus", "write_json"]

PROG = "pokereval"
EXIT_OK, EXIT_INTERNAL, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class UsageError(Exception):
    """Bad input found by the command line itself (printed as one line, exit code 2)."""


# ---------------------------------------------------------------------------
# Argument parsing
# ---------------------------------------------------------------------------


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump) that do not exit the process."""

    def error(self, message: str):  # noqa: D102 - argparse hook
        raise UsageError(f"{self.prog}: error: {message} (see '{self.prog} --help')")


class Formatter(argparse.HelpFormatter):
    """Wraps one-paragraph descriptions to the terminal; keeps multi-line text (the
    examples in epilogs) as written."""

    def _fill_text(self, text, width, indent):
        if "\n" in text:
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def positive_int(text: str) -> int:
    """``1000``, ``1_000``, ``1e6``; must be a whole number >= 1.

    >>> positive_int("1e6"), positive_int("1_000")
    (1000000, 1000)
    """
    value: float | int
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        try:
            value = float(text.replace("_", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if not (math.isfinite(value) and value == int(value)):
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        value = int(value)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text!r}")
    return value


def output_file(text: str) -> str:
    """A file the command will write: checked before any work, so a long build never
    ends in a path it cannot write (its directory must exist and be writable)."""
    path = os.path.abspath(os.path.expanduser(text))
    folder = os.path.dirname(path)
    if os.path.isdir(path):
        raise argparse.ArgumentTypeError(f"{text!r} is a directory; give a file name")
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"cannot write {text!r}: no directory {folder!r}")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise argparse.ArgumentTypeError(f"cannot write {text!r}: permission denied")
    return text


def seed(text: str) -> int:
    """A random seed: a whole number, 0 or more."""
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {text!r}")
    return value


def stderr_target(text: str) -> float:
    """A standard error of equity: a fraction of the pot (``0.001``) or a percentage (``0.1%``).

    >>> stderr_target("0.5%")
    0.005
    """
    raw = text.strip()
    scale = 100.0 if raw.endswith("%") else 1.0
    try:
        value = float(raw.rstrip("%")) / scale
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number such as 0.001 or 0.1%, got {text!r}") from None
    if not (math.isfinite(value) and 0 < value < 1):
        raise argparse.ArgumentTypeError(
            f"must be between 0 and 1 (a fraction of the pot, e.g. 0.001 or 0.1%), got {text!r}")
    return value


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------


def console(file: TextIO) -> Console:
    """A rich console on ``file``: colour only on a terminal (and never with NO_COLOR)."""
    made = Console(file=file, highlight=False, emoji=False)
    if not made.is_terminal and "COLUMNS" not in os.environ:
        # Piped or captured: do not squeeze tables into 80 columns (see show).
        made = Console(file=file, highlight=False, emoji=False, width=1000)
    return made


def show(console: Console, *renderables: Any) -> None:
    """Print on ``console``; when it is not a terminal, without rich's trailing padding."""
    if console.is_terminal:
        console.print(*renderables)
        return
    with console.capture() as capture:
        console.print(*renderables)
    text = "\n".join(line.rstrip() for line in capture.get().split("\n"))
    console.file.write(text)


def plus_minus(console: Console) -> str:
    """The ± sign where the console can print it."""
    return "±" if console.encoding.lower().startswith("utf") else "+/-"


def write_json(out: TextIO, data: Any) -> int:
    """``data`` as indented JSON on ``out`` (a command's ``--json``); the exit code."""
    out.write(dumps(data, indent=2) + "\n")
    return EXIT_OK
