"""Moved to :mod:`pokereval.cli.rules` (``pokereval settle``, ``pokereval allin``);
kept for a release."""
from .cli.rules import cmd_allin, cmd_settle, register

__all__ = ["register", "cmd_settle", "cmd_allin"]
