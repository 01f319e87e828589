"""The web calculator's JSON API (``pokereval.web``), through Starlette's test client.

Answers are judged against the independently computed spots in tests/data/spots.jsonl
and against ``pe.equity`` / ``pokereval eval --json`` / ``pokereval games --json`` on the
same input (the API must be the CLI's ``--json`` shapes); every bad-input class must get a
400 with the engine's own one-line message; the caps get 400/413/415/429.
"""
from __future__ import annotations

import inspect
import io
import json
import threading
import time

import pytest

import naive
import pokereval as pe
import pokereval.api
from pokereval import cli, protocol

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

from pokereval.web import Limits, create_app  # noqa: E402

BASE = "http://localhost"  # a Host the app answers to (the test client's own is refused)

RESULT_FIELDS = ("equity", "high_win", "high_tie", "low_win", "low_tie", "scoop")


@pytest.fixture(scope="module")
def client():
    # No wall-time cap here: a loaded CI machine (or a first compile) must not turn an
    # answer into a partial one; the cap has its own tests below.
    with TestClient(create_app(Limits(max_players=6, max_samples=5_000_000, max_seconds=600)), base_url=BASE) as c:
        yield c


@pytest.fixture(scope="module")
def thread_client():
    """Computations on threads of this process: what tests that patch the engine need
    (a worker process would not see the patch)."""
    limits = Limits(max_players=6, max_samples=5_000_000, max_seconds=600, isolation="thread")
    with TestClient(create_app(limits), base_url=BASE) as c:
        yield c


def without_elapsed(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "elapsed"}


def engine_json(*args, **kwargs) -> dict:
    """``pe.equity`` on the same spot, through the CLI's JSON writer (NaN -> null)."""
    return json.loads(protocol.dumps(protocol.result_dict(pe.equity(*args, **kwargs))))


def engine_error(*args, **kwargs) -> str:
    with pytest.raises(pe.PokerEvalError) as info:
        pe.equity(*args, **kwargs)
    return protocol.one_line(info.value)


# ---------------------------------------------------------------------------
# Answers
# ---------------------------------------------------------------------------

SMALL_SPOTS = [s for s in naive.load_jsonl("spots.jsonl") if s["runouts"] <= 50_000]


def test_the_reference_spots_cover_the_games():
    in_file = {s["game"] for s in naive.load_jsonl("spots.jsonl")}
    assert {s["game"] for s in SMALL_SPOTS} == in_file and len(in_file) >= 9


@pytest.mark.parametrize("spot", SMALL_SPOTS, ids=[s["id"] for s in SMALL_SPOTS])
def test_equity_matches_reference_and_engine(client, spot):
    body = {k: spot[k] for k in ("game", "hands", "board", "dead")}
    response = client.post("/api/equity", json=body)
    assert response.status_code == 200, response.text
    data = response.json()
    for player, expected in zip(data["players"], spot["results"]):  # independent reference
        for field in RESULT_FIELDS:
            assert player[field] == pytest.approx(expected[field], abs=1e-9), field
    assert without_elapsed(data) == without_elapsed(engine_json(*body.values()))


@pytest.mark.parametrize("body", [
    {"game": "omaha-hilo", "hands": ["AhAd2c3s", "KK**:$ds"], "board": "7c8d9h"},
    {"game": "omaha-hilo", "hands": ["AhAd2c3s", "KsKdQhJh", "9c9d8h7h"], "samples": 200_000, "seed": 7},
    {"game": "stud-hilo", "hands": ["As2s3d", "KhKdQc"], "dead": "9h9c4s", "samples": 100_000, "seed": 3},
    {"game": "razz", "hands": ["Ah2c3d", "4s5s6h", "7c8c9d"], "stderr": 0.01, "seed": 1},
    {"game": "holdem", "hands": ["AhKh", "QQ+"], "board": "Qh7h2c"},
    {"game": "courchevel-hilo", "hands": ["AhAd2c3s4h", "KsKdQhJhTc"], "board": "7c8d"},
    {"game": "big-o", "hands": ["AhAd2c3s4h", "KsKdQhJhTc"], "board": "7c8d9h", "id": "x-1"},
], ids=["range", "mc-3way", "stud-dead", "razz-stderr", "holdem-range", "courchevel", "alias-id"])
def test_equity_options_give_the_engine_answer(client, body):
    response = client.post("/api/equity", json=body)
    assert response.status_code == 200, response.text
    data = response.json()
    options = {k: body[k] for k in ("samples", "stderr", "seed") if k in body}
    if "stderr" in options:
        options["samples"] = 5_000_000  # the server's cap stops a precision target
    expected = engine_json(body["game"], body["hands"], body.get("board", ""), body.get("dead", ""),
                           **options)
    if "id" in body:
        assert data.pop("id") == body["id"]
    assert without_elapsed(data) == without_elapsed(expected)


def test_stream_ends_with_the_engine_answer(client):
    body = {"game": "omaha-hilo", "hands": ["AhAd2c3s", "KsKdQhJh"], "samples": 1_000_000, "seed": 11}
    response = client.post("/api/equity/stream", json=body)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/x-ndjson")
    events = [json.loads(line) for line in response.text.splitlines()]
    assert events[-1]["event"] == "result"
    assert all(e["event"] in ("progress", "alive") for e in events[:-1])
    samples = [e["result"]["samples"] for e in events if e["event"] == "progress"]
    assert samples == sorted(samples) and all(s < 1_000_000 for s in samples)
    expected = engine_json(body["game"], body["hands"], samples=1_000_000, seed=11)
    assert without_elapsed(events[-1]["result"]) == without_elapsed(expected)


def test_stream_input_error_is_a_plain_400(client):
    body = {"game": "omaha-hilo", "hands": ["AhAd2c3s", "KsKdQhZz"]}
    response = client.post("/api/equity/stream", json=body)
    assert response.status_code == 400
    assert response.json() == {"error": engine_error("omaha-hilo", body["hands"]), "field": "player",
                               "player": 1, "fields": ["h2"]}


def test_evaluate_is_the_cli_json(client):
    for game, hole, board in [("omaha-hilo", "AhKd2c3s", "Ks5d8h7cKh"), ("razz", "9s9h7d4c2s3h3d", ""),
                              ("holdem", "KhKd", "Ks5d5c2h9s"), ("stud-hilo", "As2s3d4h9c", "")]:
        response = client.post("/api/evaluate", json={"game": game, "hole": hole, "board": board})
        assert response.status_code == 200, response.text
        out = io.StringIO()
        argv = ["eval", game, hole, "--json"] + (["--board", board] if board else [])
        args = cli.build_parser().parse_args(argv)
        assert cli.cmd_eval(args, out, io.StringIO()) == 0
        assert response.json() == json.loads(out.getvalue())


def test_games_is_the_cli_json(client):
    out = io.StringIO()
    cli.cmd_games(cli.build_parser().parse_args(["games", "--json"]), out, io.StringIO())
    assert client.get("/api/games").json() == json.loads(out.getvalue())


def test_health(client):
    data = client.get("/api/health").json()
    assert data["status"] == "ok" and data["version"] == pe.__version__
    assert data["busy"] == 0 and data["queued"] == 0
    assert data["max_players"]["stud-hilo"] == 6  # the server's cap is below the game's 8
    assert set(data["features"]) == {"graph", "percentile", "breakdown"}


def test_page_and_static_files(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "/static/app.js" in page.text and "http" not in page.text.replace("http-equiv", "")
    for name, kind in [("app.js", "text/javascript"), ("query.js", "text/javascript"), ("app.css", "text/css")]:
        response = client.get(f"/static/{name}")
        assert response.status_code == 200 and response.headers["content-type"].startswith(kind)
        assert "https://" not in response.text and "//cdn" not in response.text  # works offline
    for path in ["/static/index.html", "/static/../app.py", "/static/%2e%2e%2fapp.py", "/nowhere"]:
        response = client.get(path)
        assert response.status_code == 404 and response.json() == {"error": "not found"}


def test_security_headers_and_no_cors(client):
    response = client.post("/api/equity", json={"game": "holdem", "hands": ["AhAd", "KsKd"], "board": "2c3c4c"},
                           headers={"Origin": "https://elsewhere.example"})
    assert response.status_code == 200
    assert not any(h.lower().startswith("access-control-") for h in response.headers)
    assert response.headers["x-content-type-options"] == "nosniff"
    assert "default-src 'self'" in response.headers["content-security-policy"]
    preflight = client.options("/api/equity", headers={"Origin": "https://elsewhere.example",
                                                      "Access-Control-Request-Method": "POST"})
    assert preflight.status_code == 405
    assert "access-control-allow-origin" not in preflight.headers


# ---------------------------------------------------------------------------
# Bad input: 400 with the engine's one-line message
# ---------------------------------------------------------------------------

# every card but the two hands, the flop and one more: no room for the turn and river
ALL_BUT_ONE = "".join(r + s for r in "23456789TJQKA" for s in "cdhs"
                      if r + s not in {"Ah", "Ad", "Ks", "Kd", "2c", "3c", "4c", "5c"})
# (name, call, fields: the page's inputs, or None: not checked, (field, player): the error's)
# A card twice is about the later of its two places (the message names both).
ENGINE_ERRORS = [
    ("unknown card", ("omaha-hilo", ["AhAd2c3s", "KhKdQcZz"], "", ""), ["h2"], ("player", 1)),
    ("duplicate card", ("omaha-hilo", ["AhAd2c3s", "KhKdQc2c"], "", ""), ["h2"], ("player", 1)),
    ("duplicate with board", ("omaha-hilo", ["AhAd2c3s", "KhKdQcJc"], "7c8dAh", ""), ["board"],
     ("board", None)),
    ("duplicate with dead", ("omaha-hilo", ["AhAd2c3s", "KhKdQcJc"], "7c8d9h", "Kh"), ["dead"],
     ("dead", None)),
    ("bad board card", ("omaha-hilo", ["AhAd2c3s", "KhKdQcJc"], "7c8d1x", ""), ["board"], ("board", None)),
    ("bad board range", ("omaha-hilo", ["AhAd2c3s", "KhKdQcJc"], "K*!", ""), ["board"], ("board", None)),
    ("bad dead card", ("omaha-hilo", ["AhAd2c3s", "KhKdQcJc"], "7c8d9s", "1x"), ["dead"], ("dead", None)),
    ("bad dead range", ("omaha-hilo", ["AhAd2c3s", "KhKdQcJc"], "7c8d9s", "Q*!"), ["dead"], ("dead", None)),
    ("wrong hole count", ("omaha-hilo", ["AhAd2c3s", "KhKdQc"], "", ""), ["h2"], ("player", 1)),
    ("bad player 2", ("omaha-hilo", ["AhAd2c3s", "KhKdQcJ1"], "7c8d9s", ""), ["h2"], ("player", 1)),
    ("too many board cards", ("omaha-hilo", ["AhAd2c3s", "KhKdQcJc"], "7c8d9s2h3h4h", ""), ["board"],
     ("board", None)),
    ("unknown game", ("omahax", ["AhAd2c3s", "KhKdQcJc"], "", ""), ["game"], ("game", None)),
    ("one hand", ("omaha-hilo", ["AhAd2c3s"], "", ""), [], ("player", None)),
    ("bad range", ("omaha-hilo", ["AhAd2c3s", "KK**:1z"], "", ""), ["h2"], ("player", 1)),
    ("range emptied", ("omaha-hilo", ["AhAd2c3s", "KK**"], "", "KsKhKd"), ["h2"], ("player", 1)),
    ("stud street", ("stud-hilo", ["As2s3d", "KhKdQc4h"], "", ""), ["h2"], ("player", 1)),
    ("courchevel board", ("courchevel-hilo", ["AhAd2c3s4h", "KsKdQhJhTc"], "", ""), ["board"],
     ("board", None)),
    ("duplicate under a board range", ("omaha-hilo", ["AhAd2c3s", "KhKdQc2c"], "K**", ""), ["h2"],
     ("player", 1)),
    ("too many for the deck", ("holdem", ["AhAd", "KsKd"], "2c3c4c", ALL_BUT_ONE), None, ("player", None)),
]


@pytest.mark.parametrize("name, call, fields, about", ENGINE_ERRORS, ids=[e[0] for e in ENGINE_ERRORS])
def test_engine_errors_are_400_with_the_engine_message(client, name, call, fields, about):
    game, hands, board, dead = call
    message = engine_error(game, hands, board, dead)
    with pytest.raises(pe.PokerEvalError) as info:
        pe.equity(game, hands, board, dead)
    assert (info.value.field, info.value.player) == about  # the engine says what it is about
    response = client.post("/api/equity", json={"game": game, "hands": hands, "board": board, "dead": dead})
    assert response.status_code == 400
    data = response.json()
    assert data["error"] == message and "\n" not in message
    if fields is not None:
        assert data["fields"] == fields
    # ... and the API passes it on: the field, and the player when there is one
    field, player = about
    assert data["field"] == field
    assert data.get("player") == player and ("player" in data) == (player is not None)


def test_stream_error_events_name_the_field(thread_client, monkeypatch):
    """An error raised once the run has started comes as an event, with the same field."""
    def failing(*args, progress=None, **kwargs):
        progress(pe.equity("holdem", ["AhAd", "KsKd"], "2c3c4c"))  # one progress event first
        raise pe.CardError("unknown card 'Zz' in player 2", field="player", player=1)

    monkeypatch.setattr(pokereval.api, "equity", failing)  # what the web app calls
    response = thread_client.post("/api/equity/stream", json={"game": "holdem", "hands": ["AhAd", "KsZz"]})
    events = [json.loads(line) for line in response.text.splitlines()]
    assert events[0]["event"] == "progress"
    assert events[-1] == {"event": "error", "error": "unknown card 'Zz' in player 2", "field": "player",
                          "player": 1, "fields": ["h2"]}


@pytest.mark.parametrize("body, message", [
    ({"game": "holdem"}, "missing field 'hands'"),
    ({"hands": ["AhAd", "KsKd"]}, "missing field 'game'"),
    ({"game": "holdem", "hands": "AhAd KsKd"}, "'hands' must be a list of strings, one per player"),
    ({"game": 3, "hands": ["AhAd", "KsKd"]}, "'game' must be a string, got a number"),
    ({"game": "holdem", "hands": ["AhAd", "KsKd"], "color": 1}, "unknown field 'color'"),
    ({"game": "holdem", "hands": ["AhAd", "KsKd"], "samples": -5}, None),
    ({"game": "holdem", "hands": ["AhAd", "KsKd"], "samples": "many"}, None),
    ({"game": "holdem", "hands": ["AhAd", "KsKd"], "exact": True, "samples": 1000}, None),
    ({"game": "holdem", "hands": ["AhAd", "KsKd"], "stderr": 2}, None),
    ({"game": "holdem", "hands": ["AhAd", "KsKd"], "breakdown": "yes"}, "'breakdown' must be true or false"),
    ([1, 2], "expected a JSON object, got a list"),
], ids=["no-hands", "no-game", "hands-string", "game-number", "unknown-field", "samples-negative",
        "samples-string", "exact-and-samples", "stderr-range", "breakdown-type", "not-object"])
def test_request_shape_errors(client, body, message):
    response = client.post("/api/equity", json=body)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    if message is None:  # a value the engine judges: its own message
        options = {k: body[k] for k in ("samples", "stderr", "exact") if k in body}
        message = engine_error(body["game"], body["hands"], **options)
        assert error == message
        assert response.json()["field"] == "option" and response.json()["fields"] == []
    else:
        assert error.startswith(message)


def test_invalid_json_and_content_type(client):
    response = client.post("/api/equity", content=b'{"game": ', headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and response.json()["error"].startswith("invalid JSON")
    response = client.post("/api/equity", content=b'{"game": "holdem"}', headers={"Content-Type": "text/plain"})
    assert response.status_code == 415
    assert response.json()["error"] == "send the request as JSON (Content-Type: application/json)"
    response = client.get("/api/equity")
    assert response.status_code == 405 and response.json() == {"error": "method not allowed"}


def test_evaluate_errors(client):
    for body, field in [({"game": "omaha-hilo", "hole": "AhZz2c3s", "board": ""}, "hole"),
                        ({"game": "omaha-hilo", "hole": "AhKd2c3s", "board": "Ks5d8h7cKh2c"}, "board"),
                        ({"game": "nope", "hole": "AhKd2c3s"}, "game")]:
        response = client.post("/api/evaluate", json=body)
        assert response.status_code == 400
        with pytest.raises(pe.PokerEvalError) as info:
            pe.evaluate(body["game"], body["hole"], body.get("board", ""))
        assert response.json()["error"] == protocol.one_line(info.value)
        assert field in response.json()["fields"]
        assert info.value.field == response.json()["field"] == field
    response = client.post("/api/evaluate", json={"game": "holdem"})
    assert response.status_code == 400 and response.json()["error"] == "missing field 'hole'"


def test_internal_errors_hide_details(thread_client, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("secret /home/user/path detail")

    monkeypatch.setattr(pokereval.api, "equity", broken)  # what the web app calls
    response = thread_client.post("/api/equity", json={"game": "holdem", "hands": ["AhAd", "KsKd"]})
    assert response.status_code == 500 and response.json() == {"error": "internal error"}
    assert "secret" not in response.text and "Traceback" not in response.text
    assert "secret /home/user/path detail" in caplog.text  # logged server-side


# ---------------------------------------------------------------------------
# Caps
# ---------------------------------------------------------------------------

def test_body_size_cap(client):
    body = json.dumps({"game": "holdem", "hands": ["AhAd"] * 4000}).encode()
    response = client.post("/api/equity", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert response.json() == {"error": "request body too large: at most 16,384 bytes"}

    def chunks():  # no Content-Length: the cap holds while reading
        for _ in range(100):
            yield b" " * 1000

    response = client.post("/api/equity", content=chunks(), headers={"Content-Type": "application/json"})
    assert response.status_code == 413


def test_players_and_samples_caps(client):
    hands = ["AhAd", "KsKd", "QsQd", "JsJd", "TsTd", "9s9d", "8s8d"]
    response = client.post("/api/equity", json={"game": "holdem", "hands": hands})
    assert response.status_code == 400
    assert response.json()["error"] == "at most 6 players per request on this server, got 7"
    response = client.post("/api/equity", json={"game": "holdem", "hands": hands[:2], "samples": 5_000_001})
    assert response.status_code == 400
    assert response.json()["error"] == "samples must be at most 5,000,000 on this server, got 5,000,001"


def test_wall_time_cap():
    """A sampled run stopped by the time cap returns its figures marked partial; an exact
    run stopped by it (no exact answer) is a 400."""
    with TestClient(create_app(Limits(max_seconds=0.5, max_samples=10**12)), base_url=BASE) as c:
        response = c.post("/api/equity", json={"game": "omaha-hilo", "hands": ["AhAd2c3s", "KsKdQhJh"],
                                               "samples": 10**11, "seed": 5})
        assert response.status_code == 200
        data = response.json()
        assert data["partial"] is True and data["stopped"] == "time limit of 500 ms reached"
        assert 0 < data["samples"] < 10**11
        assert sum(p["equity"] for p in data["players"]) == pytest.approx(1.0)
        response = c.post("/api/equity", json={"game": "omaha-hilo", "hands": ["AhAd2c3s", "****"], "exact": True})
        assert response.status_code == 400
        assert response.json()["error"].startswith(
            "the exact answer needs more than this server's time limit of 500 ms (stopped after")


def test_full_pool_answers_429():
    """One worker, no waiting line: while it runs, another request is refused at once."""
    with TestClient(create_app(Limits(workers=1, queue=0, max_seconds=3, max_samples=10**12)), base_url=BASE) as c:
        long_body = {"game": "omaha-hilo", "hands": ["AhAd2c3s", "KsKdQhJh"], "samples": 10**11}
        answers = {}
        worker = threading.Thread(target=lambda: answers.update(long=c.post("/api/equity", json=long_body)))
        worker.start()
        deadline = time.monotonic() + 120
        while c.get("/api/health").json()["busy"] != 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        response = c.post("/api/equity", json={"game": "holdem", "hands": ["AhAd", "KsKd"], "board": "2c3c4c"})
        assert response.status_code == 429
        assert response.headers["retry-after"] == "1"
        assert response.json()["error"] == "server busy: 1 computations running and 0 waiting; retry shortly"
        worker.join()  # the long run ends at the 3 s time cap
        assert answers["long"].status_code == 200 and answers["long"].json()["partial"] is True
        assert c.get("/api/health").json()["busy"] == 0
        response = c.post("/api/equity", json={"game": "holdem", "hands": ["AhAd", "KsKd"], "board": "2c3c4c"})
        assert response.status_code == 200


# ---------------------------------------------------------------------------
# Optional features (from other issues): used when present
# ---------------------------------------------------------------------------

def test_missing_features_answer_501(client):
    if not hasattr(pe, "equity_distribution"):
        response = client.post("/api/graph", json={"game": "holdem", "hands": ["AhAd", "KsKd"]})
        assert response.status_code == 501 and "not available" in response.json()["error"]
    if not hasattr(pe, "percentile"):
        response = client.post("/api/percentile", json={"game": "holdem", "hand": "AhAd"})
        assert response.status_code == 501 and "not available" in response.json()["error"]
    if "breakdown" not in inspect.signature(pe.equity).parameters:
        response = client.post("/api/equity", json={"game": "holdem", "hands": ["AhAd", "KsKd"],
                                                    "breakdown": True})
        assert response.status_code == 400
        assert response.json()["error"] == "breakdown is not available in this version of pokereval"


@pytest.mark.skipif(not hasattr(pe, "equity_distribution"), reason="pe.equity_distribution not in this build")
def test_graph_is_the_distribution(client):
    body = {"game": "omaha-hilo", "hands": ["AhAd2c3s", "KsKdQhJh"], "board": "7c8d9h"}
    response = client.post("/api/graph", json=body)
    assert response.status_code == 200, response.text
    expected = json.loads(protocol.dumps(pe.equity_distribution(body["game"], body["hands"], body["board"]).to_dict()))
    data = response.json()
    assert without_elapsed(data) == without_elapsed(expected)
    for player in data["players"]:
        assert sum(w for _, w in player["curve"]) == pytest.approx(1.0)
    response = client.post("/api/graph", json={**body, "hands": ["AhAd2c3s", "KsKdQhZz"]})
    assert response.status_code == 400 and response.json()["fields"] == ["h2"]


@pytest.mark.skipif(not hasattr(pe, "percentile"), reason="pe.percentile not in this build")
def test_percentile(client):
    response = client.post("/api/percentile", json={"game": "omaha-hilo", "hand": "AhAd2c3s"})
    assert response.status_code == 200, response.text
    assert response.json()["percentile"] == pe.percentile("omaha-hilo", "AhAd2c3s", players=10)
    response = client.post("/api/percentile", json={"game": "razz", "hand": "Ah2c3d"})
    assert response.status_code == 400


@pytest.mark.skipif("breakdown" not in inspect.signature(pe.equity).parameters,
                    reason="pe.equity(breakdown=True) not in this build")
def test_breakdown_passes_through(client):
    body = {"game": "omaha-hilo", "hands": ["AhAd2c3s", "KsKdQhJh"], "board": "7c8d9h", "breakdown": True}
    response = client.post("/api/equity", json=body)
    assert response.status_code == 200, response.text
    expected = engine_json(body["game"], body["hands"], body["board"], breakdown=True)
    assert without_elapsed(response.json()) == without_elapsed(expected)


@pytest.fixture()
def standins(monkeypatch):
    """The other issues' features as stand-ins with their interfaces (tests/support/web_standins.py),
    where the web app looks them up (pokereval.api)."""
    import web_standins

    api = pokereval.api
    monkeypatch.setattr(api, "equity_distribution", web_standins.equity_distribution, raising=False)
    monkeypatch.setattr(api, "percentile", web_standins.percentile, raising=False)
    monkeypatch.setattr(api, "equity", web_standins._with_breakdown(api.equity))
    return web_standins


def test_routes_of_the_optional_features(thread_client, standins):
    """The routes' plumbing, with stand-ins: the features are announced, the answers are
    the features' own to_dict / value, their errors are 400s."""
    assert thread_client.get("/api/health").json()["features"] == {"graph": True, "percentile": True,
                                                            "breakdown": True}
    body = {"game": "omaha-hilo", "hands": ["AhAd2c3s", "KK**"], "board": "7c8d9h", "id": 4}
    response = thread_client.post("/api/graph", json=body)
    assert response.status_code == 200
    assert response.json() == {"id": 4, **standins._Distribution("omaha-hilo", body["hands"]).to_dict()}
    response = thread_client.post("/api/graph", json={**body, "stderr": 0.01})
    assert response.status_code == 400 and response.json()["error"].startswith("unknown field 'stderr'")
    response = thread_client.post("/api/graph", json={**body, "board": "7c8d1x"})
    assert response.status_code == 400 and response.json()["fields"] == ["board"]

    response = thread_client.post("/api/percentile", json={"game": "plo8", "hand": "AhAd2c3s"})
    assert response.json() == {"game": "omaha-hilo", "hand": "AhAd2c3s", "players": 10,
                               "percentile": standins.PERCENTILE}
    response = thread_client.post("/api/percentile", json={"game": "razz", "hand": "Ah2c3d"})
    assert response.status_code == 400 and response.json()["error"] == "razz has no hand ordering"
    response = thread_client.post("/api/percentile", json={"game": "omaha", "hand": "AhAd2c3s", "players": "x"})
    assert response.status_code == 400

    response = thread_client.post("/api/equity", json={**body, "breakdown": True})
    assert response.status_code == 200
    assert all("breakdown" in p for p in response.json()["players"])
    response = thread_client.post("/api/equity", json=body)
    assert all("breakdown" not in p for p in response.json()["players"])


def test_pool_frees_a_worker_before_its_answer_is_out():
    """A client that gets its answer and asks again at once finds the worker free."""
    import asyncio

    from pokereval.web.jobs import Busy, Job, WorkerPool

    async def scenario():
        pool = WorkerPool(workers=1, queue=0, isolation="thread")
        loop = asyncio.get_running_loop()
        try:
            for _ in range(200):
                job = Job(loop, 10)
                pool.submit(job, lambda progress: 42)
                assert await job.events.get() == ("result", 42)
            blocker, gate = Job(loop, 10), threading.Event()
            pool.submit(blocker, lambda progress: gate.wait())
            with pytest.raises(Busy):
                pool.submit(Job(loop, 10), lambda progress: 0)
            gate.set()
            assert (await blocker.events.get())[0] == "result"
        finally:
            pool.shutdown()

    asyncio.run(scenario())
