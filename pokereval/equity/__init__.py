"""The equity core, in the order a request flows through it:

* :mod:`.spot`     the validated spot (hands or ranges, board, dead, cards to come)
* :mod:`.options`  the validated run options (frozen)
* :mod:`.plan`     the plan as a value (exact or sampled, C walk or kernels, why): the cost model
* :mod:`.deal`     run-outs as cards (stud deals, rows of cards, one seeded generator)
* :mod:`.backends` the C library and the Numba kernels (the one kernel lock)
* :mod:`.tally`    outcome cells and the NumPy tally
* :mod:`.run`      :func:`.run.run`: the plain equity run of a parsed spot
  (:mod:`.runner` fixed hands, :mod:`.ranged` players given as ranges)
* :mod:`.results`  :class:`.results.EquityResult`, :class:`.results.PlayerResult`

Nothing here imports the features above it (board ranges, breakdowns,
distributions) or the faces; the public ``equity()`` is :func:`pokereval.api.equity`.
Importing this package imports no submodule (and never Numba).
"""
