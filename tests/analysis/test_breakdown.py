"""Hand-type breakdowns (pokereval.analysis.breakdown, ``pe.equity(..., breakdown=True)``):
the tables sum to the result's figures and match the hand types the independent
brute force in ``naive`` makes at showdown; the CLI's --breakdown."""
import json
from collections import Counter

import pytest

import naive
import pokereval as pe
from pokereval.cli import main
from pokereval.evaluate import CATEGORIES


def _ids(spots):
    return [f"{g}-{len(h)}p-{b or 'stud'}" for g, h, b in spots]


BREAKDOWN_SPOTS = [
    ("holdem", ["AhKh", "QsQd", "7h7d"], "2h9hTc"),
    ("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], "7c8d9h"),
    ("omaha5-hilo", ["As2s3d4d5c", "KsKdQhJhTd"], "6c9dJs"),
    ("stud-hilo", ["Ah2d3c4s9s9h", "KsKdQhJhTh8d"], ""),
    ("razz", ["Ah2d3c4sKsKh", "5s6d7hJhTh8d"], ""),
]


@pytest.mark.parametrize("game,hands,board", BREAKDOWN_SPOTS, ids=_ids(BREAKDOWN_SPOTS))
def test_breakdown_sums_to_the_figures_and_matches_brute_force(game, hands, board):
    r = pe.equity(game, hands, board, breakdown=True)
    plain = pe.equity(game, hands, board, exact=True)
    assert r.exact and r.equities == plain.equities
    g = pe.get_game(game)
    for p in r.players:
        b = p.breakdown
        halves = (["high"] if g.high else []) + (["low"] if g.low else [])
        assert sorted(b) == sorted(halves)
        for half in halves:
            won = sum(v["won"] for v in b[half].values())
            tied = sum(v["tied"] for v in b[half].values())
            every = sum(sum(v.values()) for v in b[half].values())
            assert every == pytest.approx(1.0)
            if half == "high":
                assert (won, tied) == pytest.approx((p.high_win, p.high_tie))
            else:
                assert (won, tied) == pytest.approx((p.low_win, p.low_tie))
        assert "breakdown" in p.to_dict()
    # the categories by brute force: count each player's final hand per run-out
    parsed = [naive.parse_cards(h) for h in hands]
    want = [Counter() for _ in hands]
    deals = list(naive.runouts(game, parsed, naive.parse_cards(board)))
    for deal in deals:
        if g.high:
            keys = [naive.hand_high(game, h, bd)[0] for h, bd in deal]
            best = max(keys)
            for i, k in enumerate(keys):
                res = "lost" if k != best else ("won" if keys.count(best) == 1 else "tied")
                want[i][("high", CATEGORIES[k[0]], res)] += 1
        if g.low:
            if game == "razz":
                keys = [naive.hand_razz(h, bd)[0] for h, bd in deal]
            else:
                keys = [(naive.hand_low8(game, h, bd) or (None,))[0] for h, bd in deal]
            present = [k for k in keys if k is not None]
            best = min(present) if present else None
            for i, k in enumerate(keys):
                if k is None:
                    kind = "no low"
                elif game == "razz":
                    top = k[1]
                    kind = f"{top}-low" if k[0] == 0 and top <= 8 else "9-low or worse"
                else:
                    kind = f"{k[0]}-low"
                res = "lost" if k is None or k != best else \
                    ("won" if keys.count(best) == 1 else "tied")
                want[i][("low", kind, res)] += 1
    for p, counts in zip(r.players, want):
        got = {(half, kind, res): v for half, table in p.breakdown.items()
               for kind, cell in table.items() for res, v in cell.items() if v}
        assert got == pytest.approx({key: n / len(deals) for key, n in counts.items()})


def test_breakdown_sampled_with_ranges():
    r = pe.equity("omaha-hilo", ["AhKd2c3s", "AA**"], board="7c8d9h", breakdown=True,
                  samples=20_000, seed=5)
    assert not r.exact and r.samples == 20_000
    exact = pe.equity("omaha-hilo", ["AhKd2c3s", "AA**"], board="7c8d9h", exact=True)
    assert r.players[0].equity == pytest.approx(exact.players[0].equity, abs=0.015)
    b = r.players[0].breakdown["low"]
    assert sum(v["won"] for v in b.values()) == pytest.approx(r.players[0].low_win)


def test_cli_equity_breakdown(capsys):
    assert main(["equity", "omaha-hilo", "AhAd2c3s", "KsKdQhJh", "-b", "7c8d9h",
                 "--breakdown"]) == 0
    out = capsys.readouterr().out
    assert "Final high hand" in out and "three of a kind" in out and "8-low" in out
    assert main(["equity", "stud", "AhAd2c3s4s5s", "KsKdQhJhTh9d", "--breakdown", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["players"][0]["breakdown"]) == {"high"}


def test_cli_breakdown_sub_columns_line_up(capsys):
    # issue 29: one-digit and two-digit figures shifted the won / tied / lost columns
    assert main(["equity", "holdem", "AhKh", "QsQd", "-b", "2h9hTc", "--breakdown"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.count(" / ") == 4]
    assert len(rows) >= 5
    slashes = {tuple(i for i, ch in enumerate(row) if ch == "/") for row in rows}
    assert len(slashes) == 1, "\n".join(rows)
