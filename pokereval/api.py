"""The front door: every public function and result type of pokereval, by name.

``pokereval`` re-exports these names; the faces (``pokereval.cli``, ``pokereval.web``)
reach the engine only through this module and ``pokereval.protocol``.  Names are
imported on first use (PEP 562), so importing the front door stays cheap: the equity
engine (and Numba) load only when a computation needs them.
"""
from __future__ import annotations

import importlib
import os
import time
from typing import TYPE_CHECKING, Any, Callable, Sequence

if TYPE_CHECKING:  # the lazy names, for type checkers
    from .analysis.distribution import DistributionResult, equity_distribution
    from .analysis.range_equities import RangeEquities, range_equities
    from .analysis.streets import equity_by_street
    from .equity.results import EquityResult, PlayerResult
    from .games import Game
    from .percent import HandOrdering, hand_ordering, percent_holdings, percentile
    from .ranges import Range, RangeError, parse_range
    from .rules import (AllinResult, BettingRound, Limits, Pot, RulesError, Settlement,
                        allin_ev, bet_limits, board_order, bring_in, first_to_act, settle,
                        stud_bet_size)
    from .hh import Hand, HandHistoryError, HandReport, Refused, hand_report, read_hands

#: public name -> the module that defines it (imported when the name is first used)
PUBLIC = {
    **dict.fromkeys(["DistributionResult", "equity_distribution"],
                    "pokereval.analysis.distribution"),
    **dict.fromkeys(["RangeEquities", "range_equities"], "pokereval.analysis.range_equities"),
    "equity_by_street": "pokereval.analysis.streets",
    **dict.fromkeys(["EquityResult", "PlayerResult"], "pokereval.equity.results"),
    "equity": "pokereval.api",
    **dict.fromkeys(["HandOrdering", "hand_ordering", "percent_holdings", "percentile"],
                    "pokereval.percent"),
    **dict.fromkeys(["Range", "RangeError", "parse_range"], "pokereval.ranges"),
    **dict.fromkeys(["AllinResult", "BettingRound", "Limits", "Pot", "RulesError", "Settlement",
                     "allin_ev", "bet_limits", "board_order", "bring_in", "first_to_act",
                     "settle", "stud_bet_size"], "pokereval.rules"),
    "evaluate": "pokereval.evaluate",
    **dict.fromkeys(["pql", "PqlResult", "PqlColumn", "PqlError"], "pokereval.query"),
    **dict.fromkeys(["read_hands", "hand_report", "Hand", "HandReport", "HandHistoryError",
                     "Refused"], "pokereval.hh"),
}

#: What the faces (cli, web) use beyond the public API, reached as ``pokereval.api.NAME``
#: only (``pokereval`` does not re-export them): name -> (module, name there)
TOOLS = {
    **{name: ("pokereval.equity.options", name) for name in ("DEFAULT_STDERR",)},
    **{name: ("pokereval.equity.spot", name) for name in ("MAX_PLAYERS_BOARD", "MAX_PLAYERS_STUD")},
    "hand_classes": ("pokereval.classes", "hand_classes"),
    "WARMUP": ("pokereval.warmup", "WARMUP"),
    **{name: ("pokereval.percent", name) for name in ("ORDERED_GAMES", "ordering_table",
                                                      "load_ordering", "ordering_for",
                                                      "read_ordering")},
    "PPT_CREDIT": ("pokereval.orderings", "PPT_CREDIT"),
    "save_ordering": ("pokereval.orderings", "save"),
    "parse_ppt_ordering": ("pokereval.orderings", "parse_ppt"),
    **{name: ("pokereval.tables.engine", name) for name in ("build_ordering", "build_equity")},
    "split_statements": ("pokereval.query.syntax", "split_statements"),
    "check_pql": ("pokereval.query.compile", "compile_query"),
    "pql_bucket_label": ("pokereval.query.result", "bucket_label"),
    **{name: ("pokereval.hh", name) for name in ("replay", "price")},
    "money_text": ("pokereval.hh.report", "money_text"),
    "open_executor": ("pokereval.tables.executors", "open_executor"),
}


def __getattr__(name: str) -> Any:
    module, attr = PUBLIC.get(name), name
    if module is None and name in TOOLS:
        module, attr = TOOLS[name]
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *PUBLIC, *TOOLS})


def equity(game: str | Game, hands: Sequence[str | Sequence[int]], board: str | Sequence[int] = "",
           dead: str | Sequence[int] = "", *, exact: bool | None = None,
           samples: int | None = None, stderr: float | None = None, seed: int | None = None,
           threads: int | None = None,
           progress: Callable[[EquityResult], object] | None = None,
           breakdown: bool = False,
           ordering: str | os.PathLike[str] | HandOrdering | None = None) -> EquityResult:
    """Each hand's share of the pot: exact enumeration or Monte Carlo.

    >>> r = equity("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], board="7c8d9h", dead="2h")
    >>> r.exact, r.samples, r.players[0].equity_fraction
    (True, 780, Fraction(199, 260))

    ``game``: a game name (see :func:`pokereval.games`); ``hands``: one value per
    player (hole cards; stud: all the player's cards so far, the same count for
    everyone); ``board``: known board cards; ``dead``: cards out of play.  Board
    and dead cards may be ranges (``board="K**"``: every flop with a king), the
    equity then being averaged over the boards (see :mod:`pokereval.analysis.board_range`).

    ``exact=None`` walks every run-out when that is cheap (a couple of seconds at
    most), otherwise samples to a standard error of ``DEFAULT_STDERR``;
    ``exact=True`` always enumerates; ``samples=N`` / ``stderr=X`` sample (both:
    stop at whichever comes first).  ``seed`` makes sampling reproducible, with
    any thread count.  ``threads``: worker threads (default: all cores).
    ``progress(result)`` is called between batches with a partial result; Ctrl-C
    stops the run and returns the partial result (``partial=True``).
    ``breakdown=True`` adds ``p.breakdown`` (what each hand makes, won / tied / lost;
    see :mod:`pokereval.analysis.breakdown`), the figures coming from the same run-outs.
    ``ordering``: the hand ordering percent terms in the hands (``15%``) cut, an
    ordering file's path or a :class:`HandOrdering` (see :func:`parse_range`).

    Data flow: text -> :mod:`pokereval.equity.spot` (the validated spot) and
    :mod:`~pokereval.equity.options` -> :mod:`~pokereval.equity.plan` ->
    :mod:`~pokereval.equity.run` (C walk or Numba kernels) -> outcome counts
    (:mod:`~pokereval.equity.tally`) -> :class:`EquityResult`.
    """
    # imported here: the front door stays cheap to import (the engine loads on first use)
    from .analysis.board_range import equity_over_boards, is_card_range
    from .equity.options import parse_options
    from .equity.run import run
    from .equity.spot import parse_spot
    from .percent import ordering_for

    # read and checked once, before any hand (not a player's fault)
    table = None if ordering is None else ordering_for(game, None, ordering)
    if is_card_range(board) or is_card_range(dead):  # generic syntax: 'K**', 'Aw9x2y'
        if breakdown:  # refused, not dropped (the answer would have no breakdown)
            from .errors import HandError

            raise HandError("breakdown=True takes plain board and dead cards, not a board "
                            "or dead-card range", field="option")
        return equity_over_boards(game, hands, board, dead, exact=exact, samples=samples,
                                  stderr=stderr, seed=seed, threads=threads, progress=progress,
                                  ordering=table)
    started = time.perf_counter()
    spot = parse_spot(game, hands, board, dead, ordering=table)
    opts = parse_options(exact, samples, stderr, seed, threads, progress)
    if breakdown:
        from .analysis.breakdown import equity_with_breakdown

        return equity_with_breakdown(spot, opts, started)
    return run(spot, opts, started)
