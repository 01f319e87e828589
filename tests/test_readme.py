"""README.md keeps its promises: its examples run, and its command list is the CLI's."""
from __future__ import annotations

import doctest
import re
from pathlib import Path

from pokereval.cli import build_parser

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_examples_run():
    # every '>>>' example in the README (the evaluate_batch block among them); a code
    # fence ends an example's expected output, as a blank line does for doctest
    text = re.sub(r"^```.*$", "", README.read_text(encoding="utf-8"), flags=re.M)
    test = doctest.DocTestParser().get_doctest(text, {}, "README.md", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(test)
    assert result.attempted >= 10 and result.failed == 0, result


def _parser_commands() -> set[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return set(sub.choices)


def test_readme_lists_every_command():
    text = README.read_text(encoding="utf-8")
    table = text.split("<!-- commands -->", 1)[1].split("\n\n", 1)[0]
    listed = set(re.findall(r"^\| `([a-z]+)` \|", table, flags=re.M))
    assert listed == _parser_commands()
    count = re.search(r"has (\w+) commands", text).group(1)
    words = {"eleven": 11, "twelve": 12, "ten": 10, "thirteen": 13}
    assert words.get(count) == len(listed), count
