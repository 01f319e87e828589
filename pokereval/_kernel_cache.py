"""The kernels' on-disk Numba cache and the compile notice.

Cache validity (:class:`_KernelSourceStamp`): Numba checks a cached kernel
against its own source file only (its modification time in older Numba
versions), not against the helpers it inlines from the other files of
``pokereval/kernels``.  So the cache entries of this package's functions are
stamped with a hash of the *contents* of every kernel source: a cache filled at
build time (see ``setup.py`` and :mod:`pokereval.warmup`) stays valid after the
files are copied into site-packages, and any edit to any kernel file
invalidates every entry.

Compile notice (:class:`_CompileNotice`): when a kernel must be compiled
anyway (a cache miss), one line on stderr says so and how long it takes, so a
user never sees a silent pause (``POKEREVAL_QUIET_COMPILE=1`` silences it).

Imported by :mod:`pokereval.kernels._jit` before any kernel is decorated.
"""
from __future__ import annotations

import hashlib
import os
import sys
import time
from functools import lru_cache
from pathlib import Path

from numba.core import event

_PACKAGE = Path(__file__).resolve().parent
_KERNELS = _PACKAGE / "kernels"


# ---------------------------------------------------------------------------
# cache stamps: content hashes of the kernel sources, not file times
# ---------------------------------------------------------------------------

#: Kernel-folder files left out of the stamp: the package's Python glue (its lazy imports,
#: the tables it builds), which no kernel imports or inlines from.
UNSTAMPED = ("__init__.py",)


@lru_cache(maxsize=None)  # once per process
def kernel_source_hash() -> str:
    """sha256 over the names and contents of every ``pokereval/kernels/*.py`` but
    :data:`UNSTAMPED`."""
    digest = hashlib.sha256()
    for path in sorted(_KERNELS.glob("*.py")):
        if path.name in UNSTAMPED:
            continue
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


@lru_cache(maxsize=None)
def _file_hash(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@lru_cache(maxsize=None)  # asked twice per kernel at import, for a handful of files
def _is_ours(py_file: str) -> bool:
    try:
        return Path(py_file).resolve().is_relative_to(_PACKAGE)
    except OSError:
        return False


class _KernelSourceStamp:
    """Mixed into Numba's file-backed cache locators for functions of this package:
    the stamp is the hash of all kernel sources plus the function's own file."""

    _py_file: str

    def get_source_stamp(self):
        return ("pokereval", kernel_source_hash(), _file_hash(self._py_file))

    @classmethod
    def from_function(cls, py_func, py_file):
        if not _is_ours(py_file):
            return None
        return super().from_function(py_func, py_file)  # type: ignore[misc]


def _install_locators() -> None:
    """Put stamped copies of Numba's locators (user-provided ``NUMBA_CACHE_DIR``,
    in-tree ``__pycache__``, user-wide cache), in Numba's order, ahead of Numba's own."""
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
    if any(issubclass(c, _KernelSourceStamp) for c in impl._locator_classes):
        return
    ours = []
    for name in ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator"):
        base = getattr(caching, name, None) or getattr(caching, "_" + name)
        ours.append(type("Pokereval" + name, (_KernelSourceStamp, base), {}))
    impl._locator_classes[:0] = ours


def _install_tolerant_index() -> None:
    """Read an unreadable index of this package's cache as empty (recompile, then
    overwrite it) instead of failing.  Numba unpickles a whole index before it compares
    the stamp, so an index written by another version of this package fails to load when
    its signatures name a class this version lacks ("No module named ...")."""
    from numba.core import caching

    numba_load_index = caching.IndexDataCacheFile._load_index
    if getattr(numba_load_index, "_pokereval", False):
        return

    def _load_index(self):
        try:
            return numba_load_index(self)
        except Exception:
            if not (isinstance(self._source_stamp, tuple)
                    and self._source_stamp[:1] == ("pokereval",)):
                raise
            return {}

    _load_index._pokereval = True  # type: ignore[attr-defined]
    caching.IndexDataCacheFile._load_index = _load_index  # type: ignore[method-assign]


def _install_locked_save() -> None:
    """Save this package's cache entries under an exclusive lock on the cache folder.

    Numba's ``IndexDataCacheFile.save`` reads the function's index, picks a free data
    file name, rewrites the index and writes the data: each file is replaced atomically,
    but two processes saving *different* signatures of the same function at once could
    both pick the same data file name.  The build-time warm-up compiles in several
    processes (:mod:`pokereval.warmup`), so the read-modify-write runs under
    ``flock`` on the folder (POSIX; elsewhere the warm-up uses one process)."""
    from numba.core import caching

    try:
        import fcntl
    except ImportError:  # no flock: the warm-up then compiles in one process
        return
    numba_save = caching.IndexDataCacheFile.save
    if getattr(numba_save, "_pokereval", False):
        return

    def save(self, key, data):
        if not (isinstance(self._source_stamp, tuple) and self._source_stamp[:1] == ("pokereval",)):
            return numba_save(self, key, data)
        fd = os.open(self._cache_path, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            return numba_save(self, key, data)
        finally:
            os.close(fd)  # releases the lock

    save._pokereval = True  # type: ignore[attr-defined]
    caching.IndexDataCacheFile.save = save  # type: ignore[method-assign]


def _install_lean_load() -> None:
    """Load this package's cached kernels without Numba's target-context refresh.

    Numba's ``Cache.load_overload`` first refreshes the target context: it imports and
    installs every lowering and typing registry (~0.25 s of a CLI answer), which only a
    *compilation* needs, and the compiler refreshes the context itself before it
    compiles.  A cached kernel is object code plus its function descriptor: rebuilding
    it needs the code generator, the memory runtime's symbols and the re-initialisers
    it recorded (``reload_init``, e.g. the parallel backend), not the registries.

    Likewise each function linked into a kernel (Numba's own array and NumPy
    implementations among them) comes with an environment whose globals are its
    module's namespace, so unpickling imports that module (``numba.np.arrayobj``,
    ``npyimpl``, ``arraymath``, ...: ~0.1 s).  Only object-mode code reads those
    globals, and every kernel here is compiled in nopython mode, so while one of ours
    loads, a module not imported yet gets a namespace holding just its name."""
    from numba.core import caching, environment
    from numba.core.runtime import rtsys

    numba_load = caching.Cache.load_overload
    if getattr(numba_load, "_pokereval", False):
        return
    numba_rebuild_env = environment._rebuild_env
    loading = [False]  # one of our kernels is loading (under Numba's compiler lock)

    def load_overload(self, sig, target_context):
        if not isinstance(self._impl.locator, _KernelSourceStamp):
            return numba_load(self, sig, target_context)
        rtsys.initialize(target_context)  # the memory runtime the kernels' arrays use
        loading[0] = True
        try:
            with self._guard_against_spurious_io_errors():
                return self._load_overload(sig, target_context)
        finally:
            loading[0] = False
        return None  # the guard swallowed an I/O error: compile instead

    def _rebuild_env(modname, consts, env_name):
        if not loading[0] or modname in sys.modules or environment.lookup_environment(env_name):
            return numba_rebuild_env(modname, consts, env_name)
        env = environment.Environment({"__name__": modname})
        env.consts[:] = consts
        env.env_name = env_name
        environment.Environment._memo[env_name] = env
        return env

    load_overload._pokereval = True  # type: ignore[attr-defined]
    caching.Cache.load_overload = load_overload  # type: ignore[method-assign]
    # pickled by reference as Numba's (cache files stay readable without this package)
    _rebuild_env.__module__, _rebuild_env.__qualname__ = environment.__name__, "_rebuild_env"
    environment._rebuild_env = _rebuild_env


def _install_plain_ndarray_typeof() -> None:
    """Type a plain ``numpy.ndarray`` argument without importing ``numpy.ma``.

    Numba's ``typeof`` of an array first refuses a masked array (``isinstance(val,
    np.ma.MaskedArray)``), and that attribute imports ``numpy.ma`` (~20 ms of every
    process's first kernel call).  An object whose type *is* ``numpy.ndarray`` is no
    masked array (a subclass), so its type is computed as Numba does, without the check;
    any subclass still goes through Numba's own function."""
    import numpy as np
    from numba.core import types
    from numba.core.typing import typeof as numba_typeof

    numba_impl = numba_typeof.typeof_impl.dispatch(np.ndarray)
    if getattr(numba_impl, "_pokereval", False):
        return

    def typeof_ndarray(val, c):
        if type(val) is not np.ndarray:
            return numba_impl(val, c)
        try:
            dtype = numba_typeof.numpy_support.from_dtype(val.dtype)
        except numba_typeof.errors.NumbaNotImplementedError:
            return numba_impl(val, c)  # Numba's error message
        layout = numba_typeof.numpy_support.map_layout(val)
        return types.Array(dtype, val.ndim, layout, readonly=not val.flags.writeable)

    typeof_ndarray._pokereval = True  # type: ignore[attr-defined]
    numba_typeof.typeof_impl.register(np.ndarray)(typeof_ndarray)


# ---------------------------------------------------------------------------
# the compile notice
# ---------------------------------------------------------------------------

#: Compile time (seconds of CPU: the wall time on an idle 2-core x86-64 machine, with
#: Numba 0.68) of each entry kernel with what it calls, from ``python -m
#: pokereval.warmup`` on an empty cache; kernels not listed: ``_DEFAULT_ESTIMATE``.
COMPILE_SECONDS = {
    "board_mc": 10, "stud_walk": 7, "stud_tables": 7,
    "compatible_tuples": 4, "eval_batch": 6, "scatter_exact": 15,
    "class_trials": 14,
}
_DEFAULT_ESTIMATE = 1


class _CompileNotice(event.Listener):
    """A ``numba:compile`` listener: one stderr line when a kernel of this package is
    compiled (a cache miss), for the outermost kernel only."""

    def __init__(self) -> None:
        self.depth = 0
        self.quiet = bool(os.environ.get("POKEREVAL_QUIET_COMPILE"))
        self.started = (0.0, 0.0)
        #: kernel name -> (wall seconds, CPU seconds) of its compilations in this process
        self.log: dict[str, tuple[float, float]] = {}

    def on_start(self, event) -> None:
        dispatcher = event.data["dispatcher"]
        if self.depth == 0 and _is_ours(dispatcher.py_func.__code__.co_filename):
            name = dispatcher.py_func.__name__
            estimate = COMPILE_SECONDS.get(name, _DEFAULT_ESTIMATE)
            self.started = (time.perf_counter(), time.process_time())
            if not self.quiet:
                print(f"pokereval: compiling the '{name}' kernel once (about {estimate} s); "
                      "later runs load it from the cache", file=sys.stderr, flush=True)
        self.depth += 1

    def on_end(self, event) -> None:
        self.depth -= 1
        if self.depth == 0 and self.started[0]:
            name = event.data["dispatcher"].py_func.__name__
            wall, cpu = self.log.get(name, (0.0, 0.0))
            self.log[name] = (wall + time.perf_counter() - self.started[0],
                              cpu + time.process_time() - self.started[1])
            self.started = (0.0, 0.0)


NOTICE = _CompileNotice()


def _install_notice() -> None:
    event.register("numba:compile", NOTICE)


_install_locators()
_install_tolerant_index()
_install_locked_save()
_install_lean_load()
_install_plain_ndarray_typeof()
_install_notice()
