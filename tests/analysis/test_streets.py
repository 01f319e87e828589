"""A finished deal street by street (pokereval.analysis.streets): each street is
pe.equity on the cards known then; the river is the naive reference."""
import naive
import pokereval as pe


def test_equity_by_street_board_games():
    hands = ["AhAd2c3s", "KsKdQhJh"]
    streets = pe.equity_by_street("omaha-hilo", hands, "7c8d9h2dTs", exact=True)
    assert [s.street for s in streets] == ["preflop", "flop", "turn", "river"]
    for s in streets:
        ref = pe.equity("omaha-hilo", hands, s.board, exact=True)
        assert s.equities == ref.equities
    assert streets[-1].board == "7c8d9h2dTs"
    river = naive.reference_equity("omaha-hilo", hands, "7c8d9h2dTs")
    assert streets[-1].result.players[0].equity_fraction == river.players[0]["equity"]
    court = pe.equity_by_street("courchevel", ["AhAd2c3s4h", "KsKdQhJhTd"], "7c8d9h")
    assert [(s.street, s.board) for s in court] == [("preflop", "7c"), ("flop", "7c8d9h")]


def test_equity_by_street_stud():
    streets = pe.equity_by_street("razz", ["Ah2d3c4s5h6d7c", "KsKdQhJhTh9d8d"])
    assert [s.street for s in streets][0] == "third street" and len(streets) == 5
    assert streets[2].hands == ["Ah2d3c4s5h", "KsKdQhJhTh"]
    assert streets[-1].equities == [1.0, 0.0]
