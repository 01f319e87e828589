"""The range grammar (docs/RANGES.md, "Grammar"): a recursive-descent parser
from the text to alternatives of terms.

The parser only reads: it builds terms (patterns, macros, groups, percent
cuts, hold'em shorthand) and reports a RangeProblem at the first character it
cannot read; what the terms match is theirs to say.
"""

from __future__ import annotations

import math
import re

import numpy as np

from ..cards import RANKS, parse_card
from ..games import Game
from .alternatives import Alternative, Group
from .budget import MAX_PATTERNS, RangeProblem
from .holdem import holdem_shorthand
from .macros import TABLE, ShapeMacro, is_class, is_shape, macro_at, unknown
from .patterns import Patterns
from .rows import ALL_CARDS, ALL_RANKS, ALL_SUITS, mask_of
from .terms import STAR, Element, Explicit, Percent, Term

_SUIT_CHARS = {}  # the suit symbols a pattern accepts: lower-case letters and ♣♦♥♠ ♧♢♡♤
for _ch in "cdhs♣♦♥♠♧♢♡♤":
    _SUIT_CHARS[_ch] = parse_card("A" + _ch) & 3
del _ch
_SUIT_VARS = "wxyz"
_RANK_OF = {r: i for i, r in enumerate(RANKS)}
_RANK_OF.update({r.lower(): i for r, i in _RANK_OF.items()})
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_OPERATORS = ",!:@()"
_NUMBER = re.compile(r"\d+(?:\.\d*)?|\.\d+")
_PERCENT = re.compile(r"(\d+(?:\.\d*)?|\.\d+)%(?:-(\d+(?:\.\d*)?|\.\d+)%)?(6h)?", re.IGNORECASE)
_MAX_DEPTH = 32


def _shift(e: Element, step: int) -> Element:
    rank = e.rank + step
    return Element(1 << rank, e.smask, e.rvar, e.svar, rank, e.suit, e.cmask)


class Parser:
    """Recursive descent over the text with its whitespace removed (``orig``
    maps each kept character back to its position in the text as written)."""

    def __init__(self, game: Game, text: str, ordering=None):
        self.game = game
        self.ordering = ordering  # percent terms: None (the shipped tables) or a percent.Ordering
        self.orig = [i for i, ch in enumerate(text) if not ch.isspace()]
        self.text = "".join(text[i] for i in self.orig)
        self.pos = 0
        self.depth = 0
        self.holdem = game.hole == 2 and not game.stud

    # -- scanning helpers
    def peek(self, ahead: int = 0) -> str:
        at = self.pos + ahead
        return self.text[at] if at < len(self.text) else ""

    def fail(self, message, pos=None, hint=""):
        raise RangeProblem(message, self.pos if pos is None else pos, hint)

    def unexpected(self, pos=None):
        pos = self.pos if pos is None else pos
        ch = self.text[pos]
        hint = ""
        if ch in "+-":
            hint = " (a span: KK-TT, KQJT-T987, TT+, KQJT-)"
        self.fail(f"unknown symbol {ch!r}", pos, hint)

    def macro_name(self, at: int) -> str | None:
        """The macro written at ``at`` ('$' + name, any case, longest name first)."""
        return macro_at(self.text, at)

    def filter_macro_here(self) -> bool:
        return self.peek() == "$" and is_shape(self.macro_name(self.pos))

    def ends_term(self, ch: str) -> bool:
        return not ch or ch in _OPERATORS

    # -- grammar
    def parse(self) -> list[Alternative]:
        alternatives = self.alternatives()
        if self.pos < len(self.text):
            ch = self.peek()
            self.fail("')' without '('" if ch == ")" else f"unexpected {ch!r}")
        return alternatives

    def alternatives(self) -> list[Alternative]:
        alternatives = [self.alternative()]
        while self.peek() == ",":
            self.pos += 1
            alternatives.append(self.alternative())
        return alternatives

    def alternative(self) -> Alternative:
        start = self.pos
        literals = []
        positive = True
        if self.peek() == "!":  # a leading '!': every hand but these
            self.pos += 1
            positive = False
        literals.append((positive, self.term()))
        self.appended_macros(literals)
        while self.peek() in ("!", ":") and self.peek():
            ch = self.peek()
            self.pos += 1
            literals.append((ch == ":", self.term()))
            self.appended_macros(literals)
        alt = Alternative(literals, 1.0, start)
        if self.peek() == "@":
            self.pos += 1
            at = self.pos
            number = _NUMBER.match(self.text, self.pos)
            if not number:
                self.fail("expected a weight (a positive number) after '@'")
            self.pos = number.end()
            alt.weight, alt.weighted = float(number.group()), True
            if not alt.weight > 0 or not math.isfinite(alt.weight):
                self.fail("a weight must be positive", at)
            if self.peek() not in ("", ",", ")"):
                self.fail(f"unexpected {self.peek()!r} after a weight "
                          "(a weight ends an alternative: 'AA:$ds@50, ...')")
        elif self.peek() not in ("", ",", ")"):
            self.fail(f"unexpected {self.peek()!r} (expected ':', '!', '@', ',' or the end)")
        return alt

    def appended_macros(self, literals):
        """'AK$OP' = 'AK:$OP': shape macros written right after a term filter it."""
        while self.filter_macro_here():
            start = self.pos
            name = self.macro_name(start)
            self.pos += 1 + len(name)
            literals.append((True, ShapeMacro(name, start)))

    def term(self) -> Term:
        start = self.pos
        ch = self.peek()
        if ch == "(":
            self.depth += 1
            if self.depth > _MAX_DEPTH:
                self.fail(f"parentheses nested more than {_MAX_DEPTH} deep")
            self.pos += 1
            alternatives = self.alternatives()
            if self.peek() != ")":
                self.fail("'(' is never closed", start)
            self.pos += 1
            self.depth -= 1
            if any(alt.weighted for alt in alternatives):
                self.fail("a weight belongs to a whole alternative, not inside parentheses: "
                          "write '(AA, KK):$ds@50'", start)
            return Group(alternatives, self.text[start:self.pos], start)
        if self.ends_term(ch):
            self.fail("expected a hand pattern" + (f" before {ch!r}" if ch else " at the end"))
        percent = _PERCENT.match(self.text, self.pos)
        if percent:
            return self.percent(percent)
        if ch == "$":
            name = self.macro_name(self.pos)
            if name is None:
                self.fail(unknown(re.compile(r"\$\w*").match(self.text, self.pos).group()))
            if is_shape(name):
                self.pos += 1 + len(name)
                return ShapeMacro(name, start)
        if self.holdem:  # hold'em shorthand: AKs AKo 22+ A2s+ JTs-76s TT-77
            end = start
            while end < len(self.text) and self.text[end] not in _OPERATORS + "$":
                end += 1
            raw = self.text[start:end]
            shorthand = holdem_shorthand(raw)
            if shorthand is not None:
                if isinstance(shorthand, str):
                    self.fail(shorthand, start)
                self.pos = end
                return Explicit(shorthand, raw, start)
        return self.pattern()

    def percent(self, match) -> Term:
        first, second, six = match.group(1, 2, 3)
        lo, hi = (0.0, float(first)) if second is None else (float(first), float(second))
        if not 0 <= lo < hi <= 100:
            self.fail(f"a percent range needs 0 <= low < high <= 100, got {match.group()!r}")
        if self.game.stud:
            self.fail(f"percent ranges need a hand ordering; {self.game.name} has none")
        start = self.pos
        self.pos = match.end()
        if not self.ends_term(self.peek()) and not self.filter_macro_here():
            self.unexpected()
        return Percent(self.game, lo / 100, hi / 100, 6 if six else None, match.group(), start,
                       self.ordering)

    def pattern(self) -> Patterns:
        """Elements, then an optional span: '-' and a second pattern, or a trailing '+'/'-'."""
        start = self.pos
        left = self.slots()
        ch = self.peek()
        if ch in ("+", "-") and ch:
            self.pos += 1
            nxt = self.peek()
            if ch == "-" and not self.ends_term(nxt) and not self.filter_macro_here():
                right = self.slots()
                lists = self.span(self.single(left, start), self.single(right, start), start)
            else:
                lists = self.trail(self.single(left, start), ch, start)
        else:
            lists = [[]]
            for slot in left:  # every choice of every bracket list
                lists = [a + b for a in lists for b in slot]
                if len(lists) > MAX_PATTERNS:
                    self.fail(f"pattern expands to more than {MAX_PATTERNS:,} patterns", start)
        return Patterns(lists, self.text[start:self.pos], start)

    def single(self, slots, start) -> list[Element]:
        if any(len(slot) > 1 for slot in slots):
            self.fail("a span cannot contain a bracket list of patterns", start)
        return [e for slot in slots for e in slot[0]]

    def slots(self) -> list[list[list[Element]]]:
        """The pattern's cards: each slot is a list of choices (element lists)."""
        slots = []
        while True:
            ch = self.peek()
            if self.ends_term(ch) or ch in "+-" or self.filter_macro_here():
                break
            if ch == "[":
                slots.append(self.bracket())
            else:
                slots.append([[self.element()]])
        if not slots:
            self.unexpected() if ch else self.fail("expected a hand pattern at the end")
        return slots

    def element(self) -> Element:
        text, at = self.text, self.pos
        if at >= len(text):
            self.fail("expected a card at the end")
        ch = text[at]
        if ch == "*":
            self.pos += 1
            return self.suit(STAR)
        if text.startswith("10", at) or ch in _RANK_OF:
            rank = _RANK_OF["T" if text.startswith("10", at) else ch]
            self.pos += 2 if text.startswith("10", at) else 1
            return self.suit(Element(1 << rank, ALL_SUITS, rank=rank))
        if ch in _SUIT_CHARS:  # a lone suit: a card of that suit
            self.pos += 1
            return Element(ALL_RANKS, 1 << _SUIT_CHARS[ch], suit=_SUIT_CHARS[ch])
        if ch in _SUIT_VARS:
            self.pos += 1
            return Element(ALL_RANKS, ALL_SUITS, svar=ch)
        if ch == "$":
            name = self.macro_name(at)
            if is_class(name):
                self.pos += 1 + len(name)
                return self.suit(Element(TABLE[name].ranks, ALL_SUITS))
            self.term_ends()
        if ch in _LETTERS:  # every other letter is a rank variable
            self.pos += 1
            return self.suit(Element(ALL_RANKS, ALL_SUITS, rvar=ch))
        if ch == "]":
            self.fail("']' without '['")
        if ch == "[":
            self.fail("brackets cannot be nested")
        self.unexpected()

    def term_ends(self):
        name = self.macro_name(self.pos)
        if name is None:
            self.fail(unknown(re.compile(r"\$\w*").match(self.text, self.pos).group()))
        self.unexpected()

    def suit(self, element: Element) -> Element:
        """The suit written right after a rank part (Ah, Ax, [AK]s), if any."""
        ch = self.peek()
        e = element
        if ch in _SUIT_CHARS and ch:
            self.pos += 1
            s = _SUIT_CHARS[ch]
            return Element(e.rmask, 1 << s, e.rvar, None, e.rank, s, e.cmask)
        if ch in _SUIT_VARS and ch:
            self.pos += 1
            return Element(e.rmask, ALL_SUITS, e.rvar, ch, e.rank, None, e.cmask)
        return element

    def bracket(self) -> list[list[Element]]:
        """'[...]': one card from a list of ranks, suits or cards ([A,2,3], [T-7],
        [s,h], [As,Ah]), or one of several patterns ([KK-TT], [AK,QJ])."""
        open_at = self.pos
        self.pos += 1
        items, commas = [], False
        while True:
            ch = self.peek()
            if not ch:
                self.fail("'[' is never closed", open_at)
            if ch == "]":
                self.pos += 1
                break
            if ch == ",":
                commas = True
                self.pos += 1
                continue
            if ch in _OPERATORS:
                self.fail("'[' is never closed", open_at)
            at = self.pos
            left = self.run()
            if self.peek() in ("-", "+") and self.peek():
                sign = self.peek()
                self.pos += 1
                if sign == "-" and self.peek() not in ("", ",", "]"):
                    right = [self.element()] if len(left) == 1 else self.run()
                    items.append(self.span(left, right, at))
                else:
                    items.append(self.trail(left, sign, at))
            else:
                items.append([left])
        choices = [c for item in items for c in item]
        if not choices:
            self.fail("empty list '[]'", open_at)
        if len(choices) == 1 and len(choices[0]) > 1 and not commas:
            choices = [[e] for e in choices[0]]  # [AKQ]: one card, A or K or Q
        if all(len(c) == 1 for c in choices):
            return [[self.suit(self.merged([c[0] for c in choices], open_at))]]
        if len({len(c) for c in choices}) > 1:
            self.fail("the patterns of a bracket list need the same number of cards", open_at)
        return choices

    def run(self) -> list[Element]:
        elements = []
        while self.peek() and self.peek() not in ",]-+" + _OPERATORS:
            elements.append(self.element())
        if not elements:
            self.unexpected() if self.peek() else self.fail("'[' is never closed")
        return elements

    def merged(self, elements: list[Element], pos: int) -> Element:
        """One element accepting what any of the listed single cards accepts."""
        if any(e.rvar or e.svar for e in elements):
            self.fail("variables cannot be listed in brackets (only ranks, suits and cards)", pos)
        if all(e.smask == ALL_SUITS and e.cmask == ALL_CARDS for e in elements):
            return Element(_mask_of_bits(e.rmask for e in elements), ALL_SUITS)
        if all(e.rmask == ALL_RANKS and e.cmask == ALL_CARDS for e in elements):
            return Element(ALL_RANKS, _mask_of_bits(e.smask for e in elements))
        cards = 0
        for e in elements:
            cards |= mask_of(np.flatnonzero(e.table()).tolist())
        return Element(ALL_RANKS, ALL_SUITS, cmask=cards)

    def span(self, left, right, pos) -> list[list[Element]]:
        """'KQJT-T987': every pattern from left to right, the written ranks that
        differ moving together one rank at a time (KQJT, QJT9, JT98, T987)."""
        if len(left) != len(right):
            self.fail("both ends of a span need the same number of cards", pos)
        steps = []
        for a, b in zip(left, right):
            if a.rank is not None and b.rank is not None and _shift(a, b.rank - a.rank) == b:
                steps.append(b.rank - a.rank)
            elif a == b:
                steps.append(0)
            else:
                self.fail("the two ends of a span may differ only in their ranks", pos)
        moves = {d for d in steps if d}
        if len(moves) > 1:
            self.fail("the ranks that differ between the ends of a span must differ by the "
                      "same amount (KQJT-T987, KwQw-KwTw)", pos)
        d = moves.pop() if moves else 0
        sign = 1 if d > 0 else -1
        return [[_shift(e, sign * t) if s else e for e, s in zip(left, steps)]
                for t in range(abs(d) + 1)]

    def trail(self, left, sign, pos) -> list[list[Element]]:
        """'TT+' (up to AA), 'KQJT-' (down to 5432): the written ranks move
        together one rank at a time while they stay on the deck; with '+' aces
        stay put and the others move up below them (A2+ = A2 .. AK)."""
        ranks = [e.rank for e in left if e.rank is not None]
        if not ranks:
            self.fail(f"a trailing {sign!r} needs written ranks (TT+, KQJT-)", pos)
        step = 1 if sign == "+" else -1
        fixed_top = sign == "+" and 12 in ranks and min(ranks) < 12
        moving = [e.rank is not None and not (fixed_top and e.rank == 12) for e in left]
        limit = 11 if fixed_top else 12
        out, t = [], 0
        while all(0 <= e.rank + step * t <= limit for e, m in zip(left, moving) if m):
            out.append([_shift(e, step * t) if m else e for e, m in zip(left, moving)])
            t += 1
        return out


def _mask_of_bits(masks) -> int:
    total = 0
    for m in masks:
        total |= m
    return total
