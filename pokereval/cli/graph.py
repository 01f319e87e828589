"""``pokereval graph``: the next-street equity curve as a terminal chart (or a PNG /
SVG file through matplotlib, the optional ``[plot]`` extra); and the hand-type
table of ``pokereval equity --breakdown``.

::

    pokereval graph GAME HAND HAND... [--board CARDS] [--dead CARDS]
                    [--exact | --samples N] [--seed N] [--threads N]
                    [--png FILE | --svg FILE] [--json]
"""
from __future__ import annotations

import argparse
from typing import Any, TextIO

from rich import box
from rich.table import Table
from rich.text import Text

from .. import api
from ..errors import install_hint
from ..games import get_game
from ..protocol import format_seconds
from .common import (EXIT_OK, Formatter, UsageError, console, positive_int, seed, show,
                     write_json)

__all__ = ["register", "cmd_graph", "render_curve", "render_breakdown", "write_chart"]

CHART_WIDTH, CHART_HEIGHT = 60, 12
MARKS = "123456789X"
STYLES = ("cyan", "magenta", "green", "yellow", "red", "blue", "white", "bright_cyan",
          "bright_magenta", "bright_green")

_GRAPH_EPILOG = """examples:
  pokereval graph omaha-hilo AhAd2c3s KsKdQhJh
  pokereval graph holdem AhKh QsQd --board 2h7hTc --png turn.png
  pokereval graph omaha-hilo AhKd2c3s 'AA**' --board 7c8d9h --json
"""


def register(commands: Any) -> None:
    """Add the ``graph`` command to the subparsers of :func:`pokereval.cli.build_parser`."""
    gr = commands.add_parser(
        "graph", help="equity on the next street, deal by deal, as a chart",
        description="Each hand's equity on every deal of the next street (flop, turn or "
                    "river; stud: the next card of every player), sorted: the curve, the "
                    "chance of reaching 25/50/75%% equity, and scoop / low chances in split "
                    "games.", epilog=_GRAPH_EPILOG, formatter_class=Formatter)
    gr.add_argument("game", metavar="GAME", help="game name or alias (see 'pokereval games')")
    gr.add_argument("hands", metavar="HAND", nargs="+", help="each player's cards or range")
    gr.add_argument("--board", "-b", default="", metavar="CARDS", help="known board cards")
    gr.add_argument("--dead", "-d", default="", metavar="CARDS", help="cards out of play")
    how = gr.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="walk every run-out (may be slow)")
    how.add_argument("--samples", "-n", type=positive_int, metavar="N",
                     help="sample N run-outs per deal (Monte Carlo)")
    gr.add_argument("--seed", type=seed, metavar="N", help="random seed")
    gr.add_argument("--threads", "-t", type=positive_int, metavar="N", help="worker threads")
    files = gr.add_mutually_exclusive_group()
    files.add_argument("--png", metavar="FILE", help="also write the chart as a PNG image")
    files.add_argument("--svg", metavar="FILE", help="also write the chart as an SVG image")
    gr.add_argument("--json", action="store_true", help="print the result as JSON")
    gr.set_defaults(run=cmd_graph)


def cmd_graph(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    get_game(args.game)
    result = api.equity_distribution(args.game, list(args.hands), args.board, args.dead,
                                   exact=True if args.exact else None, samples=args.samples,
                                   seed=args.seed, threads=args.threads)
    path = args.png or args.svg
    if path:
        write_chart(result, path, "png" if args.png else "svg")
    if args.json:
        write_json(out, result.to_dict())
    else:
        render_curve(result, console(out))
        if path:
            show(console(out), Text(f"chart written to {path}", style="dim"))
    out.flush()
    return EXIT_OK


# ---------------------------------------------------------------------------
# The terminal chart
# ---------------------------------------------------------------------------

def _quantile(curve: list[tuple[float, float]], q: float) -> float:
    """The equity at cumulative weight ``q`` of a curve sorted worst first."""
    seen = 0.0
    for eq, w in curve:
        seen += w
        if seen >= q - 1e-12:
            return eq
    return curve[-1][0] if curve else 0.0


def render_curve(result: Any, console: Any) -> None:
    """The sorted equity curves (x: share of the next street's deals, worst first;
    y: equity) and a summary table."""
    game = get_game(result.game)
    head = Text(game.title, style="bold")
    head.append(f"  {', '.join(result.hands)}")
    if result.board:
        head.append(f"  board {result.board}")
    if result.dead:
        head.append(f"  dead {result.dead}")
    head.append(f"  -> equity on the {result.street}")
    show(console, head)
    grid = [[" "] * CHART_WIDTH for _ in range(CHART_HEIGHT)]
    owner = [[-1] * CHART_WIDTH for _ in range(CHART_HEIGHT)]
    for p, player in enumerate(result.players):
        for x in range(CHART_WIDTH):
            eq = _quantile(player.curve, (x + 0.5) / CHART_WIDTH)
            y = min(CHART_HEIGHT - 1, int(eq * CHART_HEIGHT))
            grid[CHART_HEIGHT - 1 - y][x] = MARKS[p % len(MARKS)]
            owner[CHART_HEIGHT - 1 - y][x] = p
    chart = Text()
    for row in range(CHART_HEIGHT):
        top = 100 * (CHART_HEIGHT - row) / CHART_HEIGHT
        label = f"{top:4.0f}% |" if row % 3 == 0 else "      |"
        chart.append(label)
        for x in range(CHART_WIDTH):
            p = owner[row][x]
            chart.append(grid[row][x], style=STYLES[p % len(STYLES)] if p >= 0 else None)
        chart.append("\n")
    chart.append("      +" + "-" * CHART_WIDTH + "\n")
    left, right = f"worst {result.street} deals", f"best {result.street} deals"
    chart.append("       " + left + " " * max(1, CHART_WIDTH - len(left) - len(right)) + right)
    show(console, chart)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for name in ("", "Hand", "Equity", ">=25%", ">=50%", ">=75%"):
        table.add_column(name, justify="left" if name in ("", "Hand") else "right")
    split = game.split
    if split:
        table.add_column("Scoop", justify="right")
        table.add_column("Low", justify="right")
    for p, player in enumerate(result.players):
        cells: list = [Text(MARKS[p % len(MARKS)], style=STYLES[p % len(STYLES)]), player.hand,
                       f"{100 * player.equity:.2f}"]
        cells += [f"{100 * player.at_least[k]:.1f}" for k in ("25%", "50%", "75%")]
        if split:
            cells += [f"{100 * player.scoop:.1f}", f"{100 * player.low:.1f}"]
        table.add_row(*cells)
    show(console, table)
    how = "exact" if result.exact else f"sampled: {result.samples:,} run-outs in all"
    show(console, Text(f"All figures in %: the chance of each equity level on the "
                        f"{result.street}. {result.deals:,} {result.street} deals ({how}), "
                        f"{format_seconds(result.elapsed)}.", style="dim"))


# ---------------------------------------------------------------------------
# PNG / SVG
# ---------------------------------------------------------------------------

def write_chart(result: Any, path: str, fmt: str) -> None:
    """Write the curves as a step chart with matplotlib (the ``[plot]`` extra)."""
    try:
        import matplotlib
    except ImportError:
        raise UsageError("--png / --svg need matplotlib: " + install_hint("plot")) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    game = get_game(result.game)
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    for player in result.players:
        xs, ys, seen = [0.0], [], 0.0
        for eq, w in player.curve:
            seen += w
            xs.append(100 * seen)
            ys.append(100 * eq)
        ax.stairs(ys, xs, baseline=None, label=f"{player.hand}  ({100 * player.equity:.1f}%)", linewidth=2)
    ax.set_xlim(0, 100)
    ax.set_ylim(0, 100)
    ax.set_xlabel(f"{result.street} deals, worst to best (%)")
    ax.set_ylabel(f"equity on the {result.street} (%)")
    where = f"  board {result.board}" if result.board else ""
    ax.set_title(f"{game.title}{where}: equity on the {result.street} ({result.deals:,} deals)")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left")
    fig.tight_layout()
    try:
        fig.savefig(path, format=fmt)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)


# ---------------------------------------------------------------------------
# equity --breakdown
# ---------------------------------------------------------------------------

def render_breakdown(result: Any, console: Any) -> None:
    """The hand-type table of ``pokereval equity --breakdown``: per player, the chance
    of ending with each high category / low, as won / tied / lost."""
    first = result.players[0].breakdown if result.players else None
    if not first:
        return
    for half in ("high", "low"):
        if half not in first:
            continue
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False,
                      title=f"Final {half} hand, % of run-outs: won / tied / lost",
                      title_justify="left")
        table.add_column("Hand type")
        for player in result.players:
            table.add_column(player.hand, justify="right")
        for kind in first[half]:
            cells = [player.breakdown[half][kind] for player in result.players]
            if all(sum(c.values()) == 0 for c in cells):
                continue
            # fixed-width figures, so the won / tied / lost sub-columns line up
            table.add_row(kind, *(f"{100 * c['won']:6.2f} / {100 * c['tied']:6.2f} / "
                                  f"{100 * c['lost']:6.2f}" for c in cells))
        show(console, table)
