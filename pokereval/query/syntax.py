"""PQL text -> syntax tree: the tokenizer and a recursive-descent parser.

The grammar (ProPokerTools' PQL, keywords and names case-insensitive)::

    statement := SELECT selector {"," selector} FROM binding {"," binding} [WHERE expr]
    selector  := NAME "(" expr ")" [AS NAME]
    binding   := NAME "=" STRING
    expr      := and {OR and};   and := not {AND not};   not := NOT not | compare
    compare   := sum [("=" | "<>" | "!=" | "<" | "<=" | ">" | ">=") sum]
    sum       := product {("+" | "-") product};   product := unary {("*" | "/") unary}
    unary     := "-" unary | atom
    atom      := NUMBER | STRING | NAME ["(" [expr {"," expr}] ")"] | "(" expr ")" | case
    case      := CASE [expr] WHEN expr THEN expr {WHEN expr THEN expr} [ELSE expr] END

Written by hand (not with a parser library) because every error must be one line naming
the token and its column, and a statement is a few dozen tokens: parsing costs microseconds.
Every node keeps the column (1-based) of its first token, for the type checker's messages.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from ..errors import PokerEvalError

__all__ = ["PqlError", "Node", "Statement", "Selector", "Binding", "parse", "split_statements"]


class PqlError(PokerEvalError):
    """A PQL query that cannot be read or run (the message is one line, with the column)."""


PqlError.__module__ = "pokereval.query"

KEYWORDS = {"select", "from", "where", "as", "and", "or", "not", "case", "when", "then",
            "else", "end"}
_TOKEN = re.compile(r"""
    (?P<space>\s+|/\*.*?\*/)
  | (?P<number>\d+\.\d*|\.\d+|\d+)
  | (?P<string>'[^']*'|"[^"]*")
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op><>|!=|<=|>=|[-+*/(),=<>;])
""", re.VERBOSE | re.DOTALL)


@dataclass(frozen=True)
class Token:
    kind: str  # number, string, name, keyword, op, end
    text: str
    column: int

    def describe(self) -> str:
        return "the end of the query" if self.kind == "end" else repr(self.text)


@dataclass(frozen=True)
class Node:
    """An expression: ``kind`` is number / string / name / call / unary / binary / case;
    ``value`` the number (a Fraction), string, name (lower case), function or operator;
    ``args`` the operands; ``text`` the name as written (for messages)."""
    kind: str
    value: object
    column: int
    args: tuple = ()
    text: str = ""


@dataclass(frozen=True)
class Selector:
    function: str  # lower case: avg, count, max, min, histogram
    expr: Node
    name: str | None
    column: int


@dataclass(frozen=True)
class Binding:
    name: str  # as written
    value: str
    column: int


@dataclass(frozen=True)
class Statement:
    selectors: tuple[Selector, ...]
    bindings: tuple[Binding, ...]
    where: Node | None
    text: str = field(default="", compare=False)


def tokenize(text: str) -> list[Token]:
    tokens, pos = [], 0
    while pos < len(text):
        if text.startswith("/*", pos) and text.find("*/", pos + 2) < 0:  # else '/' '*'
            raise PqlError(f"unclosed comment '/*' at column {pos + 1}")
        m = _TOKEN.match(text, pos)
        if m is None:
            if text[pos] in "'\"":
                raise PqlError(f"unclosed string {text[pos:pos + 12]!r} at column {pos + 1}")
            raise PqlError(f"unexpected character {text[pos]!r} at column {pos + 1}")
        kind = m.lastgroup
        if kind != "space":
            word = m.group()
            if kind == "name" and word.lower() in KEYWORDS:
                kind = "keyword"
            tokens.append(Token(kind, word, pos + 1))
        pos = m.end()
    tokens.append(Token("end", "", len(text) + 1))
    return tokens


def split_statements(text: str) -> list[str]:
    """A script's statements (``;`` outside strings and comments separates them)."""
    parts, start = [], 0
    for token in tokenize(text):
        if token.kind in ("end",) or (token.kind == "op" and token.text == ";"):
            piece = text[start:token.column - 1]
            if piece.strip() and _has_tokens(piece):
                parts.append(piece.strip())
            start = token.column
    return parts


def _has_tokens(piece: str) -> bool:
    return len(tokenize(piece)) > 1


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.i = 0

    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def next(self) -> Token:
        t = self.tokens[self.i]
        self.i += 1
        return t

    def fail(self, expected: str, token: Token | None = None):
        token = token or self.tok
        raise PqlError(f"expected {expected}, got {token.describe()} at column {token.column}")

    def keyword(self, word: str) -> bool:
        if self.tok.kind == "keyword" and self.tok.text.lower() == word:
            self.i += 1
            return True
        return False

    def expect_keyword(self, word: str) -> Token:
        token = self.tok
        if not self.keyword(word):
            self.fail(word.upper())
        return token

    def op(self, *ops: str) -> str | None:
        if self.tok.kind == "op" and self.tok.text in ops:
            return self.next().text
        return None

    def expect_op(self, op: str) -> None:
        if self.op(op) is None:
            self.fail(repr(op))

    def name(self, what: str) -> Token:
        if self.tok.kind != "name":
            self.fail(what)
        return self.next()

    # statement ---------------------------------------------------------------------
    def statement(self) -> Statement:
        self.expect_keyword("select")
        selectors = [self.selector()]
        while self.op(","):
            selectors.append(self.selector())
        self.expect_keyword("from")
        bindings = [self.binding()]
        while self.op(","):
            bindings.append(self.binding())
        where = self.expr() if self.keyword("where") else None
        self.op(";")
        if self.tok.kind != "end":
            self.fail("the end of the statement (one statement per call; ';' separates them "
                      "in a script)" if self.tok.text.lower() != "select" else "one statement")
        return Statement(tuple(selectors), tuple(bindings), where, self.text)

    def selector(self) -> Selector:
        token = self.name("a selector (avg, count, max, min, histogram)")
        self.expect_op("(")
        expr = self.expr()
        self.expect_op(")")
        alias = self.name("a column name after AS").text if self.keyword("as") else None
        return Selector(token.text.lower(), expr, alias, token.column)

    def binding(self) -> Binding:
        token = self.name("a binding such as game='omaha8' or hero='AA**'")
        self.expect_op("=")
        if self.tok.kind != "string":
            self.fail(f"a quoted value for {token.text}")
        value = self.next().text[1:-1]
        return Binding(token.text, value, token.column)

    # expressions -------------------------------------------------------------------
    def expr(self) -> Node:
        left = self.conjunction()
        while self.tok.kind == "keyword" and self.tok.text.lower() == "or":
            col = self.next().column
            left = Node("binary", "or", col, (left, self.conjunction()))
        return left

    def conjunction(self) -> Node:
        left = self.negation()
        while self.tok.kind == "keyword" and self.tok.text.lower() == "and":
            col = self.next().column
            left = Node("binary", "and", col, (left, self.negation()))
        return left

    def negation(self) -> Node:
        if self.tok.kind == "keyword" and self.tok.text.lower() == "not":
            col = self.next().column
            return Node("unary", "not", col, (self.negation(),))
        return self.comparison()

    def comparison(self) -> Node:
        left = self.sum()
        col = self.tok.column
        op = self.op("=", "<>", "!=", "<", "<=", ">", ">=")
        if op is None:
            return left
        node = Node("binary", "<>" if op == "!=" else op, col, (left, self.sum()))
        if self.tok.kind == "op" and self.tok.text in ("=", "<>", "!=", "<", "<=", ">", ">="):
            self.fail("AND or OR between comparisons")
        return node

    def sum(self) -> Node:
        left = self.product()
        while True:
            col = self.tok.column
            op = self.op("+", "-")
            if op is None:
                return left
            left = Node("binary", op, col, (left, self.product()))

    def product(self) -> Node:
        left = self.unary()
        while True:
            col = self.tok.column
            op = self.op("*", "/")
            if op is None:
                return left
            left = Node("binary", op, col, (left, self.unary()))

    def unary(self) -> Node:
        col = self.tok.column
        if self.op("-"):
            return Node("unary", "-", col, (self.unary(),))
        return self.atom()

    def atom(self) -> Node:
        t = self.tok
        if t.kind == "number":
            self.i += 1
            return Node("number", Fraction(t.text), t.column, text=t.text)
        if t.kind == "string":
            self.i += 1
            return Node("string", t.text[1:-1], t.column, text=t.text)
        if t.kind == "op" and t.text == "(":
            self.i += 1
            inner = self.expr()
            self.expect_op(")")
            return inner
        if t.kind == "keyword" and t.text.lower() == "case":
            return self.case()
        if t.kind == "name":
            self.i += 1
            if not self.op("("):
                return Node("name", t.text.lower(), t.column, text=t.text)
            args = []
            if not self.op(")"):
                args.append(self.expr())
                while self.op(","):
                    args.append(self.expr())
                self.expect_op(")")
            return Node("call", t.text.lower(), t.column, tuple(args), t.text)
        self.fail("a value, a function or '('")
        raise AssertionError  # unreachable: fail raises

    def case(self) -> Node:
        col = self.next().column
        subject = None
        if not (self.tok.kind == "keyword" and self.tok.text.lower() == "when"):
            subject = self.expr()
        arms = []
        while self.keyword("when"):
            test = self.expr()
            self.expect_keyword("then")
            arms.append((test, self.expr()))
        if not arms:
            self.fail("WHEN")
        otherwise = self.expr() if self.keyword("else") else None
        self.expect_keyword("end")
        args = (subject, otherwise) + tuple(x for arm in arms for x in arm)
        return Node("case", "case", col, args)


def parse(text: str) -> Statement:
    """One PQL statement -> :class:`Statement` (a :class:`PqlError` names the bad token).

    >>> s = parse("select avg(riverEquity(hero)) as eq from game='omaha8', hero='A2**', villain='KK**'")
    >>> s.selectors[0].function, s.selectors[0].name, [b.name for b in s.bindings]
    ('avg', 'eq', ['game', 'hero', 'villain'])
    >>> parse("select count(winsHi(hero) from game='holdem'")
    Traceback (most recent call last):
    ...
    pokereval.query.PqlError: expected ')', got 'from' at column 27
    """
    if not isinstance(text, str):
        raise PqlError(f"a query is text, got {type(text).__name__}")
    if not text.strip():
        raise PqlError("empty query: write select ... from game='...', PLAYER='...'")
    return _Parser(text).statement()
