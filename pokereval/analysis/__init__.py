"""Features above the equity core: questions answered by running it many times or
reading more out of one run.

* :mod:`.board_range` -- board and dead cards given as ranges (``board="K**"``);
* :mod:`.breakdown` -- what each hand makes (``equity(..., breakdown=True)``);
* :mod:`.distribution` -- the equity on every deal of the next street;
* :mod:`.range_equities` -- a range's equity holding by holding;
* :mod:`.streets` -- a finished deal's equity street by street;
* :mod:`.scatter` and :mod:`.common` -- what these share (the scatter kernel's
  setup, one plain equity run, the streets' names).

Every module calls the core through :mod:`pokereval.equity` with a parsed
:class:`~pokereval.equity.spot.Spot` (never the front door's ``equity()``, which
calls :mod:`.board_range` and :mod:`.breakdown`), and every parallel kernel call
through :func:`pokereval.equity.backends.numba.parallel` (the one kernel lock).
Nothing is imported here: the front door (:mod:`pokereval.api`) names each module.
"""
