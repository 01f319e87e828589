"""The run options of an equity request (exact or sampled, how many samples, seed,
threads, progress), validated with one-line errors (``error.field == "option"``).
"""
from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..errors import HandError

__all__ = ["Options", "parse_options", "MAX_SAMPLES", "DEFAULT_STDERR", "DEFAULT_MAX_SAMPLES"]

#: Most samples one run may take (about an hour on 16 cores); a stderr target
#: that needs more stops here.
MAX_SAMPLES = 1_000_000_000_000
#: Monte Carlo precision target when ``equity`` chooses to sample.
DEFAULT_STDERR = 0.001
#: Sample cap when ``equity`` chooses to sample.
DEFAULT_MAX_SAMPLES = 10_000_000


@dataclass(frozen=True)
class Options:
    """What the caller asked for; ``None``: left to the plan."""

    exact: bool | None
    samples: int | None
    stderr: float | None
    seed: int | None
    threads: int | None
    progress: Callable | None


def _bad(message: str) -> HandError:
    return HandError(message, field="option")


def _as_int(value, name: str, minimum: int | None = 1) -> int:
    if isinstance(value, bool):
        raise _bad(f"{name} must be a whole number, got {value!r}")
    try:
        number = operator.index(value)
    except TypeError:
        if isinstance(value, float) and value.is_integer():
            number = int(value)
        else:
            raise _bad(f"{name} must be a whole number, got {value!r}") from None
    if minimum is not None and number < minimum:
        raise _bad(f"{name} must be at least {minimum}, got {value!r}")
    return number


def parse_options(exact, samples, stderr, seed, threads, progress) -> Options:
    """The validated :class:`Options` (a seed reduced modulo 2**64)."""
    if exact is not None and not isinstance(exact, (bool, np.bool_)):
        raise _bad(f"exact must be True, False or None, got {exact!r}")
    exact = None if exact is None else bool(exact)
    if samples is not None:
        samples = _as_int(samples, "samples")
        if samples > MAX_SAMPLES:
            raise _bad(f"samples must be at most {MAX_SAMPLES:,} (the limit of one run), "
                       f"got {samples:,}")
    if stderr is not None:
        if isinstance(stderr, bool):
            raise _bad(f"stderr must be a number, got {stderr!r}")
        try:
            value = float(stderr)
        except (TypeError, ValueError):
            raise _bad(f"stderr must be a number, got {stderr!r}") from None
        if not (0.0 < value < 1.0):
            raise _bad(f"stderr must be a standard error of equity between 0 and 1 "
                       f"(e.g. 0.001), got {stderr!r}")
        stderr = value
    if exact is True and (samples is not None or stderr is not None):
        given = f"samples={samples}" if samples is not None else f"stderr={stderr}"
        raise _bad(f"exact=True enumerates every run-out; it cannot be combined with {given}")
    if seed is not None:
        seed = _as_int(seed, "seed", minimum=None) % (1 << 64)
    if threads is not None:
        threads = _as_int(threads, "threads")
    if progress is not None and not callable(progress):
        raise _bad(f"progress must be a callable or None, got {progress!r}")
    return Options(exact, samples, stderr, seed, threads, progress)
