"""The bounded pool that runs the web app's computations.

Each request's computation is a :class:`Job` (its cancel flag, deadline and event
queue) running a :class:`Task` (a task name of :mod:`pokereval.web.tasks` and plain
arguments).  The pool admits at most ``workers + queue`` jobs at a time (running or
waiting), and at most ``per_client`` of them from one client (its address); beyond
that :meth:`WorkerPool.submit` raises :class:`Busy` (the app answers 429) instead of
letting work pile up or one client take every slot.

``isolation="process"`` (what ``pokereval serve`` uses): ``workers`` worker processes
(:mod:`pokereval.web.workers`), each driven by one thread here.  A worker that dies
(an abort in a kernel, a segfault, ``MemoryError``) costs the one job it was running,
which gets a :class:`ComputationFailed` (the app answers 500); the pool starts a
replacement at once and counts it (``restarts`` in :meth:`WorkerPool.stats`).
``isolation="thread"``: the computations run on threads of this process (for
embedding and tests that patch the engine; a crash there is the server's).

A job stops when ``job.cancel`` is set (its client went away) or at its deadline (the
server's wall-time cap): the engine's ``progress`` callback raises
``KeyboardInterrupt`` at its next stop point, which the engine treats like Ctrl-C (it
returns the partial result).  In a worker process, a job that has not stopped
:data:`CANCEL_GRACE` seconds after its cancel, or :data:`KILL_GRACE` seconds after its
deadline (a run that never reaches a stop point), is ended by killing its worker.
Events (``("progress", partial)``, ``("result", value)``, ``("error", exception)``,
``("cancelled", None)``) go to an asyncio queue on the app's event loop.
"""
from __future__ import annotations

import asyncio
import itertools
import logging
import os
import queue as queues
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable

from ..protocol import format_seconds
from .tasks import run_task
from .workers import PROGRESS_EVERY, WorkerProcess, end_all

__all__ = ["Busy", "ComputationFailed", "Job", "Task", "WorkerPool", "CANCEL_GRACE", "KILL_GRACE"]

log = logging.getLogger("pokereval.web")

#: Seconds a worker process gets to stop cooperatively after a cancel before it is killed.
CANCEL_GRACE = 1.0
#: Seconds past a job's deadline before its worker process is killed.
KILL_GRACE = 2.0
#: Longest wait for a fresh worker to load its kernels before a job is sent anyway.
START_WAIT = 120.0
#: Seconds between two looks at a running job (cancel, deadline, a dead worker).
POLL = 0.05


class Busy(Exception):
    """Every worker is busy and the waiting line is full."""


class ComputationFailed(Exception):
    """A computation that ended without an answer of its own: ``status`` and the one-line
    ``message`` the client gets (no paths, no tracebacks; those are in the log)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


@dataclass(frozen=True)
class Task:
    """What a job computes: ``tasks.TASKS[name](*args, **kwargs)`` (plain values only)."""

    name: str
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    fault: str | None = None  # a test-only injected fault (pokereval.web.tasks.FAULTS)


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
        self.client: str | None = None  # who asked (set by WorkerPool.submit)
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
        """The ``progress`` callback given to the engine in a thread: stop when asked,
        report sometimes."""
        if self.cancel.is_set():
            raise KeyboardInterrupt  # the engine returns the partial result
        if time.monotonic() > self.deadline:
            self.timed_out = True
            raise KeyboardInterrupt
        now = time.monotonic()
        if now - self._last_progress >= PROGRESS_EVERY:
            self._last_progress = now
            self.emit("progress", partial)


Work = Task | Callable[[Callable[[Any], None]], Any]


def thread_share(workers: int) -> int:
    """The kernels' threads per worker process: the cores shared out, at least one."""
    return max(1, (os.cpu_count() or 1) // workers)


class WorkerPool:
    """``workers`` computations at once and a waiting line of ``queue`` more; counts what
    is busy and, with processes, how many workers were replaced."""

    def __init__(self, workers: int, queue: int, *, isolation: str = "process",
                 threads: int | None = None, warm: bool = True, per_client: int | None = None):
        if isolation not in ("process", "thread"):
            raise ValueError(f"isolation must be 'process' or 'thread', got {isolation!r}")
        self.workers, self.queue, self.isolation = workers, queue, isolation
        self.per_client = per_client or None  # 0 or None: no cap per client
        self._clients: dict[str, int] = {}  # client -> its jobs admitted and not finished
        self.threads = threads if threads is not None else thread_share(workers)
        self.warm = warm
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="pokereval-web")
        self._lock = threading.Lock()
        self.running = 0
        self.waiting = 0
        self.restarts = 0   # worker processes started in place of one that ended
        self.crashes = 0    # ... of which had died by themselves
        self.killed = 0     # ... of which the pool ended (a stop or time limit not reached)
        self._jobs: set[Job] = set()  # admitted and not finished
        self._idle: queues.SimpleQueue[WorkerProcess | None] = queues.SimpleQueue()
        self._processes: set[WorkerProcess] = set()
        self._ids = itertools.count(1)
        self._started = self._closed = False

    # -- life cycle ----------------------------------------------------------

    def start(self, wait: float = 0.0) -> None:
        """Start the worker processes now rather than on the first job; with ``wait``,
        wait up to that many seconds for them to be warm (kernels loaded)."""
        with self._lock:
            if self._started or self._closed or self.isolation != "process":
                return
            self._started = True
            fresh = [self._spawn_locked() for _ in range(self.workers)]
        deadline = time.monotonic() + wait
        for worker in fresh:
            worker.wait_ready(deadline - time.monotonic())
            self._idle.put(worker)

    def _spawn_locked(self) -> WorkerProcess:
        worker = WorkerProcess(self.threads, self.warm, f"pokereval-worker-{len(self._processes)}")
        self._processes.add(worker)
        return worker

    def shutdown(self) -> None:
        """Stop every computation and end the worker processes (none is left behind)."""
        with self._lock:
            self._closed = True
            for job in self._jobs:
                job.cancel.set()
            processes = list(self._processes)
        end_all(processes, grace=0.5)
        while not self._idle.empty():  # the idle ones: nobody else reads their pipes
            worker = self._idle.get()
            if worker is not None:
                worker.close_pipe()
        self._executor.shutdown(wait=False, cancel_futures=True)

    # -- figures -------------------------------------------------------------

    def stats(self) -> dict:
        with self._lock:
            figures = {"workers": self.workers, "busy": self.running, "queued": self.waiting,
                       "queue": self.queue, "isolation": self.isolation,
                       "per_client": self.per_client, "clients": len(self._clients)}
            if self.isolation == "process":
                figures.update(threads_per_worker=self.threads, restarts=self.restarts,
                               crashes=self.crashes, killed=self.killed,
                               worker_pids=sorted(w.pid for w in self._processes if w.pid))
            return figures

    # -- running jobs --------------------------------------------------------

    def submit(self, job: Job, work: Work, client: str | None = None) -> None:
        """Run ``work`` for ``job``: a :class:`Task`, or (threads only) a callable
        ``work(progress)``; its outcome becomes an event.  Raises :class:`Busy` when
        ``workers + queue`` jobs are already admitted, or ``per_client`` of ``client``'s."""
        if self.isolation == "process" and not isinstance(work, Task):
            raise TypeError("a process pool runs Tasks (a task name and plain arguments)")
        self.start()
        with self._lock:
            if self.running + self.waiting >= self.workers + self.queue:
                raise Busy(f"server busy: {self.running} computations running and "
                           f"{self.waiting} waiting; retry shortly")
            mine = self._clients.get(client, 0) if client is not None else 0
            if self.per_client is not None and client is not None and mine >= self.per_client:
                raise Busy(f"too many computations from one client: {mine} running or waiting "
                           f"(at most {self.per_client} at once on this server); retry when one "
                           "has finished")
            if client is not None:
                self._clients[client] = mine + 1
            job.client = client
            self.waiting += 1
            self._jobs.add(job)
        self._executor.submit(self._run, job, work)

    def _run(self, job: Job, work: Work) -> None:
        with self._lock:
            self.waiting -= 1
            self.running += 1
        event: tuple[str, Any] = ("cancelled", None)  # its client left while it waited
        try:
            if not job.cancel.is_set() and not self._closed:
                started = time.monotonic()
                if self.isolation == "process":
                    event = self._in_worker(job, work)  # type: ignore[arg-type]
                else:
                    event = self._in_thread(job, work)
                if job.cancel.is_set() or job.timed_out:
                    why = "its client went away" if job.cancel.is_set() else "time limit reached"
                    log.info("computation stopped after %.2f s: %s", time.monotonic() - started, why)
        except Exception as exc:  # noqa: BLE001 - the pool's own fault: this job's 500
            log.error("internal error running a computation", exc_info=exc)
            event = ("error", ComputationFailed(500, "internal error"))
        finally:
            # free the slot before the answer goes out: a client that gets its answer
            # and asks again at once must find the worker free
            with self._lock:
                self.running -= 1
                self._jobs.discard(job)
                if job.client is not None:
                    left = self._clients.get(job.client, 1) - 1
                    if left > 0:
                        self._clients[job.client] = left
                    else:
                        self._clients.pop(job.client, None)
        job.emit(*event)

    def _in_thread(self, job: Job, work: Work) -> tuple[str, Any]:
        try:
            if isinstance(work, Task):
                return ("result", run_task(work.name, list(work.args), work.kwargs, job.progress,
                                           work.fault))
            return ("result", work(job.progress))
        except KeyboardInterrupt:  # raised by job.progress outside the engine's batch loop
            return ("cancelled", None)
        except Exception as exc:  # noqa: BLE001 - reported as an event, logged by the app
            return ("error", exc)

    def _in_worker(self, job: Job, task: Task) -> tuple[str, Any]:
        worker = self._idle.get()
        while worker is None or not worker.alive():  # a failed start, or died while idle
            if worker is not None:
                log.error("worker %s died (%s) while idle; starting another", worker.pid,
                          worker.how_it_ended())
                with self._lock:
                    self.crashes += 1
            self._replace(worker, False)
            if self._closed:
                return ("cancelled", None)
            worker = self._idle.get()
            if worker is None:  # starting one failed again: this job's 500
                self._idle.put(None)
                raise RuntimeError("no worker process could be started")
        keep = False
        try:
            event, keep = self._drive(worker, job, task)
            return event
        finally:
            self._replace(worker, keep)

    def _replace(self, worker: WorkerProcess | None, keep: bool) -> None:
        """Put ``worker`` back, or a fresh one in its place (None when that fails: the
        next job tries again)."""
        if worker is not None and keep and worker.alive():
            self._idle.put(worker)
            return
        if worker is not None:
            worker.kill()
        with self._lock:
            self._processes.discard(worker)  # type: ignore[arg-type]
            if self._closed:
                return
            self.restarts += worker is not None
            try:
                fresh: WorkerProcess | None = self._spawn_locked()
            except Exception as exc:  # noqa: BLE001 - out of processes or descriptors
                log.error("cannot start a worker process: %s", exc)
                fresh = None
            self._idle.put(fresh)

    def _drive(self, worker: WorkerProcess, job: Job, task: Task) -> tuple[tuple[str, Any], bool]:
        """Send ``task`` to ``worker`` and relay its messages until the job ends:
        the event, and whether the worker may take the next job."""
        job_id = next(self._ids)
        if not worker.ready:
            # a fresh worker still loading its kernels: that wait is not the computation's
            # time, so the job's clock stops until the worker is ready (or gone)
            waited = time.monotonic()
            while (not worker.wait_ready(POLL) and worker.alive() and not job.cancel.is_set()
                   and time.monotonic() - waited < START_WAIT):
                pass
            job.deadline += time.monotonic() - waited
        seconds = max(0.0, job.deadline - time.monotonic())
        try:
            worker.send(("run", job_id, task.name, list(task.args), task.kwargs, seconds,
                              task.fault))
        except (OSError, ValueError):
            return self._died(worker), False
        stop_sent: float | None = None
        while True:
            try:
                message = worker.conn.recv() if worker.conn.poll(POLL) else None
            except (EOFError, OSError, ValueError):  # it died (or the pool closed its pipe)
                return self._died(worker), False
            if message is not None:
                kind = message[0]
                if kind == "ready" or message[1] != job_id:
                    continue
                if kind == "progress":
                    job.emit("progress", message[2])
                elif kind == "result":
                    job.timed_out = job.timed_out or message[3]
                    return ("result", message[2]), True
                elif kind == "cancelled":
                    return ("cancelled", None), True
                else:  # error
                    exc, text, leaving = message[2], message[3], message[4]
                    if not isinstance(exc, (ValueError, TypeError)):
                        log.error("internal error in a computation (worker %s):\n%s",
                                  worker.pid, text.rstrip())
                        exc = ComputationFailed(500, "internal error")
                    return ("error", exc), not leaving
            elif not worker.alive():
                return self._died(worker), False
            if self._closed:
                return ("cancelled", None), False
            now = time.monotonic()
            if job.cancel.is_set() and stop_sent is None:
                stop_sent = now
                try:
                    worker.send(("stop", job_id))
                except (OSError, ValueError):
                    return self._died(worker), False
            if stop_sent is not None and now - stop_sent > CANCEL_GRACE:
                self._count_kill(worker, "did not stop within "
                                 f"{format_seconds(CANCEL_GRACE)} of its cancel")
                return ("cancelled", None), False
            if now > job.deadline + KILL_GRACE:
                job.timed_out = True
                self._count_kill(worker, "ran past the time limit without a stop point")
                return ("error", ComputationFailed(
                    400, f"the computation needs more than this server's time limit of "
                         f"{format_seconds(job.seconds)} (stopped)")), False

    def _count_kill(self, worker: WorkerProcess, why: str) -> None:
        log.info("worker %s killed: its computation %s", worker.pid, why)
        worker.kill()
        with self._lock:
            self.killed += 1

    def _died(self, worker: WorkerProcess) -> tuple[str, Any]:
        """The event of a job whose worker died under it (or the pool is closing)."""
        if self._closed:
            return ("cancelled", None)
        how = worker.how_it_ended()
        log.error("worker %s died (%s) running a computation; starting another", worker.pid, how)
        with self._lock:
            self.crashes += 1
        return ("error", ComputationFailed(
            500, f"internal error: the computation's worker process died ({how}); "
                 "the server has started another"))
