"""The examples in pokereval.hh docstrings still hold."""
import doctest
import importlib

import pytest

MODULES = ["pokereval.hh", "pokereval.hh.pokerstars", "pokereval.hh.pokerstars_header"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
