"""Orderings read from a file (``ordering=`` / ``--ordering FILE``): a self-built or
imported ordering drives percent terms, percentiles, ``rank``, ``range`` and equity.

The files here are the shipped hold'em ordering turned around (written with the
ordering writer, ``pokereval.orderings.save``), so every answer that follows the
file differs from the shipped one in a way the reference below (a walk over the
reversed list of classes) predicts; one test builds an ordering with the real
builder.
"""
import json
import os

import numpy as np
import pytest

import pokereval as pe
from pokereval import orderings, percent
from pokereval.classes import hand_classes
from pokereval.cli import main
from pokereval.errors import PokerEvalError
from pokereval.orderings import load, save


def _write(path, game, players, order, stat=None, **meta):
    save(path, order, stat, dict(meta, game=game, players=players, source="test"))
    return str(path)


@pytest.fixture(scope="module")
def reversed_file(tmp_path_factory):
    """The shipped full-ring hold'em ordering, worst class first."""
    order, stat, _ = load("holdem", 10)
    return _write(tmp_path_factory.mktemp("orderings") / "rev.npz", "holdem", 10, order[::-1],
                  stat)


def _worst_classes(share):
    """The classes of the smallest run of the shipped ordering's last classes (walked
    from the worst) reaching ``share`` of all 1,326 combos."""
    ho = pe.hand_ordering("holdem")
    chosen, total = [], 0
    for cls, combos in zip(reversed(ho.classes), reversed(ho.combos.tolist())):
        if total >= share * 1326 - 1e-9:
            break
        chosen.append(cls)
        total += combos
    return chosen, total


def _classes_of(rows):
    hc = hand_classes(2)
    return {hc.text(c) for c in hc.classes_of(rows)}


# --------------------------------------------------------------------------- the API

def test_percent_terms_follow_the_file(reversed_file):
    worst, combos = _worst_classes(0.15)
    r = pe.parse_range("holdem", "15%", ordering=reversed_file)
    assert _classes_of(r.holdings) == set(worst) and len(r) == combos
    assert r.share == combos / 1326
    shipped = pe.parse_range("holdem", "15%")
    assert not _classes_of(shipped.holdings) & set(worst)  # the best 15% shares none of them
    rows, share = pe.percent_holdings("holdem", 0, 0.15, ordering=reversed_file)
    assert share == r.share and sorted(map(tuple, rows.tolist())) == \
        sorted(map(tuple, r.holdings.tolist()))
    # a band and a combination with other terms use the file too
    lo, _ = _worst_classes(0.05)
    band = pe.parse_range("holdem", "5%-15%", ordering=reversed_file)
    assert _classes_of(band.holdings) == set(worst) - set(lo)
    assert _classes_of(pe.parse_range("holdem", "15%!22+", ordering=reversed_file).holdings) == \
        {c for c in worst if c[0] != c[1]}


def test_percentile_and_hand_ordering_follow_the_file(reversed_file):
    assert pe.percentile("holdem", "AsAd", ordering=reversed_file) == 6 / 1326
    assert pe.percentile("holdem", "7c2d", ordering=reversed_file) == 1.0
    assert pe.percentile("holdem", "AsAd") == 1.0  # the shipped table is untouched
    ho = pe.hand_ordering("holdem", ordering=reversed_file)
    assert ho.classes == pe.hand_ordering("holdem").classes[::-1]
    assert ho.players == 10 and ho.meta["source"] == "test"
    assert pe.percentile("holdem", "AsAd", players=10, ordering=reversed_file) == 6 / 1326


def test_a_hand_ordering_object_is_an_ordering(reversed_file):
    shipped = pe.hand_ordering("holdem")
    turned = pe.HandOrdering("holdem", 10, shipped.classes[::-1], shipped.combos[::-1],
                             shipped.stat[::-1], {})  # no class indices: read from the text
    assert pe.percentile("holdem", "AsAd", ordering=turned) == 6 / 1326
    assert pe.parse_range("holdem", "15%", ordering=turned).holdings.tolist() == \
        pe.parse_range("holdem", "15%", ordering=reversed_file).holdings.tolist()
    six = pe.hand_ordering("holdem", 6)
    assert pe.parse_range("holdem", "10%", ordering=six).holdings.tolist() == \
        pe.parse_range("holdem", "10%6h").holdings.tolist()


def test_player_count_must_match_the_file(reversed_file, tmp_path):
    with pytest.raises(PokerEvalError, match=r"rev.npz' is 10-handed, not 6-handed"):
        pe.percentile("holdem", "AsAd", players=6, ordering=reversed_file)
    with pytest.raises(pe.RangeError, match=r"is 10-handed, not 6-handed.* at position 1"):
        pe.parse_range("holdem", "15%6h", ordering=reversed_file)
    order, _, _ = load("holdem", 6)
    six = _write(tmp_path / "six.npz", "holdem", 6, order[::-1])
    assert pe.parse_range("holdem", "15%6h", ordering=six).holdings.tolist() == \
        pe.parse_range("holdem", "15%", ordering=six).holdings.tolist()
    assert pe.percentile("holdem", "AsAd", players=6, ordering=six) == 6 / 1326


def test_recent_ranges_are_kept_per_ordering(reversed_file):
    shipped = pe.parse_range("holdem", "15%")
    mine = pe.parse_range("holdem", "15%", ordering=reversed_file)
    assert mine.holdings.tolist() != shipped.holdings.tolist()
    assert pe.parse_range("holdem", "15%") is shipped
    assert pe.parse_range("holdem", "15%", ordering=reversed_file) is mine


def test_a_file_is_read_once_and_again_when_it_changes(tmp_path, monkeypatch):
    order, _, _ = load("holdem", 10)
    path = _write(tmp_path / "mine.npz", "holdem", 10, order[::-1])
    reads = []
    real = orderings.read
    monkeypatch.setattr(orderings, "read", lambda file: reads.append(file) or real(file))
    assert pe.percentile("holdem", "AsAd", ordering=path) == 6 / 1326
    assert pe.percentile("holdem", "AsAd", ordering=os.path.join(str(tmp_path), ".", "mine.npz")) \
        == 6 / 1326
    assert len(reads) == 1  # the same file, however it is written
    _write(path, "holdem", 10, order)  # rewritten: the shipped order
    later = os.stat(path).st_mtime_ns + 2_000_000_000
    os.utime(path, ns=(later, later))
    assert pe.percentile("holdem", "AsAd", ordering=path) == 1.0
    assert len(reads) == 2


def test_equity_with_an_ordering_file(reversed_file):
    worst, _ = _worst_classes(0.15)
    spelled = ", ".join(worst)  # the same range written out class by class
    mine = pe.equity("holdem", ["AhAd", "15%"], board="2c7d9h", exact=True,
                     ordering=reversed_file)
    same = pe.equity("holdem", ["AhAd", spelled], board="2c7d9h", exact=True)
    shipped = pe.equity("holdem", ["AhAd", "15%"], board="2c7d9h", exact=True)
    assert mine.players[0].equity == same.players[0].equity != shipped.players[0].equity
    assert mine.samples == same.samples
    over = pe.equity("holdem", ["AhAd", "15%"], board="2c7d9h*", exact=True,
                     ordering=reversed_file)  # a board range: every turn card
    assert over.players[0].equity == pe.equity("holdem", ["AhAd", spelled], board="2c7d9h*",
                                               exact=True).players[0].equity


@pytest.mark.parametrize("call,says", [
    (lambda f: pe.parse_range("omaha", "15%", ordering=f), r"rev.npz' is for holdem, not omaha"),
    (lambda f: pe.percentile("plo8", "AsAh2c3d", ordering=f), "is for holdem, not omaha-hilo"),
    (lambda f: pe.parse_range("stud", "AA", ordering=f), "is for holdem, not stud"),
    (lambda f: pe.equity("omaha", ["AhAd2c3s", "15%"], ordering=f), "is for holdem, not omaha"),
    (lambda f: pe.parse_range("holdem", "15%", ordering=3), "ordering must be"),
])
def test_wrong_game_or_kind(reversed_file, call, says):
    with pytest.raises(PokerEvalError, match=says) as info:
        call(reversed_file)
    assert "\n" not in str(info.value)


def test_bad_files_are_one_line_errors_naming_the_file(tmp_path):
    order, _, _ = load("holdem", 10)
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"PK\x03\x04 not really a zip")
    text = tmp_path / "text.npz"
    text.write_text("AA\nKK\n")
    equity = tmp_path / "equity.npz"
    np.savez_compressed(equity, equity=np.zeros((169, 1), np.float32), meta=np.array("{}"))
    twice = tmp_path / "twice.npz"
    np.savez_compressed(twice, order=np.zeros(169, np.uint16), stat=np.zeros(169, np.float16),
                        meta=np.array(json.dumps({"game": "holdem"})))
    cases = [
        (tmp_path / "missing.npz", "cannot read ordering file .*missing.npz.*No such file"),
        (tmp_path, "cannot read ordering file"),
        (garbage, "garbage.npz' is not a readable ordering table"),
        (text, "text.npz' is not a readable ordering table"),
        (equity, "equity.npz' is an equity table .*not a hand ordering"),
        (twice, "twice.npz' is not a readable ordering table .*each class once"),
        (_write(tmp_path / "nogame.npz", None, 10, order), "names no game with an ordering"),
        (_write(tmp_path / "short.npz", "omaha", 10, order), "lists 169 classes; omaha has 16,432"),
    ]
    for path, says in cases:
        for call in (lambda: pe.parse_range("holdem", "15%", ordering=path),
                     lambda: pe.percentile("holdem", "AsAd", ordering=path),
                     lambda: pe.equity("holdem", ["AhAd", "KK"], ordering=path)):
            with pytest.raises(PokerEvalError, match=says) as info:
                call()
            assert "\n" not in str(info.value)
    assert not percent.ordering_for("holdem").source  # the shipped table still answers


# --------------------------------------------------------------------------- the CLI

def test_cli_rank_range_and_equity_take_an_ordering(reversed_file, capsys):
    assert main(["rank", "holdem", "AsAd", "--ordering", reversed_file, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["percentile"] == 6 / 1326 and data["position"] == 169
    assert data["ordering"] == reversed_file and data["players"] == 10
    assert main(["rank", "holdem", "7c2d", "--ordering", reversed_file]) == 0
    assert "#1 of 169, percentile 100.0000%" in capsys.readouterr().out
    worst, combos = _worst_classes(0.15)
    assert main(["range", "holdem", "15%", "--ordering", reversed_file, "--json",
                 "--top", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["combos"] == combos and [c["class"] for c in data["first_classes"]] == worst[:3]
    assert main(["equity", "holdem", "AhAd", "15%", "--board", "2c7d9h", "--exact",
                 "--ordering", reversed_file, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    api = pe.equity("holdem", ["AhAd", "15%"], board="2c7d9h", exact=True,
                    ordering=reversed_file)
    assert data["players"][0]["equity"] == api.players[0].equity


@pytest.mark.parametrize("args,says", [
    (["rank", "holdem", "AsAd", "--ordering", "nowhere.npz"],
     "cannot read ordering file 'nowhere.npz'"),
    (["range", "omaha", "15%", "--ordering", "{rev}"], "is for holdem, not omaha"),
    (["rank", "holdem", "AsAd", "--players", "6", "--ordering", "{rev}"],
     "is 10-handed, not 6-handed"),
    (["equity", "holdem", "AhAd", "15%", "--ordering", "{bad}"], "not a readable ordering"),
])
def test_cli_ordering_errors(reversed_file, tmp_path, capsys, args, says):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"junk")
    args = [a.format(rev=reversed_file, bad=bad) for a in args]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_built_ordering_is_usable(tmp_path, capsys):
    out = str(tmp_path / "built.npz")
    assert main(["table", "build", "ordering", "holdem", "--passes", "1", "--trials", "1",
                 "--workers", "1", "--no-progress", "--out", out]) == 0
    capsys.readouterr()
    built = pe.hand_ordering("holdem", ordering=out)
    assert sorted(built.classes) == sorted(pe.hand_ordering("holdem").classes)
    first = built.classes[0]
    hand = pe.parse_range("holdem", first).holdings[0]
    assert pe.percentile("holdem", hand.tolist(), ordering=out) == 1.0
    assert main(["rank", "holdem", "".join(pe.card_str(c) for c in hand), "--ordering", out,
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["position"] == 1
    cut = pe.parse_range("holdem", "10%", ordering=out)
    assert _classes_of(cut.holdings) <= set(built.classes[:len(cut)])
    assert built.classes[0] in _classes_of(cut.holdings)


def test_batch_takes_an_ordering_on_its_command_line(reversed_file, tmp_path, capsys):
    requests = tmp_path / "requests.jsonl"
    lines = [{"game": "holdem", "hands": ["AhAd", "15%"], "board": "2c7d9h", "exact": True},
             {"game": "omaha", "hands": ["AhAd2c3s", "15%"], "board": "2d7d9h"},
             {"game": "holdem", "hands": ["AhAd", "15%"], "board": "2c7d9h", "exact": True,
              "ordering": reversed_file}]  # a request may not name a file on the machine
    requests.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    assert main(["batch", str(requests), "--ordering", reversed_file]) == 0
    first, wrong, named = [json.loads(s) for s in capsys.readouterr().out.splitlines()]
    mine = pe.equity("holdem", ["AhAd", "15%"], board="2c7d9h", exact=True,
                     ordering=reversed_file)
    assert first["players"][0]["equity"] == mine.players[0].equity
    assert "is for holdem, not omaha" in wrong["error"]
    assert "ordering" in named["error"] and "players" not in named
    assert main(["batch", str(requests), "--ordering", str(tmp_path / "none.npz")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "cannot read ordering file" in err and err.count("\n") == 1
