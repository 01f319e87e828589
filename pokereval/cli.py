"""The ``pokereval`` command line: equity tables, hand evaluation, the game list, batch JSON.

::

    pokereval equity GAME HAND HAND... [--board CARDS] [--dead CARDS]
                     [--exact | --samples N | --stderr X] [--seed N] [--threads N] [--json]
    pokereval eval GAME HOLE [--board CARDS] [--json]
    pokereval games [--json]
    pokereval batch [FILE|-]

Exit codes: 0 success, 2 bad input (one line on stderr, never a traceback),
130 interrupted (Ctrl-C; ``equity`` still prints what it computed, marked partial),
1 internal error (set ``POKEREVAL_DEBUG=1`` to see the traceback).

:func:`main` takes the argument list and returns the exit code, so it can be
driven without a subprocess.  The equity engine (and Numba) is imported only by
the commands that need it, so ``games``, ``eval`` and ``--help`` start fast.
"""
from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import re
import sys
import time
from fractions import Fraction
from typing import Any, Callable, TextIO

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from . import __version__
from .errors import PokerEvalError, one_line
from .games import Game, games, get_game

__all__ = ["entry", "main"]

PROG = "pokereval"
EXIT_OK, EXIT_INTERNAL, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
PROGRESS_DELAY = 0.5  # seconds before a progress bar appears
BATCH_FIELDS = ("game", "hands", "board", "dead", "exact", "samples", "stderr", "seed",
                "threads", "id")


class UsageError(Exception):
    """Bad input found by the command line itself (printed as one line, exit code 2)."""


def _one_line(message: object) -> str:
    """An error message on one printable line, whatever the exception (argparse's
    included) put in it: unprintable characters escaped (see errors.one_line)."""
    return " ".join(one_line(message).split())


# ---------------------------------------------------------------------------
# Argument parsing
# ---------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump) that do not exit the process."""

    def error(self, message: str):  # noqa: D102 - argparse hook
        raise UsageError(f"{self.prog}: error: {message} (see '{self.prog} --help')")


class _Formatter(argparse.HelpFormatter):
    """Wraps one-paragraph descriptions to the terminal; keeps multi-line text (the
    examples in epilogs) as written."""

    def _fill_text(self, text, width, indent):
        if "\n" in text:
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def _positive_int(text: str) -> int:
    """``1000``, ``1_000``, ``1e6``; must be a whole number >= 1."""
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


def _seed(text: str) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {text!r}")
    return value


def _stderr_target(text: str) -> float:
    """A standard error of equity: a fraction of the pot (``0.001``) or a percentage (``0.1%``)."""
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


_EQUITY_EPILOG = """\
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

_EVAL_EPILOG = """\
examples:
  pokereval eval omaha-hilo AhKd2c3s --board Ks5d8h7cKh
  pokereval eval holdem KhKd --board Ks5d5c2h9s
  pokereval eval razz 9s9h7d4c2s3h3d"""

_BATCH_EPILOG = """\
Each input line is one JSON object, for example
  {"game": "omaha-hilo", "hands": ["AcAs3d4h", "KhKcJdTd"], "board": "7c8d9h"}
with optional fields board, dead, exact, samples, stderr, seed, threads and id.
Each output line is the result (the same fields as 'pokereval equity --json', plus
"line" and the request's "id" if it had one) or {"line": N, "error": "..."} for a
line that could not be answered; blank lines are skipped. Output is flushed line by
line. Exit code 0 once the input is read to the end (errors are reported in-band),
2 if the input cannot be opened, 130 when interrupted."""


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG, formatter_class=_Formatter,
        description="Fast, exact hi/lo poker equity: Omaha Hi/Lo, 5-Card Omaha, Courchevel, "
                    "Stud Hi/Lo, Razz, Hold'em.",
        epilog="Run 'pokereval COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")

    eq = commands.add_parser(
        "equity", help="share of the pot each hand wins",
        description="Equity of each hand: the share of the pot it wins over every run-out "
                    "(exact) or over sampled run-outs (Monte Carlo).",
        epilog=_EQUITY_EPILOG, formatter_class=_Formatter)
    eq.add_argument("game", metavar="GAME", help="game name or alias (see 'pokereval games')")
    eq.add_argument("hands", metavar="HAND", nargs="+", help="each player's cards, in seat order")
    eq.add_argument("--board", "-b", default="", metavar="CARDS",
                    help="known board cards, or a board range ('K**': averaged over every "
                         "flop with a king)")
    eq.add_argument("--dead", "-d", default="", metavar="CARDS",
                    help="cards known to be out of play (folded or burnt), or a range of them")
    how = eq.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="walk every run-out (may be slow)")
    how.add_argument("--samples", "-n", type=_positive_int, metavar="N",
                     help="sample N run-outs (Monte Carlo); 1e6 and 1_000_000 are accepted")
    how.add_argument("--stderr", type=_stderr_target, metavar="X",
                     help="sample until the standard error of equity is at most X "
                          "(a fraction of the pot, 0.001, or a percentage, 0.1%%)")
    eq.add_argument("--seed", type=_seed, metavar="N",
                    help="random seed: the same seed gives the same answer on any thread count")
    eq.add_argument("--threads", "-t", type=_positive_int, metavar="N",
                    help="worker threads (default: all cores)")
    eq.add_argument("--json", action="store_true",
                    help="print the result as JSON (and nothing else) on stdout")
    eq.add_argument("--breakdown", action="store_true",
                    help="add what each hand makes: final high and low, won / tied / lost")
    eq.set_defaults(run=cmd_equity)

    ev = commands.add_parser(
        "eval", help="best high and low hand of one holding",
        description="The best high and the best low hand one player makes, with the five "
                    "cards used.",
        epilog=_EVAL_EPILOG, formatter_class=_Formatter)
    ev.add_argument("game", metavar="GAME", help="game name or alias (see 'pokereval games')")
    ev.add_argument("hole", metavar="HOLE", help="the player's cards (stud: all 5 to 7 of them)")
    ev.add_argument("--board", "-b", default="", metavar="CARDS", help="board cards")
    ev.add_argument("--json", action="store_true", help="print the result as JSON")
    ev.set_defaults(run=cmd_eval)

    gm = commands.add_parser(
        "games", help="list the games and their aliases", formatter_class=_Formatter,
        description="The games pokereval knows: hole and board cards, whether the pot is "
                    "split hi/lo, and the other names each game answers to.")
    gm.add_argument("--json", action="store_true", help="print the list as JSON")
    gm.set_defaults(run=cmd_games)

    bt = commands.add_parser(
        "batch", help="answer JSON equity requests, one per line",
        description="Read one JSON equity request per line and write one JSON result per "
                    "line, so a script can ask thousands of questions with one start-up.",
        epilog=_BATCH_EPILOG, formatter_class=_Formatter)
    bt.add_argument("file", metavar="FILE", nargs="?", default="-",
                    help="file of requests ('-' or nothing: standard input)")
    bt.set_defaults(run=cmd_batch)
    importlib.import_module("pokereval.cli_rules").register(commands)
    importlib.import_module("pokereval.cli_web").register(commands)
    importlib.import_module("pokereval.cli_graph").register(commands)
    importlib.import_module("pokereval.cli_tables").register(commands)
    parser.set_defaults(commands=sorted(commands.choices))  # named when none is given
    return parser


# ---------------------------------------------------------------------------
# Output helpers
# ---------------------------------------------------------------------------


def _console(file: TextIO) -> Console:
    """A rich console on ``file``: colour only on a terminal (and never with NO_COLOR)."""
    console = Console(file=file, highlight=False, emoji=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        # Piped or captured: do not squeeze tables into 80 columns (see _show).
        console = Console(file=file, highlight=False, emoji=False, width=1000)
    return console


def _show(console: Console, *renderables: Any) -> None:
    """Print on ``console``; when it is not a terminal, without rich's trailing padding."""
    if console.is_terminal:
        console.print(*renderables)
        return
    with console.capture() as capture:
        console.print(*renderables)
    text = "\n".join(line.rstrip() for line in capture.get().split("\n"))
    console.file.write(text)


def _json_default(value: Any) -> Any:
    """JSON for what ``json`` does not know: NumPy scalars and arrays, fractions, tuples."""
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    for attr in ("item", "tolist"):  # numpy scalar / array
        if hasattr(value, attr):
            return getattr(value, attr)()
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def _clean(obj: Any) -> Any:
    """``obj`` with NaN and infinities (no JSON for them) replaced by None."""
    if type(obj) in (int, str, bool) or obj is None:  # most leaves: nothing to check
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if hasattr(obj, "tolist"):  # numpy
        return _clean(obj.tolist())
    return obj


_NUMBER_LIST = re.compile(r"\[[-+0-9.eE,\s]*\]")


def _dumps(obj: Any, *, indent: int | None = None) -> str:
    """JSON text: compact on one line, or indented with lists of numbers kept on one line
    (the outcome counts would otherwise take a line per number)."""
    text = json.dumps(_clean(obj), default=_json_default, indent=indent, ensure_ascii=False,
                      separators=None if indent else (",", ":"))
    if indent:
        text = _NUMBER_LIST.sub(
            lambda m: "[" + ", ".join(x.strip() for x in m.group(0)[1:-1].split(",")) + "]", text)
    # JSON leaves these raw inside strings, but many line readers (Python's splitlines,
    # older JavaScript) break lines at them: escaped, one answer stays one line.
    return text.translate(_LINE_BREAKS)


_LINE_BREAKS = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}


def _pct(x: float, digits: int = 2) -> str:
    return f"{100.0 * x:.{digits}f}%"


def _seconds(s: float) -> str:
    if s < 1:
        return f"{s * 1000:.0f} ms" if s >= 0.0095 else f"{s * 1000:.1f} ms"
    if s < 120:
        return f"{s:.2f} s"
    minutes, sec = divmod(s, 60)
    return f"{int(minutes)} min {sec:.0f} s"


def _equity_function() -> Callable[..., Any]:
    """``pokereval.equity_api.equity``, imported on first use (it imports Numba)."""
    return importlib.import_module("pokereval.equity_api").equity


def _result_dict(result: Any) -> dict:
    data = dict(result.to_dict())
    data.setdefault("partial", bool(result.partial))
    return data


# ---------------------------------------------------------------------------
# equity
# ---------------------------------------------------------------------------


def _columns(game: Game) -> list[tuple[str, Callable[[Any], float]]]:
    """The figure columns for ``game`` after Hand and Equity: (header, getter).

    Split games also have a no-low figure; it is the same for every player (how often
    no low qualifies), so the table gives it once, under the rows."""
    if game.split:
        return [("High\nwin", lambda p: p.high_win), ("High\ntie", lambda p: p.high_tie),
                ("Low\nwin", lambda p: p.low_win), ("Low\ntie", lambda p: p.low_tie),
                ("\nScoop", lambda p: p.scoop), ("\n3/4", lambda p: p.three_quarters),
                ("\nQuartered", lambda p: p.quartered)]
    if game.razz:  # one pot, won by the best low: reported in the low fields
        return [("Win", lambda p: p.low_win), ("Tie", lambda p: p.low_tie)]
    return [("Win", lambda p: p.high_win), ("Tie", lambda p: p.high_tie)]


def _worst_stderr(result: Any) -> float | None:
    """The largest standard error among the players (None when there is none yet)."""
    errors = [float(p.std_error) for p in result.players if _finite(p.std_error)]
    return max(errors) if errors else None


def _finite(x: Any) -> bool:
    try:
        return math.isfinite(float(x))
    except (TypeError, ValueError):
        return False


def _how(result: Any) -> str:
    """The footer: how the answer was obtained and how long it took."""
    n = int(result.samples)
    took = _seconds(float(result.elapsed))
    if result.exact:
        if not result.partial:
            return f"exact: {n:,} run-outs walked, {took}"
        share = getattr(result, "fraction_done", None)
        of = f" ({100 * share:.1f}% of all)" if share is not None and _finite(share) else ""
        return (f"PARTIAL (interrupted): {n:,} run-outs walked{of}, {took}; the figures "
                "cover those run-outs only, not the exact answer")
    worst = _worst_stderr(result)
    if worst is None:
        se = "no standard error yet"
    else:
        errors = [float(p.std_error) for p in result.players]
        same = all(abs(e - worst) < 5e-7 for e in errors)
        se = f"standard error {'' if same else 'up to '}{_pct(worst, 3 if worst < 0.001 else 2)}"
    text = f"sampled: {n:,} run-outs, {se}, {took}"
    seed = getattr(result, "seed", None)
    if seed is not None:
        text += f" (seed {seed})"
    return f"PARTIAL (interrupted): {text}" if result.partial else text


def _plus_minus(console: Console) -> str:
    return "±" if console.encoding.lower().startswith("utf") else "+/-"


def _cell(x: Any) -> str:
    """A probability as a percentage without the sign (the legend says "%")."""
    return f"{100.0 * float(x):.2f}" if _finite(x) else "-"


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
    _show(console, heading)

    columns = _columns(game)
    two_line = any("\n" in header for header, _ in columns)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, collapse_padding=True)
    table.add_column("\nHand" if two_line else "Hand", no_wrap=True)
    # the equity cell may wrap its "±" part on a narrow terminal rather than be cut
    table.add_column("\nEquity" if two_line else "Equity", justify="right", style="bold")
    for header, _ in columns:
        table.add_column(header, justify="right", no_wrap=True)
    for player in result.players:
        equity = _cell(player.equity)
        if sampled and _finite(player.std_error) and _finite(player.equity):
            equity += f" {_plus_minus(console)}{100.0 * float(player.std_error):.2f}"
        table.add_row(Text(str(player.hand)), equity, *(_cell(get(player)) for _, get in columns))
    _show(console, table)
    legend = "All figures in %."
    if game.split and result.players and _finite(result.players[0].no_low):
        legend += f" No low qualifies on {_cell(result.players[0].no_low)}% of run-outs."
    _show(console, Text(legend, style="dim"))
    _show(console, Text(_how(result), style="bold red" if result.partial else "dim"))


class ProgressReporter:
    """The ``progress`` callback of a long equity run: a live bar on a terminal.

    Nothing is shown until ``delay`` seconds have passed, so quick runs print no bar.
    The bar follows the partial result's ``fraction_done`` when the engine knows it;
    otherwise, when sampling to a standard-error target, the share of the samples the
    target needs at the current spread; otherwise it is an indeterminate (moving) bar.
    """

    def __init__(self, console: Console, *, samples: int | None = None,
                 stderr: float | None = None, delay: float = PROGRESS_DELAY,
                 clock: Callable[[], float] = time.monotonic):
        self.console, self.samples, self.target = console, samples, stderr
        self.delay, self.clock = delay, clock
        self.started = clock()
        self.progress: Any = None
        self.task: Any = None

    def fraction(self, partial: Any) -> float | None:
        """How far the run has got (0..1), or None when unknown."""
        known = getattr(partial, "fraction_done", None)
        if known is not None and math.isfinite(known):
            return min(max(float(known), 0.0), 1.0)
        if partial.exact:
            return None
        done = int(partial.samples)
        if self.samples:
            return min(done / self.samples, 1.0)
        target = self.target
        if target is None and self.samples is None:  # the engine's own precision target
            target = getattr(sys.modules.get("pokereval.equity_api"), "DEFAULT_STDERR", None)
        worst = _worst_stderr(partial)
        if target and done and worst and worst > 0:
            return min((target / worst) ** 2, 1.0)
        return None

    def __call__(self, partial: Any) -> None:
        if self.progress is None:
            if self.clock() - self.started < self.delay:
                return
            from rich.progress import (BarColumn, Progress, SpinnerColumn, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)
            self.progress = Progress(
                SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                TextColumn("{task.fields[detail]}"), TimeElapsedColumn(),
                TimeRemainingColumn(), console=self.console, transient=True)
            self.progress.start()
            self.task = self.progress.add_task("", total=None, detail="")
        done = int(partial.samples)
        fraction = self.fraction(partial)
        if partial.exact:
            description, detail = "walking run-outs", f"{done:,} run-outs"
        else:
            worst = _worst_stderr(partial)
            description = "sampling"
            pm = _plus_minus(self.console)
            detail = f"{done:,} run-outs" + (f", {pm}{100 * worst:.3f}%" if worst else "")
        self.progress.update(self.task, description=description, detail=detail,
                             total=None if fraction is None else 1000,
                             completed=0 if fraction is None else round(1000 * fraction))

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None


def cmd_equity(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    get_game(args.game)  # an unknown game fails fast, before the engine is imported
    options = dict(exact=True if args.exact else None, samples=args.samples,
                   stderr=args.stderr, seed=args.seed, threads=args.threads)
    if args.breakdown:
        options["breakdown"] = True
    reporter = None
    if not args.json and err.isatty():
        reporter = ProgressReporter(_console(err), samples=args.samples, stderr=args.stderr)
        options["progress"] = reporter
    equity = _equity_function()
    try:
        result = equity(args.game, list(args.hands), args.board, args.dead, **options)
    finally:
        if reporter is not None:
            reporter.close()
    if args.json:
        out.write(_dumps(_result_dict(result), indent=2) + "\n")
    else:
        render_equity(result, _console(out))
        if args.breakdown:
            importlib.import_module("pokereval.cli_graph").render_breakdown(result, _console(out))
    out.flush()
    if result.partial:
        print(f"{PROG}: interrupted: the figures above are partial", file=err)
        return EXIT_INTERRUPTED
    return EXIT_OK


# ---------------------------------------------------------------------------
# eval
# ---------------------------------------------------------------------------


def _hand_dict(hand: Any) -> dict | None:
    if hand is None:
        return None
    return {"name": str(hand), "cards": hand.cards, "category": hand.category,
            "value": int(hand.value)}


def cmd_eval(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    game = get_game(args.game)
    from .evaluate import evaluate

    result = evaluate(game, args.hole, args.board)
    if args.json:
        data = {"game": game.name, "hole": args.hole, "board": args.board,
                "high": _hand_dict(result.high), "low": _hand_dict(result.low)}
        out.write(_dumps(data, indent=2) + "\n")
        return EXIT_OK
    console = _console(out)
    heading = Text(game.title, style="bold")
    heading.append(f"  {'cards' if game.stud else 'hole'} {args.hole}")
    if args.board:
        heading.append(f"  board {args.board}")
    _show(console, heading)
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
    _show(console, table)
    return EXIT_OK


# ---------------------------------------------------------------------------
# games
# ---------------------------------------------------------------------------


def cmd_games(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.json:
        data = [{"name": g.name, "title": g.title, "hole": g.hole, "board": g.board,
                 "min_board": g.min_board, "exactly_two": g.exactly_two, "stud": g.stud,
                 "high": g.high, "low": g.low, "split": g.split, "pot": g.pot, "aliases": list(g.aliases)}
                for g in games()]
        out.write(_dumps(data, indent=2) + "\n")
        return EXIT_OK
    console = _console(out)
    wide = console.width >= 110  # the Title column only where there is room for it
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
    _show(console, table)
    _show(console, Text(
        "Hole: cards per player at showdown (stud: 3 to 7 of them known).\n"
        "Omaha and Courchevel hands use exactly 2 hole and 3 board cards.\n"
        "* Courchevel shows its first board card before any betting: a spot has at least 1.\n"
        "Split hi/lo: half the pot to the best high, half to the best eight-or-better low.",
        style="dim"))
    return EXIT_OK


# ---------------------------------------------------------------------------
# batch
# ---------------------------------------------------------------------------


def _type_name(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false",
            type(None): "null", int: "a number", float: "a number"}.get(type(value), "a value")


def _request(obj: Any) -> tuple[list[Any], dict[str, Any]]:
    """Check a batch request's shape: positional arguments and options for ``equity``.
    The engine checks the content (cards, counts, option values) with its own messages."""
    if not isinstance(obj, dict):
        raise UsageError(f"expected a JSON object, got {_type_name(obj)}")
    unknown = [k for k in obj if k not in BATCH_FIELDS]
    if unknown:
        raise UsageError(f"unknown field {unknown[0]!r} (known: {', '.join(BATCH_FIELDS)})")
    for key in ("game", "hands"):
        if key not in obj:
            raise UsageError(f"missing field {key!r}")
    game, hands = obj["game"], obj["hands"]
    if not isinstance(game, str):
        raise UsageError(f"'game' must be a string, got {_type_name(game)}")
    if not isinstance(hands, list) or not all(isinstance(h, str) for h in hands):
        raise UsageError("'hands' must be a list of strings, one per player")
    options = {k: obj.get(k) for k in ("exact", "samples", "stderr", "seed", "threads")}
    board, dead = obj.get("board"), obj.get("dead")
    return [game, hands, "" if board is None else board, "" if dead is None else dead], options


#: Longest batch input line (bytes); a longer one is answered with an error and skipped
#: in bounded chunks, so memory stays flat whatever the input.
MAX_LINE_BYTES = 1_000_000


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


def cmd_batch(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    stream, close = _open_input(args.file)
    equity = None
    try:
        for number, line, problem in _batch_lines(stream):
            if not (line.strip() or problem):
                continue
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
                call, options = _request(obj)
                if "id" in obj:
                    reply["id"] = obj["id"]
                get_game(call[0])
                equity = equity or _equity_function()
                result = equity(*call, **options)
                reply.update(_result_dict(result))
                partial = bool(result.partial)
            except (UsageError, PokerEvalError) as exc:
                reply["error"] = _one_line(exc)
            except (ValueError, TypeError) as exc:  # a check the engine missed
                reply["error"] = f"bad request: {_one_line(exc)}"
            except Exception as exc:  # noqa: BLE001 - one bad line must not end the stream
                if os.environ.get("POKEREVAL_DEBUG"):
                    raise
                reply["error"] = f"internal error: {type(exc).__name__}: {_one_line(exc)}"
            try:
                text = _dumps(reply)
            except (RecursionError, ValueError, TypeError):  # e.g. an "id" nested too deeply
                text = _dumps({"line": number, "error": "the request's id cannot be echoed "
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


# ---------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------


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
        text = _one_line(exc)
        print(text if text.startswith(PROG) else f"{PROG}: error: {text}", file=err)
        return EXIT_USAGE
    except PokerEvalError as exc:
        print(f"{PROG}: error: {_one_line(exc)}", file=err)
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
        print(f"{PROG}: error: {_one_line(exc)}", file=err)
        return EXIT_USAGE
    except Exception as exc:  # noqa: BLE001
        if os.environ.get("POKEREVAL_DEBUG"):
            raise
        print(f"{PROG}: internal error: {type(exc).__name__}: {_one_line(exc)} "
              "(set POKEREVAL_DEBUG=1 for the traceback)", file=err)
        return EXIT_INTERNAL
