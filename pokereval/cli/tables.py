"""CLI commands over starting-hand orderings and the table engine.

::

    pokereval rank GAME HAND [--players 6 | --ordering FILE] [--json]
    pokereval range GAME RANGE [--top N] [--ordering FILE] [--json]
    pokereval table build ordering GAME [--players N] [--passes P] [--trials T] [--seed S]
                          [--workers N | --scheduler tcp://HOST:8786] [--store DIR] --out FILE
    pokereval table build equity GAME [--opponents N] [--trials T] ... --out FILE
    pokereval table show GAME|FILE [--players 6] [--top N] [--json]
    pokereval table import-ppt FILE GAME [--players 6] --out FILE
"""
from __future__ import annotations

import argparse
import json
import time
from math import comb
from pathlib import Path
from typing import TextIO

import numpy as np
from rich import box
from rich.table import Table
from rich.text import Text

from .. import api
from ..cards import cards_str
from ..games import get_game
from .common import (EXIT_OK, Formatter, UsageError, console, output_file, positive_int, seed,
                     show, write_json)

__all__ = ["register", "cmd_rank", "cmd_range", "cmd_table_build", "cmd_table_show",
           "cmd_table_import"]


#: --ordering on rank, range and equity
ORDERING_HELP = ("an ordering file ('table build ordering ... --out FILE', 'table import-ppt') "
                 "for percent terms and percentiles, instead of the shipped ordering")


def register(commands) -> None:
    """Add ``rank``, ``range`` and ``table`` to the ``pokereval`` subcommands."""
    rk = commands.add_parser(
        "rank", help="a starting hand's percentile in the hand ordering",
        description="Where a starting hand ranks: its class, its position and its percentile "
                    "(ProPokerTools' convention: the share of all combos ranked at or below "
                    "it; the best class is 100%%).", formatter_class=Formatter)
    rk.add_argument("game", metavar="GAME")
    rk.add_argument("hand", metavar="HAND", help="hole cards, e.g. AsAh7c2d")
    rk.add_argument("--players", type=int, default=None, help="10 (full ring, default) or 6")
    rk.add_argument("--ordering", metavar="FILE", default=None, help=ORDERING_HELP)
    rk.add_argument("--json", action="store_true", help="print the result as JSON")
    rk.set_defaults(run=cmd_rank)

    rg = commands.add_parser(
        "range", help="what a range holds: combos, share, first classes",
        description="Parse a range (percent terms such as 15%%, 5%%-10%%, 15%%6h included) "
                    "and show its combos, its share of all combos and its first classes.",
        formatter_class=Formatter)
    rg.add_argument("game", metavar="GAME")
    rg.add_argument("range", metavar="RANGE")
    rg.add_argument("--top", type=positive_int, default=10, help="classes to list (10)")
    rg.add_argument("--deals", type=positive_int, default=None, metavar="N",
                    help="stud: list the first N ordered deals (down cards, then up cards as dealt)")
    rg.add_argument("--ordering", metavar="FILE", default=None, help=ORDERING_HELP)
    rg.add_argument("--json", action="store_true", help="print the result as JSON")
    rg.set_defaults(run=cmd_range)

    tb = commands.add_parser("table", help="build or show starting-hand tables",
                             description="Build starting-hand tables (evolution orderings, "
                                         "equity against 1..9 random hands) locally or on a "
                                         "Dask cluster, or show one.", formatter_class=Formatter)
    sub = tb.add_subparsers(dest="table_command", metavar="ACTION", title="actions")
    sub.required = True
    build = sub.add_parser("build", help="build a table (resumable with --store)",
                           formatter_class=Formatter)
    build.add_argument("kind", choices=("ordering", "equity"))
    build.add_argument("game", metavar="GAME")
    build.add_argument("--players", type=positive_int,
                       help="ordering: seats (default full ring: 10, or 9 in 5-card games)")
    build.add_argument("--opponents", type=positive_int, help="equity: 1..N random hands")
    build.add_argument("--passes", type=positive_int, default=10, help="ordering passes (10)")
    build.add_argument("--trials", type=positive_int,
                       help="trials per class (ordering: in the first pass, doubling each "
                            "pass, default 4; equity: per opponent count, default 1000)")
    build.add_argument("--seed", type=seed, default=0)
    build.add_argument("--chunk-trials", type=positive_int, default=200_000,
                       help="class-trials per chunk (200000)")
    where = build.add_mutually_exclusive_group()
    where.add_argument("--workers", type=positive_int, help="local processes (default: all cores)")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="run on the Dask cluster at ADDRESS (tcp://HOST:8786)")
    build.add_argument("--timeout", type=float, default=30.0, metavar="S",
                       help="seconds to wait for the Dask scheduler (30)")
    build.add_argument("--store", metavar="DIR", help="checkpoint directory: a killed build "
                                                      "run again with it resumes")
    build.add_argument("--out", metavar="FILE", type=output_file, required=True,
                       help="write the table (.npz); checked before the build starts")
    build.add_argument("--no-progress", action="store_true", help="no progress bar")
    build.add_argument("--json", action="store_true", help="print a summary as JSON")
    build.set_defaults(run=cmd_table_build)

    sh = sub.add_parser("show", help="show a shipped ordering or a table file",
                          formatter_class=Formatter)
    sh.add_argument("source", metavar="GAME|FILE")
    sh.add_argument("--players", type=int, default=10, help="10 (full ring) or 6")
    sh.add_argument("--top", type=positive_int, default=20, help="rows to show (20)")
    sh.add_argument("--json", action="store_true")
    sh.set_defaults(run=cmd_table_show)

    imp = sub.add_parser("import-ppt", help="convert a ProPokerTools ordering text file",
                         formatter_class=Formatter)
    imp.add_argument("file", metavar="FILE")
    imp.add_argument("game", metavar="GAME", choices=("holdem", "omaha"))
    imp.add_argument("--players", type=int, default=10, choices=(10, 6))
    imp.add_argument("--out", metavar="FILE", type=output_file, required=True)
    imp.set_defaults(run=cmd_table_import)


def cmd_rank(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    game = get_game(args.game)
    table = api.ordering_for(game, args.players, args.ordering)
    value = api.percentile(game, args.hand, ordering=table)
    hc = api.hand_classes(game.hole)
    cls = hc.class_of(args.hand)
    position = int(table.position[cls]) + 1
    data = {"game": game.name, "players": table.players, "hand": args.hand,
            "class": hc.text(cls), "combos": int(hc.combos[cls]), "position": position,
            "classes": len(hc), "percentile": value}
    if args.ordering is not None:
        data["ordering"] = args.ordering
    if args.json:
        return write_json(out, data)
    seats = f"{table.players}-handed" if table.players else "ordering"
    source = f" ({args.ordering})" if args.ordering is not None else ""
    show(console(out), Text(
        f"{game.title} {seats}{source}: {args.hand} is class {data['class']} "
        f"({data['combos']} combos), #{position} of {len(hc)}, percentile {100 * value:.4f}%"))
    return EXIT_OK


def cmd_range(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    game = get_game(args.game)
    rng = api.parse_range(game, args.range, ordering=args.ordering)
    total = comb(52, rng.holdings.shape[1])
    share = getattr(rng, "share", None)
    share = len(rng) / total if share is None else share
    first = []
    if game.name in api.ORDERED_GAMES and rng.holdings.shape[1] == game.hole and len(rng):
        hc = api.hand_classes(game.hole)
        cls, counts = np.unique(hc.classes_of(rng.holdings), return_counts=True)
        position = api.ordering_for(game, None, args.ordering).position  # listed in its order
        for i in np.argsort(position[cls], kind="stable")[:args.top]:
            first.append({"class": hc.text(cls[i]), "combos": int(counts[i]),
                          "of": int(hc.combos[cls[i]])})
    data = {"game": game.name, "range": args.range, "combos": len(rng), "of": total,
            "share": share, "first_classes": first}
    if args.ordering is not None:
        data["ordering"] = args.ordering
    if rng.orders is not None:  # stud: each holding weighs its matching deals
        data["deals"] = int(rng.orders.sum())
        if args.deals:
            cards, weights = rng.deals()
            data["first_deals"] = [
                {"down": cards_str(row[:2].tolist()), "up": cards_str(row[2:].tolist()),
                 "weight": float(w)} for row, w in zip(cards[:args.deals], weights[:args.deals])]
    elif args.deals:
        raise UsageError("--deals is for stud games (stud, stud-hilo, razz)")
    if args.json:
        return write_json(out, data)
    screen = console(out)
    deals = f", {data['deals']:,} ordered deals" if "deals" in data else ""
    show(screen, Text(f"{game.title} {args.range}: {len(rng):,} combos of {total:,} "
                        f"({100 * share:.3f}%){deals}"))
    if data.get("first_deals"):
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        for col in ("Down", "Up", "Weight"):
            table.add_column(col, justify="right" if col == "Weight" else "left")
        for row in data["first_deals"]:
            table.add_row(row["down"], row["up"], f"{row['weight']:g}")
        show(screen, table)
    if first:
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        for col in ("Class", "Combos"):
            table.add_column(col, justify="right" if col == "Combos" else "left")
        for row in first:
            table.add_row(str(row["class"]), f"{row['combos']}/{row['of']}")
        show(screen, table)
    return EXIT_OK


def cmd_table_build(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    common = dict(seed=args.seed, workers=args.workers, scheduler=args.scheduler,
                  store=args.store, progress=False if args.no_progress else None,
                  chunk_trials=args.chunk_trials, timeout=args.timeout)
    start = time.perf_counter()
    if args.kind == "ordering":
        if args.opponents:
            raise UsageError("--opponents is for 'table build equity'")
        table = api.build_ordering(args.game, args.players, passes=args.passes,
                               trials=args.trials or 4, **common)
        wall = time.perf_counter() - start
        meta = dict(table.params, source="pokereval evolution generator", wall_s=round(wall, 1),
                    command=f"python -m pokereval table build ordering {table.game} "
                            f"--players {table.players} --passes {args.passes} "
                            f"--trials {args.trials or 4} --seed {args.seed}")
        api.save_ordering(args.out, table.order, table.stat, meta)
        summary = {"table": "ordering", "game": table.game, "players": table.players,
                   "wall_s": wall, "out": args.out, "params": table.params}
    else:
        if args.players or args.passes != 10:
            raise UsageError("--players and --passes are for 'table build ordering'")
        eq = api.build_equity(args.game, opponents=args.opponents, trials=args.trials or 1000,
                          **common)
        wall = time.perf_counter() - start
        np.savez_compressed(args.out, equity=eq.equity.astype(np.float32),
                            meta=np.array(json.dumps(eq.params, sort_keys=True)))
        summary = {"table": "equity", "game": eq.game, "wall_s": wall, "out": args.out,
                   "params": eq.params}
    if args.json:
        return write_json(out, summary)
    show(console(out), Text(f"built {summary['table']} table for {summary['game']} in "
                              f"{wall:.1f} s -> {args.out}"))
    return EXIT_OK


def _load_file(path: str) -> dict:
    try:
        with np.load(path, allow_pickle=False) as z:
            return {k: z[k] for k in z.files}
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot read table {path!r}: {exc}") from None


def cmd_table_show(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if Path(args.source).suffix == ".npz" or Path(args.source).exists():
        z = _load_file(args.source)
        meta = json.loads(str(z.get("meta", "{}")))
        game = get_game(meta.get("game", ""))
        hc = api.hand_classes(game.hole)
        if "equity" in z:
            eq = z["equity"]
            order = np.argsort(-eq[:, 0], kind="stable")[:args.top]
            rows = [{"class": hc.text(c), "equity": eq[c].tolist()} for c in order]
            if args.json:
                return write_json(out, {"meta": meta, "classes": rows})
            table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
            table.add_column("Class")
            for n in range(eq.shape[1]):
                table.add_column(f"vs {n + 1}", justify="right")
            for r in rows:
                table.add_row(r["class"], *(f"{100 * x:.1f}" for x in r["equity"]))
            show(console(out), table)
            return EXIT_OK
        order = z["order"].astype(np.int64)
        ho = api.HandOrdering(game.name, int(meta.get("players", 0)), [hc.text(c) for c in order],
                          hc.combos[order], z["stat"].astype(float), meta)
    else:
        ho = api.hand_ordering(args.source, args.players)
    if args.json:
        return write_json(out, ho.to_dict(args.top))
    screen = console(out)
    source = ho.meta.get("credit") or ho.meta.get("command", "")
    show(screen, Text(f"{ho.game} {ho.players}-handed ordering ({len(ho.classes)} classes) "
                        f"- {source}"))
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for col in ("#", "Class", "Combos", "Cumulative", "Winnings"):
        table.add_column(col, justify="left" if col == "Class" else "right")
    cum = np.cumsum(ho.combos)
    for i in range(min(args.top, len(ho.classes))):
        s = ho.stat[i]
        table.add_row(str(i + 1), ho.classes[i], str(int(ho.combos[i])),
                      f"{100 * cum[i] / cum[-1]:.3f}%", "-" if np.isnan(s) else f"{s:+.3f}")
    show(screen, table)
    return EXIT_OK


def cmd_table_import(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    game = get_game(args.game)
    try:
        text = Path(args.file).read_text()
    except OSError as exc:
        raise UsageError(f"cannot read {args.file!r}: {exc.strerror}") from None
    order = api.parse_ppt_ordering(text, api.hand_classes(game.hole))
    meta = dict(game=game.name, players=args.players, credit=api.PPT_CREDIT,
                source=f"ProPokerTools.com published ordering ({Path(args.file).name})",
                header=[s.strip() for s in text.splitlines()[:7]],
                command=f"python -m pokereval table import-ppt {Path(args.file).name} "
                        f"{game.name} --players {args.players}")
    api.save_ordering(args.out, order, None, meta)
    return EXIT_OK
