"""PQL's errors: every parse and type error is one line that names what is wrong and
where (``... at column N``, N the 1-based column of the offending token), raised before
anything is dealt; :class:`PqlError` is a :class:`pokereval.PokerEvalError`.

Each case marks the offending token with ``§`` (removed before the query runs): the
message must give that token's column.
"""
from __future__ import annotations

import re
import subprocess
import sys
import time

import pytest

from pokereval.errors import PokerEvalError
from pokereval.query import PqlError, pql

HOLDEM = "from game='holdem', hero='AA', villain='KK'"
RAZZ = "from game='razz', hero='A23', villain='KQJ'"
OMAHA = "from game='omahahi', hero='AA**', villain='KK**'"
STUD = "from game='studhi', hero='A23', villain='KQJ'"

CASES = [
    # type errors
    (f"select avg(§winsHi(hero) + 1) {HOLDEM}", ["'+'", "number", "condition"]),
    (f"select count(winsHi(hero)) {HOLDEM} where winsHi(§bob)", ["unknown player", "bob", "hero, villain"]),
    (f"select count(§riverEquity(hero)) {HOLDEM}", ["count()", "condition", "number"]),
    (f"select avg(§winsHi(hero)) {HOLDEM}", ["avg()", "number", "condition"]),
    (f"select count(winsHi(hero)) {HOLDEM} where §riverEquity(hero)", ["WHERE", "condition"]),
    (f"select count(winsHi(hero)) {HOLDEM} where winsHi(hero) and §'x'", ["AND", "string"]),
    (f"select count(winsHi(hero)) {HOLDEM} where riverEquity(hero) §> flush",
     ["cannot compare", "number", "hand type"]),
    (f"select count(winsHi(hero)) {HOLDEM} where §hero", ["player 'hero' is not a value"]),
    (f"select count(handType(hero, flop) >= §'bogus') {HOLDEM}", ["'bogus' is not a hand type"]),
    (f"select avg(case when winsHi(hero) then 1 else §flush end) {HOLDEM}", ["CASE", "type"]),
    (f"select count(§winsHi(hero, villain)) {HOLDEM}", ["winsHi()", "1 argument", "got 2"]),
    (f"select count(handType(hero, §fifth) >= flush) {HOLDEM}", ["street", "fifth", "holdem"]),
    (f"select count(rateHiHand(§'KKK2') > hiRating(hero, river)) {HOLDEM}", ["five cards", "KKK2"]),
    # functions that mean nothing in the game, named with the game
    (f"select count(§winsLo(hero)) {HOLDEM}", ["winsLo()", "holdem", "no low"]),
    (f"select count(§nutLo(hero, river)) {RAZZ}", ["nutLo()", "razz"]),
    (f"select count(§winsHi(hero)) {RAZZ}", ["winsHi()", "razz", "high"]),
    (f"select count(§madeLo(hero, river)) {OMAHA}", ["madeLo()", "omaha", "eight-or-better"]),
    (f"select count(§nutHi(hero, seventh)) {STUD}", ["nutHi()", "stud", "board"]),
    (f"select count(§turnCard() = 'Ah') {STUD}", ["turnCard()", "stud", "board"]),
    (f"select count(§upCard(hero, flop) = 'Ah') {HOLDEM}", ["upCard()", "holdem", "stud"]),
    (f"select count(§handType(hero, preflop) >= flush) {OMAHA}", ["preflop", "omaha", "two hole cards"]),
    (f"select count(§nutHiOuts(hero, river) > 2) {HOLDEM}", ["nutHiOuts()", "flop or the turn", "river"]),
    # names
    (f"select count(§fooBar(hero)) {HOLDEM}", ["unknown function", "fooBar"]),
    (f"select count(§winshigh(hero)) {HOLDEM}", ["unknown function", "did you mean winsHi?"]),
    (f"select §foo(winsHi(hero)) {HOLDEM}", ["unknown selector", "foo", "avg, count"]),
    # parse errors
    (f"select count(winsHi(hero) §from game='holdem', hero='AA', villain='KK'", ["expected ')'", "'from'"]),
    (f"select count(winsHi(hero)) §frm game='holdem', hero='AA', villain='KK'", ["expected FROM", "'frm'"]),
    (f"select count(winsHi(hero) + §) {HOLDEM}", ["expected a value", "')'"]),
    (f"select count(winsHi(hero)) {HOLDEM} where§", ["expected a value", "end of the query"]),
    (f"select count(winsHi(hero)) {HOLDEM} §@", ["unexpected character '@'"]),
    (f"select count(winsHi(hero)) from game='holdem', hero='AA, villain='KK§'", ["unclosed string"]),
    (f"select count(winsHi(hero)) {HOLDEM} §/* no end", ["unclosed comment"]),
    (f"select count(winsHi(hero)) {HOLDEM}; §select count(winsHi(hero)) {HOLDEM}", ["one statement", "'select'"]),
    # the from clause
    (f"select count(winsHi(hero)) from §game='pinochle', hero='AA', villain='KK'", ["unknown game", "pinochle", "omaha8"]),
    (f"select count(winsHi(hero)) from game='holdem', §hero='A1', villain='KK'", ["hero='A1'", "bad range", "'1'"]),
    (f"select count(winsHi(hero)) from game='holdem', hero='AA', §villain='AAA'", ["villain='AAA'", "3 cards"]),
    (f"select count(winsHi(hero)) {HOLDEM}, §board='2c3c4c5c6c7c'", ["board=", "6 cards", "at most 5"]),
    (f"select count(winsHi(hero)) {HOLDEM}, §dead='Zz'", ["dead='Zz'", "Zz"]),
    (f"select count(winsHi(hero)) from game='holdem', hero='AA', §hero='KK'", ["hero is bound twice"]),
    (f"select count(winsHi(hero)) from game='holdem', §syntax='ppt', hero='AA', villain='KK'", ["syntax='ppt'", "generic"]),
    (f"select count(inRange(hero, §'A1')) {HOLDEM}", ["inRange()", "bad range 'A1'"]),
    (f"select count(boardInRange(§'A1')) {HOLDEM}", ["boardInRange()", "bad range 'A1'"]),
]


def _case(marked: str) -> tuple[str, int]:
    column = marked.index("§") + 1
    return marked.replace("§", ""), column


@pytest.mark.parametrize("marked, words", CASES, ids=[str(i) for i in range(len(CASES))])
def test_error_is_one_line_with_its_column(marked, words):
    query, column = _case(marked)
    start = time.perf_counter()
    with pytest.raises(PqlError) as info:
        pql(query, trials=10 ** 9, seed=1)  # checked before anything is dealt
    assert time.perf_counter() - start < 5
    message = str(info.value)
    assert "\n" not in message and message.strip() == message
    found = re.findall(r"\bat column (\d+)\b", message)
    assert found, f"no column in {message!r}"
    assert int(found[-1]) == column, f"{message!r}: want column {column}"
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    assert isinstance(info.value, PokerEvalError)


@pytest.mark.parametrize("query, words", [
    ("select count(winsHi(hero)) from hero='AA', villain='KK'", ["game="]),
    ("select count(winsHi(hero)) from game='holdem'", ["names no player"]),
    ("select count(winsHi(hero)) from game='holdem', hero='AhAs', villain='AhKs'",
     ["card Ah", "hero", "villain"]),
    (f"select count(winsHi(hero)) as x, count(winsHi(villain)) as X {HOLDEM}", ["two columns", "'x'"]),
    ("select count(winsHi(p1)) from game='studhi', " + ", ".join(f"p{i}='***'" for i in range(1, 9)),
     ["8 players", "at most 7"]),
])
def test_whole_query_errors_are_one_line(query, words):
    """Errors about the whole statement (no one token to point at): still one line."""
    with pytest.raises(PqlError) as info:
        pql(query, trials=100, seed=1)
    message = str(info.value)
    assert "\n" not in message
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"


def test_pql_error_is_a_poker_eval_error():
    assert issubclass(PqlError, PokerEvalError)
    with pytest.raises(PokerEvalError):
        pql(f"select count(winsLo(hero)) {HOLDEM}")


def test_exact_refusal_is_a_pql_error():
    """An exact walk too big to list is refused with a one-line PqlError, not a crash."""
    query = ("select count(winsHi(p1)) from game='omaha', p1='****', p2='****', p3='****', "
             "p4='****'")
    with pytest.raises(PqlError) as info:
        pql(query, exact=True)
    assert "\n" not in str(info.value)


def test_pe_pql_is_the_function_whatever_is_read_first():
    code = ("import pokereval as pe\n"
            "pe.PqlError\n"
            "assert callable(pe.pql), type(pe.pql)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr.strip().splitlines()[-1]
