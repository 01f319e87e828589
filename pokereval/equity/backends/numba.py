"""The Numba backend's one door: every parallel kernel call in the package goes
through :func:`parallel`, which holds the kernel lock and sets the thread count.

Parallel kernel calls from several Python threads must take turns: each already
uses every core, and Numba's "workqueue" threading layer (the fork-safe choice
without TBB, see :mod:`pokereval.kernels._jit`) aborts the whole process
("Concurrent access has been detected") when two threads enter it at once.

Importing this module does not import Numba (the C path never loads it).
"""
from __future__ import annotations

import os
import sys
import threading
from typing import Any, Callable

from ...errors import interrupted

__all__ = ["parallel", "thread_count"]

# Re-entrant: a batch that runs one kernel per combination of holdings calls
# parallel() from code that may itself run inside parallel().
_LOCK = threading.RLock()


def _after_fork_in_child() -> None:
    """A forked child gets locks of its own.  Numba guards its thread launch with a
    multiprocessing lock (a semaphore a forked child shares with its parent), taken by
    every get_num_threads(): a child killed while holding it (a cancelled pool worker)
    left the parent waiting forever on its next kernel call.  Numba makes a new one
    when it finds none.  And the kernel lock may have been held by a parent thread
    that does not exist in the child."""
    global _LOCK
    _LOCK = threading.RLock()
    launch = sys.modules.get("numba.np.ufunc.parallel")
    if launch is not None and hasattr(launch, "_backend_init_process_lock"):
        launch._backend_init_process_lock = None


os.register_at_fork(after_in_child=_after_fork_in_child)


def thread_count(wanted: int | None) -> int:
    """The kernels' thread count for a request of ``wanted`` threads (None: all)."""
    import numba

    most = numba.config.NUMBA_NUM_THREADS
    return most if wanted is None else min(wanted, most)


def parallel(kernel: Callable[..., Any], *args: Any, threads: int | None = None) -> Any:
    """``kernel(*args)`` for a parallel (``prange``) kernel, with the kernel lock held
    and Numba's thread count (per Python thread) at ``threads`` for the call (None:
    as it is)."""
    import numba

    with _LOCK:
        previous = numba.get_num_threads()
        if threads is not None and threads != previous:
            numba.set_num_threads(threads)
        try:
            return kernel(*args)
        except SystemError as exc:
            # Ctrl-C that lands while Numba boxes the kernel's result surfaces as a
            # SystemError chained to the KeyboardInterrupt: give the caller the
            # interrupt, so the run stops with its partial result
            if interrupted(exc):
                raise KeyboardInterrupt from None
            raise
        finally:
            if threads is not None and threads != previous:
                numba.set_num_threads(previous)

