"""Moved to :mod:`pokereval.equity.results`; kept for a release."""
from .equity.results import EquityResult, PlayerResult, player_results

__all__ = ["EquityResult", "PlayerResult", "player_results"]
