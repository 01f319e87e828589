"""``pokereval eval``: the best high and low hand of one holding (no engine needed)."""
from __future__ import annotations

import argparse
from typing import Any, TextIO

from rich.table import Table
from rich.text import Text

from .. import api
from ..games import get_game
from ..protocol import evaluation_dict
from .common import EXIT_OK, Formatter, console, show, write_json

__all__ = ["register", "cmd_eval"]

EPILOG = """\
examples:
  pokereval eval omaha-hilo AhKd2c3s --board Ks5d8h7cKh
  pokereval eval holdem KhKd --board Ks5d5c2h9s
  pokereval eval razz 9s9h7d4c2s3h3d"""


def register(commands: Any) -> None:
    """Add ``eval`` to the subcommands."""
    ev = commands.add_parser(
        "eval", help="best high and low hand of one holding",
        description="The best high and the best low hand one player makes, with the five "
                    "cards used.",
        epilog=EPILOG, formatter_class=Formatter)
    ev.add_argument("game", metavar="GAME", help="game name or alias (see 'pokereval games')")
    ev.add_argument("hole", metavar="HOLE", help="the player's cards (stud: all 5 to 7 of them)")
    ev.add_argument("--board", "-b", default="", metavar="CARDS", help="board cards")
    ev.add_argument("--json", action="store_true", help="print the result as JSON")
    ev.set_defaults(run=cmd_eval)


def cmd_eval(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    game = get_game(args.game)
    result = api.evaluate(game, args.hole, args.board)
    if args.json:
        return write_json(out, evaluation_dict(game, args.hole, args.board, result))
    screen = console(out)
    heading = Text(game.title, style="bold")
    heading.append(f"  {'cards' if game.stud else 'hole'} {args.hole}")
    if args.board:
        heading.append(f"  board {args.board}")
    show(screen, heading)
    table = Table(box=None, show_header=False, pad_edge=False)
    table.add_column(style="bold")
    table.add_column()
    table.add_column()
    if game.high:
        table.add_row("High", Text(str(result.high)), Text(result.high.cards))
    if game.low:
        if result.low is None:
            table.add_row("Low", "no qualifying low", "")
        else:
            table.add_row("Low", Text(str(result.low)), Text(result.low.cards))
    show(screen, table)
    return EXIT_OK
