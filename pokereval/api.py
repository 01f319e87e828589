"""The front door: every public function and result type of pokereval, by name.

``pokereval`` re-exports these names; the faces (``pokereval.cli``, ``pokereval.web``)
reach the engine only through this module and ``pokereval.protocol``.  Names are
imported on first use (PEP 562), so importing the front door stays cheap: the equity
engine (and Numba) load only when a computation needs them.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the lazy names, for type checkers
    from .distribution import (DistributionResult, RangeEquities, equity_by_street,
                               equity_distribution, range_equities)
    from .equity_api import EquityResult, PlayerResult, equity
    from .percent import HandOrdering, hand_ordering, percent_holdings, percentile
    from .ranges import Range, RangeError, parse_range
    from .rules import (AllinResult, BettingRound, Limits, Pot, RulesError, Settlement,
                        allin_ev, bet_limits, board_order, bring_in, first_to_act, settle,
                        stud_bet_size)

#: public name -> the module that defines it (imported when the name is first used)
PUBLIC = {
    **dict.fromkeys(["DistributionResult", "RangeEquities", "equity_by_street",
                     "equity_distribution", "range_equities"], "pokereval.distribution"),
    **dict.fromkeys(["EquityResult", "PlayerResult", "equity"], "pokereval.equity_api"),
    **dict.fromkeys(["HandOrdering", "hand_ordering", "percent_holdings", "percentile"],
                    "pokereval.percent"),
    **dict.fromkeys(["Range", "RangeError", "parse_range"], "pokereval.ranges"),
    **dict.fromkeys(["AllinResult", "BettingRound", "Limits", "Pot", "RulesError", "Settlement",
                     "allin_ev", "bet_limits", "board_order", "bring_in", "first_to_act",
                     "settle", "stud_bet_size"], "pokereval.rules"),
}


def __getattr__(name: str) -> Any:
    module = PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *PUBLIC})
