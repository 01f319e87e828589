"""A long synthetic PokerStars history (real hands repeated with fresh hand numbers)
streams with flat memory: the peak while reading 100,000 hands is that of reading a
few thousand (the reader holds one hand, never the file)."""
from __future__ import annotations

import itertools
import os
import re
import time
import tracemalloc
from pathlib import Path

import pytest

import pokereval as pe

DATA = Path(__file__).resolve().parents[1] / "data" / "pokerstars_hh"
#: files whose hands all read (none refused): Omaha Hi/Lo, stud, razz, hold'em
SOURCES = ("cash-Flop-PLO8-6max-USD-0.01-0.02-200911.txt", "cash-Stud-7-StudHL-USD-0.04-0.08-200911.txt",
           "cash-Stud-Razz-USD-0.04-0.08-200911.txt",
           "tour-Flop-PLO8-9max-USD-STT-5.00-200505.hero.quartered.txt")
_HEADER = re.compile(r"^PokerStars (?:Hand|Game) #(\d+)", re.M)


def _real_hands() -> list[str]:
    hands = []
    for name in SOURCES:
        text = (DATA / name).read_text(encoding="utf-8-sig")
        starts = [m.start() for m in _HEADER.finditer(text)] + [len(text)]
        hands += [text[a:b].strip() + "\n\n\n" for a, b in zip(starts, starts[1:])]
    return hands


def write_synthetic(path: Path, count: int) -> None:
    """``count`` hands: the real ones in turn, each with a fresh hand number."""
    hands = _real_hands()
    with path.open("w", encoding="utf-8") as out:
        for i, text in zip(range(count), itertools.cycle(hands)):
            out.write(_HEADER.sub(lambda m: m.group(0).replace(m.group(1), str(10**11 + i)),
                                  text, count=1))


def _rss() -> int | None:
    """This process's resident memory now (bytes), or None off Linux."""
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def _read(path: Path, traced: bool) -> dict:
    """Hands read and refused, the traced peak (``traced``) or the resident memory's
    growth (sampled every 500 hands), and the seconds of reading ``path`` through."""
    if traced:
        tracemalloc.start()
    try:
        before = _rss()
        grown = 0
        started = time.perf_counter()
        ok = refused = 0
        for hand in pe.read_hands(path):
            ok += hand.ok
            refused += not hand.ok
            if not traced and before is not None and (ok + refused) % 500 == 0:
                grown = max(grown, _rss() - before)
        elapsed = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1] if traced else 0
    finally:
        if traced:
            tracemalloc.stop()
    return {"ok": ok, "refused": refused, "peak": peak, "grown": grown, "seconds": elapsed,
            "size": path.stat().st_size, "rss": before is not None}


def _flat(tmp_path: Path, small: int, large: int, streamed: int) -> dict:
    """tracemalloc's peak over ``small`` and ``large`` hands; resident memory over
    ``streamed`` hands (tracemalloc makes reading five times slower)."""
    files = {}
    for count in (small, large, streamed):
        files[count] = tmp_path / f"{count}.txt"
        write_synthetic(files[count], count)
    few, many, long = (_read(files[small], True), _read(files[large], True),
                       _read(files[streamed], False))
    for count, r in ((small, few), (large, many), (streamed, long)):
        assert (r["ok"], r["refused"]) == (count, 0)
    # the traced peak is a few hands' worth, whatever the count (the file is megabytes)
    assert many["peak"] < 1.25 * few["peak"] + 100_000, (few["peak"], many["peak"])
    assert long["size"] > 50 * many["peak"]
    if long["rss"]:  # loading the file (or keeping its hands) would grow by its size or more
        assert long["grown"] < long["size"] / 4, (long["grown"], long["size"])
    return {"few": few, "many": many, "long": long}


def test_10000_hands_stream_with_flat_memory(tmp_path):
    _flat(tmp_path, 100, 600, 10_000)


@pytest.mark.slow
def test_100000_hands_stream_with_flat_memory(tmp_path):
    f = _flat(tmp_path, 500, 5_000, 100_000)
    long = f["long"]
    print(f"\n100,000 hands, {long['size'] / 1e6:.0f} MB: read in {long['seconds']:.1f} s, "
          f"resident memory grew {long['grown'] / 1e6:.1f} MB; traced peak "
          f"{f['few']['peak'] / 1e3:.0f} kB (500 hands), {f['many']['peak'] / 1e3:.0f} kB "
          f"(5,000 hands)")
