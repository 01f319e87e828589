"""Where chunks run: this process, a local process pool, any Executor, or Dask.

The engine only needs ``executor.submit(fn, chunk)`` returning a
``concurrent.futures.Future``; a Dask ``distributed`` client provides that
through ``Client.get_executor()``.
"""
from __future__ import annotations

import contextlib
import os
from multiprocessing import get_context
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Iterator

from ..errors import PokerEvalError, install_hint

__all__ = ["InlineExecutor", "open_executor"]


class InlineExecutor(Executor):
    """Runs each call at submit time in this process (one worker, no pool)."""

    def submit(self, fn, /, *args, **kwargs) -> Future:  # noqa: D102
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # handed to the caller through the future
            future.set_exception(exc)
        return future


@contextlib.contextmanager
def open_executor(workers: int | None = None, scheduler: str | None = None,
                  timeout: float = 30.0) -> Iterator[Executor]:
    """An executor for a build: the Dask cluster at ``scheduler`` (``tcp://HOST:8786``),
    else a pool of ``workers`` local processes (default: the CPU count; 1 = this process)."""
    if scheduler:
        try:
            from distributed import Client
        except ImportError:
            raise PokerEvalError("--scheduler needs Dask distributed: "
                                 + install_hint("cluster")) from None
        try:
            client = Client(scheduler, timeout=timeout)
        except (OSError, TimeoutError) as exc:
            raise PokerEvalError(f"cannot reach Dask scheduler {scheduler!r}: {exc}") from None
        try:
            yield client.get_executor()
        finally:
            client.close()
        return
    workers = workers or os.cpu_count() or 1
    if workers == 1:
        yield InlineExecutor()
        return
    # spawn, not fork: the parent may hold Numba's thread pool, which a fork would copy half-made
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        yield pool
