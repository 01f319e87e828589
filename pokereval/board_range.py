"""Moved to :mod:`pokereval.analysis.board_range`; kept for a release."""
from .analysis.board_range import MAX_DEALS, MC_DRAWS, card_range, equity_over_boards, is_card_range

__all__ = ["is_card_range", "card_range", "equity_over_boards", "MAX_DEALS", "MC_DRAWS"]
