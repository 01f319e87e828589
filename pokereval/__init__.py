"""pokereval: fast, exact equity for split-pot poker.

>>> import pokereval as pe
>>> str(pe.evaluate("holdem", "KhKd", "Ks5d5c2h9s").high)
'Full house, kings full of fives'

Most names are imported on first use (PEP 562), so ``import pokereval`` stays
quick; ``evaluate`` is imported at once because its submodule has the same name
(importing the submodule later would otherwise hide the function).
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._version import __version__
from .cards import card_str, cards_str, parse_cards
from .errors import CardError, GameError, HandError, PokerEvalError
from .evaluate import Evaluation, HighHand, LowHand, evaluate, evaluate_batch
from .games import Game, games, get_game

if TYPE_CHECKING:  # the lazy names, for type checkers
    from .distribution import (DistributionResult, RangeEquities, equity_by_street,
                               equity_distribution, range_equities)
    from .equity_api import EquityResult, PlayerResult, equity
    from .percent import HandOrdering, hand_ordering, percent_holdings, percentile
    from .ranges import Range, RangeError, parse_range
    from .rules import (AllinResult, BettingRound, Limits, Pot, RulesError, Settlement,
                        allin_ev, bet_limits, board_order, bring_in, first_to_act, settle,
                        stud_bet_size)

#: name -> the submodule that defines it, imported when the name is first used
_LAZY = {
    **dict.fromkeys(["DistributionResult", "RangeEquities", "equity_by_street",
                     "equity_distribution", "range_equities"], "distribution"),
    **dict.fromkeys(["EquityResult", "PlayerResult", "equity"], "equity_api"),
    **dict.fromkeys(["HandOrdering", "hand_ordering", "percent_holdings", "percentile"],
                    "percent"),
    **dict.fromkeys(["Range", "RangeError", "parse_range"], "ranges"),
    **dict.fromkeys(["AllinResult", "BettingRound", "Limits", "Pot", "RulesError", "Settlement",
                     "allin_ev", "bet_limits", "board_order", "bring_in", "first_to_act",
                     "settle", "stud_bet_size"], "rules"),
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "CardError", "EquityResult", "Evaluation", "Game", "GameError", "HandError", "HandOrdering",
    "HighHand", "hand_ordering", "percent_holdings", "percentile",
    "LowHand", "PlayerResult", "PokerEvalError", "Range", "RangeError", "card_str", "cards_str",
    "equity", "evaluate", "evaluate_batch", "games", "get_game", "parse_cards", "parse_range",
    # table rules (pokereval.rules)
    "AllinResult", "BettingRound", "Limits", "Pot", "RulesError", "Settlement", "allin_ev",
    "bet_limits", "board_order", "bring_in", "first_to_act", "settle", "stud_bet_size",
    # distributions (pokereval.distribution)
    "DistributionResult", "RangeEquities", "equity_by_street", "equity_distribution", "range_equities",
]
