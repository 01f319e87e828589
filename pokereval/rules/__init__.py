"""Table rules: settle pots, stud bring-in and action order, bet limits, all-in EV."""
from .chips import RulesError
from .showdown import Pot, Settlement, settle

__all__ = ["Pot", "RulesError", "Settlement", "settle"]
