"""``POST /api/pql``: the query language through the web API (Starlette's test client),
answers equal to ``pe.pql`` on the same query and seed, bad input one line with a 400."""
from __future__ import annotations

import pytest

import pokereval as pe

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

from pokereval.web import Limits, create_app  # noqa: E402

EXACT = ("select avg(riverEquity(hero)) as heroEquity, histogram(fractionalRiverEquity(hero)) "
         "from game='omaha8', hero='AhAd2c3s', villain='KsKdQhJh', board='7c8d9h'")
SAMPLED = ("select count(tiesLo(p1)) as quartered from game='omaha8', p1='A2**', p2='15%' "
           "where madeLo(p1, river)")


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Limits(max_seconds=600.0, max_samples=1_000_000)),
                    base_url="http://localhost") as c:  # a Host the app answers to
        yield c


def _without_elapsed(data: dict) -> dict:
    return {k: v for k, v in data.items() if k not in ("elapsed", "seed")}


def test_exact_query_is_the_api_answer(client):
    got = client.post("/api/pql", json={"query": EXACT, "id": 7})
    assert got.status_code == 200, got.text
    data = got.json()
    want = pe.pql(EXACT).to_dict()
    assert data["id"] == 7 and data["exact"] is True
    assert _without_elapsed(data) == {"id": 7, **_without_elapsed(want)}


def test_sampled_query_with_seed_is_reproducible(client):
    body = {"query": SAMPLED, "trials": 20000, "seed": 4}
    data = client.post("/api/pql", json=body).json()
    want = pe.pql(SAMPLED, trials=20000, seed=4)
    assert data["trials"] == 20000 and data["dealt"] == want.dealt
    assert data["columns"][0]["count"] == want["quartered"].count


@pytest.mark.parametrize("body, field", [
    ({"query": "select count(winsLo(p1)) from game='holdem', p1='AA', p2='KK'"}, None),
    ({"query": "select avg(riverEquity(p1) from game='holdem', p1='AA'"}, None),
    ({"query": ""}, "query"),
    ({"query": SAMPLED, "trials": 10 ** 9}, "trials"),
    ({"query": SAMPLED, "seed": "x"}, "seed"),
    ({"query": SAMPLED, "exact": "yes"}, "exact"),
])
def test_bad_queries_are_a_one_line_400(client, body, field):
    got = client.post("/api/pql", json=body)
    assert got.status_code == 400, got.text
    error = got.json()["error"]
    assert "\n" not in error and error
    if field:
        assert got.json().get("field") == field
