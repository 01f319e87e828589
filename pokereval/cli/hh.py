"""``pokereval hh``: hand histories on the command line.

::

    pokereval hh report FILES... [--player NAME] [--game G] [--samples N]
                        [--json | --csv OUT] [--png CHART] [--scheduler ADDR | --workers N]
    pokereval hh show FILE HAND_ID [--json]

``report`` streams every file: per game and stake the hands read, how many the replay
reproduced to the chip, the all-ins priced, and the player's won, all-in EV adjusted
won and luck.  Hands that cannot be read are listed on stderr, one line each, and
counted; they do not change the exit code (0).  ``show`` prints one hand street by
street with its replay and the all-in's expected chips.  A bar shows the progress of a
long report on a terminal (``--no-progress``: none); ``--scheduler`` prices the hands on
a Dask cluster, ``--workers`` in local processes (hands are independent).
"""
from __future__ import annotations

import argparse
import itertools
from typing import Any, TextIO

from rich import box
from rich.table import Table

from .. import api
from ..games import get_game
from .common import (Formatter, UsageError, console, output_file, positive_int, show,
                     write_json)
from .hh_files import HandProgress, write_chart, write_csv

__all__ = ["register", "cmd_hh_report", "cmd_hh_show"]

_EPILOG = """\
examples:
  pokereval hh report ~/PokerStars/HandHistory/*.txt --player Hero
  pokereval hh report session.txt --game omaha-hilo --json
  pokereval hh report hands.phhs --csv report.csv --png luck.png
  pokereval hh report big/*.txt --scheduler tcp://10.0.0.5:8786
  pokereval hh show session.txt 96961585867
Formats, pricing and the unknown-hand rule: docs/HANDHISTORIES.md."""


def register(commands: Any) -> None:
    hh = commands.add_parser(
        "hh", help="hand histories: replay each hand, price every all-in, report luck",
        description="Read PokerStars hand histories, replay each hand through the table "
                    "rules and price every all-in per pot (all-in EV adjusted results).",
        epilog=_EPILOG, formatter_class=Formatter)
    sub = hh.add_subparsers(dest="hh_command", metavar="ACTION", title="actions")
    rep = sub.add_parser("report", help="per game and stake: hands, all-ins, won, EV won, luck",
                         formatter_class=Formatter, epilog=_EPILOG)
    rep.add_argument("files", metavar="FILE", nargs="+", help="hand-history files")
    rep.add_argument("--player", "-p", metavar="NAME",
                     help="whose results (default: each hand's hero, the history's owner)")
    rep.add_argument("--game", "-g", metavar="GAME", help="only hands of this game")
    rep.add_argument("--samples", "-n", type=positive_int, metavar="N",
                     help="run-outs per sampled all-in (default: allin_ev's)")
    rep.add_argument("--encoding", default="utf-8", help="the files' text encoding")
    what = rep.add_mutually_exclusive_group()
    what.add_argument("--json", action="store_true", help="print the report as JSON")
    what.add_argument("--csv", metavar="OUT", type=output_file,
                      help="also write the report's rows as CSV")
    rep.add_argument("--png", metavar="CHART", type=output_file,
                     help="chart of won vs all-in EV adjusted won over the hands "
                          "(matplotlib, the [plot] extra)")
    where = rep.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="price the hands on the Dask cluster at ADDRESS (tcp://HOST:8786)")
    where.add_argument("--workers", type=positive_int, metavar="N",
                       help="price the hands in N local processes (default: this one)")
    rep.add_argument("--timeout", type=float, default=30.0, metavar="S",
                     help="seconds to wait for the Dask scheduler (30)")
    rep.add_argument("--no-progress", action="store_true", help="no progress bar")
    rep.set_defaults(run=cmd_hh_report)
    sh = sub.add_parser("show", help="one hand, street by street, replayed and priced",
                        formatter_class=Formatter, epilog=_EPILOG)
    sh.add_argument("file", metavar="FILE", help="a hand-history file")
    sh.add_argument("hand_id", metavar="HAND_ID", help="the hand number (as in 'Hand #N')")
    sh.add_argument("--encoding", default="utf-8", help="the file's text encoding")
    sh.add_argument("--json", action="store_true", help="print the hand as JSON")
    sh.set_defaults(run=cmd_hh_show)
    hh.set_defaults(run=_need_action)


def _need_action(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    raise UsageError("pokereval hh: an action is required: report or show "
                     "(see 'pokereval hh --help')")


def cmd_hh_report(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    game = get_game(args.game).name if args.game else None
    hands = itertools.chain.from_iterable(api.read_hands(f, encoding=args.encoding)
                                          for f in args.files)
    bar = None
    if not (args.json or args.no_progress) and err.isatty():
        bar = HandProgress(console(err), list(args.files))
    try:
        if args.scheduler or (args.workers or 1) > 1:
            with api.open_executor(args.workers, args.scheduler, args.timeout) as executor:
                report = api.hand_report(hands, args.player, game=game, samples=args.samples,
                                         on_hand=bar, executor=executor)
        else:
            report = api.hand_report(hands, args.player, game=game, samples=args.samples,
                                     on_hand=bar)
    finally:
        if bar is not None:
            bar.close()
    for refused in report.refused:
        print(f"refused: {refused}", file=err)
    if report.refused_count > len(report.refused):
        print(f"refused: ... and {report.refused_count - len(report.refused)} more", file=err)
    who = args.player or "each hand's hero"
    if args.png:
        write_chart(report, args.png, who)
    if args.csv:
        write_csv(report, args.csv)
    if args.json:
        return write_json(out, report.to_dict())
    table = Table(box=box.SIMPLE, title=f"hand histories: {report.hands:,} hands, results of {who}",
                  caption=f"{report.refused_count} refused; {report.elapsed:.2f} s")
    for name in ("game", "stakes", "hands", "replayed", "differs", "unchecked", "all-ins",
                 "priced", "left out", "played", "won", "EV won", "luck", "luck bb"):
        table.add_column(name, justify="left" if name in ("game", "stakes") else "right")
    for row in report.rows.values():
        table.add_row(f"{row.game} ({row.limit})", row.stakes, f"{row.hands:,}",
                      f"{row.agrees:,}", str(row.differs), str(row.unchecked), str(row.allins),
                      str(row.priced), str(row.left_out), f"{row.player_hands:,}",
                      f"{row.money(row.won):,.2f}", f"{row.money(row.ev_won):,.2f}",
                      f"{row.money(row.luck):+,.2f}", f"{row.in_big(row.luck):+,.2f}")
    show(console(out), table)
    for hand_id, problem in report.problems:
        print(f"differs: hand {hand_id}: {problem}", file=out)
    for hand_id, reason in report.left_out:
        print(f"all-in left out: hand {hand_id}: {reason}", file=out)
    return 0


def cmd_hh_show(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    for hand in api.read_hands(args.file, encoding=args.encoding):
        if hand.hand_id != args.hand_id:
            continue
        if not hand.ok:
            raise UsageError(f"hand {args.hand_id} cannot be read: {hand.reason}")
        rep, pricing = api.replay(hand), api.price(hand)
        if args.json:
            return write_json(out, {"hand": hand.to_dict(), "replay": rep.to_dict(),
                                    "allin": pricing.to_dict()})
        _print_hand(out, hand, rep, pricing)
        return 0
    raise UsageError(f"no hand {args.hand_id} in {args.file}")


def _print_hand(out: TextIO, hand, rep, pricing) -> None:
    money = lambda units: api.money_text(hand, units)  # noqa: E731
    where = f"tournament {hand.tournament}, " if hand.tournament else ""
    print(f"hand {hand.hand_id}: {hand.game} ({hand.game_text}), {where}stakes "
          f"{money(hand.stakes[0])}/{money(hand.stakes[1])}", file=out)
    for s in hand.seats:
        cards = " ".join(hand.cards.get(s.seat, ())) or "-"
        mark = " (button)" if s.seat == hand.button else ""
        print(f"  seat {s.seat}: {s.name}{mark}, {money(s.stack)}, cards {cards}", file=out)
    street = None
    for a in hand.actions:
        if a.street != street:
            street = a.street
            print(f"{street}:", file=out)
        amount = f" {money(a.amount)}" if a.amount else ""
        extra = (f" to {money(a.to)}" if a.to else "") + (" all-in" if a.all_in else "")
        cards = f" [{' '.join(a.cards)}]" if a.cards else ""
        pot = f" from {a.pot}" if a.pot else ""
        print(f"  {hand.name_of(a.seat)}: {a.kind}{amount}{extra}{cards}{pot}", file=out)
    for i, board in enumerate(hand.boards):
        if board:
            print(f"board{' ' + str(i + 1) if hand.run_twice else ''}: {' '.join(board)}",
                  file=out)
    print(f"total pot {money(hand.total_pot or 0)}, rake {money(hand.rake or 0)}", file=out)
    detail = "; ".join(rep.problems) or rep.reason
    print(f"replay: {rep.status}" + (f": {detail}" if detail else ""), file=out)
    if pricing.status == "none":
        print("all-in: none before the last card", file=out)
        return
    if pricing.status == "left out":
        print(f"all-in on the {pricing.street}: left out: {pricing.reason}", file=out)
        return
    how = f"exact, {pricing.samples:,} run-outs" if pricing.exact else \
        f"{pricing.samples:,} sampled run-outs"
    print(f"all-in on the {pricing.street} ({how}), board {pricing.board or '-'}:", file=out)
    pot = sum(rep.contributions.values()) - (hand.rake or 0)
    for s in pricing.seats:
        ev = pricing.ev[s]
        share = ev / pot if pot else 0.0
        print(f"  {hand.name_of(s)} {pricing.hands[s]}: equity {share:.2%}, expected "
              f"{money(round(ev))}, collected {money(hand.collected.get(s, 0))}, luck "
              f"{float(hand.money(1)) * pricing.luck[s]:+.2f}", file=out)
