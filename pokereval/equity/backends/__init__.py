"""Where a run's showdowns are computed.

* :mod:`.c`      the C library: the small board walk (one batch call) and batch
                 evaluation of rows of cards; no Numba import.
* :mod:`.numba`  the Numba kernels' thread count and the one lock every parallel
                 kernel call goes through (:func:`.numba.parallel`).

The NumPy tally of C values lives in :mod:`pokereval.equity.tally`.
"""
