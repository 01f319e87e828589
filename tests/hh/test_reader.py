"""The PokerStars reader on every real file copied from the shared folder, and on
malformed input: every hand is read or refused with a one-line reason, and the rest of
the file goes on."""
from __future__ import annotations

import io
import re
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest

import pokereval as pe

DATA = Path(__file__).resolve().parents[1] / "data" / "pokerstars_hh"
FILES = sorted(DATA.glob("*.txt"))

#: hands read per game over the copied files (every hand of the files; 19 refused)
READ = {"omaha-hilo": 109, "holdem": 48, "stud": 30, "razz": 29, "stud-hilo": 28,
        "omaha5-hilo": 3, "courchevel": 2, "courchevel-hilo": 1, "omaha": 1}


def _headers(path: Path) -> int:
    text = path.read_text(encoding="utf-8-sig")
    return len(re.findall(r"^\ufeff?PokerStars .*#\d+:", text, flags=re.M))


def test_files_are_copied():
    assert len(FILES) == 24


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name[:50])
def test_every_hand_read_or_refused(path):
    items = list(pe.read_hands(path))
    assert len(items) == _headers(path)  # one item per hand: read, or refused
    for item in items:
        if item.ok:
            assert item.seats and item.actions and item.collected
            assert item.game in READ
        else:
            assert item.hand_id and item.reason and "\n" not in str(item)


def test_hands_read_per_game():
    items = [x for p in FILES for x in pe.read_hands(p)]
    assert Counter(x.game for x in items if x.ok) == READ
    refused = Counter(x.reason.split(": ", 1)[-1] for x in items if not x.ok)
    assert refused == {"Triple Draw 2-7 Lowball Limit is not a game pokereval plays": 18,
                       "hand cancelled": 1}


def _hand(name: str, hand_id: str):
    return next(h for h in pe.read_hands(DATA / name) if h.hand_id == hand_id)


def test_fields_of_a_cash_hand():
    h = _hand("cash-Flop-5-Card-PLO8-6max-USD-2.00-4.00-201304.txt", "96961585867")
    assert (h.game, h.limit, h.stakes, h.currency, h.unit) == (
        "omaha5-hilo", "pot limit", (200, 400), "USD", Decimal("0.01"))
    assert (h.button, h.total_pot, h.rake, h.collected) == (6, 1800, 81, {4: 1719})
    assert h.cards == {6: ("Td", "Kh", "3d", "4s", "9d")} and h.hero == 6
    assert h.board == ("Jc", "6c", "Kd", "9c", "Ad")
    assert [(a.street, a.kind, a.amount) for a in h.actions if a.seat == 5] == [
        ("preflop", "raise", 800), ("flop", "check", 0), ("turn", "check", 0),
        ("river", "fold", 0)]


def test_stud_cards_and_shared_river_card():
    h = _hand("cash-Stud-7-Stud-USD-0.04-0.08-200907.Missing.Showdown.Card.txt", "30506593746")
    assert h.board == ("6h",) and h.button is None
    assert h.cards[3] == ("7s", "Qs", "6c", "7h", "3s", "Qh")
    assert h.cards[2][:2] == ("??", "??")  # folded, never shown


def test_unreadable_card_is_a_note_not_a_guess():
    h = _hand("tour-Stud-Triple-Stud-USD-2.00-0.20-MTT-201301.txt", "91733835979")
    assert h.cards[1] == ("Ah", "3c", "Ac", "8h", "Qd", "As", "??")
    assert any("'of'" in n for n in h.notes) and h.mixed == "Triple Stud"


def test_run_twice_boards():
    h = _hand("cash-Flop-PL-Courchevel-HL-6max-USD-1.00-2.00-201303.Run.It.Twice.txt",
              "97007286518")
    assert h.run_twice and [len(b) for b in h.boards] == [5, 5]
    assert h.boards[0][:3] == h.boards[1][:3] and h.collected == {3: 10187, 4: 6113}


GOOD = (DATA / "cash-Stud-HH20110417_Salm_IX_-_0.04-0.08_Ante_0.01_-_USD_Limit_Stud.txt"
        ).read_bytes()
ONE = (DATA / "cash-Flop-5-Card-PLO8-6max-USD-2.00-4.00-201304.txt").read_bytes()


def _read(data: bytes, **kw):
    return list(pe.read_hands(io.BytesIO(data), **kw))


def test_truncated_hand_is_refused_and_the_next_is_read():
    cut = ONE[:ONE.index(b"*** RIVER")]
    items = _read(cut + b"\n" + GOOD)
    assert [x.ok for x in items] == [False, True]
    assert "ends before its summary" in items[0].reason and items[0].hand_id == "96961585867"


def test_garbage_between_and_inside_hands():
    inside = ONE.replace(b"Player1: checks\n", b"Player1: checks\n#@! garbage here\n", 1)
    items = _read(b"garbage first\nmore garbage\n\n" + ONE + b"\n\nstray line\n\n" + inside + b"\n" + GOOD)
    assert [x.ok for x in items] == [False, True, False, False, True]
    assert items[0].hand_id is None and "outside any hand" in items[0].reason
    assert "unrecognised line '#@! garbage here'" in items[3].reason
    assert re.match(r"line \d+: ", items[3].reason)


def test_wrong_encoding_is_named_and_can_be_given():
    latin = ONE.replace(b"Player2", b"Jos\xe9")
    items = _read(latin + b"\n\n" + GOOD)
    assert [x.ok for x in items] == [False, True]
    assert "is not utf-8 text" in items[0].reason
    [hand] = _read(latin, encoding="latin-1")
    assert hand.ok and hand.seat_of("José") == 5


def test_utf16_file():
    [hand] = _read(ONE.decode().encode("utf-16"))
    assert hand.ok and hand.hand_id == "96961585867"


def test_streams_without_reading_ahead():
    text = ONE.decode()
    consumed = []

    def lines():
        for i in range(1000):
            for line in text.splitlines(keepends=True):
                consumed.append(i)
                yield line
            yield "\n\n"

    first = next(iter(pe.read_hands(lines())))
    assert first.ok and max(consumed) <= 1  # only the first hand (and a line) was read


def test_refused_reason_is_one_line():
    [r] = _read(b"PokerStars Hand #5:  Razz Limit ($1/$2 USD) - 2020/01/01 1:00:00 ET\n"
                b"Table 'x' 8-max\nSeat 1: A ($5 in chips)\nA: posts the ante $0.\n")
    assert not r.ok and "\n" not in str(r)
