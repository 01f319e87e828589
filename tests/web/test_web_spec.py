"""The page draws the CLI's equity table: ``GET /api/spec`` serves the columns of
:func:`pokereval.protocol.equity_table_spec`, the stream's answers carry
:func:`pokereval.protocol.legend` and :func:`pokereval.protocol.footer`, and the CLI's
table (``pokereval equity``) has the same column headers as the spec's labels.
"""
from __future__ import annotations

import dataclasses
import io
import json

import pytest
from rich.console import Console

import pokereval as pe
from pokereval import protocol
from pokereval.cli.equity import render_equity

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

from pokereval.web import Limits, create_app  # noqa: E402

BASE = "http://localhost"  # a Host the app answers to (the test client's own is refused)

# one spot per kind of table: high only, hi/lo split (two-line headers), razz (low fields)
SPOTS = [("holdem", ["AhAd", "KsKd"], "2c3c4c", {}),
         ("omaha-hilo", ["AcAs3d4h", "KhKcJdTd"], "7c8d9h", {}),
         ("razz", ["Ah2c3d", "KsKdQh"], "", {"samples": 2000, "seed": 3})]


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Limits(max_seconds=600)), base_url=BASE) as c:
        yield c


def test_the_served_spec_is_protocols(client):
    spec = client.get("/api/spec").json()["equity_table"]
    assert spec == protocol.equity_table_spec()
    assert sorted(spec) == sorted(g["name"] for g in client.get("/api/games").json())
    player = pe.equity("omaha-hilo", ["AcAs3d4h", "KhKcJdTd"], "7c8d9h").players[0]
    for name, table in spec.items():
        keys = [c["key"] for c in table["columns"]]
        assert keys[:2] == ["hand", "equity"] and len(set(keys)) == len(keys)
        assert all(hasattr(player, key) for key in keys), name
        assert keys[2:] == [key for _, key in protocol.equity_columns(pe.get_game(name))]
    assert [c["label"] for c in spec["omaha-hilo"]["columns"]] == [
        "Hand", "Equity", "High win", "High tie", "Low win", "Low tie", "Scoop", "3/4", "Quartered"]


def cli_headers(result) -> list[str]:
    """The column headers of ``pokereval equity``'s table of ``result``, each on one line
    (a two-line header's words joined), read from the text the CLI prints."""
    out = io.StringIO()
    render_equity(result, Console(file=out, width=200, color_system=None, force_terminal=False))
    lines = out.getvalue().splitlines()
    rule = next(i for i, line in enumerate(lines) if set(line) == {"\u2500"})
    head, body = lines[1:rule], lines[rule + 1:rule + 1 + len(result.players)]
    grid = [line.ljust(len(lines[rule])) for line in head + body]
    # columns are the runs of positions where some line has a character
    used = [any(line[x] != " " for line in grid) for x in range(len(lines[rule]))]
    spans, start = [], None
    for x, on in enumerate(used + [False]):
        if on and start is None:
            start = x
        elif not on and start is not None:
            spans.append((start, x))
            start = None
    return [" ".join(line[a:b].strip() for line in head if line[a:b].strip()) for a, b in spans]


@pytest.mark.parametrize("spot", SPOTS, ids=[s[0] for s in SPOTS])
def test_the_cli_table_has_the_spec_labels(client, spot):
    game, hands, board, options = spot
    labels = [c["label"] for c in client.get("/api/spec").json()["equity_table"][game]["columns"]]
    assert cli_headers(pe.equity(game, hands, board, **options)) == labels


@pytest.mark.parametrize("spot", SPOTS, ids=[s[0] for s in SPOTS])
def test_the_stream_carries_the_cli_legend_and_footer(client, spot):
    game, hands, board, options = spot
    response = client.post("/api/equity/stream", json={"game": game, "hands": hands, "board": board,
                                                       **options})
    assert response.status_code == 200
    events = [json.loads(line) for line in response.text.splitlines()]
    final = events[-1]
    assert final["event"] == "result"
    # the engine's answer on the same spot, timed as the server's was
    expected = dataclasses.replace(pe.equity(game, hands, board, **options),
                                   elapsed=final["result"]["elapsed"])
    assert final["legend"] == protocol.legend(expected)
    assert final["footer"] == protocol.footer(expected)
    assert final["footer"].startswith("exact:" if expected.exact else "sampled:")
    for event in events[:-1]:
        if event["event"] == "progress":  # figures still coming: PARTIAL, no reason yet
            assert event["footer"].startswith("PARTIAL: ")


def test_a_time_capped_answer_says_why_it_is_partial():
    with TestClient(create_app(Limits(max_seconds=0.5, max_samples=10**12)), base_url=BASE) as c:
        response = c.post("/api/equity/stream", json={
            "game": "omaha-hilo", "hands": ["AhAd2c3s", "KsKdQhJh"], "samples": 10**11, "seed": 5})
        final = json.loads(response.text.splitlines()[-1])
        assert final["event"] == "result" and final["result"]["partial"] is True
        assert final["footer"].startswith("PARTIAL (time limit of 500 ms reached): sampled: ")
        assert final["footer"].endswith("(seed 5)")


def test_footer_reasons():
    result = pe.equity("holdem", ["AhAd", "KsKd"], samples=1000, seed=2)
    partial = dataclasses.replace(result, partial=True)
    assert protocol.footer(partial) == "PARTIAL (interrupted): " + protocol.footer(result)
    assert protocol.footer(partial, None) == "PARTIAL: " + protocol.footer(result)
    assert protocol.footer(partial, "cancelled") == "PARTIAL (cancelled): " + protocol.footer(result)
