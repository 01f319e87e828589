"""``pokereval equity``: each hand's share of the pot, as a table or as JSON.

::

    pokereval equity GAME HAND HAND... [--board CARDS] [--dead CARDS]
                     [--exact | --samples N | --stderr X] [--seed N] [--threads N]
                     [--json] [--breakdown] [--ordering FILE]

The engine is reached through :mod:`pokereval.api`, looked up when the command runs
(``api.equity``), so it loads only then.
"""
from __future__ import annotations

import argparse
from typing import Any, TextIO

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .. import api
from ..games import get_game
from ..protocol import LEADING_COLUMNS, cell, equity_columns, finite, footer, legend, result_dict
from .common import (EXIT_INTERRUPTED, EXIT_OK, PROG, Formatter, console, plus_minus,
                     positive_int, seed, show, stderr_target, write_json)
from .graph import render_breakdown
from .progress import ProgressReporter

__all__ = ["register", "cmd_equity", "render_equity"]

EPILOG = """\
examples:
  pokereval equity omaha-hilo AcAs3d4h KhKcJdTd --board 7c8d9h
  pokereval equity plo8 AhAd2c3s KsKdQhJh 9s9c8d7d --samples 1e6 --seed 1
  pokereval equity stud-hilo As2s3d KhKdQc --dead 9h9c4s --json
  pokereval equity omaha 'AA:$ds' KK --board 'K**'   (ranges; every flop with a king)

Hands are written as cards ("AhKd", "Ah Kd", "ah,kd", "10h") or as ranges
(docs/RANGES.md); give them in seat order.
By default the answer is exact when every run-out can be walked quickly, sampled
otherwise; --exact, --samples and --stderr choose. Exit code 2 for bad input,
130 when interrupted (the figures computed so far are printed, marked partial)."""


def register(commands: Any) -> None:
    """Add ``equity`` to the subcommands."""
    eq = commands.add_parser(
        "equity", help="share of the pot each hand wins",
        description="Equity of each hand: the share of the pot it wins over every run-out "
                    "(exact) or over sampled run-outs (Monte Carlo).",
        epilog=EPILOG, formatter_class=Formatter)
    eq.add_argument("game", metavar="GAME", help="game name or alias (see 'pokereval games')")
    eq.add_argument("hands", metavar="HAND", nargs="+", help="each player's cards, in seat order")
    eq.add_argument("--board", "-b", default="", metavar="CARDS",
                    help="known board cards, or a board range ('K**': averaged over every "
                         "flop with a king)")
    eq.add_argument("--dead", "-d", default="", metavar="CARDS",
                    help="cards known to be out of play (folded or burnt), or a range of them")
    how = eq.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="walk every run-out (may be slow)")
    how.add_argument("--samples", "-n", type=positive_int, metavar="N",
                     help="sample N run-outs (Monte Carlo); 1e6 and 1_000_000 are accepted")
    how.add_argument("--stderr", type=stderr_target, metavar="X",
                     help="sample until the standard error of equity is at most X "
                          "(a fraction of the pot, 0.001, or a percentage, 0.1%%)")
    eq.add_argument("--seed", type=seed, metavar="N",
                    help="random seed: the same seed gives the same answer on any thread count")
    eq.add_argument("--threads", "-t", type=positive_int, metavar="N",
                    help="worker threads (default: all cores)")
    eq.add_argument("--json", action="store_true",
                    help="print the result as JSON (and nothing else) on stdout")
    eq.add_argument("--breakdown", action="store_true",
                    help="add what each hand makes: final high and low, won / tied / lost")
    eq.add_argument("--ordering", metavar="FILE",
                    help="an ordering file ('pokereval table build ordering ... --out FILE') "
                         "for the hands' percent terms (15%%), instead of the shipped ordering")
    eq.set_defaults(run=cmd_equity)


def render_equity(result: Any, console: Console) -> None:
    """The readable equity table of ``result`` (an EquityResult) on ``console``.

    One row per player in input order; figures in percent, equity with its standard
    error (±) when sampled; hi/lo columns only in split games; a footer that says how
    the answer was obtained. Fits 80 columns for the usual spots."""
    game = get_game(result.game)
    sampled = not result.exact
    heading = Text(game.title, style="bold")
    if result.board:
        heading.append(f"  board {result.board}")
    if result.dead:
        heading.append(f"  dead {result.dead}")
    if result.partial:
        heading.append("  PARTIAL RESULT (interrupted)", style="bold red")
    show(console, heading)

    columns = equity_columns(game)  # the same headers as the web page's (protocol)
    two_line = any("\n" in header for header, _ in columns)
    (hand, _), (equity_header, _) = LEADING_COLUMNS
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, collapse_padding=True)
    table.add_column("\n" + hand if two_line else hand, no_wrap=True)
    # the equity cell may wrap its "±" part on a narrow terminal rather than be cut
    table.add_column("\n" + equity_header if two_line else equity_header, justify="right",
                     style="bold")
    for header, _ in columns:
        table.add_column(header, justify="right", no_wrap=True)
    for player in result.players:
        equity = cell(player.equity)
        if sampled and finite(player.std_error) and finite(player.equity):
            equity += f" {plus_minus(console)}{100.0 * float(player.std_error):.2f}"
        table.add_row(Text(str(player.hand)), equity,
                      *(cell(getattr(player, name)) for _, name in columns))
    show(console, table)
    show(console, Text(legend(result), style="dim"))
    show(console, Text(footer(result), style="bold red" if result.partial else "dim"))


def cmd_equity(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    get_game(args.game)  # an unknown game fails fast, before the engine is imported
    options = dict(exact=True if args.exact else None, samples=args.samples,
                   stderr=args.stderr, seed=args.seed, threads=args.threads)
    if args.breakdown:
        options["breakdown"] = True
    if args.ordering is not None:
        options["ordering"] = args.ordering
    reporter = None
    if not args.json and err.isatty():
        reporter = ProgressReporter(console(err), samples=args.samples, stderr=args.stderr)
        options["progress"] = reporter
    try:
        result = api.equity(args.game, list(args.hands), args.board, args.dead, **options)
    finally:
        if reporter is not None:
            reporter.close()
    if args.json:
        write_json(out, result_dict(result))
    else:
        render_equity(result, console(out))
        if args.breakdown:
            render_breakdown(result, console(out))
    out.flush()
    if result.partial:
        print(f"{PROG}: interrupted: the figures above are partial", file=err)
        return EXIT_INTERRUPTED
    return EXIT_OK
