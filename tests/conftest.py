"""Shared test setup: hypothesis profiles, tests/support/ on sys.path, test data."""
import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# `import naive` (the reference implementation) and the other support modules
# (tests/support/: fuzzing, ppt_oracle, rules_reference, webserver, web_standins) from
# any test module.
sys.path.insert(0, str(Path(__file__).parent / "support"))

import naive  # noqa: E402

# CI: no per-example deadline (the first call may JIT-compile or build tables),
# a modest number of examples.  HYPOTHESIS_PROFILE=thorough for a longer hunt.
settings.register_profile(
    "ci",
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def eval_vectors():
    """tests/data/eval_vectors.jsonl: one dict per (deal, seat)."""
    return naive.load_jsonl("eval_vectors.jsonl")


@pytest.fixture(scope="session")
def spots():
    """tests/data/spots.jsonl: exact equities of 60 spots."""
    return naive.load_jsonl("spots.jsonl")
