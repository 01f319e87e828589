"""``pokereval pql``: ProPokerTools' query language, from the command line, a script or a
spreadsheet.

::

    pokereval pql "QUERY; QUERY" [--exact | --trials N | --stderr X] [--seed N]
                  [--threads N] [--scheduler ADDR] [--json]
    pokereval pql - | FILE          (a script: statements separated by ';')
    pokereval pql --csv IN.csv [--out OUT.csv]

The default output is PPT's text format, so scripts that parse it keep working::

    quartered = 8.8167% (2645)
    heroEquity = 0.4712
    600000 trials
"""
from __future__ import annotations

import argparse
import csv
import io
import os
import sys
from typing import Any, TextIO

from .. import api
from ..errors import PokerEvalError
from .common import (EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, PROG, Formatter, UsageError,
                     console, output_file, positive_int, seed, stderr_target, write_json)
from .progress import ProgressReporter

__all__ = ["register", "cmd_pql", "render_text", "run_spreadsheet"]

BAR_WIDTH = 40
QUERY_CELL, TRIALS_CELL, ERRORS_CELL = "#QUERY#", "!TRIALS!", "!ERRORS!"

EPILOG = """\
examples:
  pokereval pql "select avg(riverEquity(hero)) as heroEquity from game='holdem', hero='AA', villain='**'"
  pokereval pql "select count(tiesLo(hero)) as quartered from game='omaha8', hero='A2**',
                 villain1='15%', villain2='15%' where nutLo(hero, river)
                 and not (winsHi(hero) or tiesHi(hero))" --seed 1
  pokereval pql "select histogram(winningHandType()) from game='studhi', p1='*', p2='*', p3='*'"
  pokereval pql queries.pql --json
  pokereval pql --csv variations.csv --out answers.csv

The language, every function and the deal model: docs/PQL.md. A query is exact when
every deal can be walked in a few seconds, sampled (600,000 trials) otherwise."""


def register(commands: Any) -> None:
    """Add ``pql`` to the subcommands."""
    pq = commands.add_parser(
        "pql", help="answer Poker Query Language (PQL) queries",
        description="Answer ProPokerTools' Poker Query Language queries for every game "
                    "(hi/lo and stud too): exactly when every deal can be walked quickly, "
                    "by seeded Monte Carlo otherwise.", epilog=EPILOG, formatter_class=Formatter)
    pq.add_argument("query", metavar="QUERY", nargs="?",
                    help="statements separated by ';', or a script FILE, or - for stdin")
    how = pq.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="walk every deal (may be slow)")
    how.add_argument("--trials", "-n", type=positive_int, metavar="N",
                     help="sample N accepted trials (default 600,000)")
    how.add_argument("--stderr", type=stderr_target, metavar="X",
                     help="sample until every avg / count has a standard error of at most X")
    pq.add_argument("--seed", type=seed, metavar="N", help="random seed")
    pq.add_argument("--threads", "-t", type=positive_int, metavar="N", help="worker threads")
    pq.add_argument("--scheduler", metavar="ADDRESS",
                    help="run the sampled chunks on this Dask scheduler (tcp://HOST:8786)")
    pq.add_argument("--json", action="store_true", help="print the results as JSON")
    pq.add_argument("--csv", metavar="IN.csv",
                    help="a PPT spreadsheet: a #QUERY# column with #NAME# placeholders, one "
                         "row per variation")
    pq.add_argument("--out", type=output_file, metavar="OUT.csv",
                    help="with --csv: write the answers here (default: standard output)")
    pq.set_defaults(run=cmd_pql)


def _options(args: argparse.Namespace) -> dict[str, Any]:
    return dict(exact=True if args.exact else None, trials=args.trials, stderr=args.stderr,
                seed=args.seed, threads=args.threads, scheduler=args.scheduler)


def _script(text: str) -> str:
    """The query text: the argument itself, a script file, or standard input (``-``)."""
    if text == "-":
        return sys.stdin.read()
    if "select" not in text.lower() and os.path.isfile(text):
        try:
            with open(text, encoding="utf-8") as handle:
                return handle.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read {text!r}: {exc}") from None
    return text


def cmd_pql(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.csv:
        if args.query:
            raise UsageError("give either QUERY or --csv, not both")
        return run_spreadsheet(args.csv, args.out, _options(args), out, err)
    if args.out:
        raise UsageError("--out goes with --csv")
    if not args.query:
        raise UsageError("a QUERY is required (or - for stdin, or --csv FILE)")
    statements = api.split_statements(_script(args.query))
    if not statements:
        raise UsageError("no PQL statement given")
    for i, text in enumerate(statements):  # every statement checked before any runs
        try:
            api.check_pql(text)
        except PokerEvalError as exc:
            if len(statements) == 1:
                raise
            raise UsageError(f"statement {i + 1}: {exc}") from None
    results = []
    for i, text in enumerate(statements):
        reporter = ProgressReporter(console(err), samples=args.trials, stderr=args.stderr)
        try:
            result = api.pql(text, **_options(args), progress=_ProgressView.of(reporter))
        finally:
            reporter.close()
        results.append(result)
        if not args.json:
            if i:
                out.write("\n")
            render_text(result, out)
            out.flush()
        if result.partial:
            break
    if args.json:
        payload = results[0].to_dict() if len(statements) == 1 else [r.to_dict() for r in results]
        write_json(out, payload)
    out.flush()
    return EXIT_INTERRUPTED if results[-1].partial else EXIT_OK


class _ProgressView:
    """A partial :class:`PqlResult` seen as the progress bar expects (samples, players)."""

    def __init__(self, result: Any, goal: int | None) -> None:
        self.exact, self.samples = result.exact, result.trials
        self.players = [c for c in result.columns if c.selector in ("avg", "count")]
        self.fraction_done = result.trials / goal if goal and not result.exact else None

    @staticmethod
    def of(reporter: ProgressReporter):
        def report(partial: Any) -> None:
            reporter(_ProgressView(partial, reporter.samples))
        return report


def _percent(x: float) -> str:
    return f"{100 * x:.4f}%"


def _bar(fraction: float, widest: float) -> str:
    cells = round(BAR_WIDTH * fraction / widest) if widest > 0 else 0
    return "█" * cells


def render_text(result: Any, out: TextIO) -> None:
    """PPT's text format: ``name = 8.8167% (2645)`` (count), ``name = 0.4712`` (avg, max,
    min; exact answers add the fraction), histogram buckets with a bar each, then
    ``N trials``."""
    for col in result.columns:
        if col.selector == "count":
            out.write(f"{col.name} = {_percent(col.value)} ({col.count})\n")
        elif col.selector == "histogram":
            out.write(f"{col.name}:\n")
            widest = max((f for _, f, _ in col.value), default=0.0)
            labels = [api.pql_bucket_label(b) for b, _, _ in col.value]
            pad = max((len(s) for s in labels), default=0)
            for label, (_, fraction, count) in zip(labels, col.value):
                out.write(f"  {label:<{pad}} = {_percent(fraction)} ({count})  "
                          f"{_bar(fraction, widest)}\n")
        else:
            exact = f" ({col.fraction})" if col.fraction is not None \
                and col.fraction.denominator != 1 else ""
            out.write(f"{col.name} = {col.value:.4f}{exact}\n")
    how = "exact, every deal" if result.exact else f"seed {result.seed}"
    notes = [how]
    if result.dealt and result.trials != result.dealt:
        notes.append(f"where held in {_percent(result.acceptance)} of {result.dealt} dealt")
    if result.partial:
        notes.append("partial: interrupted")
    out.write(f"{result.trials} trials ({'; '.join(notes)})\n")


# ---------------------------------------------------------------------------
# Spreadsheets
# ---------------------------------------------------------------------------

def _cell_value(col: Any) -> str:
    if col.selector == "histogram":
        return "; ".join(f"{api.pql_bucket_label(b)}: {f:.6f}" for b, f, _ in col.value)
    if col.fraction is not None and col.selector != "count":
        return str(col.fraction)
    return f"{col.value:.6g}" if isinstance(col.value, float) else str(col.value)


def run_spreadsheet(path: str, out_path: str | None, options: dict, out: TextIO,
                    err: TextIO = sys.stderr) -> int:
    """PPT's spreadsheet: the first row names the columns (``#QUERY#`` and placeholders such
    as ``#HERO#``); the second row holds the query, with the placeholders; every further
    row is one variation (its own ``#QUERY#`` cell, if filled, replaces the query).  The
    answer: the input columns, ``!TRIALS!``, ``!ERRORS!`` and one column per selector."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            rows = [r for r in csv.reader(handle) if any(c.strip() for c in r)]
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise UsageError(f"cannot read {path!r}: {exc}") from None
    if len(rows) < 2 or QUERY_CELL not in [c.strip().upper() for c in rows[0]]:
        raise UsageError(f"{path}: the first row must name a {QUERY_CELL} column, the second "
                         "row hold the query")
    header = [c.strip() for c in rows[0]]
    qcol = [c.upper() for c in header].index(QUERY_CELL)
    template = rows[1][qcol] if qcol < len(rows[1]) else ""
    if not template.strip():
        raise UsageError(f"{path}: row 2 has no query in the {QUERY_CELL} column")
    answers, names = [], []
    for row in rows[2:]:
        row = row + [""] * (len(header) - len(row))
        text = row[qcol].strip() or template
        for i, name in enumerate(header):
            if i != qcol and name:
                text = text.replace(name, row[i])
        try:
            result = api.pql(text, **options)
        except PokerEvalError as exc:
            answers.append((row, "", str(exc).splitlines()[0], {}))
            continue
        if result.partial:
            raise KeyboardInterrupt
        for col in result.columns:
            if col.name not in names:
                names.append(col.name)
        answers.append((row, str(result.trials), "", {c.name: _cell_value(c) for c in result.columns}))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header + [TRIALS_CELL, ERRORS_CELL] + names)
    writer.writerow(rows[1] + [""] * (len(header) - len(rows[1])))
    for row, trials, error, values in answers:
        writer.writerow(row[:len(header)] + [trials, error] + [values.get(n, "") for n in names])
    if out_path:
        with open(out_path, "w", newline="", encoding="utf-8") as handle:
            handle.write(buffer.getvalue())
    else:
        out.write(buffer.getvalue())
    failed = sum(1 for a in answers if a[2])
    if failed:
        print(f"{PROG}: {failed} of {len(answers)} rows refused (see {ERRORS_CELL})", file=err)
    return EXIT_OK if failed < len(answers) or not answers else EXIT_USAGE
