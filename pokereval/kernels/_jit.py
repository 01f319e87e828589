"""The one place for the kernels' Numba options.

Every kernel is compiled ``cache=True`` (the second process loads machine code
from ``__pycache__`` instead of compiling), ``nogil=True``, with the NumPy
error model (no Python-style ZeroDivisionError checks in hot loops) and no
bounds checks.  Tables are always passed as arguments, never read as globals:
a global array would be frozen into the cached code.

The on-disk cache (stamped with a hash of the kernel sources, filled at build
time) and the compile notice live in :mod:`pokereval._kernel_cache`, outside this
folder, so that editing them does not invalidate every cached kernel.
"""
import os

from numba import config, njit

# Fork safety: GNU OpenMP (Numba's pick when no TBB is installed) aborts a child
# process forked after a parallel kernel ran, which is what multiprocessing and
# ProcessPoolExecutor do by default on Linux.  "forksafe" picks TBB if present,
# else Numba's own workqueue.  A NUMBA_THREADING_LAYER from the user wins.
if not os.environ.get("NUMBA_THREADING_LAYER"):
    config.THREADING_LAYER = "forksafe"

from .. import _kernel_cache  # noqa: F401  (before any kernel is decorated: its locators)

JIT_OPTIONS = dict(cache=True, nogil=True, error_model="numpy", boundscheck=False)


def jit(fn=None, *, parallel=False, inline=False, hot=False):
    """njit with the project's options: ``@jit``, ``@jit(parallel=True)``, ...

    The hot loops must not touch reference counts: Numba increments and
    decrements (atomically) the count of every array variable it assigns,
    including each argument of a call or an inlined helper, and with the
    branches of a real kernel its pruning pass leaves many of them in place,
    which costs hundreds of nanoseconds per run-out.  So:

    * ``hot=True``: compiled without the runtime's reference counting
      (``_nrt=False``); such a function allocates nothing (its caller passes
      scratch arrays in) and runs whole loops;
    * ``inline=True``: a helper inlined at the Numba IR level into its callers
      (the hot loops), so it adds no call and no references.
    """
    def wrap(f):
        extra = {}
        if inline:
            extra["inline"] = "always"
        if hot:
            extra["_nrt"] = False
        return njit(parallel=parallel, **JIT_OPTIONS, **extra)(f)
    return wrap(fn) if fn is not None else wrap
