"""Moved to :mod:`pokereval.cli.serve` (``pokereval serve``); kept for a release."""
from .cli.serve import cmd_serve, register

__all__ = ["register", "cmd_serve"]
