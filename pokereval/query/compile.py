"""Syntax tree -> a checked, compiled query: every name resolved, every type checked
against the game before anything is dealt, each expression a function of a block.

A compiled expression is ``(type, fn)`` with ``fn(ctx) -> column`` (see
:mod:`pokereval.query.values`); ``ctx.hands`` is the block's :class:`hands.Hands` and
``ctx.nested`` the query's :class:`nested.Nested` caches.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..cards import CardError, card_str, parse_cards, rank_index
from ..errors import PokerEvalError
from ..evaluate import evaluate
from ..games import Game, get_game
from ..percent import ORDERED_GAMES
from . import categories as C
from . import functions as F
from . import perceived
from .deal import Table, read_table
from .hands import STREETS, STUD_STREETS, street_cards
from .syntax import Node, PqlError, Selector, Statement, parse
from .values import FLOP_CATEGORIES, HAND_TYPES, RANK_NAMES, Num, compare

__all__ = ["Query", "Column", "compile_query", "GAME_NAMES", "NUMERIC"]

#: ProPokerTools' game names (pokereval's names and aliases work too)
GAME_NAMES = {"holdem": "holdem", "omahahi": "omaha", "omaha8": "omaha-hilo",
              "omahahi5": "omaha5", "omaha85": "omaha5-hilo", "studhi": "stud",
              "stud8": "stud-hilo", "razz": "razz", "courchevelhi": "courchevel",
              "courchevel8": "courchevel-hilo"}
NUMERIC = ("share", "equity", "num")
SELECTORS = ("avg", "count", "max", "min", "histogram")
_RESERVED = ("game", "board", "dead", "syntax")
_CODES = ("handtype", "flopcat", "hirating", "lorating", "card", "rank", "rankset")


@dataclass(frozen=True)
class Column:
    name: str
    selector: str
    type: str
    fn: object


@dataclass(frozen=True)
class Query:
    text: str
    game: Game
    table: Table
    columns: tuple[Column, ...]
    where: object | None
    streets: frozenset[int]  # street card counts the query looks at (exact walk's cuts)
    nested: frozenset[str]  # the nested walks used (equity, hvr, nut, outs, ...)


def _err(message: str, node) -> PqlError:
    return PqlError(f"{message} at column {node.column}")


def _game(bindings) -> Game:
    for b in bindings:
        if b.name.lower() == "game":
            name = b.value.strip().lower()
            try:
                return get_game(GAME_NAMES.get(name, name))
            except PokerEvalError:
                known = ", ".join(GAME_NAMES)
                raise PqlError(f"unknown game '{b.value}' at column {b.column} (PQL names: "
                               f"{known}, or any pokereval game name)") from None
    raise PqlError("the FROM clause needs game='...' (e.g. game='omaha8')")


class _Checker:
    def __init__(self, statement: Statement, ordering=None) -> None:
        self.game = g = _game(statement.bindings)
        players, board, dead, seen = [], None, None, set()
        for b in statement.bindings:
            key = b.name.lower()
            if key in seen:
                raise PqlError(f"{b.name} is bound twice at column {b.column}")
            seen.add(key)
            if key == "syntax":
                if b.value.strip().lower() != "generic":
                    raise PqlError(f"syntax='{b.value}' at column {b.column}: only 'generic' is read")
            elif key == "board":
                board = (b.value, b.column)
            elif key == "dead":
                dead = (b.value, b.column)
            elif key != "game":
                players.append((b.name, b.value, b.column))
        if not players:
            raise PqlError("the FROM clause names no player (e.g. hero='AA**')")
        most = 7 if g.stud else 10
        if len(players) > most:
            raise PqlError(f"{len(players)} players; {g.name} takes at most {most}")
        self.players = {name.lower(): i for i, (name, _, _) in enumerate(players)}
        self.player_names = [name for name, _, _ in players]
        self.table = read_table(g, players, board, dead, ordering)
        self.streets: set[int] = set()
        self.nested: set[str] = set()

    # names -------------------------------------------------------------------------
    def street_names(self) -> tuple[str, ...]:
        return STUD_STREETS if self.game.stud else STREETS

    def player(self, node: Node) -> int:
        if node.kind != "name" or node.value not in self.players:
            what = node.text or node.kind
            raise _err(f"unknown player {what!r} (players: {', '.join(self.player_names)})", node)
        return self.players[node.value]

    def street(self, node: Node) -> str:
        names = self.street_names()
        if node.kind != "name" or node.value not in names:
            raise _err(f"expected a street ({', '.join(names)}) in {self.game.name}, got "
                       f"{node.text or node.kind!r}", node)
        self.streets.add(street_cards(self.game, node.value))
        return node.value

    # expressions ---------------------------------------------------------------------
    def expr(self, node: Node):
        kind = node.kind
        if kind == "number":
            c = Num.const(node.value)
            return "num", lambda ctx: c
        if kind == "string":
            return "string", node.value
        if kind == "name":
            return self.name(node)
        if kind == "call":
            return self.call(node)
        if kind == "unary":
            t, fn = self.expr(node.args[0])
            if node.value == "not":
                self.want(t, ("bool",), node.args[0], "NOT")
                return "bool", lambda ctx: ~np.asarray(fn(ctx), dtype=bool)
            self.want(t, NUMERIC, node.args[0], "'-'")
            return "num", lambda ctx: fn(ctx).neg()
        if kind == "binary":
            return self.binary(node)
        if kind == "case":
            return self.case(node)
        raise _err(f"unexpected {kind}", node)

    def name(self, node: Node):
        v = node.value
        if v in HAND_TYPES:
            i = HAND_TYPES.index(v)
            return "handtype", lambda ctx: np.int64(i)
        if v in RANK_NAMES:
            i = RANK_NAMES.index(v)
            return "rank", lambda ctx: np.int64(i)
        if v in FLOP_CATEGORIES:
            i = FLOP_CATEGORIES.index(v)
            return "flopcat", lambda ctx: np.int64(i)
        if v in ("true", "false"):
            b = v == "true"
            return "bool", lambda ctx: np.bool_(b)
        if v in self.players:
            raise _err(f"player {node.text!r} is not a value; use it in a function such as "
                       f"riverEquity({node.text})", node)
        if v in STREETS or v in STUD_STREETS:
            raise _err(f"street {node.text!r} is not a value; use it in a function such as "
                       f"handType(PLAYER, {node.text})", node)
        raise _err(f"unknown name {node.text!r} (players: {', '.join(self.player_names)})", node)

    def want(self, t: str, allowed: tuple[str, ...], node: Node, where: str) -> None:
        if t not in allowed:
            raise _err(f"{where} needs {' or '.join(_kinds(allowed))}, got {_kind(t)}", node)

    def binary(self, node: Node):
        op = node.value
        (lt, lf), (rt, rf) = self.expr(node.args[0]), self.expr(node.args[1])
        if op in ("and", "or"):
            self.want(lt, ("bool",), node.args[0], op.upper())
            self.want(rt, ("bool",), node.args[1], op.upper())
            f = np.logical_and if op == "and" else np.logical_or
            return "bool", lambda ctx: f(lf(ctx), rf(ctx))
        if op in ("+", "-", "*", "/"):
            self.want(lt, NUMERIC, node.args[0], f"'{op}'")
            self.want(rt, NUMERIC, node.args[1], f"'{op}'")
            method = {"+": lambda a, b: a.add(b), "-": lambda a, b: a.add(b, -1),
                      "*": lambda a, b: a.mul(b), "/": lambda a, b: a.div(b)}[op]
            return "num", lambda ctx: method(lf(ctx), rf(ctx))
        return "bool", self.comparison(node, op, (lt, lf), (rt, rf))

    def comparison(self, node: Node, op: str, left, right):
        (lt, lf), (rt, rf) = left, right
        if lt == "string" and rt != "string":
            return self.comparison(node, _FLIP[op], right, left)
        if lt in NUMERIC and rt in NUMERIC:
            return lambda ctx: lf(ctx).compare(rf(ctx), op)
        if lt in _CODES and rt == "string":
            code = self.literal(lt, rf, node.args[1] if node.args[1].kind == "string" else node)
            return lambda ctx: compare(lf(ctx), code, op)
        if lt == rt and (lt in _CODES or lt == "bool" and op in ("=", "<>")):
            return lambda ctx: compare(lf(ctx), rf(ctx), op)
        raise _err(f"cannot compare {_kind(lt)} with {_kind(rt)} ('{op}')", node)

    def literal(self, t: str, text: str, node: Node):
        try:
            if t == "card":
                (card,) = parse_cards(text, "card")
                return np.int64(card)
            if t == "rank":
                return np.int64(rank_index(text.strip()))
            if t == "rankset":
                return np.int64(sum(1 << rank_index(ch) for ch in text.strip()))
            if t == "handtype" and text.strip().lower() in HAND_TYPES:
                return np.int64(HAND_TYPES.index(text.strip().lower()))
            if t == "flopcat" and text.strip().lower() in FLOP_CATEGORIES:
                return np.int64(FLOP_CATEGORIES.index(text.strip().lower()))
        except (CardError, PokerEvalError, ValueError):
            pass
        raise _err(f"{text!r} is not {_kind(t)}", node)

    def case(self, node: Node):
        subject, otherwise, *flat = node.args
        arms = list(zip(flat[0::2], flat[1::2]))
        subj = self.expr(subject) if subject is not None else None
        tests, results = [], []
        for test, result in arms:
            if subj is None:
                t = self.expr(test)
                self.want(t[0], ("bool",), test, "WHEN")
                tests.append(t[1])
            else:
                tests.append(self.comparison(test, "=", subj, self.expr(test)))
            results.append((self.expr(result), result))
        if otherwise is not None:
            results.append((self.expr(otherwise), otherwise))
        types = {t for (t, _), _ in results}
        if types <= set(NUMERIC):
            kind = "num"
        elif len(types) == 1 and types <= {"bool", *_CODES}:
            kind = types.pop()
        else:
            (t0, _), _ = results[0]
            bad = next(n for (t, _), n in results if t != t0)
            raise _err(f"CASE results differ in type ({_kind(t0)} and {_kind(next(iter(types - {t0})))})", bad)
        if otherwise is None and kind not in ("num", "bool"):
            raise _err(f"CASE of {_kind(kind)} needs an ELSE", node)
        fns = [fn for (_, fn), _ in results]
        has_else = otherwise is not None

        def run_case(ctx):
            n = len(ctx.hands)
            conds = [np.broadcast_to(np.asarray(t(ctx), dtype=bool), (n,)) for t in tests]
            values = [f(ctx) for f in fns]
            if kind == "num":
                zero = Num(np.int64(0), 1)
                values = values + ([] if has_else else [zero])
                acc = values[-1]
                for cond, v in reversed(list(zip(conds, values[:len(conds)]))):
                    acc = _select_num(cond, v, acc)
                return acc
            default = values[-1] if has_else else np.bool_(False)
            return np.select(conds, [np.broadcast_to(v, (n,)) for v in values[:len(conds)]],
                             np.broadcast_to(default, (n,)))
        return kind, run_case

    # functions -----------------------------------------------------------------------
    def call(self, node: Node):
        name = node.value
        special = _SPECIAL.get(name)
        fn = _FUNCTIONS.get(name)
        if special is None and fn is None:
            known = sorted(set(_FUNCTIONS) | set(_SPECIAL))
            near = difflib.get_close_matches(name, known, n=1)
            hint = f" (did you mean {_SPELLING.get(near[0], near[0])}?)" if near else ""
            raise _err(f"unknown function {node.text!r}{hint}", node)
        params, needs = (special[0], special[2]) if special else (fn.params, fn.needs)
        self.check_game(node, needs)
        args = self.arguments(node, params)
        self.streets |= _CUTS.get(name, set())
        if name == "upcard":  # the card dealt on that street: cut before it too
            self.streets.add(street_cards(self.game, args[1]) - 1)
        if "hand" in needs:
            self.check_hand_street(node, args)
        if special:
            return special[1](self, node, args)
        impl = fn.impl
        if name == "nthrank":
            nf, kf = (a if callable(a) else (lambda ctx, v=a: v) for a in args)
            return "rank", lambda ctx: F.nth_rank_of(
                np.asarray(kf(ctx)), np.asarray(nf(ctx).floats(), dtype=np.int64))
        evaluated = [a for a in args]

        def call_fn(ctx):
            values = [a(ctx) if callable(a) else a for a in evaluated]
            return impl(ctx.hands, *values)
        return fn.returns, call_fn

    def check_game(self, node: Node, needs) -> None:
        g = self.game
        problems = {"high": not g.high, "low": g.low is None, "eight": not g.eight,
                    "board": g.stud, "stud": not g.stud,
                    "ordered": g.name not in ORDERED_GAMES}
        why = {"high": "has no high hand (razz plays for the low)",
               "low": "has no low pot", "eight": "has no eight-or-better low",
               "board": "has no board", "stud": "is not a stud game",
               "ordered": "has no hand ordering (holdem and the Omaha games have one)"}
        for need in needs:
            if problems.get(need):
                raise _err(f"{node.text}() means nothing in {g.name}: the game {why[need]}", node)

    def check_hand_street(self, node: Node, args) -> None:
        g = self.game
        street = next((a for a in args if isinstance(a, str) and a in STREETS), None)
        if street and g.exactly_two and street_cards(g, street) < 3:
            raise _err(f"{node.text}() on {street} means nothing in {g.name}: a hand is two "
                       f"hole cards and three board cards", node)

    def arguments(self, node: Node, params: str) -> list:
        args = node.args
        need = sum(1 for k in params if k.isupper())
        if not need <= len(args) <= len(params):
            count = f"{need}" if need == len(params) else f"{need} to {len(params)}"
            raise _err(f"{node.text}() takes {count} argument{'s' if len(params) != 1 else ''} "
                       f"({_signature(params)}), got {len(args)}", node)
        out = []
        for kind, arg in zip(params, args):
            k = kind.upper()
            if k == "P":
                out.append(self.player(arg))
            elif k == "S":
                out.append(self.street(arg))
            elif k == "X":  # any value (toString)
                out.append(self.expr(arg))
            elif k == "R":
                if arg.kind != "string":
                    raise _err(f"{node.text}() needs a quoted range here", arg)
                out.append(arg.value)
            elif k == "T":
                if arg.kind == "name" and arg.value in HAND_TYPES:  # a constant: its code
                    out.append(np.int64(HAND_TYPES.index(arg.value)))
                    continue
                t, fn = self.expr(arg)
                if t == "string":
                    out.append(self.literal("handtype", fn, arg))
                else:
                    self.want(t, ("handtype",), arg, f"{node.text}()")
                    out.append(fn)
            else:
                want = {"N": NUMERIC, "H": ("hirating",), "L": ("lorating",), "K": ("rankset",),
                        "C": ("flopcat",)}[k]
                t, fn = self.expr(arg)
                if k in "KC" and t == "string":
                    out.append(self.literal(want[0], fn, arg))
                    continue
                self.want(t, want, arg, f"{node.text}()")
                out.append(fn)
        return out


def _select_num(cond: np.ndarray, a: Num, b: Num) -> Num:
    """cond ? a : b for numbers (exact when both are)."""
    common = a.common_den(b)
    if common is None:
        return Num(np.where(cond, a.floats(), b.floats()), None)
    x, y, den = common
    return Num(np.where(cond, x, y), den)


#: board card counts a function looks at besides its street argument
_CUTS = {"turncard": {3, 4}, "rivercard": {4}}
_FLIP = {"=": "=", "<>": "<>", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _kind(t: str) -> str:
    return {"bool": "a condition", "share": "a number", "equity": "a number", "num": "a number",
            "handtype": "a hand type", "flopcat": "a flop hand category", "hirating": "a high rating", "lorating": "a low rating",
            "card": "a card", "rank": "a rank", "rankset": "a rank set", "string": "a string"}.get(t, t)


def _kinds(ts) -> list[str]:
    return list(dict.fromkeys(_kind(t) for t in ts))


def _signature(params: str) -> str:
    names = {"P": "player", "S": "street", "T": "hand type", "N": "number", "H": "high rating",
             "L": "low rating", "R": "'range'", "K": "rank set", "C": "flop category", "X": "value"}
    return ", ".join(names[k.upper()] + ("?" if k.islower() else "") for k in params)


# the functions that need the query's caches or constants ---------------------------------
def _equity(checker: _Checker, node, args):
    p, st = args[0], args[1]
    checker.nested.add("equity")
    if street_cards(checker.game, st) >= (7 if checker.game.stud else 5):
        return "share", lambda ctx: F.river_equity(ctx.hands, p)
    f = lambda ctx: ctx.nested.equity(ctx.hands, p, st)  # noqa: E731
    if len(args) == 3:
        x = args[2]
        return "bool", lambda ctx: f(ctx).compare(x(ctx), ">=")
    return "equity", f


def _hvr(checker: _Checker, node, args):
    p, st = args[0], args[1]
    checker.nested.add("hvr")
    f = lambda ctx: ctx.nested.hvr_equity(ctx.hands, p, st)  # noqa: E731
    if len(args) == 3:
        x = args[2]
        return "bool", lambda ctx: f(ctx).compare(x(ctx), ">=")
    return "equity", f


def _nut(low: bool):
    def make(checker: _Checker, node, args):
        p, st = args
        if street_cards(checker.game, st) < 3:  # hold'em preflop: no five-card hand yet
            raise _err(f"{node.text}() on {st} means nothing in {checker.game.name}: there "
                       f"is no board yet", node)
        checker.nested.add("nut")
        return "bool", lambda ctx: ctx.nested.nut(ctx.hands, p, st, low)
    return make


def _next_street(checker: _Checker, node, st: str) -> None:
    k = street_cards(checker.game, st)
    if checker.game.stud:  # p's next card: there is one after third to sixth street
        if k >= 7:
            raise _err(f"{node.text}() counts next-card outs: the street must be third to "
                       f"sixth, got {st}", node)
        return
    if k >= 5 or k < 3:
        raise _err(f"{node.text}() counts next-card outs: the street must be the flop or the "
                   f"turn, got {st}", node)
    checker.streets.add(k + 1)


def _nut_outs(low: bool):
    def make(checker: _Checker, node, args):
        p, st = args
        _next_street(checker, node, st)
        checker.nested.add("outs")
        return "num", lambda ctx: ctx.nested.outs(ctx.hands, p, st, ctx.nested.nut_test(low))
    return make


def _outs_to_type(checker: _Checker, node, args):
    p, st, t = args[0], args[1], args[2]
    _next_street(checker, node, st)
    checker.nested.add("outs")
    if callable(t):
        raise _err(f"{node.text}() needs a hand-type constant (e.g. flush)", node.args[2])
    if checker.game.stud:
        f = lambda ctx: ctx.nested.stud_outs(ctx.hands, p, st, int(t))  # noqa: E731
    else:
        f = lambda ctx: ctx.nested.outs(ctx.hands, p, st, ctx.nested.type_test(int(t)))  # noqa: E731
    if len(args) == 4:
        n = args[3]
        return "bool", lambda ctx: f(ctx).compare(n(ctx), ">=")
    return "num", f


def _in_range(checker: _Checker, node, args):
    p, text = args
    from ..ranges import RangeError, parse_range
    try:
        parse_range(checker.game, text)
    except (RangeError, PokerEvalError) as error:
        raise _err(f"inRange(): {error}", node.args[1]) from None
    return "bool", lambda ctx: ctx.nested.in_range(ctx.hands, p, text)


def _board_in_range(checker: _Checker, node, args):
    (text,) = args
    from ..analysis.board_range import card_range
    try:
        rows, _ = card_range(checker.game, text, "board")
    except PokerEvalError as error:
        raise _err(f"boardInRange(): {error}", node.args[0]) from None
    checker.streets.add(max(3, rows.shape[1]))
    return "bool", lambda ctx: ctx.nested.board_in_range(ctx.hands, text)


def _hand_ranking(checker: _Checker, node, args):
    (p,) = args
    return "num", lambda ctx: ctx.nested.hand_ranking(ctx.hands, p)


def _rate(low: bool):
    def make(checker: _Checker, node, args):
        (text,) = args
        g = checker.game
        try:
            ranks = [rank_index(ch) for ch in text.strip() if not ch.isspace()]
            cards = parse_cards(text) if len(text.strip()) >= 10 else _unsuited(ranks)
            if len(cards) != 5:
                raise ValueError
            if low:
                e = evaluate("razz" if g.razz else "stud-hilo", cards)
                value = np.int64(e.low.value if e.low else 0)
            else:
                v = evaluate("stud", cards).high.value
                value = np.int64((v >> 12) << 20 | (v & 4095))
        except (CardError, PokerEvalError, ValueError):
            raise _err(f"{node.text}() needs five cards or ranks, e.g. '{'8532A' if low else 'KKK22'}', "
                       f"got {text!r}", node.args[0]) from None
        return ("lorating" if low else "hirating"), lambda ctx: value
    return make


def _unsuited(ranks: list[int]) -> list[int]:
    """Cards of these ranks in suits that make no flush (same ranks in different suits)."""
    ranks = sorted(ranks)
    if any(ranks.count(r) > 4 for r in ranks):
        raise ValueError
    return [4 * r + i % 4 for i, r in enumerate(ranks)]


#: name -> (params, compile(checker, node, args) -> (type, fn), needs)
_SPECIAL = {
    "equity": ("PS", _equity, ()), "hvhequity": ("PS", _equity, ()),
    "minequity": ("PSN", _equity, ()), "minhvhequity": ("PSN", _equity, ()),
    "hvrequity": ("PS", _hvr, ()), "minhvrequity": ("PSN", _hvr, ()),
    "nuthi": ("PS", _nut(False), ("board", "high", "hand")),
    "nutlo": ("PS", _nut(True), ("board", "eight", "hand")),
    "nuthiouts": ("PS", _nut_outs(False), ("board", "high", "hand")),
    "nutloouts": ("PS", _nut_outs(True), ("board", "eight", "hand")),
    # outs to a hand type mean something in stud too (the card is p's next card); the nut
    # functions do not: with no common board, "no holding of unseen cards beats p" has no
    # single meaning (each opponent's up cards fix part of his hand), and PPT defines them
    # for board games only, so they stay board-only (a one-line error in stud).
    "outstohandtype": ("PST", _outs_to_type, ("high", "hand")),
    "minoutstohandtype": ("PSTN", _outs_to_type, ("high", "hand")),
    "inrange": ("PR", _in_range, ()), "boardinrange": ("R", _board_in_range, ("board",)),
    "handranking": ("P", _hand_ranking, ("ordered",)),
    "ratehihand": ("R", _rate(False), ("high",)), "ratelohand": ("R", _rate(True), ("low",)),
}
_SPECIAL.update(C.SPECIAL)
_SPECIAL.update(perceived.SPECIAL)
_FUNCTIONS = {**F.FUNCTIONS, **C.FUNCTIONS}
_SPELLING = {k.lower(): k for k in C.PPT_FUNCTIONS}


def _selector(checker: _Checker, sel: Selector, i: int) -> Column:
    if sel.function not in SELECTORS:
        raise PqlError(f"unknown selector {sel.function!r} at column {sel.column} "
                       f"(selectors: {', '.join(SELECTORS)})")
    t, fn = checker.expr(sel.expr)
    if sel.function == "count":
        checker.want(t, ("bool",), sel.expr, "count()")
    elif sel.function in ("avg", "max", "min"):
        checker.want(t, NUMERIC, sel.expr, f"{sel.function}()")
    elif t == "string":
        raise _err("histogram() needs a value, got a string", sel.expr)
    name = sel.name or f"{sel.function.upper()} {i + 1}"
    return Column(name, sel.function, t, fn)


def _marking_live(where):
    """The WHERE, which also tells the block's :class:`Hands` which rows it accepts: the
    selectors' nested walks (equity, nuts, outs) then skip the rows that do not count."""
    def f(ctx):
        accepted = where(ctx)
        ctx.hands.live = np.broadcast_to(np.asarray(accepted, dtype=bool), (len(ctx.hands),))
        return accepted
    return f


def compile_query(text: str, ordering=None) -> Query:
    """Parse and check one statement (every error is a one-line :class:`PqlError`)."""
    statement = parse(text)
    checker = _Checker(statement, ordering)
    columns = tuple(_selector(checker, s, i) for i, s in enumerate(statement.selectors))
    names = [c.name.lower() for c in columns]
    for c in columns:
        if names.count(c.name.lower()) > 1:
            raise PqlError(f"two columns are named {c.name!r}; give each its own AS name")
    where = None
    if statement.where is not None:
        t, where = checker.expr(statement.where)
        checker.want(t, ("bool",), statement.where, "WHERE")
        where = _marking_live(where)
    if checker.game.stud:
        checker.streets.add(7)
    return Query(text, checker.game, checker.table, columns, where,
                 frozenset(checker.streets), frozenset(checker.nested))


def card_name(code: int) -> str:
    return card_str(int(code))
