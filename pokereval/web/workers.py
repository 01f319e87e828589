"""Worker processes: where the web server's computations run, so that a fault in one
(a kernel abort, a ``MemoryError``, a segfault) costs that one request, not the server.

Each worker is a spawned process running :func:`main`: it warms up (imports the
engine and loads the kernels, so the first request is not slow), then answers jobs
sent down its pipe one at a time, single-threaded apart from the kernels' fixed thread
share (``NUMBA_NUM_THREADS``, set before Numba loads).  Messages, parent -> worker::

    ("run", job_id, task, args, kwargs, seconds, fault)   run a task of pokereval.web.tasks
    ("stop", job_id)                                       stop that job at its next stop point
    ("exit",)                                              leave

worker -> parent: ``("ready", pid)`` once warm, then for each job
``("progress", job_id, partial)``... and one of ``("result", job_id, value, timed_out)``,
``("error", job_id, exception, traceback_text, leaving)``, ``("cancelled", job_id)``
(``leaving``: the worker exits after it).

A worker ignores SIGINT (Ctrl-C in a terminal reaches the whole process group; the
server decides when its workers end), dies with its parent (``PR_SET_PDEATHSIG`` on
Linux, and a parent check at every stop point), and exits after a ``MemoryError``
(the server starts a fresh one).  :class:`WorkerProcess` is the parent's handle.
"""
from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
import traceback
from typing import Any

from .. import api
from ..errors import PokerEvalError
from .tasks import run_task

__all__ = ["WorkerProcess", "end_all", "main", "PROGRESS_EVERY"]

#: Least seconds between two progress messages of one job.
PROGRESS_EVERY = 0.2

_CONTEXT = multiprocessing.get_context("spawn")  # no fork of a threaded server


def _die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when its parent dies (elsewhere: no-op)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def warm_up() -> None:
    """Answer the project's warm-up spots (one per kernel path, ``pokereval.warmup``) and
    one board spot and one distribution: kernels loaded, caches read."""
    api.equity("omaha-hilo", ["AcAs3d4h", "KhKcJdTd"], board="7c8d9h")
    for game, hands, options in api.WARMUP:
        api.equity(game, hands, **options)
    if hasattr(api, "equity_distribution"):
        api.equity_distribution("omaha-hilo", ["AcAs3d4h", "KhKcJdTd"], board="7c8d9h")


class _Stopper:
    """The ``progress`` callback of one job in a worker: stop on the parent's word or at
    the deadline, send a partial result now and then."""

    def __init__(self, conn: Any, job_id: int, seconds: float, parent: int):
        self.conn, self.job_id, self.parent = conn, job_id, parent
        self.deadline = time.monotonic() + seconds
        self.timed_out = False
        self.stopped = False
        self._last = 0.0

    def __call__(self, partial: Any) -> None:
        while self.conn.poll():
            message = self.conn.recv()
            if message[0] == "stop" and message[1] == self.job_id:
                self.stopped = True
            elif message[0] == "exit":
                os._exit(0)
        if self.stopped or os.getppid() != self.parent:
            self.stopped = True
            raise KeyboardInterrupt  # the engine returns its partial result
        now = time.monotonic()
        if now > self.deadline:
            self.timed_out = True
            raise KeyboardInterrupt
        if now - self._last >= PROGRESS_EVERY:
            self._last = now
            self.conn.send(("progress", self.job_id, partial))


def _sendable(exc: BaseException) -> BaseException:
    """``exc`` if it survives pickling, else a RuntimeError with its text."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:  # noqa: BLE001 - any pickling failure
        if isinstance(exc, PokerEvalError):
            return PokerEvalError(str(exc), field=exc.field, player=exc.player)
        return RuntimeError(f"{type(exc).__name__}: {exc}")


def _run(conn: Any, message: tuple, parent: int) -> bool:
    """Answer one ``run`` message; False when the worker should exit afterwards."""
    _, job_id, task, args, kwargs, seconds, fault = message
    stopper = _Stopper(conn, job_id, seconds, parent)
    try:
        value = run_task(task, args, kwargs, stopper, fault)
    except KeyboardInterrupt:  # a stop outside the engine's batch loop
        conn.send(("cancelled", job_id))
        return True
    except MemoryError as exc:
        conn.send(("error", job_id, RuntimeError(f"MemoryError: {exc}"), traceback.format_exc(),
                   True))
        return False  # a fresh process rather than a fragmented one
    except Exception as exc:  # noqa: BLE001 - the parent decides what it means
        conn.send(("error", job_id, _sendable(exc), traceback.format_exc(), False))
        return True
    if stopper.stopped and not stopper.timed_out:
        conn.send(("cancelled", job_id))
        return True
    try:
        conn.send(("result", job_id, value, stopper.timed_out))
    except Exception as exc:  # noqa: BLE001 - an answer that cannot be sent
        conn.send(("error", job_id, RuntimeError(f"unsendable result: {exc}"),
                   traceback.format_exc(), False))
    return True


def main(conn: Any, threads: int | None, warm: bool) -> None:
    """A worker process: warm up, then answer jobs until told to exit or orphaned."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent()
    parent = os.getppid()
    if threads is not None:
        os.environ["NUMBA_NUM_THREADS"] = str(threads)  # read when Numba loads
    if warm:
        try:
            warm_up()
        except Exception:  # noqa: BLE001 - a cold worker still answers
            traceback.print_exc()
    conn.send(("ready", os.getpid()))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):  # the server is gone
            return
        if message[0] == "exit":
            return
        if message[0] == "run" and not _run(conn, message, parent):
            return


class WorkerProcess:
    """The parent's handle on one worker process: its pipe, its pid, how it ended."""

    def __init__(self, threads: int | None, warm: bool, name: str):
        here, there = _CONTEXT.Pipe(duplex=True)
        self.conn = here
        self.process = _CONTEXT.Process(target=main, args=(there, threads, warm), name=name,
                                        daemon=True)
        self.process.start()
        there.close()
        self.ready = False
        self._pipe_lock = threading.Lock()

    def wait_ready(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for the worker's ready message (before its first job)."""
        if not self.ready and seconds > 0 and self.conn.poll(seconds):
            try:
                self.ready = self.conn.recv()[0] == "ready"
            except (EOFError, OSError):
                pass
        return self.ready

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.is_alive()

    def how_it_ended(self) -> str:
        """'SIGABRT', 'exit code 3', ... (after it died)."""
        self.process.join(2)
        code = self.process.exitcode
        if code is None:
            return "still running"
        if code < 0:
            try:
                return signal.Signals(-code).name
            except ValueError:
                return f"signal {-code}"
        return f"exit code {code}"

    def send(self, message: tuple) -> None:
        """Send ``message`` down the pipe (one thread at a time); OSError when it is shut."""
        with self._pipe_lock:
            if self.conn.closed:
                raise OSError("the worker's pipe is closed")
            self.conn.send(message)

    def ask_to_exit(self) -> None:
        """Tell it to leave (at once when idle, at its job's next stop point when busy)."""
        try:
            self.send(("exit",))
        except (OSError, ValueError):
            pass

    def close_pipe(self) -> None:
        """Close the parent's end of the pipe (once, whichever thread asks first)."""
        with self._pipe_lock:
            if not self.conn.closed:
                self.conn.close()

    def kill(self) -> None:
        """End it now (SIGKILL), reap it, close the pipe."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.close_pipe()


def end_all(workers: list[WorkerProcess], grace: float = 0.5) -> None:
    """End ``workers`` together: asked to exit, then after ``grace`` seconds SIGTERM, then
    SIGKILL; each reaped.  Their pipes stay open for the threads that may be reading them
    (those see the end and close them)."""
    for worker in workers:
        worker.ask_to_exit()
    deadline = time.monotonic() + grace
    for worker in workers:
        worker.process.join(max(0.0, deadline - time.monotonic()))
    for signal_them in ("terminate", "kill"):
        left = [w for w in workers if w.process.is_alive()]
        for worker in left:
            getattr(worker.process, signal_them)()
        for worker in left:
            worker.process.join(2)
