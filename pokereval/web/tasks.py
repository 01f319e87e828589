"""What a web computation is: a task name, JSON-like arguments, and where it runs.

The app never hands a worker a Python callable: it names a task of :data:`TASKS`
(``"equity"``, ``"distribution"``, ``"percentile"``) and gives plain arguments
(strings, numbers, lists, dicts: they cross a process boundary).  :func:`run_task`
looks the function up at call time, in whichever process runs it (a worker process
of :mod:`pokereval.web.workers`, or the server's own thread pool), so a new route
adds one line here and nothing to the pool.

A task's function is called as ``function(*args, **kwargs)``, with ``progress=``
added when its signature has that parameter (the engine calls it between batches
and stops with its partial result when it raises ``KeyboardInterrupt``).

Test-only faults (:data:`FAULTS`): a server started with ``POKEREVAL_TEST_FAULTS=1``
honours a request field ``"_fault"`` that makes that one computation fail the way a
kernel bug would (``abort``: ``os.abort()`` in the process it runs in; ``exit``;
``raise``: an unexpected exception; ``memory``: ``MemoryError``; ``hang``: a loop that
never calls ``progress``, so only stopping its worker ends it).  Without the variable
the field is unknown like any other (400).
"""
from __future__ import annotations

import inspect
import os
import time
from typing import Any, Callable

from .. import api

__all__ = ["TASKS", "FAULTS", "FAULTS_ENV", "run_task", "faults_enabled"]

#: task name -> the attribute of :mod:`pokereval.api` that computes it.
TASKS: dict[str, str] = {
    "equity": "equity",
    "distribution": "equity_distribution",
    "percentile": "percentile",
    "pql": "pql",
}

#: The injectable faults (tests only; see the module docstring).
FAULTS = ("abort", "exit", "raise", "memory", "hang")

#: The environment variable that turns the ``_fault`` request field on.
FAULTS_ENV = "POKEREVAL_TEST_FAULTS"


def faults_enabled() -> bool:
    """Whether this server was started for fault-injection tests."""
    return os.environ.get(FAULTS_ENV) == "1"


def task_function(name: str) -> Callable[..., Any]:
    """The function behind task ``name`` (looked up now: the engine may be patched)."""
    return getattr(api, TASKS[name])


def takes_progress(function: Callable[..., Any]) -> bool:
    try:
        return "progress" in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


def inject(fault: str) -> None:
    """Fail as a broken computation would (tests only)."""
    if fault == "abort":
        os.abort()
    if fault == "exit":
        os._exit(3)
    if fault == "memory":
        raise MemoryError("injected test fault")
    if fault == "hang":
        while True:  # never reaches a stop point
            time.sleep(0.05)
    raise RuntimeError(f"injected test fault {fault!r}")


def run_task(name: str, args: list, kwargs: dict, progress: Callable[[Any], None] | None,
             fault: str | None = None) -> Any:
    """``TASKS[name](*args, **kwargs)``, with ``progress`` when the function takes one."""
    if fault is not None:
        inject(fault)
    function = task_function(name)
    if progress is not None and takes_progress(function):
        return function(*args, progress=progress, **kwargs)
    return function(*args, **kwargs)
