"""The macro table (pokereval.ranges.macros.TABLE) is the one home of the macros.

The grammar, the macro tables and the error message of docs/RANGES.md, and the
README's list, name exactly the macros of the table (and the rank classes the
ranks it gives them); the parser reads every one of them; and each shape
macro's test looks at no more than the table says (only ranks, or only suits),
which the stud reader relies on to weigh one holding per rank (suit) multiset.
"""
import itertools
import random
import re
from pathlib import Path

import numpy as np
import pytest

from pokereval.cards import RANKS
from pokereval.ranges import MACROS, RangeError, parse_range
from pokereval.ranges.macros import TABLE, Macro

ROOT = Path(__file__).resolve().parents[2]
DOCS = (ROOT / "docs" / "RANGES.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")
SHAPES = {name for name, m in TABLE.items() if m.kind == "shape"}
CLASSES = {name for name, m in TABLE.items() if m.kind == "class"}


def _section(text: str, title: str) -> str:
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def _grammar_rule(rule: str) -> list[str]:
    """The macro names a rule of the EBNF grammar lists ("$B" | "$R" ...)."""
    body = re.search(rf"^{re.escape(rule)}\s*=(.*?);", DOCS, re.M | re.S).group(1)
    return re.findall(r'"\$(\w+)"', body)


def test_every_entry_is_a_shape_or_a_class():
    assert SHAPES | CLASSES == set(TABLE) and not SHAPES & CLASSES
    for name, m in TABLE.items():
        assert name == name.lower() and m.sees in ("ranks", "suits"), name
        assert (m.test is not None) == (m.kind == "shape"), name
        assert (m.ranks != 0) == (m.kind == "class"), name
    # the public listing is the table: shapes lower case, classes upper case, same order
    assert list(MACROS) == [n if n in SHAPES else n.upper() for n in TABLE]
    assert list(MACROS.values()) == [m.doc for m in TABLE.values()]


def test_the_grammar_names_the_table():
    assert _grammar_rule("rank-class") == [n.upper() for n in TABLE if n in CLASSES]
    assert sorted(_grammar_rule("shape-macro")) == sorted(SHAPES)


def test_the_rank_class_table_gives_the_ranks_of_the_table():
    rows = re.findall(r"`\$([A-Z])` ([\w-]+) \| ([AKQJT2-9 ]+?) \|", _section(DOCS, "Macros"))
    assert sorted(name.lower() for name, _, _ in rows) == sorted(CLASSES)
    for name, word, ranks in rows:
        entry = TABLE[name.lower()]
        assert entry.doc.split(":")[0] == word, name
        assert entry.ranks == sum(1 << RANKS.index(r) for r in ranks.split()), name


def test_the_shape_table_lists_the_shape_macros():
    section = _section(DOCS, "Macros")
    table = section.split("| macro | definition |", 1)[1].split("\n\n", 1)[0]
    named = [n for line in table.splitlines()[2:]
             for n in re.findall(r"`\$(\w+)`", line.split("|")[1])]
    assert sorted(named) == sorted(SHAPES)


def test_the_documented_error_names_every_macro():
    documented = re.search(r"^bad range 'AA:\$xx'.*$", DOCS, re.M).group()
    with pytest.raises(RangeError) as error:
        parse_range("omaha", "AA:$xx")
    assert str(error.value) == documented
    known = re.search(r"known: ([^)]*)\)", documented).group(1).split(", ")
    assert [k[1:].lower() for k in known] == list(TABLE)


def test_the_readme_lists_every_macro():
    listed = re.search(r"macros `([^`]*)`", README).group(1).split()
    assert sorted(m[1:].lower() for m in listed) == sorted(TABLE)


@pytest.mark.parametrize("name", sorted(TABLE))
def test_the_parser_reads_every_macro_in_any_case(name):
    for spelling in {name, name.upper(), name.lower()}:
        text = "$" + spelling if name in SHAPES else f"${spelling}$B"
        assert len(parse_range("omaha", text)) == len(parse_range("omaha", text.lower())) > 0


# -- what a test looks at, from keys computed here (not the package's)

def _multiset(rows: np.ndarray, of: str) -> np.ndarray:
    """int64 key of each row's rank (or suit) multiset."""
    values, width = (rows >> 2, 13) if of == "ranks" else (rows & 3, 4)
    counts = np.zeros((len(rows), width), np.int64)
    for col in values.T:
        counts[np.arange(len(rows)), col] += 1
    return counts @ (8 ** np.arange(width))


def _relabel(row: tuple, keep: str, rnd: random.Random) -> tuple:
    """A holding with the same rank (suit) multiset as ``row``, the rest redrawn."""
    groups: dict[int, int] = {}
    for c in row:
        k = c >> 2 if keep == "ranks" else c & 3
        groups[k] = groups.get(k, 0) + 1
    cards = []
    for k, count in groups.items():
        if keep == "ranks":
            cards += [4 * k + s for s in rnd.sample(range(4), count)]
        else:
            cards += [4 * r + k for r in rnd.sample(range(13), count)]
    return tuple(sorted(cards))


def _sees_only(macro: Macro, n: int) -> bool:
    """Whether the macro's answer on n-card holdings depends only on what it says it sees."""
    if n <= 4:  # every holding: one answer per multiset
        rows = np.array(list(itertools.combinations(range(52), n)), np.uint8)
        out = macro.test(rows)
        _, first, inverse = np.unique(_multiset(rows, macro.sees), return_index=True,
                                      return_inverse=True)
        return bool(np.array_equal(out, out[first][inverse.ravel()]))
    rnd = random.Random(n)  # sampled: each holding against a relabelled twin
    rows = [tuple(sorted(rnd.sample(range(52), n))) for _ in range(3000)]
    twins = [_relabel(r, macro.sees, rnd) for r in rows]
    return bool(np.array_equal(macro.test(np.array(rows, np.uint8)),
                               macro.test(np.array(twins, np.uint8))))


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_each_shape_macro_sees_only_what_the_table_says(name):
    for n in (2, 3, 4, 5, 7):
        assert _sees_only(TABLE[name], n), (name, n)


def test_the_sees_check_can_fail():
    # a table entry that claimed the wrong thing would be caught
    for name, wrong in (("np", "suits"), ("ds", "ranks"), ("0g", "suits")):
        liar = Macro(TABLE[name].doc, "shape", wrong, TABLE[name].test)
        assert not all(_sees_only(liar, n) for n in (2, 3, 4, 5)), name
