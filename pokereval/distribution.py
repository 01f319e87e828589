"""Moved to :mod:`pokereval.analysis` (:mod:`~pokereval.analysis.distribution`,
:mod:`~pokereval.analysis.range_equities`, :mod:`~pokereval.analysis.streets`, the
scatter kernel's setup in :mod:`~pokereval.analysis.scatter`); kept for a release."""
from .analysis.distribution import (DEFAULT_SAMPLES, LEVELS, MAX_LISTED_DEALS, MAX_STUD_PAIRS,
                                    SAMPLE_BATCH, DistributionResult, PlayerDistribution,
                                    equity_distribution)
from .analysis.range_equities import (DEAL_SAMPLE_BUDGET, MAX_DEAL_SAMPLES, MIN_DEAL_SAMPLES,
                                      HoldingEquity, RangeEquities, range_equities)
from .analysis.scatter import AUTO_SCATTER_EVALS, AUTO_SCATTER_EVALS_RANGED_OMAHA, ONE_THREAD_EVALS
from .analysis.streets import StreetResult, equity_by_street

__all__ = ["DistributionResult", "PlayerDistribution", "HoldingEquity", "RangeEquities",
           "StreetResult", "equity_distribution", "range_equities", "equity_by_street",
           "AUTO_SCATTER_EVALS", "AUTO_SCATTER_EVALS_RANGED_OMAHA", "ONE_THREAD_EVALS",
           "DEFAULT_SAMPLES", "SAMPLE_BATCH", "DEAL_SAMPLE_BUDGET", "MIN_DEAL_SAMPLES",
           "MAX_DEAL_SAMPLES", "MAX_LISTED_DEALS", "MAX_STUD_PAIRS", "LEVELS"]
