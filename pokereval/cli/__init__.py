"""The ``pokereval`` command line: equity tables, hand evaluation, the game list, batch JSON,
the table rules, the web calculator, next-street graphs and starting-hand tables.

::

    pokereval equity GAME HAND HAND... [--board CARDS] [--dead CARDS]
                     [--exact | --samples N | --stderr X] [--seed N] [--threads N] [--json]
    pokereval eval GAME HOLE [--board CARDS] [--json]
    pokereval games [--json]
    pokereval batch [FILE|-]
    pokereval pql "QUERY; QUERY" [--exact | --trials N] [--json] | pql --csv IN.csv
    pokereval settle | allin | serve | graph | rank | range | table | hh ...

Exit codes: 0 success, 2 bad input (one line on stderr, never a traceback),
130 interrupted (Ctrl-C; ``equity`` still prints what it computed, marked partial),
1 internal error (set ``POKEREVAL_DEBUG=1`` to see the traceback).

:func:`main` takes the argument list and returns the exit code, so it can be
driven without a subprocess.  Each command lives in its own module (``equity``,
``evaluate``, ``games``, ``batch``, ``rules``, ``serve``, ``graph``, ``tables``; what
they share in :mod:`.common`) and reaches the engine only through
:mod:`pokereval.api` and :mod:`pokereval.protocol`, when it runs: ``games``, ``eval``
and ``--help`` start fast.
"""
from __future__ import annotations

import argparse
import os
import sys

from .._version import __version__
from ..errors import PokerEvalError
from ..protocol import BATCH_FIELDS, one_line  # noqa: F401  (BATCH_FIELDS: kept)
from . import batch, equity, evaluate, games, graph, hh, pql, rules, serve, tables
from .common import (EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, PROG, Formatter,
                     Parser, UsageError)

# the public names the single cli.py module had, for its callers (kept for a release)
from .batch import MAX_LINE_BYTES, cmd_batch  # noqa: F401
from .equity import cmd_equity, render_equity  # noqa: F401
from .evaluate import cmd_eval  # noqa: F401
from .games import cmd_games  # noqa: F401
from .progress import PROGRESS_DELAY, ProgressReporter  # noqa: F401

__all__ = ["entry", "main", "build_parser"]

#: The command modules, in the order ``--help`` lists them; each has ``register(commands)``.
COMMANDS = (equity, evaluate, games, batch, pql, rules, serve, graph, tables, hh)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command (each module adds its own)."""
    parser = Parser(
        prog=PROG, formatter_class=Formatter,
        description="Fast, exact hi/lo poker equity: Omaha Hi/Lo, 5-Card Omaha, Courchevel, "
                    "Stud Hi/Lo, Razz, Hold'em.",
        epilog="Run 'pokereval COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for module in COMMANDS:
        module.register(commands)
    parser.set_defaults(commands=sorted(commands.choices))  # named when none is given
    return parser


def entry() -> None:
    """The ``pokereval`` script and ``python -m pokereval``: :func:`main`, then exit.

    Once Numba is loaded, the interpreter's normal exit (tearing down Numba's and LLVM's
    objects) takes 0.1-0.6 s more than the answer itself; the output is flushed and the
    process ends at once instead (every command has closed its files and pools by then).
    """
    code = main()
    if "numba" not in sys.modules:
        sys.exit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe: nothing more can be written anyway
        pass
    os._exit(code)


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit code."""
    out, err = sys.stdout, sys.stderr
    parser = build_parser()
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help, --version
            return exc.code if isinstance(exc.code, int) else EXIT_OK
        if args.command is None:
            raise UsageError(f"{PROG}: error: a command is required: {', '.join(args.commands)} "
                             f"(see '{PROG} --help')")
        return args.run(args, out, err)
    except UsageError as exc:
        text = one_line(exc)
        print(text if text.startswith(PROG) else f"{PROG}: error: {text}", file=err)
        return EXIT_USAGE
    except PokerEvalError as exc:
        print(f"{PROG}: error: {one_line(exc)}", file=err)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=err)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`pokereval batch | head`): stop quietly, and keep Python
        # from complaining again when it flushes stdout at exit.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return EXIT_INTERNAL
    except ValueError as exc:  # input the checks above let through
        if os.environ.get("POKEREVAL_DEBUG"):
            raise
        print(f"{PROG}: error: {one_line(exc)}", file=err)
        return EXIT_USAGE
    except Exception as exc:  # noqa: BLE001
        if os.environ.get("POKEREVAL_DEBUG"):
            raise
        print(f"{PROG}: internal error: {type(exc).__name__}: {one_line(exc)} "
              "(set POKEREVAL_DEBUG=1 for the traceback)", file=err)
        return EXIT_INTERNAL
