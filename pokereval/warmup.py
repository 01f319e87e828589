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
import pkgutil
import sys
import time
from typing import Any, Callable

#: One small spot per kernel path: ``(game, hands, keyword arguments of equity())``.
WARMUP: list[tuple[str, list[str], dict[str, Any]]] = [
    # fixed hands, board games: exact and Monte Carlo (Omaha and non-Omaha flags)
    ("omaha-hilo", ["AcAs3d4h", "KhKcJdTd"], {"exact": True}),
    ("omaha-hilo", ["AcAs3d4h", "KhKcJdTd"], {"samples": 2000, "seed": 1}),
    ("holdem", ["AhKh", "QsQd"], {"exact": True}),
    ("holdem", ["AhKh", "QsQd"], {"samples": 2000, "seed": 1}),
    # fixed hands, stud: exact and Monte Carlo
    ("stud-hilo", ["As2s3d4c5h", "KhKdQcJcTc"], {"exact": True}),
    ("razz", ["Ah2c3d", "4s5s6h"], {"samples": 2000, "seed": 1}),
    # ranges: exact and Monte Carlo, weighted, a lone listed range, stud
    ("omaha-hilo", ["AA**", "KhKdQcJc"], {"board": "2c7d9h", "exact": True}),
    ("omaha-hilo", ["AA**:$ds@50,KK**", "QQ**"], {"samples": 2000, "seed": 1}),
    ("omaha-hilo", ["AA**", "****"], {"samples": 2000, "seed": 1}),
    ("holdem", ["AKs", "QQ"], {"board": "2c7d9h", "exact": True}),
    ("stud-hilo", ["**7s", "AsKs2d"], {"samples": 2000, "seed": 1}),
]




def _eval_batch() -> None:
    """The kernels' own batch evaluator (the tests check it against the C library)."""
    import numpy as np

    from . import kernels as K
    from .games import get_game

    holes = np.array([[0, 1, 2, 3]], dtype=np.uint8)
    boards = np.array([[10, 20, 30, 40, 50]], dtype=np.uint8)
    K.eval_batch(K.kernel_tables(), K.game_flags(get_game("omaha-hilo")), holes, boards)


def _stud_sample_values() -> None:
    """The stud Monte Carlo kernel's per-sample evaluator (the tests check it against C)."""
    import numpy as np

    from . import kernels as K
    from .games import get_game
    from .kernels.stud_montecarlo import sample_values

    KT = K.kernel_tables()
    G = K.game_flags(get_game("stud-hilo"))
    known = np.array([[0, 1, 2], [4, 5, 6]], dtype=np.uint8)
    unseen = np.arange(8, 52, dtype=np.uint8)
    T = K.stud_mc_tables(KT, G, known, unseen, 4, False)
    sample_values(KT, G, T, np.arange(8, dtype=np.int64).reshape(1, 8), 4, False)


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
    ("kernels.stud_montecarlo.sample_values", _stud_sample_values),
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


def main(argv: list[str] | None = None) -> int:
    """Compile (or load) every kernel; print one line per spot and the kernels no spot
    reached.  Exit status 1 if a spot failed or a kernel was not reached.  Run it in a
    fresh process for the check to mean anything (a kernel called earlier counts)."""
    from . import kernels  # noqa: F401  (loaded: equity() then never walks a spot in C instead)
    from .api import equity

    t0 = time.perf_counter()
    failed = 0
    jobs = [(f"{game:<11} {' vs '.join(hands)}", lambda g=game, h=hands, k=kwargs: equity(g, h, **k))
            for game, hands, kwargs in WARMUP] + CALLS
    for label, call in jobs:
        t = time.perf_counter()
        try:
            call()
        except Exception as exc:  # report and go on: the cache is an optimisation
            failed += 1
            print(f"  {label}: failed: {exc}", file=sys.stderr)
            continue
        print(f"  {label:<40} {time.perf_counter() - t:6.1f} s", flush=True)
    from ._kernel_cache import NOTICE

    for name, (wall, cpu) in sorted(NOTICE.log.items()):
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
