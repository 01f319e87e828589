"""pokereval: fast, exact equity for split-pot poker.

>>> import pokereval as pe
>>> str(pe.evaluate("holdem", "KhKd", "Ks5d5c2h9s").high)
'Full house, kings full of fives'

Most names are imported on first use (PEP 562), so ``import pokereval`` stays
quick; ``evaluate`` and ``equity`` are bound at once because a submodule has the same
name (importing the submodule later would otherwise hide the function): the
``pokereval.equity`` package is loaded first (it imports nothing), then the
function from the front door (which imports the engine only when called).
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._version import __version__
from .cards import card_str, cards_str, parse_cards
from .errors import CardError, GameError, HandError, PokerEvalError
from .evaluate import Evaluation, HighHand, LowHand, evaluate, evaluate_batch
from . import equity as _equity_package  # noqa: F401  (before the function of that name)
from .api import equity
from .games import Game, games, get_game

if TYPE_CHECKING:  # the lazy names, for type checkers
    from .api import (AllinResult, BettingRound, DistributionResult, EquityResult, HandOrdering,
                      Limits, PlayerResult, Pot, Range, RangeEquities, RangeError, RulesError,
                      Settlement, allin_ev, bet_limits, board_order, bring_in,
                      equity_by_street, equity_distribution, first_to_act, hand_ordering,
                      parse_range, percent_holdings, percentile, range_equities, settle,
                      stud_bet_size)


def __getattr__(name: str) -> Any:
    # the front door's table says where each lazy name lives (pokereval.api.PUBLIC)
    api = importlib.import_module("pokereval.api")
    if name not in api.PUBLIC:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(api, name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    api = importlib.import_module("pokereval.api")
    return sorted({*globals(), *api.PUBLIC})


__all__ = [
    "CardError", "EquityResult", "Evaluation", "Game", "GameError", "HandError", "HandOrdering",
    "HighHand", "hand_ordering", "percent_holdings", "percentile",
    "LowHand", "PlayerResult", "PokerEvalError", "Range", "RangeError", "card_str", "cards_str",
    "equity", "evaluate", "evaluate_batch", "games", "get_game", "parse_cards", "parse_range",
    # table rules (pokereval.rules)
    "AllinResult", "BettingRound", "Limits", "Pot", "RulesError", "Settlement", "allin_ev",
    "bet_limits", "board_order", "bring_in", "first_to_act", "settle", "stud_bet_size",
    # distributions (pokereval.analysis)
    "DistributionResult", "RangeEquities", "equity_by_street", "equity_distribution", "range_equities",
    # hand histories (pokereval.hh)
    "Hand", "HandHistoryError", "HandReport", "Refused", "hand_report", "read_hands",
]
