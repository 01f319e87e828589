"""pokereval.protocol: the request schema, the JSON text and the answer dicts the command
line and the web app share, checked directly (tests/cli and tests/web check that both
faces use them)."""
from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

import pokereval as pe
from pokereval import protocol as P


# ---------------------------------------------------------------------------
# The request schema
# ---------------------------------------------------------------------------

def test_a_full_request_becomes_the_engine_call():
    obj = {"game": "omaha-hilo", "hands": ["AcAs3d4h", "KhKcJdTd"], "board": "7c8d9h",
           "dead": "2h", "exact": True, "samples": None, "stderr": 0.01, "seed": 3,
           "threads": 2, "id": {"any": "thing"}}
    call, options = P.parse_request(obj)
    assert call == ["omaha-hilo", ["AcAs3d4h", "KhKcJdTd"], "7c8d9h", "2h"]
    assert options == {"exact": True, "samples": None, "stderr": 0.01, "seed": 3, "threads": 2}
    assert set(options) == set(P.REQUEST_OPTIONS)
    # the call and options are what pokereval.api.equity takes
    assert pe.equity(*call[:3], **{**options, "stderr": None}).exact is True


def test_missing_board_and_dead_are_empty_and_null_is_missing():
    call, options = P.parse_request({"game": "holdem", "hands": ["AhAd", "KsKd"],
                                     "board": None, "dead": None})
    assert call == ["holdem", ["AhAd", "KsKd"], "", ""]
    assert options == dict.fromkeys(P.REQUEST_OPTIONS)


@pytest.mark.parametrize("obj,message", [
    ([], "expected a JSON object, got a list"),
    ("x", "expected a JSON object, got a string"),
    (None, "expected a JSON object, got null"),
    ({"game": "holdem", "hands": ["AhAd"], "bord": "2c"},
     "unknown field 'bord' (known: " + ", ".join(P.BATCH_FIELDS) + ")"),
    ({"hands": ["AhAd"]}, "missing field 'game'"),
    ({"game": "holdem"}, "missing field 'hands'"),
    ({"game": 7, "hands": []}, "'game' must be a string, got a number"),
    ({"game": "holdem", "hands": "AhAd"}, "'hands' must be a list of strings, one per player"),
    ({"game": "holdem", "hands": ["AhAd", 3]}, "'hands' must be a list of strings, one per player"),
])
def test_bad_shapes_are_request_errors(obj, message):
    with pytest.raises(P.RequestError) as info:
        P.parse_request(obj)
    assert str(info.value) == message


def test_breakdown_is_one_field_for_batch_and_web():
    # issue 29: pokereval batch refused "breakdown": true, which POST /api/equity took
    base = {"game": "omaha-hilo", "hands": ["AhAd2c3s", "KsKdQhJh"], "board": "7c8d9h"}
    assert P.parse_request({**base, "breakdown": True})[1]["breakdown"] is True
    assert "breakdown" not in P.parse_request({**base, "breakdown": False})[1]
    with pytest.raises(P.RequestError, match="^'breakdown' must be true or false, got a number$"):
        P.parse_request({**base, "breakdown": 1})


def test_batch_answers_a_breakdown(capsys, monkeypatch):
    import io
    import sys

    from pokereval.cli import main

    line = json.dumps({"game": "omaha-hilo", "hands": ["AhAd2c3s", "KsKdQhJh"],
                       "board": "7c8d9h", "breakdown": True})
    monkeypatch.setattr(sys, "stdin", io.StringIO(line + "\n"))
    assert main(["batch"]) == 0
    reply = json.loads(capsys.readouterr().out)
    expected = pe.equity("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], "7c8d9h", breakdown=True)
    assert [p["breakdown"] for p in reply["players"]] == \
        [json.loads(P.dumps(p.breakdown)) for p in expected.players]


def test_the_fields_a_request_may_have():
    assert P.BATCH_FIELDS == ("game", "hands", "board", "dead", "exact", "samples", "stderr",
                              "seed", "threads", "breakdown", "id")
    with pytest.raises(P.RequestError, match="unknown field 'stderr'"):
        P.parse_request({"game": "holdem", "hands": [], "stderr": 0.1},
                        fields=("game", "hands"))


@pytest.mark.parametrize("value,name", [({}, "an object"), ([], "a list"), ("", "a string"),
                                        (True, "true/false"), (None, "null"), (1, "a number"),
                                        (1.5, "a number"), (object(), "a value")])
def test_type_names(value, name):
    assert P.type_name(value) == name


def test_one_line():
    assert P.one_line("a   b  c ") == "a b c"
    assert P.one_line("a\nb") == "a\\nb"  # escaped, so the line stays one line
    assert P.one_line("card '\x00'") == "card '\\x00'"
    assert "\n" not in P.one_line(ValueError("x\ny" * 10_000))


# ---------------------------------------------------------------------------
# JSON text
# ---------------------------------------------------------------------------

def test_dumps_writes_no_nan_and_knows_numpy_fractions_and_sets():
    data = {"nan": float("nan"), "inf": [float("-inf"), 1.0], "np": np.float64(0.25),
            "arr": np.array([1, 2]), "frac": Fraction(2, 6), "set": {3, 1, 2},
            "tuple": (1, float("nan"))}
    text = P.dumps(data)
    assert json.loads(text) == {"nan": None, "inf": [None, 1.0], "np": 0.25, "arr": [1, 2],
                                "frac": "1/3", "set": [1, 2, 3], "tuple": [1, None]}
    assert "\n" not in text and ": " not in text  # compact


def test_dumps_indented_keeps_number_lists_on_one_line():
    text = P.dumps({"outcomes": [1, 2, 3], "hand": "AhAd"}, indent=2)
    assert '"outcomes": [1, 2, 3]' in text and text.count("\n") == 3
    assert json.loads(text) == {"outcomes": [1, 2, 3], "hand": "AhAd"}


def test_dumps_escapes_line_separators_inside_strings():
    text = P.dumps({"id": "a\u2028b\u2029c\x85d"})
    assert len(text.splitlines()) == 1
    assert json.loads(text) == {"id": "a\u2028b\u2029c\x85d"}


def test_dumps_refuses_what_it_cannot_write():
    with pytest.raises(TypeError, match="cannot write object as JSON"):
        P.dumps({"x": object()})


# ---------------------------------------------------------------------------
# Answers
# ---------------------------------------------------------------------------

def test_result_dict_is_to_dict_with_partial():
    result = pe.equity("holdem", ["AhAd", "KsKd"], "2c3c4c")
    data = P.result_dict(result)
    assert data["partial"] is False
    assert {k: v for k, v in data.items() if k != "partial"} == \
        {k: v for k, v in result.to_dict().items() if k != "partial"}
    assert json.loads(P.dumps(data))["players"][0]["hand"] == "AhAd"


def test_evaluation_and_hand_dicts():
    game = pe.get_game("omaha-hilo")
    ev = pe.evaluate(game, "AhKd2c3s", "Ks5d8h7cKh")
    data = P.evaluation_dict(game, "AhKd2c3s", "Ks5d8h7cKh", ev)
    assert data["game"] == "omaha-hilo" and data["hole"] == "AhKd2c3s"
    assert data["high"] == {"name": str(ev.high), "cards": ev.high.cards,
                            "category": ev.high.category, "value": int(ev.high.value)}
    assert data["low"]["name"] == str(ev.low)
    assert P.hand_dict(None) is None
    holdem = pe.evaluate("holdem", "KhKd", "Ks5d5c2h9s")
    assert P.evaluation_dict(pe.get_game("holdem"), "KhKd", "Ks5d5c2h9s", holdem)["low"] is None


def test_games_list_has_every_game_and_its_rules():
    listed = P.games_list()
    assert [g["name"] for g in listed] == [g.name for g in pe.games()]
    for row, game in zip(listed, pe.games()):
        assert row == P.game_dict(game)
        assert (row["hole"], row["board"], row["stud"], row["split"], row["low"]) == \
            (game.hole, game.board, game.stud, game.split, game.low)
        assert row["aliases"] == list(game.aliases)
        json.dumps(row)  # plain JSON values only


def test_max_players_is_what_the_engine_accepts():
    for game in ("holdem", "omaha-hilo", "stud", "razz"):
        most = P.max_players(game)
        hole = pe.get_game(game).hole
        deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
        hands = ["".join(deck[i * 3:(i + 1) * 3]) if pe.get_game(game).stud else
                 "".join(deck[i * hole:(i + 1) * hole]) for i in range(most + 1)]
        with pytest.raises(pe.PokerEvalError):
            pe.equity(game, hands, samples=10, seed=1)
        assert pe.equity(game, hands[:most], samples=10, seed=1).samples >= 10


# ---------------------------------------------------------------------------
# The equity table: columns, cells, footer
# ---------------------------------------------------------------------------

def test_columns_name_player_fields():
    player = pe.equity("omaha-hilo", ["AcAs3d4h", "KhKcJdTd"], "7c8d9h").players[0]
    for game in pe.games():
        columns = P.equity_columns(game)
        assert all(hasattr(player, field) for _, field in columns)
        fields = [field for _, field in columns]
        if game.split:
            assert "scoop" in fields and "low_win" in fields and "high_win" in fields
        elif game.razz:
            assert fields == ["low_win", "low_tie"]
        else:
            assert fields == ["high_win", "high_tie"]


def test_cells_and_seconds():
    assert P.cell(0.123456) == "12.35" and P.cell(None) == "-" and P.cell(float("inf")) == "-"
    assert P.format_percent(0.0005, 3) == "0.050%"
    assert [P.format_seconds(s) for s in (0.0001, 0.0095, 0.5, 1, 119.99, 121)] == \
        ["0.1 ms", "10 ms", "500 ms", "1.00 s", "119.99 s", "2 min 1 s"]


def test_footer_says_how_the_answer_was_obtained():
    exact = pe.equity("holdem", ["AhAd", "KsKd"], "2c3c4c")
    assert P.footer(exact).startswith(f"exact: {exact.samples:,} run-outs walked, ")
    sampled = pe.equity("holdem", ["AhAd", "KsKd"], samples=20_000, seed=5)
    text = P.footer(sampled)
    assert text.startswith("sampled: 20,000 run-outs, standard error ") and text.endswith("(seed 5)")
    worst = P.worst_stderr(sampled)
    assert worst == max(p.std_error for p in sampled.players)
    assert P.format_percent(worst) in text
