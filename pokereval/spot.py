"""Moved to :mod:`pokereval.equity.spot` (the spot) and :mod:`pokereval.equity.options`
(the run options); the card-count checks live in :mod:`pokereval.games`; kept for a
release."""
from .equity.options import MAX_SAMPLES, Options, parse_options
from .equity.spot import MAX_PLAYERS_BOARD, MAX_PLAYERS_STUD, Spot, parse_spot, plan_deal, read_hands
from .games import check_eval_counts, check_hole_counts

__all__ = ["Spot", "parse_spot", "read_hands", "plan_deal", "MAX_PLAYERS_BOARD",
           "MAX_PLAYERS_STUD", "MAX_SAMPLES", "Options", "parse_options", "check_eval_counts",
           "check_hole_counts"]
