"""``pokereval games``: the games, their card counts, pots and aliases."""
from __future__ import annotations

import argparse
from typing import Any, TextIO

from rich import box
from rich.table import Table
from rich.text import Text

from ..games import games
from ..protocol import games_list
from .common import EXIT_OK, Formatter, console, show, write_json

__all__ = ["register", "cmd_games"]


def register(commands: Any) -> None:
    """Add ``games`` to the subcommands."""
    gm = commands.add_parser(
        "games", help="list the games and their aliases", formatter_class=Formatter,
        description="The games pokereval knows: hole and board cards, whether the pot is "
                    "split hi/lo, and the other names each game answers to.")
    gm.add_argument("--json", action="store_true", help="print the list as JSON")
    gm.set_defaults(run=cmd_games)


def cmd_games(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.json:
        return write_json(out, games_list())
    screen = console(out)
    wide = screen.width >= 110  # the Title column only where there is room for it
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("Game", no_wrap=True)
    if wide:
        table.add_column("Title", no_wrap=True)
    table.add_column("Hole", justify="right", no_wrap=True)
    table.add_column("Board", justify="right", no_wrap=True)
    table.add_column("Pot", no_wrap=True)
    table.add_column("Aliases", min_width=20)
    for g in games():
        board = "-" if g.stud else f"{g.board}{'*' if g.min_board else ''}"
        table.add_row(g.name, *([g.title] if wide else []), str(g.hole), board, g.pot_label,
                      Text(", ".join(g.aliases)))
    show(screen, table)
    show(screen, Text(
        "Hole: cards per player at showdown (stud: 3 to 7 of them known).\n"
        "Omaha and Courchevel hands use exactly 2 hole and 3 board cards.\n"
        "* Courchevel shows its first board card before any betting: a spot has at least 1.\n"
        "Split hi/lo: half the pot to the best high, half to the best eight-or-better low.",
        style="dim"))
    return EXIT_OK
