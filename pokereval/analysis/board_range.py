"""Board and dead cards written as ranges (``board="K**"``, ``"Aw9x2y"``,
``"*s*s*s"``): equity averaged over every board (and dead-card set) the range
matches, dealt jointly with the players' hands.

ProPokerTools: "Generic Syntax may also be used to specify the board and dead
cards."  A board range is read with :func:`pokereval.ranges.parse_range` as a
list of card sets whose size is its longest pattern (``K**`` = three cards:
every flop with a king); shorter patterns are padded with ``*``.

Meaning: a (board, dead, holdings) combination is drawn with probability
proportional to the product of the board's, the dead set's and the holdings'
weights over every combination whose cards do not collide; then the rest of the
board.  So a board that collides with an exact hand is skipped, and with ranged
players each board weighs as much as the holdings it leaves.

* **Exact** (``exact=True``, or automatically when every board's exact run is
  cheap in total and no player is a range): every matching board is enumerated
  exactly and the outcome counts are added, each scaled by its weight, so the
  result is the exact weighted average (``equity_fraction`` included).
* **Monte Carlo** otherwise (:mod:`.board_sampling`): boards and run-outs are
  sampled jointly to ``samples`` or ``stderr`` like any other run (by default the
  engine's ``DEFAULT_STDERR``, at most ``DEFAULT_MAX_SAMPLES``): every board gets
  samples in proportion to its weight (stratified, so the standard error is the
  within-board one, as precise as a plain run), in rounds until the target is met;
  ``progress`` sees partial results and Ctrl-C returns one (``partial=True``).  With
  more boards than the sample budget can cover, ``MC_DRAWS`` boards a round are drawn
  by weight instead, and the standard error is between the draws.
"""
from __future__ import annotations

import dataclasses
import math
import secrets
import time
from fractions import Fraction

import numpy as np

from ..cards import cards_str, check_disjoint, parse_cards
from ..equity.options import parse_options
from ..equity.plan import (AUTO_EXACT_SECONDS, MAX_EXACT_SECONDS, check_exact_cost,
                           check_reachable, stderr_reachable, tuple_cost_ns, walk_cost_ns)
from ..equity.results import EquityResult, player_results
from ..equity.run import run, whole_weights
from ..equity.spot import parse_spot, read_hands
from ..errors import CardError, HandError, PokerEvalError, about
from ..games import Game, check_hole_counts, get_game
from ..ranges import RangeError, parse_range
from ..suits import board_classes, renamings_fixing, renamings_keeping
from .board_sampling import MC_DRAWS, sample_boards

__all__ = ["is_card_range", "card_range", "equity_over_boards", "MAX_DEALS", "MC_DRAWS"]

MAX_DEALS = 100_000
"""The most (board, dead) combinations one question may list."""
MAX_DEAL_BYTES = 1 << 30
"""The most memory the spots of every (board, dead) combination may take: each keeps its
players' ranges with the board's cards removed (an Omaha range is megabytes), so a wide
board range against a wide hand range is refused up front with the estimate."""
#: Seconds between two progress reports while the boards are read (a stop raised there
#: ends the read: many boards with ranges take seconds to read).
READ_REPORT_SECONDS = 0.2
_MAX_DEAD = 20  # the most cards a dead-card range may name


def is_card_range(text) -> bool:
    """True when ``text`` is range syntax rather than plain cards (``"K**"``, not ``"Kh7c"``)."""
    if not isinstance(text, str) or not text.strip():
        return False
    try:
        parse_cards(text)
    except CardError:
        return True
    return False


def card_range(game: str | Game, text: str, what: str) -> tuple[np.ndarray, np.ndarray]:
    """The card sets a board (``what="board"``) or dead-card range stands for:
    ``(uint8 [k, m] sorted rows, float64 [k] weights)``; ``m`` is the longest pattern."""
    g = get_game(game)
    if what == "board" and g.stud:
        raise HandError(f"{g.name} has no board, got board range {text!r}")
    most = g.board if what == "board" else _MAX_DEAD
    # Read as a stud-like "game" whose hand is the longest pattern (1..most cards).
    pseudo = dataclasses.replace(g, name=f"{g.name} {what}", hole=most, stud=True, min_known=1,
                                 board=0, min_board=0, aliases=())
    try:
        rng = parse_range(pseudo, text, ordered=False)  # boards and dead cards are sets
    except RangeError as error:
        raise RangeError(f"{what}: {error}", error.text, error.position) from None
    return rng.holdings, rng.weights


def _deals(g: Game, board, dead):
    """[(board cards, dead cards, weight)] for every disjoint board x dead choice."""
    def options(text, what):
        with about("board" if what == "board" else "dead"):  # what the error is about
            if is_card_range(text):
                return card_range(g, text, what)
            cards = parse_cards(text if text is not None else "", what)
        return np.array([cards], np.uint8).reshape(1, -1), np.ones(1)

    boards, bw = options(board, "board")
    deads, dw = options(dead, "dead cards")
    if len(boards) * len(deads) > MAX_DEALS:
        raise HandError(f"the board and dead-card ranges make {len(boards) * len(deads):,} "
                        f"combinations; the limit is {MAX_DEALS:,}")
    boards, deads = boards.tolist(), deads.tolist()
    bw, dw = bw.tolist(), dw.tolist()
    out = []
    for b, wb in zip(boards, bw):
        for d, wd in zip(deads, dw):
            if not set(b) & set(d):
                out.append((b, d, wb * wd))
    return out


def _read_once(g: Game, hands, ordering=None) -> tuple[list, list]:
    """:func:`.equity.spot.read_hands`, plus the checks that do not depend on the board
    (exact hands sharing a card, their counts): a fault of the hands is named at once,
    not after up to MAX_DEALS boards, each failing its own way."""
    hands, read = read_hands(g, hands, ordering=ordering)
    exact = {f"player {i + 1}": cards for i, (cards, _) in enumerate(read) if cards is not None}
    try:
        check_disjoint(exact)
    except CardError as error:  # about the later of the two players, as in parse_spot
        seen: set[int] = set()
        for i, (cards, _) in enumerate(read):
            if cards is not None and (seen.intersection(cards) or len(set(cards)) < len(cards)):
                error.field, error.player = "player", i
                break
            seen.update(cards or ())
        raise
    if len(exact) == len(read):
        check_hole_counts(g, [len(c) for c in exact.values()], [cards_str(c) for c in exact.values()])
    return hands, read


def equity_over_boards(game, hands, board="", dead="", *, exact=None, samples=None, stderr=None,
                       seed=None, threads=None, progress=None, ordering=None) -> EquityResult:
    """:func:`pokereval.equity` when the board or the dead cards are a range
    (see the module docstring); ``progress(partial result)`` is called while sampling;
    ``ordering``: what percent terms in the hands cut."""
    started = time.perf_counter()
    g = get_game(game)
    opts = parse_options(exact, samples, stderr, seed, threads, progress)
    hands, read = _read_once(g, hands, ordering)  # a list from here on, each hand read once
    held = _held_cards(read)
    listed = _deals(g, board, dead)
    # boards a renaming of the suits maps onto each other (keeping every hand) have the
    # same counts: an exact walk visits one of each class (not in stud, whose deals
    # have an order the renaming would have to keep too)
    renamings = renamings_keeping(read) if opts.exact is True else []
    listed = (board_classes(listed, renamings) if renamings and not g.stud
              else [(*x, 1) for x in listed])
    if opts.exact is True:
        _refuse_early(g, hands, read, listed, renamings)
    _check_memory(g, hands, read, listed)
    deals, errors = [], []

    def reading(deals):
        """Between boards while reading: a progress report (nothing counted yet), so a
        stop raised there ends a long read."""
        spot = deals[0][5]
        nothing = np.zeros((spot.n, spot.n + 1, spot.n + 2), dtype=object)
        opts.progress(_partial_exact(g, spot, board, dead, nothing, 0, started, 0,
                                     sum(x[3] for x in listed)))
    try:
        skipped = _read_boards(g, hands, read, held, listed, deals, errors,
                               reading if opts.progress is not None else None)
    except KeyboardInterrupt:  # Ctrl-C while the boards were read: nothing counted yet
        if not deals:
            raise
        spot0 = deals[0][5]
        n = spot0.n
        return _partial_exact(g, spot0, board, dead, np.zeros((n, n + 1, n + 2), dtype=object),
                              0, started, 0, sum(x[3] for x in deals))
    if not deals:
        if not errors:  # every board listed shares a card with the dead cards
            raise HandError(f"no board of {board!r} can be dealt with dead {dead!r}: every "
                            "one uses a dead card", field="board")
        if len({str(e) for e in errors}) == 1 and not skipped:  # one board, one fault
            raise errors[0]
        raise HandError(f"no board of {board!r} (dead {dead!r}) fits the hands: every one "
                        f"uses a card they hold (first: {errors[0]})",
                        field="board" if is_card_range(board) else "dead")
    spot0 = deals[0][5]
    ranged = spot0.ranged
    boards = sum(x[3] for x in deals)  # every (board, dead) choice, each class's members
    if opts.exact is True:
        # the whole walk, every board, against the one-hour limit (each board alone may
        # be well under it: a board range multiplies the work)
        check_exact_cost(_exact_cost_over(deals, renamings), f"{boards:,} boards")
        use_exact = True
    elif (opts.exact is None and opts.samples is None and not ranged
          and (opts.stderr is None or not stderr_reachable(opts))):
        # as a plain run: exact when cheap, and so for a stderr no sample count reaches
        use_exact = sum(walk_cost_ns(s) for *_, s in deals) <= AUTO_EXACT_SECONDS * 1e9
    else:
        use_exact = False
    if not use_exact:  # a stderr out of reach would sample for hours: refused, as plain
        check_reachable(opts)
    threads = opts.threads

    def scale(spot) -> Fraction:
        """How much the exact run scaled this board's weighted counts (the hands'
        weights are made whole numbers per run; see equity.run.whole_weights)."""
        factor = Fraction(1)
        for r in spot.ranges:
            if r is not None:
                uniq = np.unique(r.weights)
                _, whole = whole_weights(uniq)
                factor *= Fraction(whole[0]) / Fraction(repr(float(uniq[0])))
        return factor

    n = spot0.n
    if use_exact:
        total = np.zeros((n, n + 1, n + 2), dtype=object)
        walked = done = 0
        shown = time.perf_counter()
        def inner(_):
            """Inside one board's walk (between its batches): the boards walked so far to
            the caller's progress, so a stop raised there ends a long board too."""
            nonlocal shown
            if time.perf_counter() - shown > 0.2:
                shown = time.perf_counter()
                opts.progress(_partial_exact(g, spot0, board, dead, total, walked, started,
                                             done, boards))

        try:
            for b, d, w, size, _, spot in deals:
                r = run(spot, parse_options(True, None, None, None, threads,
                                            inner if opts.progress is not None else None),
                        time.perf_counter())
                if r.partial:  # Ctrl-C inside this board's walk: its counts are incomplete
                    raise KeyboardInterrupt
                counts = np.array([p.outcomes for p in r.players], dtype=object)
                total = total + counts * (Fraction(repr(w)) * size / scale(spot))
                walked += r.samples * size  # the run-outs the class's boards stand for
                done += size
                if opts.progress is not None and time.perf_counter() - shown > 0.2:
                    shown = time.perf_counter()
                    opts.progress(_partial_exact(g, spot0, board, dead, total, walked, started,
                                                 done, boards))
        except KeyboardInterrupt:
            return _partial_exact(g, spot0, board, dead, total, walked, started, done, boards)
        denom = math.lcm(*(Fraction(x).denominator for x in total.ravel()))
        counts = np.array([int(Fraction(x) * denom) for x in total.ravel()],
                          dtype=object).reshape(total.shape)
        top = max(abs(int(x)) for x in counts.ravel())
        counts = counts.astype(np.int64) if top < (1 << 62) else counts.astype(np.float64)
        players = player_results(spot0, counts, exact=True, final=True)
        return _result(g, spot0, board, dead, True, walked, started, players, None, boards)

    seed = opts.seed if opts.seed is not None else secrets.randbits(63)
    masses = np.array([m for *_, m, _ in deals], dtype=np.float64)

    def report(counts, samples, std_errors, partial, fraction_done):
        if counts is None:
            counts = np.zeros((n, n + 1, n + 2))
        players = player_results(spot0, counts, exact=False, final=not partial)
        for p, s in zip(players, std_errors if std_errors is not None else [math.inf] * n):
            p.std_error = float(s)
        return _result(g, spot0, board, dead, False, samples, started, players, seed,
                       boards, partial=partial, fraction_done=fraction_done)

    return sample_boards([s for *_, s in deals], masses, opts, seed, report)


def _held_cards(read) -> set[int]:
    """The cards some player surely holds: an exact hand's, and those in every holding of
    a range (the 2c of '2c*').  A board or dead choice with one of them cannot be dealt:
    after the first such fault the others are skipped unread (each read costs a spot
    parse: 58,800 of them for a dead range '**' took 4 s)."""
    held = {c for cards, _ in read if cards is not None for c in cards}
    for cards, rng in read:
        if cards is None and len(rng.holdings):
            rows = np.asarray(rng.holdings, dtype=np.int64)
            every = int(np.bitwise_and.reduce(np.bitwise_or.reduce(np.left_shift(1, rows), axis=1)))
            held.update(c for c in range(52) if (every >> c) & 1)
    return held


def _read_boards(g, hands, read, held, listed, deals: list, errors: list, report=None) -> int:
    """Each (board, dead) choice's spot into ``deals`` (``(board, dead, weight, class
    size, mass, spot)``), the faults of those that collide with a hand into ``errors``;
    ``report(deals)`` every READ_REPORT_SECONDS once a board is read.  Returns how many
    choices were skipped unread (they hold a card of ``held``, after a first fault)."""
    shown = time.perf_counter()
    skipped = 0
    for b, d, w, size in listed:
        if report is not None and deals and time.perf_counter() - shown > READ_REPORT_SECONDS:
            report(deals)
            shown = time.perf_counter()
        if errors and not (held.isdisjoint(b) and held.isdisjoint(d)):
            skipped += 1  # collides with a hand, like the board already reported
            continue
        try:
            spot = parse_spot(g, hands, cards_str(b), cards_str(d), read=(hands, read))
        except PokerEvalError as error:  # this board collides with a hand: not dealt
            errors.append(error)
            continue
        mass = w * size
        for r in spot.ranges:
            if r is not None:
                mass *= float(r.weights.sum())
        deals.append((b, d, w, size, mass, spot))
    return skipped


def _spot_bytes(spot) -> int:
    """The memory one board's spot keeps: its ranges' holdings, weights and card masks."""
    return 2048 + sum(r.holdings.nbytes + 16 * len(r.holdings)
                      for r in spot.ranges if r is not None)


def _check_memory(g, hands, read, listed) -> None:
    """Refuse a question whose boards' spots would take more than MAX_DEAL_BYTES, from
    the size of a few of them (the boards differ in a few cards only)."""
    if not any(rng is not None for _, rng in read) or len(listed) <= 64:
        return
    sizes = []
    for b, d, *_ in listed[::max(1, len(listed) // EARLY_SAMPLE)][:EARLY_SAMPLE]:
        try:
            sizes.append(_spot_bytes(parse_spot(g, hands, cards_str(b), cards_str(d),
                                                read=(hands, read))))
        except PokerEvalError:
            continue
    if not sizes:
        return
    need = sum(sizes) / len(sizes) * len(listed)
    if need > MAX_DEAL_BYTES:
        raise HandError(f"the {len(listed):,} boards of this question would keep about "
                        f"{need / 2 ** 30:,.1f} GiB of ranges (estimated from {len(sizes)} of "
                        f"them), over the limit of {MAX_DEAL_BYTES / 2 ** 30:g} GiB; name fewer "
                        f"boards or narrower ranges", field="board")


#: exact=True over many boards: estimated from this many boards first (every board's
#: spot takes about 1 ms to read), refused at once when that estimate is over
#: EARLY_MARGIN times the limit (the boards differ in a few cards only).
EARLY_SAMPLE, EARLY_MARGIN = 16, 2.0


def _refuse_early(g, hands, read, listed, renamings) -> None:
    """Refuse an exact walk over many boards from the cost of a few of them."""
    if len(listed) <= 4 * EARLY_SAMPLE:
        return
    picked = []
    for b, d, *_ in listed[::max(1, len(listed) // EARLY_SAMPLE)][:EARLY_SAMPLE]:
        try:
            picked.append((b, d, None, 1, None,
                           parse_spot(g, hands, cards_str(b), cards_str(d), read=(hands, read))))
        except PokerEvalError:
            continue
    if not picked:
        return
    cost = _exact_cost_over(picked, renamings) / len(picked) * len(listed)
    if cost > EARLY_MARGIN * MAX_EXACT_SECONDS * 1e9:
        boards = sum(x[3] for x in listed)
        walked = f", {len(listed):,} up to suit renaming" if len(listed) < boards else ""
        check_exact_cost(cost, f"{boards:,} boards{walked} (estimated from {len(picked)} "
                               "of them)")


def _exact_cost_over(deals, renamings) -> float:
    """Estimated single-core nanoseconds of the exact walk over the boards ``deals``
    (one per class: :func:`.suits.board_classes`): fixed hands as the plan estimates one
    board; with ranges, every combination of holdings that fits the board, less what its
    suit classes save (about one class per renaming of ``renamings`` keeping the board)."""
    total = 0.0
    for b, d, *_, spot in deals:
        if not spot.ranged:
            total += walk_cost_ns(spot)
            continue
        combos = math.prod(len(r.holdings) for r in spot.ranges if r is not None)
        total += tuple_cost_ns(spot) * combos / (1 + renamings_fixing(renamings, b + d))
    return total


def _partial_exact(g, spot, board, dead, total, walked, started, done, boards):
    """The figures of the boards walked so far (an interrupted or running exact walk):
    not exact (partial, ``fraction_done`` the share of the boards) and with no standard
    error (infinite: the boards left may differ in any way)."""
    counts = np.array([float(x) for x in total.ravel()]).reshape(total.shape)  # weighted
    players = player_results(spot, counts, exact=False, final=False)
    for p in players:  # the boards not walked yet may differ in any way: no error bar
        p.std_error = math.inf
    return _result(g, spot, board, dead, False, walked, started, players, None, boards,
                   partial=True, fraction_done=done / boards)


def _result(g, spot, board, dead, exact, samples, started, players, seed, boards,
            partial=False, fraction_done=1.0):
    result = EquityResult(
        game=g.name, hands=list(spot.hand_text), board=str(board or ""), dead=str(dead or ""),
        exact=exact, samples=samples, partial=partial, elapsed=time.perf_counter() - started,
        players=players, seed=seed, fraction_done=fraction_done,
        acceptance=None)
    result.boards = boards  # (board, dead) combinations that fit the hands
    return result
