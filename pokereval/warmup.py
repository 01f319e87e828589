"""Fill the Numba kernel cache ahead of time, so no user query waits on a compiler.

``setup.py`` runs this after building the C extension (``pip install .`` and
``pip install -e .`` both), into the package's own ``kernels/__pycache__``; the
cache entries are stamped with a hash of the kernel sources (see
:mod:`pokereval._kernel_cache`), so they stay valid once installed.  Run it by
hand (``python -m pokereval.warmup``) after upgrading Numba, or with
``NUMBA_CACHE_DIR`` set, to compile everything once instead of on first use.

How it works: it answers one small spot per code path through the public API
(:data:`WARMUP`), which compiles exactly the specialisations users hit; then it
lists every cached kernel of :mod:`pokereval.kernels` that none of the spots
compiled.  A new kernel joins by adding its spot to :data:`WARMUP`.
"""
from __future__ import annotations

import importlib
import os
import pkgutil
import re
import sys
import time
from typing import Any, Callable

#: One small spot per kernel path: ``(game, hands, keyword arguments of equity())``.
WARMUP: list[tuple[str, list[str], dict[str, Any]]] = [
    # fixed hands, board games: Monte Carlo (Omaha and non-Omaha flags; exact is C's)
    ("omaha-hilo", ["AcAs3d4h", "KhKcJdTd"], {"samples": 2000, "seed": 1}),
    ("holdem", ["AhKh", "QsQd"], {"samples": 2000, "seed": 1}),
    # fixed hands, stud: exact (sampled in C)
    ("stud-hilo", ["As2s3d4c5h", "KhKdQcJcTc"], {"exact": True}),
    # ranges (walked and sampled in C): over 20,000 combinations, listed by the kernel
    ("holdem", ["QQ+,AK", "**"], {"board": "2c7d9hTsJc", "exact": True}),
]




def _eval_batch() -> None:
    """The kernels' own batch evaluator (the tests check it against the C library)."""
    import numpy as np

    from . import kernels as K
    from .games import get_game

    holes = np.array([[0, 1, 2, 3]], dtype=np.uint8)
    boards = np.array([[10, 20, 30, 40, 50]], dtype=np.uint8)
    K.eval_batch(K.kernel_tables(), K.game_flags(get_game("omaha-hilo")), holes, boards)


def _distribution() -> None:
    """Next-street equity distributions (:mod:`pokereval.analysis.distribution`)."""
    from .api import equity_distribution

    equity_distribution("omaha-hilo", ["AcAs3d4h", "KhKcJdTd"], board="7c8d9h")


def _hand_tables() -> None:
    """The starting-hand tables' per-class trials (:mod:`pokereval.tables`)."""
    from .tables.simulate import Chunk, run_chunk

    run_chunk(Chunk("omaha-hilo", 3, "equity", 2, 0, 2, 4, 1))


def _pql() -> None:
    """PQL's block kernels (:mod:`pokereval.kernels.pql_block`): a sampled Omaha Hi/Lo
    block with ``nutLo`` (deal, river and flop values, showdown, nut low), and stud."""
    from .query import pql

    pql("select count(nutLo(hero, river)), avg(riverEquity(hero)), count(madeLo(hero, flop)) "
        "from game='omaha8', hero='A2**', villain='AA**:$ds@50,KK**'", trials=2000, seed=1,
        threads=1)
    pql("select avg(riverEquity(hero)) from game='stud8', hero='**7s', villain='AsKs2d'",
        trials=2000, seed=1, threads=1)


#: Kernels no equity() spot reaches: ``(label, call)``.
CALLS: list[tuple[str, Callable[[], object]]] = [
    ("kernels.eval_batch", _eval_batch),
    ("distribution.equity_distribution", _distribution),
    ("tables.simulate.run_chunk", _hand_tables),
    ("query.pql", _pql),
]


def cached_kernels() -> dict[str, Any]:
    """Every cached, separately compiled Numba dispatcher in :mod:`pokereval.kernels`
    (``module.name`` -> dispatcher); helpers inlined into their callers are not."""
    from numba.core.caching import NullCache
    from numba.core.registry import CPUDispatcher

    from . import kernels

    found = {}
    for info in pkgutil.iter_modules(kernels.__path__, kernels.__name__ + "."):
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if (isinstance(obj, CPUDispatcher) and obj.__module__ == module.__name__
                    and obj.targetoptions.get("inline", "never") == "never"
                    and not isinstance(obj._cache, NullCache)):
                found[f"{module.__name__}.{name}"] = obj
    return found


def entry_kernels() -> dict[str, Any]:
    """The cached kernels that no other kernel calls: the ones Python code calls, each
    loaded (or compiled) by a process that uses it, with its callees built in."""
    kernels = cached_kernels()
    called = set()
    for dispatcher in kernels.values():
        module = sys.modules[dispatcher.__module__]
        for name in _called_names(dispatcher.py_func.__code__):
            target = getattr(module, name, None)
            called.update(k for k, d in kernels.items() if d is target)
    return {k: d for k, d in kernels.items() if k not in called}


def _called_names(code) -> set[str]:
    """Global names a function (and the functions nested in it) refers to."""
    names = set(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            names |= _called_names(const)
    return names


def _report(done) -> int:
    """Print each spot's compile time or failure: the number of failures."""
    failed = 0
    for job, seconds, error in done:
        if error:
            failed += 1
            print(f"  {_label(job)}: failed: {error}", file=sys.stderr)
        else:
            print(f"  {_label(job):<40} {seconds:6.1f} s", flush=True)
    return failed


def _label(job: int) -> str:
    if job < len(WARMUP):
        game, hands, _ = WARMUP[job]
        return f"{game:<11} {' vs '.join(hands)}"
    return CALLS[job - len(WARMUP)][0]


def _call(job: int) -> None:
    if job < len(WARMUP):
        from .api import equity

        game, hands, kwargs = WARMUP[job]
        equity(game, hands, **kwargs)
    else:
        CALLS[job - len(WARMUP)][1]()


_CARDS = re.compile(r"^([2-9TJQKA][cdhs])+$")


def job_groups() -> list[list[int]]:
    """The jobs (indices of ``WARMUP`` + ``CALLS``) in groups that compile disjoint
    kernels: a spot's kernel follows from its game family (stud or board), its method
    (exact or sampled) and whether a player is a range; each call of ``CALLS`` is a
    group of its own.  Largest groups (the ranged ones) first."""
    from .games import get_game

    groups: dict[tuple, list[int]] = {}
    for i, (game, hands, kwargs) in enumerate(WARMUP):
        ranged = not all(_CARDS.match(h) for h in hands)
        key = (get_game(game).stud, bool(kwargs.get("exact")), ranged)
        groups.setdefault(key, []).append(i)
    ordered = sorted(groups.items(), key=lambda kv: (not kv[0][2], kv[0][0]))
    return [jobs for _, jobs in ordered] + [[len(WARMUP) + i] for i in range(len(CALLS))]


def _prelude() -> None:
    """The small kernels every job needs (the tables' hash, the pair table, holding
    features): compiled once, before the jobs that would each compile them."""
    import numpy as np

    from . import kernels as K

    K.kernel_tables()
    K.range_tables()
    K.prep_holdings(K.kernel_tables(), np.zeros((1, 4), np.uint8), 1)


def _run_group(jobs: list[int]) -> tuple[list[tuple[int, float, str]], dict]:
    """Run ``jobs`` in this (worker) process: ``([(job, seconds, error)], compile log)``."""
    from . import kernels  # noqa: F401  (loaded: equity() then never walks a spot in C instead)
    from ._kernel_cache import NOTICE

    done = []
    for job in jobs:
        t = time.perf_counter()
        try:
            _call(job)
        except Exception as exc:  # report and go on: the cache is an optimisation
            done.append((job, time.perf_counter() - t, str(exc)))
            continue
        done.append((job, time.perf_counter() - t, ""))
    return done, dict(NOTICE.log)


def reuse_cache(source: str) -> int:
    """Copy into this package's kernel cache the entries of the cache folder ``source``
    (another checkout's ``pokereval/kernels/__pycache__``) that are valid here: an index
    written by this Numba version, stamped with the hash of these very kernel sources
    (:func:`pokereval._kernel_cache.kernel_source_hash`), with the data files it names.
    Returns the number of indexes copied; the warm-up then loads them (or compiles what
    is missing), so a stale or partial cache only costs compile time."""
    import pickle
    import shutil
    from pathlib import Path

    import numba

    from ._kernel_cache import kernel_source_hash

    src = Path(source)
    dest = Path(__file__).resolve().parent / "kernels" / "__pycache__"
    if not src.is_dir() or src.resolve() == dest.resolve():
        return 0
    dest.mkdir(parents=True, exist_ok=True)
    copied = 0
    for index in sorted(src.glob("*.nbi")):
        try:
            with open(index, "rb") as f:
                version = pickle.load(f)
                if version != numba.__version__:
                    continue
                stamp, overloads = pickle.loads(f.read())
        except Exception:  # unreadable here (another version of the package): skip it
            continue
        if not (isinstance(stamp, tuple) and stamp[:2] == ("pokereval", kernel_source_hash())):
            continue
        names = list(overloads.values())
        if not all((src / name).is_file() for name in names):
            continue
        for name in names:
            shutil.copyfile(src / name, dest / name)
        shutil.copyfile(index, dest / index.name)  # last: its data files are in place
        copied += 1
    return copied


def default_jobs() -> int:
    """Worker processes for the warm-up: ``POKEREVAL_WARMUP_JOBS``, else the CPUs this
    process may use (one where the cache cannot be locked: no ``fcntl``)."""
    value = os.environ.get("POKEREVAL_WARMUP_JOBS")
    if value:
        return max(1, int(value))
    if not hasattr(os, "sched_getaffinity"):
        return 1
    try:
        import fcntl  # noqa: F401  (the cache lock of pokereval._kernel_cache)
    except ImportError:
        return 1
    return max(1, len(os.sched_getaffinity(0)))


def main(argv: list[str] | None = None) -> int:
    """Compile (or load) every kernel; print one line per spot and the kernels no spot
    reached.  Exit status 1 if a spot failed or a kernel was not reached.  Run it in a
    fresh process for the check to mean anything (a kernel called earlier counts).

    With more than one job (``--jobs N``, default :func:`default_jobs`) the groups of
    :func:`job_groups` compile in that many worker processes, each saving into the same
    on-disk cache (its writes are locked: see :mod:`pokereval._kernel_cache`); then this
    process answers every spot again, so each kernel is loaded from the cache (and one
    lost to a race would be compiled here, and listed).  Workers start only when the
    cache is cold (the first small kernels had to be compiled)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m pokereval.warmup")
    parser.add_argument("--jobs", type=int, default=None,
                        help="worker processes (default: the CPUs available)")
    parser.add_argument("--reuse", metavar="DIR", default=None,
                        help="first copy the valid entries of the kernel cache in DIR "
                             "(another checkout's pokereval/kernels/__pycache__)")
    args = parser.parse_args(argv)
    jobs = args.jobs if args.jobs is not None else default_jobs()

    t0 = time.perf_counter()
    from . import kernels  # noqa: F401  (loaded: equity() then never walks a spot in C instead)
    from ._kernel_cache import NOTICE

    failed = 0
    if args.reuse:
        print(f"  reused {reuse_cache(args.reuse)} cached kernels of {args.reuse} "
              "(same Numba, same kernel sources)", flush=True)
    _prelude()
    compiled: dict[str, tuple[float, float]] = dict(NOTICE.log)
    groups = job_groups()
    # the prelude's kernels loaded from the cache: the cache is warm (a kernel edit or
    # a Numba upgrade invalidates every entry at once), loading needs no workers
    if jobs > 1 and compiled:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        print(f"  compiling in {min(jobs, len(groups))} processes", flush=True)
        with ProcessPoolExecutor(min(jobs, len(groups)),
                                 mp_context=multiprocessing.get_context("spawn")) as pool:
            for done, log in pool.map(_run_group, groups):
                failed += _report(done)
                compiled.update(log)
        NOTICE.log.clear()
        t = time.perf_counter()
        done, _ = _run_group([job for group in groups for job in group])
        failed += sum(1 for _, _, error in done if error)
        late = sorted(NOTICE.log)
        print(f"  every spot again in this process (loads from the cache): "
              f"{time.perf_counter() - t:.1f} s"
              + (f"; compiled here after all: {', '.join(late)}" if late else ""), flush=True)
        compiled.update(NOTICE.log)
    else:
        done, _ = _run_group([job for group in groups for job in group])
        failed += _report(done)
        compiled.update(NOTICE.log)
    for name, (wall, cpu) in sorted(compiled.items()):
        print(f"  compiled {name:<24} {wall:6.1f} s wall, {cpu:6.1f} s CPU")
    # every entry kernel has been called above (so loaded or compiled) unless no spot reaches it
    idle = [name for name, d in entry_kernels().items() if not d.signatures]
    if idle:
        print("  not compiled by any warm-up spot (add one to pokereval/warmup.py WARMUP): "
              + ", ".join(sorted(idle)))
    print(f"pokereval: kernel cache ready in {time.perf_counter() - t0:.0f} s")
    return 1 if failed or idle else 0


if __name__ == "__main__":
    sys.exit(main())
