"""Exceptions raised for bad input.

Every error is a :class:`ValueError` subclass, so callers that only know the
standard library can still catch it, and each message is one line that quotes
the offending input (the CLI prints it as is and exits with code 2).
"""

__all__ = ["PokerEvalError", "CardError", "GameError", "HandError"]


class PokerEvalError(ValueError):
    """Base class of every input error raised by pokereval."""


class CardError(PokerEvalError):
    """An unknown card, or a card that appears twice (in one value or across
    hands, board and dead cards)."""


class GameError(PokerEvalError):
    """An unknown game name."""


class HandError(PokerEvalError):
    """A request that does not fit the game: wrong number of hole cards, too
    many or too few board cards, too many players for the deck, stud players on
    different streets, or a bad option value."""
