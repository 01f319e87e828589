"""Moved to :mod:`pokereval.cli.tables` (``pokereval rank``, ``range``, ``table``);
kept for a release."""
from .cli.tables import (cmd_range, cmd_rank, cmd_table_build, cmd_table_import,
                         cmd_table_show, register)

__all__ = ["register", "cmd_rank", "cmd_range", "cmd_table_build", "cmd_table_show",
           "cmd_table_import"]
