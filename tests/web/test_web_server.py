"""A real ``pokereval serve`` (uvicorn in a subprocess, localhost only): load and cancellation.

* 50 concurrent flop requests are all answered, each with ``pe.equity``'s figures.
* A long preflop request whose client goes away stops computing: /api/health's busy
  count returns to 0, the server logs why, and the only worker answers the next request.
"""
from __future__ import annotations

import json
import random
import socket
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

import pokereval as pe
from pokereval import protocol
from pokereval.cli import main

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
from webserver import serve  # noqa: E402

FLOP_GAMES = ["omaha-hilo", "omaha5-hilo", "holdem", "omaha", "courchevel-hilo"]
# A long run: exact Omaha Hi/Lo preflop, a hand against every holding (194,580 holdings,
# about 97,000 up to suit renaming, each a walk of 5,900 board rank multisets: half a
# minute of work).
LONG = {"game": "omaha-hilo", "hands": ["AhAd2c3s", "****"], "exact": True}


def flop_spots(count: int, seed: int = 13) -> list[dict]:
    rng = random.Random(seed)
    spots = []
    for i in range(count):
        game = pe.get_game(FLOP_GAMES[i % len(FLOP_GAMES)])
        players = rng.choice([2, 3])
        deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
        rng.shuffle(deck)
        hands = ["".join(deck[p * game.hole:(p + 1) * game.hole]) for p in range(players)]
        board = "".join(deck[players * game.hole:players * game.hole + 3])
        spots.append({"game": game.name, "hands": hands, "board": board, "id": i})
    return spots


def without_elapsed(data: dict) -> dict:
    return {k: v for k, v in data.items() if k not in ("elapsed", "id")}


def test_fifty_concurrent_flop_requests_all_answered_correctly():
    spots = flop_spots(50)
    with serve("--per-client", "0", "--max-connections-per-client", "0") as server:  # 50 clients, all on 127.0.0.1
        with ThreadPoolExecutor(max_workers=50) as pool:
            answers = list(pool.map(lambda body: server.post("/api/equity", body), spots))
        assert server.get("/api/health")["busy"] == 0
    for body, (status, data) in zip(spots, answers):
        assert status == 200, data
        assert data["id"] == body["id"]
        expected = protocol.result_dict(pe.equity(body["game"], body["hands"], body["board"]))
        assert without_elapsed(data) == without_elapsed(json.loads(protocol.dumps(expected)))


def _send(port: int, path: str, body: dict) -> socket.socket:
    """Send a POST and leave the connection open without reading the answer."""
    data = json.dumps(body).encode()
    conn = socket.create_connection(("127.0.0.1", port))
    conn.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
    return conn


@pytest.mark.parametrize("path", ["/api/equity", "/api/equity/stream"])
def test_dropped_client_stops_its_computation(path):
    with serve("--workers", "1", "--queue", "0", "--time-limit", "3600") as server:
        # the same kind of run on a flop first: kernels compiled (a cold cache takes a
        # while), so the long run reaches its batches (and its stop points) at once
        status, _ = server.post("/api/equity", {**LONG, "board": "7c8d9h"}, timeout=600)
        assert status == 200
        conn = _send(server.port, path, LONG)
        try:
            assert server.wait_busy(1), server.log()
            # the only worker is taken: the next request is refused, not queued
            status, data = server.post("/api/equity", flop_spots(1)[0])
            assert status == 429 and data["error"].startswith("server busy"), (data, server.log())
            assert server.wait_busy(1, seconds=0.5)  # still at it
        finally:
            conn.close()  # the client goes away
        assert server.wait_busy(0, seconds=120), "the computation kept running after its client left"
        assert "computation stopped after" in server.log()
        assert "its client went away" in server.log()
        status, data = server.post("/api/equity", flop_spots(1)[0])
        assert status == 200 and data["partial"] is False


def test_serve_on_a_taken_port_is_one_line(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        code = main(["serve", "--port", str(taken.getsockname()[1])])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("pokereval: error: cannot listen on 127.0.0.1:") and err.count("\n") == 1


def test_serve_help_names_the_defaults(capsys):
    assert main(["serve", "--help"]) == 0
    out = capsys.readouterr().out
    assert "127.0.0.1" in out and "--open" in out and "--workers" in out


def test_open_starts_a_browser_on_the_page(tmp_path):
    opened = tmp_path / "opened.txt"
    fake = tmp_path / "browser.py"  # stands in for the user's browser ($BROWSER)
    fake.write_text(f"import sys\nopen({str(opened)!r}, 'w').write(sys.argv[1])\n")
    with serve("--open", env={"BROWSER": f"{sys.executable} {fake} %s"}) as server:
        deadline = time.monotonic() + 30
        while not opened.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert opened.read_text() == server.url + "/"
        assert "serving the web calculator on " + server.url + "/" in server.log()


def test_serve_without_the_web_extra_says_what_to_install(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if it were not installed
    assert main(["serve", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err == ("pokereval: error: 'pokereval serve' needs the web extra (uvicorn is missing): "
                   "pip install starlette uvicorn (or, in a clone of pokereval: "
                   "pip install \".[web]\")\n")


def _stream(server, body: dict) -> tuple[int, dict]:
    """POST /api/equity/stream and return the final event."""
    import urllib.request

    request = urllib.request.Request(server.url + "/api/equity/stream",
                                     data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=300) as response:
        events = [json.loads(line) for line in response.read().decode().splitlines() if line]
        return response.status, events[-1]


def test_every_route_at_once_gives_the_serial_answers():
    # issue 26, goal 1 through the server: graph, equity, stream, evaluate and percentile
    # requests at the same time (a graph beside an equity run used to abort the server)
    graph = {"game": "omaha-hilo", "hands": ["AhAd2c3s", "KsKdQhJh"], "board": "7c8d9h"}
    ranged = {"game": "omaha-hilo", "hands": ["AhAd2c3s", "KK**"], "samples": 200_000, "seed": 1}
    evaluate = {"game": "omaha-hilo", "hole": "AhKd2c3s", "board": "Ks5d8h7cKh"}
    percentile = {"game": "omaha", "hand": "AsAh7c2d"}
    with serve("--workers", "4", "--per-client", "0") as server:
        calls = [lambda: server.post("/api/graph", graph, timeout=300),
                 lambda: server.post("/api/equity", ranged, timeout=300),
                 lambda: _stream(server, ranged),
                 lambda: server.post("/api/evaluate", evaluate),
                 lambda: server.post("/api/percentile", percentile)] * 4
        serial = [call() for call in calls[:5]]
        with ThreadPoolExecutor(max_workers=len(calls)) as pool:
            answers = list(pool.map(lambda call: call(), calls))
        health = server.get("/api/health")
    assert health["busy"] == 0
    for i, (status, data) in enumerate(answers):
        want_status, want = serial[i % 5]
        assert status == want_status == 200, data
        if i % 5 == 2:  # the stream's last event: the result
            assert data["event"] == "result" and want["event"] == "result"
            data, want = data["result"], want["result"]
        assert without_elapsed(data) == without_elapsed(want), i % 5
    expected = protocol.result_dict(pe.equity(ranged["game"], ranged["hands"],
                                              samples=ranged["samples"], seed=ranged["seed"]))
    assert without_elapsed(serial[1][1]) == without_elapsed(json.loads(protocol.dumps(expected)))
