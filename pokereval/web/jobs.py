"""A bounded pool of worker threads for the web app's computations.

Each request's computation is a :class:`Job` run by one worker thread.  The
pool admits at most ``workers + queue`` jobs at a time (running or waiting for
a thread); beyond that :meth:`WorkerPool.submit` raises :class:`Busy` (the app
answers 429) instead of letting work pile up.

A job is stopped by setting ``job.cancel`` (its client went away) or by its
deadline (the server's wall-time cap).  ``pe.equity`` calls its ``progress``
callback between batches; the callback raises ``KeyboardInterrupt`` there,
which the engine treats like Ctrl-C: it stops and returns the partial result,
and the worker thread is free again.  Events (progress snapshots, the result or
an error) go to an asyncio queue on the app's event loop.
"""
from __future__ import annotations

import asyncio
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

log = logging.getLogger("pokereval.web")

#: Least seconds between two progress events of one job.
PROGRESS_EVERY = 0.2


class Busy(Exception):
    """Every worker is busy and the waiting line is full."""


class Job:
    """One computation: its cancel flag, its deadline and its event queue.

    Events are ``(kind, payload)`` tuples: ``("progress", partial_result)``,
    ``("result", result)``, ``("error", exception)``, ``("cancelled", None)``.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, seconds: float):
        self.cancel = threading.Event()
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.timed_out = False  # stopped by the deadline (not by its client)
        self.events: asyncio.Queue = asyncio.Queue()
        self._loop = loop
        self._last_progress = 0.0

    def emit(self, kind: str, payload: Any = None) -> None:
        """Queue an event for the request handler (callable from the worker thread)."""
        try:
            self._loop.call_soon_threadsafe(self.events.put_nowait, (kind, payload))
        except RuntimeError:  # the event loop is closed: the server is stopping
            pass

    def progress(self, partial: Any) -> None:
        """The ``progress`` callback given to the engine: stop when asked, report sometimes."""
        if self.cancel.is_set():
            raise KeyboardInterrupt  # the engine returns the partial result
        if time.monotonic() > self.deadline:
            self.timed_out = True
            raise KeyboardInterrupt
        now = time.monotonic()
        if now - self._last_progress >= PROGRESS_EVERY:
            self._last_progress = now
            self.emit("progress", partial)


class WorkerPool:
    """``workers`` threads and a waiting line of ``queue`` jobs; counts what is busy."""

    def __init__(self, workers: int, queue: int):
        self.workers, self.queue = workers, queue
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="pokereval-web")
        self._lock = threading.Lock()
        self.running = 0
        self.waiting = 0
        self._jobs: set[Job] = set()  # admitted and not finished

    def stats(self) -> dict:
        with self._lock:
            return {"workers": self.workers, "busy": self.running, "queued": self.waiting,
                    "queue": self.queue}

    def submit(self, job: Job, work: Callable[[Callable[[Any], None]], Any]) -> None:
        """Run ``work(progress)`` for ``job`` on a worker thread; its outcome becomes an event.
        Raises :class:`Busy` when ``workers + queue`` jobs are already admitted."""
        with self._lock:
            if self.running + self.waiting >= self.workers + self.queue:
                raise Busy(f"server busy: {self.running} computations running and "
                           f"{self.waiting} waiting; retry shortly")
            self.waiting += 1
            self._jobs.add(job)
        self._executor.submit(self._run, job, work)

    def _run(self, job: Job, work: Callable[[Callable[[Any], None]], Any]) -> None:
        with self._lock:
            self.waiting -= 1
            self.running += 1
        event: tuple[str, Any] = ("cancelled", None)  # its client left while it waited
        try:
            if not job.cancel.is_set():
                started = time.monotonic()
                result = work(job.progress)
                if job.cancel.is_set() or job.timed_out:
                    why = "its client went away" if job.cancel.is_set() else "time limit reached"
                    log.info("computation stopped after %.2f s: %s", time.monotonic() - started, why)
                event = ("result", result)
        except KeyboardInterrupt:  # raised by job.progress outside the engine's batch loop
            event = ("cancelled", None)
        except Exception as exc:  # noqa: BLE001 - reported as an event, logged by the app
            event = ("error", exc)
        finally:
            # free the slot before the answer goes out: a client that gets its answer
            # and asks again at once must find the worker free
            with self._lock:
                self.running -= 1
                self._jobs.discard(job)
        job.emit(*event)

    def shutdown(self) -> None:
        """Stop every computation (the process can then exit: worker threads are joined)."""
        with self._lock:
            for job in self._jobs:
                job.cancel.set()
        self._executor.shutdown(wait=False, cancel_futures=True)
