"""Each hand replayed and priced, in this process or on an executor (a process pool, a
Dask cluster): hands are independent, so a long history is cut into batches that run
anywhere and come back in the history's order.

The stream stays a stream: at most ``window`` batches are out at a time, so memory holds
a few batches of hands, never the file.  The batch function is a top-level function of
this module (a pool or a Dask worker imports it by name).
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator

from .model import Hand, Refused
from .pricing import Pricing, price
from .replay import Replay, replay

__all__ = ["judge", "judge_batch", "judged", "BATCH"]

#: hands per batch sent to an executor
BATCH = 200


def judge(hand: Hand, samples: int | None = None) -> tuple[Replay, Pricing]:
    """One hand's replay and all-in price."""
    return replay(hand), price(hand, samples=samples)


def judge_batch(hands: list[Hand], samples: int | None = None) -> list[tuple[Replay, Pricing]]:
    """The replay and price of every hand of a batch (what an executor runs)."""
    return [judge(h, samples) for h in hands]


def judged(items: Iterable[Hand | Refused], samples: int | None = None, *, executor=None,
           batch: int = BATCH, window: int = 8
           ) -> Iterator[tuple[Hand | Refused, Replay | None, Pricing | None]]:
    """(item, replay, pricing) for each item in order; a Refused item comes with Nones.
    ``executor``: anything with ``submit(fn, *args)`` returning a future; None: here."""
    if executor is None:
        for item in items:
            if item.ok:
                yield (item, *judge(item, samples))
            else:
                yield item, None, None
        return
    pending: deque = deque()  # (items of the batch, future or None)
    current: list = []

    def flush():
        hands = [x for x in current if x.ok]
        future = executor.submit(judge_batch, hands, samples) if hands else None
        pending.append((list(current), future))
        current.clear()

    def drain(keep: int):
        while len(pending) > keep:
            chunk, future = pending.popleft()
            results = iter(future.result() if future is not None else ())
            for x in chunk:
                if x.ok:
                    yield (x, *next(results))
                else:
                    yield x, None, None

    for item in items:
        current.append(item)
        if len(current) >= batch:
            flush()
            yield from drain(window)
    if current:
        flush()
    yield from drain(0)
