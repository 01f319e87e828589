"""PokerStars hand-history text -> :class:`~pokereval.hh.model.Hand`, one hand at a time.

>>> text = '''PokerStars Hand #1:  Omaha Hi/Lo Pot Limit ($0.01/$0.02 USD) - 2009/11/26 10:00:00 ET
... Table 'T' 6-max Seat #1 is the button
... Seat 1: Ann ($2 in chips)
... Seat 2: Bob ($2 in chips)
... Ann: posts small blind $0.01
... Bob: posts big blind $0.02
... *** HOLE CARDS ***
... Ann: folds
... Uncalled bet ($0.01) returned to Bob
... Bob collected $0.02 from pot
... *** SUMMARY ***
... Total pot $0.02 | Rake $0'''
>>> [hand] = read_pokerstars(text.splitlines())
>>> hand.game, hand.stakes, hand.collected, [a.kind for a in hand.actions][:3]
('omaha-hilo', (1, 2), {2: 2}, ['small blind', 'big blind', 'fold'])

Every line of a hand is read or knowingly passed over (chat, players coming and
going, "Betting is capped"): a line nobody expects refuses the hand, with its line
number, rather than being guessed at.  A refused hand is a
:class:`~pokereval.hh.model.Refused` in the stream and the reading goes on.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from .model import (UNKNOWN, Action, Hand, HandHistoryError, Refused, Seat)
from .pokerstars_header import is_header, read_header, read_table_line, to_units
from .stream import blocks, open_source

__all__ = ["read_pokerstars", "parse_hand"]

_SEAT = re.compile(r"^Seat (\d+): (.+) \(([$€£]?[\d.,]+) in chips[^)]*\)(.*)$")
_STREET = re.compile(r"^\*\*\* (.+?) \*\*\*(.*)$")
_BRACKETS = re.compile(r"\[([^\]]*)\]")
_CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
_AMOUNT = r"([$€£]?[\d,]*\.?\d+)"
_ALL_IN = re.compile(r"\s+and is all-in\b.*$|\s+and has reached the .* cap$")
_ACTIONS = [(re.compile(p + r"$"), kind) for p, kind in (
    (r"posts small & big blinds " + _AMOUNT, "blinds"),
    (r"posts small blind " + _AMOUNT, "small blind"),
    (r"posts big blind " + _AMOUNT, "big blind"),
    (r"posts the ante " + _AMOUNT, "ante"),
    (r"posts " + _AMOUNT, "post"),
    (r"brings in for " + _AMOUNT, "bring-in"),
    (r"bets " + _AMOUNT, "bet"),
    (r"calls " + _AMOUNT, "call"),
    (r"raises " + _AMOUNT + " to " + _AMOUNT, "raise"),
    (r"completes it to " + _AMOUNT, "complete"),
    (r"checks", "check"),
    (r"folds(?: \[([^\]]*)\])?", "fold"),
    (r"shows \[([^\]]*)\](?: \(.*\))?", "show"),
    (r"mucks (?:hand|\[([^\]]*)\])", "muck"),
    (r"doesn't show hand", "quiet"),
)]
#: "NAME: ..." lines that change nothing (the name may not be seated)
_QUIET_COLON = re.compile(r"^.+?: (?:is sitting out|sits out|sitting out|is back|"
                          r"has returned|is disconnected|is connected|timed out.*)$")
#: lines about the table, not the hand (NAME first; NAME may not be seated)
_QUIET = re.compile(r'^(?:.+ said, ".*"?|.+ (?:joins the table at seat #\d+|leaves the table|'
                    r"is sitting out|has timed out.*|is disconnected|is connected|has returned|"
                    r"was removed from the table.*|finished the tournament.*|"
                    r"wins the tournament.*|wins .*bounty.*|wins .* for eliminating .*|"
                    r"re-buys.*|takes the add-on.*|will be allowed to play after the button|"
                    r"is feeling .*)|Betting is capped|Pair on board - a double bet is allowed|"
                    r"No low hand qualified|Hand was run twice|.*has been canceled|"
                    r"The deck is reshuffled)$")
_COLLECT = re.compile(r" collected " + _AMOUNT + r" from ((?:main |side )?pot(?:-\d+)?)$")
_UNCALLED = re.compile(r"^Uncalled bet \(" + _AMOUNT + r"\) returned to (.+)$")
_TOTAL = re.compile(r"^Total pot " + _AMOUNT + r"(.*?)\| Rake " + _AMOUNT)
_SUMMARY_BOARD = re.compile(r"^(?:(FIRST|SECOND) )?Board \[([^\]]*)\]$")
_SUMMARY_WON = re.compile(r"(?:collected|won) \(" + _AMOUNT + r"\)")
_SUMMARY_CARDS = re.compile(r"(?:showed|mucked) \[([^\]]*)\]")

_BOARD_STREETS = {"HOLE CARDS": "preflop", "PRE-FLOP": "preflop", "FLOP": "flop",
                  "TURN": "turn", "RIVER": "river"}
_STUD_STREETS = {"3rd STREET": "3rd", "4th STREET": "4th", "5th STREET": "5th",
                 "6th STREET": "6th", "RIVER": "7th", "7th STREET": "7th"}


def read_pokerstars(source, encoding: str = "utf-8") -> Iterator[Hand | Refused]:
    """Every hand of a PokerStars history (a path, a file, or an iterable of lines), in
    order, as a :class:`Hand` or a :class:`Refused` with its line and reason."""
    lines, name, close = open_source(source, encoding)
    try:
        for block in blocks(lines, is_header):
            if not block.start:
                shown = next((x for x in block.lines if x), "")
                yield Refused(f"{len(block.lines)} line(s) outside any hand, starting "
                              f"{shown[:60]!r}" if shown else
                              f"{len(block.lines)} line(s) not in {encoding}", None,
                              block.line, name)
                continue
            try:
                if block.cut:
                    raise HandHistoryError(f"hand longer than {len(block.lines)} lines")
                yield parse_hand(block.lines, block.line, name, encoding)
            except HandHistoryError as exc:
                hand_id = re.search(r"#(\d+)", block.lines[0] or "")
                yield Refused(str(exc), hand_id.group(1) if hand_id else None, block.line, name,
                              block.lines[0] or "")
    finally:
        if close is not None:
            close()


def parse_hand(lines: list, first_line: int = 1, source: str = "",
               encoding: str = "utf-8") -> Hand:
    """One hand's lines -> :class:`Hand`; raises :class:`HandHistoryError` naming the line."""
    reader = _Reader(first_line, encoding)
    for i, line in enumerate(lines):
        reader.number = first_line + i
        if line is None:
            raise HandHistoryError(f"line {reader.number} is not {encoding} text (give the "
                                   f"file's encoding)")
        try:
            reader.read(line.strip())
        except HandHistoryError as exc:
            if str(exc).startswith("line "):
                raise
            raise HandHistoryError(f"line {reader.number}: {exc}") from None
    return reader.hand(source)


class _Reader:
    def __init__(self, first_line: int, encoding: str):
        self.first_line, self.number, self.encoding = first_line, first_line, encoding
        self.header = None
        self.table: tuple | None = None
        self.seats: dict[int, Seat] = {}
        self.names: dict[str, int] = {}
        self.street = ""
        self.actions: list[Action] = []
        self.cards: dict[int, list[str]] = {}
        self.commit: dict[int, int] = {}
        self.folded: set[int] = set()
        self.reached: dict[int, int] = {}  # stud: cards each player was dealt
        self.street_boards: list[list[str]] = [[], []]
        self.summary_boards: dict[int, list[str]] = {}
        self.summary_won: dict[int, int] = {}
        self.total: int | None = None
        self.rake: int | None = None
        self.in_summary = False
        self.run_twice = False
        self.big_blind = 0
        self.hero: int | None = None
        self.notes: list[str] = []

    # -- helpers ----------------------------------------------------------
    def units(self, text: str) -> int:
        return to_units(text, self.header.unit)

    def split_name(self, text: str, sep: str) -> tuple[int, str] | None:
        """(seat, rest) when ``text`` is a seated player's name followed by ``sep``."""
        start = 0
        while True:
            i = text.find(sep, start)
            if i < 0:
                return None
            seat = self.names.get(text[:i])
            if seat is not None:
                return seat, text[i + len(sep):]
            start = i + 1

    def card_list(self, text: str) -> list[str]:
        out = []
        for token in text.split():
            if _CARD.match(token):
                out.append(token)
            else:
                self.notes.append(f"line {self.number}: card {token[:10]!r} unreadable")
                out.append(UNKNOWN)
        return out

    @property
    def stud(self) -> bool:
        return self.header.game in ("stud", "stud-hilo", "razz")

    # -- lines ------------------------------------------------------------
    def read(self, line: str) -> None:
        if self.header is None:
            self.header = read_header(line)
            return
        if self.table is None:
            self.table = read_table_line(line)
            return
        if not line:
            return
        m = _STREET.match(line)
        if m:
            return self.read_street(m.group(1).strip(), m.group(2))
        if self.in_summary:
            return self.read_summary(line)
        if not self.street:
            m = _SEAT.match(line)
            if m:
                return self.read_seat(m)
        if line == "Hand cancelled":
            raise HandHistoryError("hand cancelled")
        named = self.split_name(line, ": ")
        if named is not None:
            return self.read_action(named[0], named[1])
        m = _COLLECT.search(line)
        if m and line[:m.start()] in self.names:
            seat = self.names[line[:m.start()]]
            self.actions.append(Action(self.street or "showdown", seat, "collect",
                                       self.units(m.group(1)), pot=m.group(2), line=self.number))
            return
        m = _UNCALLED.match(line)
        if m and m.group(2) in self.names:
            seat = self.names[m.group(2)]
            amount = self.units(m.group(1))
            self.commit[seat] = self.commit.get(seat, 0) - amount
            self.actions.append(Action(self.street, seat, "uncalled", amount, line=self.number))
            return
        if line.startswith("Dealt to "):
            named = self.split_name(line[9:], " [")
            if named is not None:
                return self.read_dealt(named[0], "[" + named[1])
        if _QUIET.match(line) or _QUIET_COLON.match(line):
            return
        raise HandHistoryError(f"unrecognised line {line[:60]!r}")

    def read_seat(self, m: re.Match) -> None:
        seat, name = int(m.group(1)), m.group(2)
        if seat in self.seats or name in self.names:
            raise HandHistoryError(f"seat {seat} ({name!r}) is listed twice")
        self.seats[seat] = Seat(seat, name, self.units(m.group(3)),
                                "sitting out" in m.group(4) or "out of hand" in m.group(4))
        self.names[name] = seat

    def read_street(self, title: str, rest: str) -> None:
        if title == "SUMMARY":
            self.in_summary = True
            return
        if "DRAW" in title or title == "DEALING HANDS":
            raise HandHistoryError(f"draw games are not played by pokereval ({title})")
        run = 0
        for prefix, index in (("FIRST ", 0), ("SECOND ", 1)):
            if title.startswith(prefix):
                title, run = title[len(prefix):], index
                self.run_twice = True
        if title == "SHOW DOWN":
            self.street = "showdown"
            return
        names = _STUD_STREETS if self.stud else _BOARD_STREETS
        if title not in names:
            raise HandHistoryError(f"unknown street {title!r} for {self.header.game}")
        street = names[title]
        if street != self.street and self.street:  # blinds count on the first street
            self.commit = {}
        self.street = street
        if self.stud:
            for seat in self.cards:
                if seat not in self.folded:
                    self.reached[seat] = 3 + ("3rd", "4th", "5th", "6th", "7th").index(street)
        groups = _BRACKETS.findall(rest)
        if groups:
            cards = " ".join(groups).split()
            if all(_CARD.match(c) for c in cards) and len(set(cards)) == len(cards):
                self.street_boards[run] = cards
                if run == 1 and not self.street_boards[0]:
                    self.street_boards[0] = cards[:]
            else:
                self.notes.append(f"line {self.number}: board on the {street} unreadable "
                                  f"({rest.strip()[:40]!r})")

    def read_summary(self, line: str) -> None:
        m = _TOTAL.match(line)
        if m:
            self.total, self.rake = self.units(m.group(1)), self.units(m.group(3))
            return
        m = _SUMMARY_BOARD.match(line)
        if m:
            self.summary_boards[1 if m.group(1) == "SECOND" else 0] = m.group(2).split()
            return
        m = re.match(r"^Seat (\d+): ", line)
        if m and int(m.group(1)) in self.seats:
            seat = int(m.group(1))
            rest = line[m.end() + len(self.seats[seat].name):]
            won = [self.units(x) for x in _SUMMARY_WON.findall(rest)]
            if won:
                self.summary_won[seat] = sum(won)
            shown = _SUMMARY_CARDS.search(rest)
            if shown:
                self.show(seat, self.card_list(shown.group(1)))
            return
        if _QUIET.match(line):
            return
        raise HandHistoryError(f"unrecognised summary line {line[:60]!r}")

    def read_action(self, seat: int, rest: str) -> None:
        all_in = bool(_ALL_IN.search(rest))
        text = _ALL_IN.sub("", rest).strip()
        for pattern, kind in _ACTIONS:
            m = pattern.match(text)
            if m:
                break
        else:
            if _QUIET_COLON.match(f"x: {text}"):
                return
            if text.startswith(("discards", "stands pat")):
                raise HandHistoryError("draw games are not played by pokereval")
            raise HandHistoryError(f"unrecognised action {text[:60]!r}")
        amount, to, cards = 0, 0, ()
        if kind in ("show", "muck", "fold"):
            if m.group(1):
                cards = tuple(self.card_list(m.group(1)))
                self.show(seat, list(cards))
            if kind == "fold":
                self.folded.add(seat)
            if kind == "quiet":
                return
        elif kind == "quiet":
            return
        elif kind in ("check",):
            pass
        elif kind == "raise":
            to = self.units(m.group(2))
            amount = to - self.commit.get(seat, 0)
            if amount <= 0:
                raise HandHistoryError(f"raise to {m.group(2)} puts in nothing")
            self.commit[seat] = to
        elif kind == "complete":
            to = self.units(m.group(1))
            amount, kind = to - self.commit.get(seat, 0), "raise"
            self.commit[seat] = to
        else:
            amount = self.units(m.group(1))
            if kind == "blinds":  # the small blind part is dead money
                live = self.big_blind or amount - amount // 3
                self.commit[seat] = self.commit.get(seat, 0) + min(live, amount)
            elif kind != "ante":
                self.commit[seat] = self.commit.get(seat, 0) + amount
            if kind == "big blind":
                self.big_blind = self.big_blind or amount
        street = self.street or ("3rd" if self.stud else "preflop")
        self.actions.append(Action(street, seat, kind, amount, to, all_in, cards,
                                   line=self.number))

    def read_dealt(self, seat: int, rest: str) -> None:
        groups = [self.card_list(g) for g in _BRACKETS.findall(rest)]
        if not groups:
            raise HandHistoryError("'Dealt to' line without cards")
        if not self.stud:
            self.hero = seat
            self.show(seat, [c for g in groups for c in g])
            return
        if self.street == "3rd" and len(groups[0]) == 3:
            self.hero = seat
        have = self.cards.setdefault(seat, [])
        if self.street == "3rd" or len(groups) == 1:
            new = groups[0] if len(groups[0]) != 1 else [UNKNOWN, UNKNOWN] + groups[0]
            merged = new
        else:
            before, new = [c for g in groups[:-1] for c in g], groups[-1]
            prior = list(have)
            if len(before) == len(prior):  # the player's own cards, all of them
                prior = [b if b != UNKNOWN else p for b, p in zip(before, prior)]
            merged = prior + new
        self.cards[seat] = merged
        self.reached[seat] = max(self.reached.get(seat, 0), len(merged))

    def show(self, seat: int, cards: list[str]) -> None:
        """Cards of ``seat`` seen (shown, mucked face up, dealt): merged with what is known."""
        if not self.stud:
            old = self.cards.get(seat)
            if old is not None and old != cards and UNKNOWN not in old:
                if sorted(old) != sorted(cards):
                    raise HandHistoryError(f"{self.seats[seat].name}'s cards shown as "
                                           f"{' '.join(cards)}, dealt {' '.join(old)}")
            self.cards[seat] = cards
            return
        have = self.cards.get(seat, [])
        if len(cards) >= len(have):
            merged = cards
        else:  # a partial show: the first cards
            merged = cards + have[len(cards):]
        for a, b in zip(have, merged):
            if UNKNOWN not in (a, b) and a != b:
                raise HandHistoryError(f"{self.seats[seat].name}'s cards shown as "
                                       f"{' '.join(cards)}, dealt {' '.join(have)}")
        self.cards[seat] = merged

    # -- the hand ---------------------------------------------------------
    def hand(self, source: str) -> Hand:
        if self.header is None or self.table is None:
            raise HandHistoryError("hand ends before its table line")
        if not self.seats:
            raise HandHistoryError("no seats listed")
        if not self.in_summary:
            raise HandHistoryError("hand ends before its summary (truncated?)")
        if not any(a.kind in ("collect",) for a in self.actions) and not self.summary_won:
            raise HandHistoryError("nobody collected the pot (truncated or cancelled?)")
        boards = self.boards()
        cards = {s: tuple(self.padded(s, c, boards)) for s, c in sorted(self.cards.items())}
        collected: dict[int, int] = {}
        for a in self.actions:
            if a.kind == "collect":
                collected[a.seat] = collected.get(a.seat, 0) + a.amount
        if not collected:
            collected = dict(self.summary_won)
        table, max_seats, button = self.table
        h = self.header
        return Hand("PokerStars", h.hand_id, h.game, h.game_text, h.limit, h.stakes,
                    h.currency, h.unit, tuple(self.seats[s] for s in sorted(self.seats)),
                    tuple(self.actions), cards, boards, dict(sorted(collected.items())),
                    self.total, self.rake, None if self.stud else button, h.tournament, self.hero,
                    h.mixed,
                    table, max_seats, h.started, source, self.first_line, tuple(self.notes))

    def boards(self) -> tuple[tuple[str, ...], ...]:
        runs = 2 if self.run_twice or 1 in self.summary_boards else 1
        out = []
        for run in range(runs):
            board = self.summary_boards.get(run)
            if board is None or not all(_CARD.match(c) for c in board):
                board = self.street_boards[run]
            elif self.street_boards[run] and board[:len(self.street_boards[run])] \
                    != self.street_boards[run]:
                self.notes.append(f"the summary board {' '.join(board)} differs from the "
                                  f"streets' {' '.join(self.street_boards[run])}")
            out.append(tuple(board))
        return tuple(out)

    def padded(self, seat: int, cards: list[str], boards) -> list[str]:
        """Stud: the cards a player was dealt, ``??`` for those never seen."""
        if not self.stud:
            return cards
        dealt = self.reached.get(seat, len(cards))
        if dealt == 7 and boards[0]:
            dealt = 6  # the shared 7th-street card is the board
        return cards + [UNKNOWN] * (dealt - len(cards))
