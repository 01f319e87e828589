"""All-in EV in chips: each player's expected chips back over every run-out.

Every run-out is settled with the same rules as :func:`settle` (side pots,
hi/lo halves, ties, odd chips, rake).  Fast path: the C batch evaluator values
every player on every run-out; the settlement of a run-out depends only on the
*order* of those values (and, in stud, on the odd-chip card order), so run-outs
are grouped by that signature and each distinct signature is settled once.

>>> r = allin_ev("omaha-hilo", {1: "AhAd2c3s", 2: "KsKdQhJh"}, "7c8d5hTs",
...              contributions={1: 100, 2: 100, 3: 1}, folded=[3], button=3)
>>> r.exact, r.samples, r.ev_fraction
(True, 40, {1: Fraction(3717, 20), 2: Fraction(303, 20), 3: Fraction(0, 1)})
"""
from __future__ import annotations

import secrets
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ..cards import cards_str, check_disjoint, parse_cards
from ..classes import subsets
from ..evaluate import evaluate_batch
from ..errors import HandError
from ..games import Game
from ..equity.deal import stud_deals
from ..equity.options import parse_options
from ..equity.spot import parse_spot
from .chips import check_chips, clockwise, require
from .showdown import build_layers, odd_chip_rule, pot_rakes, read_table, split_pot

__all__ = ["AllinResult", "allin_ev", "AUTO_EXACT_RUNOUTS", "DEFAULT_SAMPLES"]

#: ``exact=None`` enumerates when there are at most this many run-outs (board games).
AUTO_EXACT_RUNOUTS = 2_000_000
#: Stud run-outs are dealt by a Python generator: a lower bound for the auto choice.
AUTO_EXACT_STUD = 200_000
#: ``exact=True`` refuses stud spots with more run-outs than this (they are dealt in Python).
MAX_EXACT_STUD = 3_000_000
#: Samples when ``allin_ev`` chooses to sample.
DEFAULT_SAMPLES = 200_000
#: Run-outs valued per batch (bounds memory).
BATCH = 1 << 18


@dataclass(frozen=True)
class AllinResult:
    """``ev``: each seat's expected chips back (floats; exact: ``ev_fraction`` too).
    ``std_error``: per seat, 0 when exact.  ``pots``: (amount after rake, eligible seats)."""

    game: str
    ev: dict[int, float]
    ev_fraction: dict[int, Fraction] | None
    std_error: dict[int, float]
    exact: bool
    samples: int
    pots: tuple[tuple[int, tuple[int, ...]], ...]
    total: int
    rake: int
    elapsed: float = 0.0
    seed: int | None = field(default=None, repr=False)

    def to_dict(self) -> dict:
        return {"game": self.game, "exact": self.exact, "samples": self.samples,
                "total": self.total, "rake": self.rake, "seed": self.seed,
                "ev": {str(s): v for s, v in self.ev.items()},
                "ev_fraction": (None if self.ev_fraction is None else
                                {str(s): str(v) for s, v in self.ev_fraction.items()}),
                "std_error": {str(s): v for s, v in self.std_error.items()},
                "pots": [{"amount": a, "eligible": list(e)} for a, e in self.pots],
                "elapsed": self.elapsed}


def allin_ev(game: str | Game, hands: Mapping[int, str], board: str = "", dead: str = "", *,
             contributions: Mapping[int, int], folded: Iterable[int] = (),
             button: int | None = None, exact: bool | None = None, samples: int | None = None,
             seed: int | None = None, rake: int = 0, odd_chip: str = "auto") -> AllinResult:
    """Each player's expected chips back when the remaining cards are dealt out
    (everyone still in is all-in, or the betting is over).

    Arguments as :func:`settle`, plus ``dead`` cards and the run options of
    :func:`pokereval.equity`: ``exact=None`` enumerates when cheap, else samples
    (``DEFAULT_SAMPLES``); ``exact=True`` enumerates; ``samples=N`` samples N
    run-outs with ``seed``.  Folded players' cards, if given, are dead cards.
    Stud hands are each live player's known cards (3 to 7, the same number for all).
    """
    started = time.perf_counter()
    g, contrib, folded_set, live, btn, board_cards, cards = read_table(
        game, contributions, folded, button, hands, board)
    opts = parse_options(exact, samples, None, seed, None, None)
    rake = check_chips(rake, "rake")
    dead_cards = parse_cards(dead if dead is not None else "", "dead cards")
    groups = {f"seat {s}": c for s, c in cards.items()}
    groups["board"], groups["dead cards"] = board_cards, dead_cards
    check_disjoint(groups)

    layers = build_layers(contrib, live)
    rakes = pot_rakes(layers, rake)
    showdown = sorted({s for layer in layers if len(layer.eligible) > 1 for s in layer.eligible})
    for s in showdown:
        require(s in cards, f"seat {s} is still in the hand but has no cards "
                            f"(give its hand, or list it in folded)")
    pots = tuple((layer.amount - r, layer.eligible) for layer, r in zip(layers, rakes))
    fixed = {s: 0 for s in contrib}
    for layer, r in zip(layers, rakes):
        if len(layer.eligible) == 1:
            fixed[layer.eligible[0]] += layer.amount - r

    def result(ev, ev_fraction, err, is_exact, n, used_seed):
        return AllinResult(g.name, ev, ev_fraction, err, is_exact, n, pots,
                           sum(contrib.values()), rake, time.perf_counter() - started, used_seed)

    if not showdown:  # nothing to deal: every pot has one contender
        return result({s: float(v) for s, v in fixed.items()},
                      {s: Fraction(v) for s, v in fixed.items()},
                      {s: 0.0 for s in fixed}, True, 1, None)

    folded_cards = [c for s, cs in cards.items() if s not in showdown for c in cs]
    spot = parse_spot(g, [_hand_text(g, s, cards[s]) for s in showdown],
                      cards_str(board_cards), cards_str(dead_cards + folded_cards))
    total = spot.runouts
    limit = AUTO_EXACT_STUD if g.stud else AUTO_EXACT_RUNOUTS
    do_exact = opts.exact if opts.exact is not None else (opts.samples is None and total <= limit)
    used_seed = None
    if do_exact and g.stud and total > MAX_EXACT_STUD:
        raise HandError(f"{g.name} spot has {total:,} run-outs, too many to enumerate here "
                        f"(at most {MAX_EXACT_STUD:,}): give samples=N instead")
    if do_exact:
        batches = _exact_runouts(spot)
    else:
        used_seed = opts.seed if opts.seed is not None else secrets.randbits(63)
        total = opts.samples or DEFAULT_SAMPLES
        batches = _sampled_runouts(spot, total, used_seed)

    settler = _Settler(g, showdown, layers, rakes, btn, odd_chip)
    sums = np.zeros(len(showdown), dtype=object)
    squares = np.zeros(len(showdown), dtype=object)
    seen = 0
    for deal in batches:
        signatures, counts = _signatures(g, spot, deal)
        for sig, count in zip(signatures, counts):
            pay = settler.payoff(tuple(int(x) for x in sig))
            for i, v in enumerate(pay):
                sums[i] += int(count) * v
                squares[i] += int(count) * v * v
        seen += int(counts.sum())
    require(seen == total or not do_exact, "internal error: run-out count mismatch")

    ev_fraction = {s: Fraction(v) for s, v in fixed.items()}
    err = {s: 0.0 for s in fixed}
    for i, s in enumerate(showdown):
        mean = Fraction(int(sums[i]), seen)
        ev_fraction[s] += mean
        if not do_exact and seen > 1:
            var = (Fraction(int(squares[i]), seen) - mean * mean) * Fraction(seen, seen - 1)
            err[s] = float(var / seen) ** 0.5
    ev = {s: float(v) for s, v in ev_fraction.items()}
    return result(ev, ev_fraction if do_exact else None, err, do_exact, seen, used_seed)


def _hand_text(g: Game, seat: int, hole: list[int]) -> str:
    if g.stud:
        require(3 <= len(hole) <= 7, f"{g.name} needs 3 to 7 known cards per player; seat "
                                     f"{seat} has {len(hole)}")
    else:
        require(len(hole) == g.hole, f"{g.name} needs {g.hole} hole cards; seat {seat} has "
                                     f"{len(hole)}")
    return cards_str(hole)


class _Settler:
    """Payoffs (chips per showdown player) of a run-out signature, memoised."""

    def __init__(self, g: Game, seats: list[int], layers, rakes, button, odd_chip):
        self.g, self.seats = g, seats
        self.by_suit = odd_chip_rule(g, odd_chip) == "suit"
        self.order = clockwise(seats, button)
        self.pots = [(layer.amount - r, layer.eligible) for layer, r in zip(layers, rakes)
                     if len(layer.eligible) > 1]
        self.cache: dict[tuple, list[int]] = {}

    def payoff(self, sig: tuple) -> list[int]:
        pay = self.cache.get(sig)
        if pay is not None:
            return pay
        n, seats = len(self.seats), self.seats
        # signature: per player the high rank, the low rank (n = no low), then in stud
        # the rank of the highest card and of the lowest card (0 = first odd chip)
        high = {s: -sig[i] for i, s in enumerate(seats)}
        low = {s: (n - sig[n + i]) for i, s in enumerate(seats)}
        high_order = low_order = self.order
        if self.by_suit:
            high_order = [seats[i] for i in sorted(range(n), key=lambda i: sig[2 * n + i])]
            low_order = [seats[i] for i in sorted(range(n), key=lambda i: sig[3 * n + i])]
        got = {s: 0 for s in seats}
        for amount, eligible in self.pots:
            _, _, shares, _ = split_pot(self.g, amount, eligible, high, low, high_order, low_order)
            for s, v in shares.items():
                got[s] += v
        pay = [got[s] for s in seats]
        self.cache[sig] = pay
        return pay


def _ranks(values: np.ndarray) -> np.ndarray:
    """[rows, n] -> for each entry, how many entries of its row are strictly larger."""
    return (values[:, None, :] > values[:, :, None]).sum(axis=2)


def _signatures(g: Game, spot, deal) -> tuple[np.ndarray, np.ndarray]:
    """Distinct settlement signatures of a batch of run-outs and their counts.
    ``deal``: board games [rows, 5] full boards; stud [rows, n, 7]."""
    n = spot.n
    if g.stud:
        values = [evaluate_batch(g, np.ascontiguousarray(deal[:, p, :])) for p in range(n)]
    else:
        values = [evaluate_batch(g, np.tile(np.array(h, np.uint8), (len(deal), 1)), deal)
                  for h in spot.holes]
    hv = np.stack([v[0] for v in values], axis=1).astype(np.int64)
    lv = np.stack([v[1] for v in values], axis=1).astype(np.int64)
    parts = [_ranks(hv)]
    low_rank = _ranks(lv)
    parts.append(np.where(lv > 0, low_rank, n))
    if g.stud:  # odd-chip card orders: highest card by suit, lowest card by suit (ace low)
        parts.append(_ranks(deal.max(axis=2).astype(np.int64)))
        low_key = ((deal >> 2).astype(np.int64) + 1) % 13 * 4 + (deal & 3)
        parts.append(_ranks(-low_key.min(axis=2)))
    sig = np.concatenate(parts, axis=1).astype(np.int64)
    width = sig.shape[1]
    base = n + 1
    if base ** width < (1 << 62):  # pack into one integer: a much faster unique
        packed = sig @ (base ** np.arange(width, dtype=np.int64))
        keys, first, counts = np.unique(packed, return_index=True, return_counts=True)
        return sig[first], counts
    uniq, counts = np.unique(sig, axis=0, return_counts=True)
    return uniq, counts


def _exact_runouts(spot):
    g = spot.game
    if not g.stud:
        extra = np.array(spot.unseen, dtype=np.uint8)[subsets(len(spot.unseen), spot.k)]
        board = np.array(spot.board, dtype=np.uint8)
        for lo in range(0, len(extra), BATCH):
            part = extra[lo:lo + BATCH]
            yield np.hstack([np.tile(board, (len(part), 1)), part])
        return
    chunk = []
    for deal in stud_deals(spot):  # the engine's own stud run-out walk
        chunk.append(deal)
        if len(chunk) == BATCH:
            yield np.array(chunk, dtype=np.uint8)
            chunk = []
    if chunk:
        yield np.array(chunk, dtype=np.uint8)


def _sampled_runouts(spot, samples: int, seed: int):
    """Uniform random run-outs: each row takes the first cards of a random permutation."""
    rng = np.random.default_rng(seed)
    unseen = np.array(spot.unseen, dtype=np.uint8)
    g, n = spot.game, spot.n
    need = spot.k if not g.stud else spot.mo * n + int(spot.shared)
    for lo in range(0, samples, BATCH // 4):
        rows = min(BATCH // 4, samples - lo)
        picks = unseen[np.argsort(rng.random((rows, len(unseen))), axis=1)[:, :need]]
        if not g.stud:
            yield np.hstack([np.tile(np.array(spot.board, np.uint8), (rows, 1)), picks])
            continue
        hands = []
        for p in range(n):
            own = picks[:, p * spot.mo:(p + 1) * spot.mo]
            parts = [np.tile(np.array(spot.holes[p], np.uint8), (rows, 1)), own]
            if spot.shared:
                parts.append(picks[:, -1:])
            hands.append(np.hstack(parts))
        yield np.stack(hands, axis=1)
