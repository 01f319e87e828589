"""``pokereval settle`` and ``pokereval allin``."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest

import pokereval as pe
from pokereval.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


SETTLE = ["settle", "omaha-hilo", "1:AhAd2c3s:100", "2:KsKdQhJh:100", "3::1",
          "--board", "7c8d5hTsKc", "--folded", "3", "--button", "3"]


def test_settle_json_is_the_api_result(capsys):
    code, out, err = run(capsys, *SETTLE, "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    api = pe.settle("omaha-hilo", {1: "AhAd2c3s", 2: "KsKdQhJh"}, "7c8d5hTsKc",
                    contributions={1: 100, 2: 100, 3: 1}, folded=[3], button=3)
    assert data == json.loads(json.dumps(api.to_dict()))
    assert data["collected"] == {"1": 100, "2": 101, "3": 0}


def test_settle_table(capsys):
    code, out, _ = run(capsys, *SETTLE)
    assert code == 0 and "collected" in out and "main" in out and "101" in out


def test_allin_json(capsys):
    code, out, err = run(capsys, "allin", "holdem", "1:AhAd:500", "2:KsKd:200", "3:7c2d:500",
                         "--board", "Kc8d2h", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    api = pe.allin_ev("holdem", {1: "AhAd", 2: "KsKd", 3: "7c2d"}, "Kc8d2h",
                      contributions={1: 500, 2: 200, 3: 500})
    assert data["exact"] and data["samples"] == 903
    assert {k: Fraction(v) for k, v in data["ev_fraction"].items()} == \
        {str(s): v for s, v in api.ev_fraction.items()}


def test_allin_sampled_table(capsys):
    code, out, _ = run(capsys, "allin", "omaha-hilo", "1:AhAd2c3s:300", "4:KsKdQhJh:1000",
                       "6:As4c5d6h:1000", "--button", "6", "--samples", "2000", "--seed", "3")
    assert code == 0 and "2,000 samples, seed 3" in out and "EV" in out


@pytest.mark.parametrize("argv,words", [
    (["settle", "holdem", "1:AhAd:-5", "2:KsKd:3", "--board", "Kc8d2h3s4s"], "must not be negative"),
    (["settle", "holdem", "1:AhAd:5", "2:AhKd:3", "--board", "Kc8d2h3s4s"], "duplicate card Ah"),
    (["settle", "holdem", "1:AhAd:5", "2::3", "--board", "Kc8d2h3s4s"], "seat 2 is still in"),
    (["settle", "holdem", "1:AhAd:5", "2:KsKd:3", "--board", "Kc8d2h3s4s", "--folded", "9"],
     "folded names seat 9"),
    (["settle", "holdem", "1:AhAd:5.5", "2:KsKd:3"], "whole number"),
    (["settle", "holdem", "1:AhAd", "2:KsKd:3"], "SEAT:CARDS:CHIPS"),
    (["settle", "holdem", "1:AhAd:5", "1:KsKd:3"], "given twice"),
    (["allin", "holdem", "1:AhAd:5", "2:KsKd:3", "--exact", "--samples", "5"], "not allowed"),
    (["allin", "holdem9", "1:AhAd:5", "2:KsKd:3"], "unknown game"),
])
def test_bad_input_exit_2_one_line(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert words in err and err.count("\n") == 1
