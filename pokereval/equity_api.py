"""Moved to :mod:`pokereval.api` (``equity``) and :mod:`pokereval.equity` (the engine:
spot, options, plan, run, results); kept for a release."""
from .api import equity
from .equity.options import DEFAULT_MAX_SAMPLES, DEFAULT_STDERR, MAX_SAMPLES
from .equity.plan import (AUTO_EXACT_SECONDS, MAX_EXACT_SECONDS, MAX_TUPLES,
                          SCAN_TUPLES, SMALL_EXACT)
from .equity.ranged import MAX_TRIES_FACTOR
from .equity.results import EquityResult, PlayerResult
from .equity.runner import BATCH_SECONDS, MC_BATCHES, MC_CHUNK, MIN_STDERR_SAMPLES

__all__ = ["equity", "EquityResult", "PlayerResult", "DEFAULT_STDERR", "DEFAULT_MAX_SAMPLES",
           "MAX_SAMPLES", "AUTO_EXACT_SECONDS", "MAX_EXACT_SECONDS", "SMALL_EXACT",
           "MAX_TUPLES", "SCAN_TUPLES", "MAX_TRIES_FACTOR", "BATCH_SECONDS",
           "MC_BATCHES", "MC_CHUNK", "MIN_STDERR_SAMPLES"]
