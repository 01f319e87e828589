"""Moved to :mod:`pokereval.analysis.breakdown`; kept for a release."""
from .analysis.breakdown import (DEFAULT_SAMPLES, LOW_KINDS, MAX_EXACT_ROWS, MAX_EXACT_STUD,
                                 RAZZ_KINDS, RESULTS, equity_with_breakdown)

__all__ = ["LOW_KINDS", "RAZZ_KINDS", "equity_with_breakdown", "RESULTS", "MAX_EXACT_ROWS",
           "MAX_EXACT_STUD", "DEFAULT_SAMPLES"]
