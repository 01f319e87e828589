"""``pokereval settle`` and ``pokereval allin``: the table rules on the command line.

Players are written ``SEAT:CARDS:CHIPS`` (chips = everything the seat put in the
pot, in the smallest unit; CARDS may be empty for a folded player: ``3::20``).
"""
from __future__ import annotations

import argparse
from typing import Any, TextIO

from rich import box
from rich.table import Table

from .. import api
from ..protocol import format_seconds
from .common import Formatter, UsageError, console, positive_int, seed, show, write_json

__all__ = ["register", "cmd_settle", "cmd_allin"]

_PLAYER_HELP = "SEAT:CARDS:CHIPS for every player who put chips in (folded ones too, e.g. 3::20)"

_SETTLE_EPILOG = """\
examples:
  pokereval settle omaha-hilo 1:AhAd2c3s:100 2:KsKdQhJh:100 3::1 --board 7c8d5hTsKc --folded 3 --button 3
  pokereval settle stud-hilo 2:AsKs2c3d4h9s9c:300 5:QdQc8h7h6h5s2d:120 --rake 10 --json
Chips are integers in the smallest unit (cents in a cash game). Rules: docs/RULES.md."""

_ALLIN_EPILOG = """\
examples:
  pokereval allin omaha-hilo 1:AhAd2c3s:300 4:KsKdQhJh:1000 6:As4c5d6h:1000 --button 6
  pokereval allin holdem 1:AhAd:500 2:KsKd:200 3:7c2d:500 --board Kc8d2h --json
Expected chips back over every run-out (exact when cheap, else sampled)."""


def _players(items: list[str]) -> tuple[dict[int, str], dict[int, int]]:
    hands: dict[int, str] = {}
    chips: dict[int, int] = {}
    for item in items:
        parts = item.split(":")
        if len(parts) != 3 or not parts[0].strip().isdigit():
            raise UsageError(f"player {item!r} must be SEAT:CARDS:CHIPS (e.g. 1:AhKd:100 or 3::20)")
        seat = int(parts[0])
        if seat in chips:
            raise UsageError(f"seat {seat} is given twice")
        try:
            chips[seat] = int(parts[2].replace("_", ""))
        except ValueError:
            raise UsageError(f"player {item!r}: chips must be a whole number in the smallest "
                             f"unit, got {parts[2]!r}") from None
        if parts[1].strip():
            hands[seat] = parts[1]
    return hands, chips


def _seats(text: str | None) -> list[int]:
    if not text:
        return []
    try:
        return [int(x) for x in text.replace(",", " ").split()]
    except ValueError:
        raise UsageError(f"--folded must list seat numbers (e.g. 3,5), got {text!r}") from None


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME", help="game name or alias (see 'pokereval games')")
    p.add_argument("players", metavar="PLAYER", nargs="+", help=_PLAYER_HELP)
    p.add_argument("--board", "-b", default="", metavar="CARDS", help="board cards")
    p.add_argument("--folded", "-f", metavar="SEATS", help="seats that folded (e.g. 3,5)")
    p.add_argument("--button", type=int, metavar="SEAT", help="the dealer button's seat")
    p.add_argument("--rake", type=int, default=0, metavar="CHIPS", help="rake taken before the split")
    p.add_argument("--odd-chip", choices=("auto", "button", "suit"), default="auto",
                   help="odd-chip rule among tied players (auto: button in board games, "
                        "card by suit in stud)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")


def register(commands: Any) -> None:
    st = commands.add_parser(
        "settle", help="settle a showdown: side pots, hi/lo halves, odd chips",
        description="Who collects how many chips at showdown: main and side pots, the hi/lo "
                    "halves, ties, odd chips, uncalled bets and rake.",
        epilog=_SETTLE_EPILOG, formatter_class=Formatter)
    _common(st)
    st.set_defaults(run=cmd_settle)

    al = commands.add_parser(
        "allin", help="all-in EV: expected chips back of each player",
        description="Each player's expected chips back when the cards are run out: every "
                    "side pot's hi/lo equity among its players, odd chips included.",
        epilog=_ALLIN_EPILOG, formatter_class=Formatter)
    _common(al)
    al.add_argument("--dead", "-d", default="", metavar="CARDS", help="cards out of play")
    how = al.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="walk every run-out")
    how.add_argument("--samples", "-n", type=positive_int, metavar="N", help="sample N run-outs")
    al.add_argument("--seed", type=seed, metavar="N", help="random seed")
    al.set_defaults(run=cmd_allin)


def cmd_settle(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    hands, chips = _players(args.players)
    result = api.settle(args.game, hands, args.board, contributions=chips,
                    folded=_seats(args.folded), button=args.button, rake=args.rake,
                    odd_chip=args.odd_chip)
    if args.json:
        return write_json(out, result.to_dict())
    table = Table(box=box.SIMPLE, title=f"{result.game}: pot {result.total}, rake {result.rake}")
    for name in ("pot", "amount", "players", "high", "low", "shares"):
        table.add_column(name, justify="right" if name == "amount" else "left")
    for i, pot in enumerate(result.pots):
        name = "main" if i == 0 else f"side {i}"
        table.add_row(name + (" (uncalled)" if pot.uncalled else ""), str(pot.amount),
                      ",".join(map(str, pot.eligible)), ",".join(map(str, pot.high_winners)),
                      ",".join(map(str, pot.low_winners)) or "-",
                      " ".join(f"{s}:{v}" for s, v in pot.shares.items()))
    seats = Table(box=box.SIMPLE)
    for name in ("seat", "put in", "collected", "net"):
        seats.add_column(name, justify="right")
    for s, v in result.collected.items():
        seats.add_row(str(s), str(chips[s]), str(v), f"{v - chips[s]:+d}")
    show(console(out), table, seats)
    return 0


def cmd_allin(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    hands, chips = _players(args.players)
    result = api.allin_ev(args.game, hands, args.board, args.dead, contributions=chips,
                      folded=_seats(args.folded), button=args.button, rake=args.rake,
                      odd_chip=args.odd_chip, exact=True if args.exact else None,
                      samples=args.samples, seed=args.seed)
    if args.json:
        return write_json(out, result.to_dict())
    how = (f"exact, {result.samples:,} run-outs" if result.exact
           else f"{result.samples:,} samples, seed {result.seed}")
    table = Table(box=box.SIMPLE, title=f"{result.game}: pot {result.total}, rake {result.rake}",
                  caption=f"{how}, {format_seconds(result.elapsed)}")
    for name in ("seat", "cards", "put in", "EV (chips back)", "net EV", "± std err"):
        table.add_column(name, justify="left" if name == "cards" else "right")
    for s, ev in result.ev.items():
        table.add_row(str(s), hands.get(s, "-"), str(chips[s]), f"{ev:.2f}",
                      f"{ev - chips[s]:+.2f}", f"{result.std_error[s]:.2f}" if not result.exact else "")
    show(console(out), table)
    return 0
