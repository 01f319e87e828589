"""PQL, ProPokerTools' Poker Query Language, for every pokereval game (hi/lo and stud too).

``pql(query)`` parses and type-checks one statement (:mod:`.syntax`, :mod:`.compile`),
deals its trials as blocks of rows (:mod:`.deal`), computes the columns the query needs for
the whole block (:mod:`.hands`, :mod:`.functions`, :mod:`.nested`) and sums the selectors
(:mod:`.result`), exactly or by seeded Monte Carlo (:mod:`.run`).  See docs/PQL.md.
"""
from __future__ import annotations

from ..tables.executors import open_executor
from .compile import compile_query
from .result import PqlColumn, PqlResult
from .run import run_query
from .syntax import PqlError, split_statements

__all__ = ["pql", "PqlResult", "PqlColumn", "PqlError", "split_statements"]


def pql(query: str, *, exact: bool | None = None, trials: int | None = None,
        stderr: float | None = None, seed: int | None = None, threads: int | None = None,
        progress=None, scheduler: str | None = None) -> PqlResult:
    """Answer one PQL statement.

    ``exact=None`` walks every consistent deal when that takes a few seconds at most, else
    samples ``trials`` (default 600,000) or to a standard error ``stderr``; ``seed`` makes a
    sampled answer reproducible on any number of ``threads``, and on a Dask cluster
    (``scheduler='tcp://HOST:8786'``, the ``[cluster]`` extra): the same seed, the same answer.

    >>> r = pql("select avg(riverEquity(p1)) as eq from game='holdem', p1='AhAs', p2='KhKs', board='2c3d4s'")
    >>> r.exact, r["eq"].fraction
    (True, Fraction(301, 330))
    """
    compiled = compile_query(query)
    options = dict(exact=exact, trials=trials, stderr=stderr, seed=seed, threads=threads,
                   progress=progress)
    if scheduler is None:
        return run_query(compiled, **options)
    with open_executor(scheduler=scheduler) as executor:
        return run_query(compiled, **options, executor=executor)
