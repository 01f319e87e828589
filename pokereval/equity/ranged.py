"""Running a spot with players given as ranges as its plan says: every compatible
combination of holdings (weighted, one per suit-renaming class) enumerated exactly,
or holdings drawn by weight with the run-out in the Monte Carlo kernels.
"""
from __future__ import annotations

import math
import time
from fractions import Fraction
from math import comb

import numpy as np

from .._native import PlayerKind, board_exact_tuples_counts, range_rows, ranged_mc_counts
from ..errors import HandError
from .options import Options
from .backends.c import split_chunks, thread_count
from .backends.numba import parallel
from .plan import MAX_TUPLES, Plan, combinations_to_list, exact_cost_ns
from .results import EquityResult
from .runner import MC_CHUNK, Runner, exact_batches, fixed_exact_counts
from .spot import Spot

__all__ = ["RangedRunner", "whole_weights", "MAX_TRIES_FACTOR"]

#: A Monte Carlo chunk of ranged players gives up after this many attempts
#: per wanted sample (acceptance below 1 / MAX_TRIES_FACTOR: an error).
MAX_TRIES_FACTOR = 1000
#: Combinations of holdings listed in Python, without the kernels, up to this product of
#: the range sizes (about 10 ms).
PYTHON_LISTING = 20_000
#: Combinations of holdings looked at per call of the listing kernel (about 0.1 s).
LIST_SLICE = 2_000_000


def whole_weights(weights: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """A player's weights as small whole numbers: ``(index of each row's weight,
    [whole weight of each distinct weight])``, proportional to the decimal weights."""
    uniq, inverse = np.unique(weights, return_inverse=True)
    fracs = [Fraction(repr(float(w))) for w in uniq]
    denom = math.lcm(*(f.denominator for f in fracs))
    whole = [int(f * denom) for f in fracs]
    g = math.gcd(*whole)
    return inverse.astype(np.int64), [w // g for w in whole]


def _listed(starts, counts, masks, limit: int) -> np.ndarray:
    """:func:`pokereval.kernels.compatible_tuples` in NumPy, in the same order (a small
    listing without loading the kernels): the product grown a player at a time (each
    row followed by the next player's holdings, as ``itertools.product``), keeping the
    rows whose holdings share no card.  Vectorised: a Python loop over 5,000 rows took
    2 ms, serial beside a distribution kernel of 10 ms on two threads."""
    masks = np.asarray(masks, dtype=np.uint64)
    rows = np.zeros((1, 0), dtype=np.int32)
    used = np.zeros(1, dtype=np.uint64)
    for s, c in zip(starts, counts):
        nxt = np.tile(np.arange(s, s + c, dtype=np.int32), len(rows))
        used = np.repeat(used, c)
        keep = (used & masks[nxt]) == 0
        rows = np.column_stack([np.repeat(rows, c, axis=0)[keep], nxt[keep]])
        used = used[keep] | masks[nxt[keep]]
    return rows[:limit + 1]


class RangedRunner(Runner):
    """Exact enumeration or Monte Carlo with players given as ranges."""

    def __init__(self, spot: Spot, opts: Options, started: float, plan: Plan | None = None):
        super().__init__(spot, opts, started, plan)
        blocks: list[np.ndarray] = []
        weights: list = []  # per player: float64[m] or None (an exact hand)
        for h, r in zip(spot.holes, spot.ranges):
            if r is None:
                blocks.append(np.array([sorted(h)], dtype=np.uint8))
                weights.append(None)
            else:
                blocks.append(np.asarray(r.holdings, dtype=np.uint8))
                weights.append(np.asarray(r.weights, dtype=np.float64))
        self.blocks = blocks
        self.weights = weights
        self._classes: tuple | None = None  # (tuples, _suit_classes of them): counted once

    def _kinds(self, dealt: bool) -> np.ndarray:
        """The kernels' player kinds: an exact hand (or a one-holding range), a listed
        range, or (``dealt``) a random hand: every holding of the unseen cards with
        equal weights, dealt from the deck instead of drawn from its list."""
        spot = self.spot
        kinds = []
        for b, w in zip(self.blocks, self.weights):
            if len(b) == 1:
                kinds.append(PlayerKind.EXACT)
            elif (dealt and len(b) == comb(len(spot.unseen), b.shape[1])
                  and bool(np.all(w == w[0]))):
                kinds.append(PlayerKind.DEALT)
            else:
                kinds.append(PlayerKind.LISTED)
        return np.array(kinds, dtype=np.int64)

    def compatible_tuples(self, limit: int) -> np.ndarray:
        """The combinations of holdings that share no card (``int32[T, n]``: a row of
        the stacked blocks per player), at most ``limit`` + 1 of them (more: too many)."""
        rows = range_rows(self.blocks, [None] * len(self.blocks))  # no draws: no weights
        counts, starts, masks = rows.pcount, rows.pstart, rows.masks
        if math.prod(counts.tolist()) <= PYTHON_LISTING:
            return _listed(starts, counts, masks, limit)
        from .. import kernels as K

        # in slices of the first player's holdings, each listing about LIST_SLICE
        # combinations (a Ctrl-C point between two: a listing of millions takes seconds)
        rest = max(1, math.prod(counts.tolist()[1:]))
        step = max(1, LIST_SLICE // rest)
        if step >= counts[0]:
            return K.compatible_tuples(starts, counts, masks, limit)
        parts, found = [], 0
        for lo in range(0, int(counts[0]), step):
            s0, c0 = starts.copy(), counts.copy()
            s0[0], c0[0] = starts[0] + lo, min(step, counts[0] - lo)
            part = K.compatible_tuples(s0, c0, masks, limit - found)
            self._listing_progress()
            parts.append(part)
            found += len(part)
            if found > limit:
                break
        return np.concatenate(parts)[:limit + 1]

    def _listing_progress(self) -> None:
        """While the combinations are listed: the progress callback sees the (empty)
        partial result every 0.2 s, so a stop raised there ends a long listing too."""
        if self.opts.progress is None:
            return
        now = time.perf_counter()
        if now - getattr(self, "_shown", self.started) > 0.2:
            self._shown = now
            exact = self.plan.exact if self.plan is not None else self.opts.exact is not False
            self.opts.progress(self.result(None, exact, partial=True, fraction_done=0.0))

    def execute(self, tuples: np.ndarray | None = None) -> EquityResult:
        """The result of running :attr:`plan`; ``tuples``: the compatible combinations
        of holdings listed for the plan (an exact plan lists them when not given)."""
        plan = self.planned
        if plan.method == "sample":
            return self.run_mc_ranged()
        if tuples is None:
            limit = combinations_to_list(self.spot, self.opts)
            tuples = self.compatible_tuples(limit if limit is not None else MAX_TUPLES)
        return self.run_exact_ranged(tuples)

    # -- exact -------------------------------------------------------------------
    def weight_groups(self, tuples: np.ndarray):
        """Combinations grouped by their players' weights: ``(tgroup int64[T], [whole
        weight of each group])``; sets :attr:`acceptance` (the compatible weight share)."""
        n = self.spot.n
        key = np.zeros(len(tuples), dtype=np.int64)
        per_player = []
        starts = np.concatenate([[0], np.cumsum([len(b) for b in self.blocks])[:-1]])
        radix = 1
        for p in range(n):
            w = self.weights[p]
            if w is None:
                per_player.append((np.zeros(1, dtype=np.int64), [1]))
            else:
                per_player.append(whole_weights(w))
        if all(len(whole) == 1 for _, whole in per_player):  # one weight each: one group
            product = math.prod(len(b) for b in self.blocks)
            self.acceptance = float(Fraction(len(tuples), product))
            return np.zeros(len(tuples), dtype=np.int64), [1]
        mixed = []
        for p in range(n):
            inverse, whole = per_player[p]
            local = tuples[:, p].astype(np.int64) - starts[p]
            key += inverse[local] * radix
            mixed.append((radix, len(whole)))
            radix *= len(whole)
        uniq, tgroup = np.unique(key, return_inverse=True)
        gweights = []
        for value in uniq.tolist():
            w = 1
            for p in range(n):
                r, m = mixed[p]
                w *= per_player[p][1][(value // r) % m]
            gweights.append(w)
        # acceptance: compatible weight over all weight (independent draws)
        sizes = np.bincount(tgroup, minlength=len(uniq))
        compatible = sum(int(c) * w for c, w in zip(sizes.tolist(), gweights))
        total: int = 1
        for p in range(n):
            inverse, whole = per_player[p]
            total *= sum(whole[i] for i in inverse.tolist()) if len(inverse) > 1 else whole[0]
        self.acceptance = float(Fraction(compatible, total))
        return tgroup.astype(np.int64), gweights

    def walks(self, tuples: np.ndarray) -> int:
        """How many of the combinations ``tuples`` an exact board-game run walks (one per
        suit-renaming class and weight group; the plan's ``walks``)."""
        tgroup, gweights = self.weight_groups(tuples)
        return len(self._suit_classes(tuples, tgroup, gweights)[0])

    def _board_walks(self, tuples: np.ndarray, tgroup: np.ndarray, gweights: list) -> EquityResult:
        """An exact board-game run in C: one combination of holdings per suit-renaming class
        (weighted by its class, see :meth:`_suit_classes`), each walked by board rank
        multisets over the deck less its cards; in batches of combinations (a progress
        report and a stop point after each), each batch shared among the threads."""
        spot = self.spot
        g = spot.game
        ntup, runouts = len(tuples), spot.runouts
        self._listing_progress()  # the setup of millions of combinations takes a while
        tuples, tgroup, gweights, mult = self._suit_classes(tuples, tgroup, gweights)
        self._listing_progress()
        gw = np.array(gweights, dtype=object)
        rows = np.vstack(self.blocks)
        tup = np.ascontiguousarray(tuples, dtype=np.int32)
        board = np.array(spot.board, dtype=np.uint8)
        deck = np.array(spot.unseen, dtype=np.uint8)
        threads = thread_count(self.opts.threads)
        # run-outs stood for by the combinations before t (a class counts once per member)
        before = np.concatenate([[0], np.cumsum(mult if mult is not None else
                                                np.ones(len(tup), np.int64))]) * runouts

        def part(first: int, count: int) -> np.ndarray:
            return board_exact_tuples_counts(rows, tup, tgroup, len(gweights), g.exactly_two,
                                             g.low == "eight", board, deck, first, count)[0]

        def call(first, count, _chunk):
            shares = split_chunks(part, first, count, threads)
            return np.tensordot(gw, sum(shares[1:], shares[0]).astype(object), axes=(0, 0))

        return self._loop(exact_batches(len(tup), self.planned, call, lambda t: int(before[t])),
                          exact=True, total_hint=ntup * runouts)

    def run_exact_ranged(self, tuples: np.ndarray) -> EquityResult:
        spot = self.spot
        tgroup, gweights = self.weight_groups(tuples)
        self.units_are_samples = True
        if not spot.game.stud:
            return self._board_walks(tuples, tgroup, gweights)

        # stud: one exact run of the fixed-hand engine per combination of holdings
        gw = np.array(gweights, dtype=object)
        ntup = len(tuples)

        def weighted(out):  # int64[groups, n, n + 1, n + 2] -> Python-int counts
            return np.tensordot(gw, out.astype(object), axes=(0, 0))

        holdings = np.vstack(self.blocks)
        runouts = spot.runouts
        backend = self.planned.backend
        per_batch = self.planned.units_per_batch()  # a unit: one combination

        if backend == "numba" and self.planned.ns_per_unit > self.planned.batch_seconds * 1e9:
            # one combination is longer than a batch: each walked in slices of its outer
            # indices (a progress callback and a Ctrl-C point after each)
            return self._loop(self._stud_slices(tuples, tgroup, holdings, weighted, len(gweights)),
                              exact=True, total_hint=ntup * runouts)

        def batches(nthreads):
            for first in range(0, ntup, per_batch):
                def run(first=first):
                    out = np.zeros((len(gweights), spot.n, spot.n + 1, spot.n + 2), dtype=np.int64)
                    stop = min(first + per_batch, ntup)
                    for t in range(first, stop):
                        holes = [holdings[r].tolist() for r in tuples[t]]
                        out[tgroup[t]] += fixed_exact_counts(spot, holes, nthreads,
                                                             backend=backend)
                    return weighted(out), (stop - first) * runouts

                yield run

        return self._loop(batches, exact=True, total_hint=ntup * runouts)

    def _stud_slices(self, tuples, tgroup, holdings, weighted, ngroups):
        """``batches(nthreads)`` walking each stud combination of holdings in slices of
        about the plan's batch seconds (see :func:`.runner.exact_batches`)."""
        from .. import kernels as K
        from ..cards import cards_str

        spot = self.spot
        g = spot.game
        KT, G, binom = K.kernel_tables(), K.game_flags(g), K.binomials()
        runouts = spot.runouts

        def batches(nthreads):
            for t in range(len(tuples)):
                holes = [holdings[r].tolist() for r in tuples[t]]
                used = {c for h in holes for c in h}
                sub = Spot(g, holes, spot.board, spot.dead, [c for c in spot.unseen if c not in used],
                           [cards_str(h) for h in holes], k=spot.k, mo=spot.mo, shared=spot.shared)
                masks, hv, lv = parallel(K.stud_tables, KT, G, np.array(holes, dtype=np.uint8),
                                         np.array(sub.unseen, dtype=np.uint8), sub.mo, sub.shared,
                                         binom, threads=nthreads)
                outer = hv.shape[1] * hv.shape[2]
                per_outer = max(exact_cost_ns(sub), 1.0) / outer
                step = max(1, int(self.planned.batch_seconds * 1e9 * nthreads / per_outer))
                group = int(tgroup[t])
                for first in range(0, outer, step):
                    count = min(step, outer - first)

                    def run(first=first, count=count, masks=masks, hv=hv, lv=lv, group=group):
                        out = np.zeros((ngroups, spot.n, spot.n + 1, spot.n + 2), dtype=np.int64)
                        out[group] = K.stud_exact(G, masks, hv, lv, sub.shared, first, count,
                                                  max(1, -(-count // (nthreads * 16))))
                        # the run-outs this slice stands for (its share of the combination's)
                        done = runouts * (first + count) // outer - runouts * first // outer
                        return weighted(out), done

                    yield run

        return batches

    def _suit_classes(self, tuples, tgroup, gweights):
        """One combination of holdings per suit-renaming class (see :mod:`pokereval.suits`):
        ``(tuples, tgroup, gweights, multiplicity of each kept combination)``, a weight
        group per (weight group, class size); the multiplicity is None when no renaming
        applies (each combination stands for itself).  The plan's count of the walks and
        the walk itself ask for the same ``tuples``: they are classed once."""
        from ..suits import classes, symmetries

        if self._classes is not None and self._classes[0] is tuples:
            return self._classes[1]
        spot = self.spot
        maps = symmetries(self.blocks, self.weights, spot.board + spot.dead)
        if not maps:
            found = (tuples, tgroup, gweights, None)
        else:
            starts = np.concatenate([[0], np.cumsum([len(b) for b in self.blocks])[:-1]])
            first, sizes = classes(tuples.astype(np.int64) - starts.astype(np.int64), maps)
            pairs, group = np.unique(np.stack([tgroup[first], sizes], axis=1), axis=0,
                                     return_inverse=True)
            weights = [gweights[int(tg)] * int(m) for tg, m in pairs.tolist()]
            found = (tuples[first], group.reshape(-1).astype(np.int64), weights,
                     sizes.astype(np.int64))
        self._classes = (tuples, found)
        return found

    # -- Monte Carlo -------------------------------------------------------------
    def run_mc_ranged(self) -> EquityResult:
        seed, total = self._mc_seed_and_total()
        call = self.mc_call(seed, total)
        tally = {"accepted": 0, "tries": 0}

        def checked_call(first, size):
            c, info = call(first, size)
            wanted = np.minimum(MC_CHUNK, total - (first + np.arange(size)) * MC_CHUNK)
            accepted, tries = int(info[:, 0].sum()), int(info[:, 1].sum())
            tally["accepted"] += accepted
            tally["tries"] += tries
            self.acceptance = tally["accepted"] / max(tally["tries"], 1)
            if np.any(info[:, 0] < wanted):
                raise HandError(
                    f"the players' ranges almost never fit together: {accepted:,} of "
                    f"{tries:,} random draws of holdings shared no card (under "
                    f"1/{MAX_TRIES_FACTOR}); narrow the ranges")
            return c

        return self._mc_loop(checked_call, total, self.planned.stderr)

    def mc_call(self, seed, total: int):
        """``call(first_chunk, nchunks) -> (counts, info int64[nchunks, 2])``: the Monte Carlo
        chunks of ``total`` samples seeded ``seed``, in C (``csrc/ranged_mc.c``; the chunks
        split over the threads), ``info[c]`` = (accepted, attempts) of each chunk."""
        spot = self.spot
        kind = self._kinds(dealt=not spot.game.stud)
        # a random hand is dealt from the deck: its holdings need not travel
        blocks = [b[:1] if k == PlayerKind.DEALT else b for b, k in zip(self.blocks, kind)]
        # a one-holding range's cards never come: out of the deck, not rejected per card
        fixed = {int(c) for b, k in zip(blocks, kind) if k == PlayerKind.EXACT for c in b[0]}
        deck = np.array([c for c in spot.unseen if c not in fixed], dtype=np.uint8)
        g = spot.game
        rows = range_rows(blocks, self.weights)
        known = np.array(spot.board, dtype=np.uint8)
        threads = thread_count(self.opts.threads)

        def part(first: int, count: int):
            return ranged_mc_counts(rows, kind, g.name if g.stud else None, g.exactly_two,
                                    g.low == "eight", known, spot.mo, spot.shared, deck, seed,
                                    first, count, MC_CHUNK, total, MAX_TRIES_FACTOR)

        def call(first_chunk: int, nchunks: int):
            parts = split_chunks(part, first_chunk, nchunks, threads)
            return sum(c for c, _ in parts), np.concatenate([i for _, i in parts])

        return call
