"""Table rules: settle pots, stud bring-in and action order, bet limits, all-in EV."""
from .allin import AllinResult, allin_ev
from .betting import BettingRound, Limits, bet_limits
from .chips import RulesError
from .showdown import Pot, Settlement, settle
from .stud import board_order, bring_in, first_to_act, stud_bet_size

__all__ = ["AllinResult", "BettingRound", "Limits", "Pot", "RulesError", "Settlement",
           "allin_ev", "bet_limits", "board_order", "bring_in", "first_to_act", "settle",
           "stud_bet_size"]
