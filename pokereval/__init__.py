"""pokereval: fast, exact equity for split-pot poker.

>>> import pokereval as pe
>>> str(pe.evaluate("holdem", "KhKd", "Ks5d5c2h9s").high)
'Full house, kings full of fives'
"""
from .cards import card_str, cards_str, parse_cards
from .equity_api import EquityResult, PlayerResult, equity
from .errors import CardError, GameError, HandError, PokerEvalError
from .evaluate import Evaluation, HighHand, LowHand, evaluate, evaluate_batch
from .games import Game, games, get_game
from .ranges import Range, RangeError, parse_range
from .rules import (AllinResult, BettingRound, Limits, Pot, RulesError, Settlement, allin_ev,
                    bet_limits, board_order, bring_in, first_to_act, settle, stud_bet_size)

__version__ = "0.1.0"

__all__ = [
    "CardError", "EquityResult", "Evaluation", "Game", "GameError", "HandError", "HighHand",
    "LowHand", "PlayerResult", "PokerEvalError", "Range", "RangeError", "card_str", "cards_str",
    "equity", "evaluate", "evaluate_batch", "games", "get_game", "parse_cards", "parse_range",
    # table rules (pokereval.rules)
    "AllinResult", "BettingRound", "Limits", "Pot", "RulesError", "Settlement", "allin_ev",
    "bet_limits", "board_order", "bring_in", "first_to_act", "settle", "stud_bet_size",
]
