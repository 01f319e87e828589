"""The examples in pokereval.rules docstrings still hold."""
import doctest
import importlib

import pytest

MODULES = ["chips", "showdown", "stud", "betting", "allin"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(f"pokereval.rules.{name}")
    result = doctest.testmod(module)
    assert result.failed == 0
