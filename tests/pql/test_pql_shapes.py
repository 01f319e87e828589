"""The PQL functions of query/categories.py and query/perceived.py (flopHandCategory and
its family, fiveCardHiHandNumber, handBoardIntersections, cardsPlay, threeFlush,
fourFlush, boardHasOne/TwoDistinctLoCard(s), nutHiForHandType, HvPerceivedRangeEquity)
against the brute-force oracle (tests/support/pql_oracle_shapes.py), exactly, on small
spots in every game where they mean something; handRankingFor against pe.percentile; the
conversions; and the one-line errors where a function means nothing.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

import pokereval as pe
import pql_oracle_shapes as O
from pokereval.query import PqlError, pql
from pokereval.query.categories import PPT_FUNCTIONS
from pql_oracle import Spot

from .test_pql_oracle import _label

H, V, W = 0, 1, 2


def check(game, players: dict, board: str, selectors, flop_range: str | None = None):
    """The engine (exact) against the oracle.  ``flop_range``: the engine's board range
    when ``board`` is only part of the flop (the oracle deals the rest itself)."""
    spot = Spot(game, list(players.values()), board)
    cols = ", ".join(f"{s}({e}) as c{i}" for i, (s, e, _) in enumerate(selectors))
    binds = ", ".join(f"{name}='{hand}'" for name, hand in players.items())
    engine_board = flop_range or board
    query = f"select {cols} from game='{game}', {binds}"
    query += f", board='{engine_board}'" if engine_board else ""
    result = pql(query, exact=True)
    assert result.exact
    wrong = []
    for i, (selector, expr, f) in enumerate(selectors):
        got = result[f"c{i}"]
        if selector == "histogram":
            want = {}
            for k, v in spot.histogram(f).items():
                want[_label(k)] = want.get(_label(k), 0) + v
        else:
            want = getattr(spot, selector)(f)
        if got.fraction != want:
            wrong.append(f"{selector}({expr}): engine {got.fraction}, oracle {want}")
    assert not wrong, f"{game} {players} board={board!r}:\n  " + "\n  ".join(wrong)


def _flop_selectors(players):
    out = []
    for p, name in enumerate(players):
        out.append(("histogram", f"flopHandCategory({name})",
                    lambda d, p=p: O.flop_hand_category(d, p)))
    out += [("count", "exactFlopHandCategory(hero, FLOPTOPPAIR)",
             lambda d: O.exact_flop_hand_category(d, H, "FLOPTOPPAIR")),
            ("count", "minFlopHandCategory(villain, flopTopTwo)",
             lambda d: O.min_flop_hand_category(d, V, "FLOPTOPTWO")),
            ("count", "flopHandCategory(hero) > flopHandCategory(villain)",
             lambda d: O.FLOP_CATEGORIES.index(O.flop_hand_category(d, H))
             > O.FLOP_CATEGORIES.index(O.flop_hand_category(d, V)))]
    return out


FLOP_SPOTS = [  # (game, players, two flop cards): every third flop card walked
    ("holdem", {"hero": "AhKh", "villain": "QsQd", "v2": "7c6c"}, "Jh7h"),
    ("holdem", {"hero": "8s8d", "villain": "Tc9c"}, "8h9d"),
    ("omahahi", {"hero": "AhKhQs2c", "villain": "JdJc9s8s"}, "Kd7c"),
    ("omaha8", {"hero": "As2s3d5h", "villain": "KcKdQhJh"}, "4c5d"),
    ("omahahi5", {"hero": "AhKhQs2c2d", "villain": "JdJc9s8s7s"}, "Ks7c"),
    ("omaha85", {"hero": "As2s3d5hKh", "villain": "KcKdQhJh9c"}, "4c5d"),
    ("courchevel", {"hero": "AhKhQs2c2d", "villain": "JdJc9s8s7s"}, "Ks7c"),
    ("courchevel-hilo", {"hero": "As2s3d5hKh", "villain": "KcKdQhJh9c"}, "Ac5d"),
]


@pytest.mark.parametrize("game,players,flop", FLOP_SPOTS, ids=[f"{s[0]}-{s[2]}" for s in FLOP_SPOTS])
def test_flop_hand_category(game, players, flop):
    check(game, players, flop, _flop_selectors(list(players)), flop_range=flop + "*")


RIVER_SPOTS = [  # (game, players, flop): every turn and river walked
    ("holdem", {"hero": "AhKc", "villain": "QhQd"}, "Qc7h2h"),
    ("holdem", {"hero": "5s4s", "villain": "AdAc"}, "3s2sKd"),
    ("omahahi", {"hero": "AhKhQs2c", "villain": "JdJc9s8s"}, "Kd7c2h"),
    ("omaha8", {"hero": "As2s3d5h", "villain": "KcKdQhJh"}, "4c5d9s"),
    ("omahahi5", {"hero": "AhKhQs2c2d", "villain": "JdJc9s8s7s"}, "Ks7c3h"),
    ("omaha85", {"hero": "As2s3d5hKh", "villain": "KcKdQhJh9c"}, "4c5d9s"),
    ("courchevel", {"hero": "AhKhQs2c2d", "villain": "JdJc9s8s7s"}, "Ks7c3h"),
    ("courchevel-hilo", {"hero": "As2s3d5hKh", "villain": "KcKdQhJh9c"}, "Ac5d9s"),
]


#: the spots where nutHiForHandType is also checked on the turn (the oracle rates ~1,000
#: holdings on each of ~45 turns: seconds in plain Python)
NUT_ON_THE_TURN = {"Qc7h2h", "Kd7c2h", "4c5d9s"}


@pytest.mark.parametrize("game,players,flop", RIVER_SPOTS, ids=[f"{s[0]}-{s[2]}" for s in RIVER_SPOTS])
def test_board_game_shapes(game, players, flop):
    check(game, players, flop, [
        ("histogram", "fiveCardHiHandNumber(hero, flop)", lambda d: O.five_card_hi_hand_number(d, H, "flop")),
        ("avg", "fiveCardHiHandNumber(villain, river)", lambda d: O.five_card_hi_hand_number(d, V, "river")),
        ("min", "fiveCardHiHandNumber(hero, turn)", lambda d: O.five_card_hi_hand_number(d, H, "turn")),
        ("histogram", "handBoardIntersections(hero, river)", lambda d: O.hand_board_intersections(d, H, "river")),
        ("avg", "handBoardIntersections(villain, turn)", lambda d: O.hand_board_intersections(d, V, "turn")),
        ("histogram", "cardsPlay(hero, river)", lambda d: O.cards_play(d, H, "river")),
        ("histogram", "cardsPlay(villain, turn)", lambda d: O.cards_play(d, V, "turn")),
        ("avg", "cardsPlay(hero, flop)", lambda d: O.cards_play(d, H, "flop")),
        ("count", "threeFlush(hero, flop)", lambda d: O.three_flush(d, H, "flop")),
        ("count", "threeFlush(villain, turn)", lambda d: O.three_flush(d, V, "turn")),
        ("count", "fourFlush(hero, turn)", lambda d: O.four_flush(d, H, "turn")),
        ("count", "fourFlush(villain, river)", lambda d: O.four_flush(d, V, "river")),
        ("count", "boardHasOneDistinctLoCard(turn)", lambda d: O.board_has_one_distinct_lo_card(d, "turn")),
        ("count", "boardHasTwoDistinctLoCards(river)", lambda d: O.board_has_two_distinct_lo_cards(d, "river")),
        ("count", "nutHiForHandType(hero, flop)", lambda d: O.nut_hi_for_hand_type(d, H, "flop")),
    ] + ([("count", "nutHiForHandType(villain, turn)", lambda d: O.nut_hi_for_hand_type(d, V, "turn"))]
         if flop in NUT_ON_THE_TURN else []))


def test_holdem_preflop_cards_play_and_flushes():
    check("holdem", {"hero": "AhKh", "villain": "QsQd"}, "Jh7h2c", [
        ("avg", "cardsPlay(hero, preflop)", lambda d: O.cards_play(d, H, "preflop")),
        ("count", "threeFlush(hero, preflop)", lambda d: O.three_flush(d, H, "preflop")),
    ])


@pytest.mark.parametrize("game", ["holdem", "omahahi", "omaha8"])
def test_hv_perceived_range_equity(game):
    hero, villain, flop = {"holdem": ("AsKh", "QcQd", "AdTd2d"),
                           "omahahi": ("AsKhQh2c", "QcQd9s8s", "AdTd2d"),
                           "omaha8": ("AsKh3h2c", "QcQd9s8s", "AdTd4d")}[game]
    perceived = {"holdem": "KK", "omahahi": "KK99", "omaha8": "KK65"}[game]
    if game == "holdem":
        holdings = [a + b for i, a in enumerate(("Ks", "Kh", "Kd", "Kc")) for b in ("Ks", "Kh", "Kd", "Kc")[i + 1:]]
    else:
        holdings = None
    if holdings is None:  # Omaha: HvREquity with the villain's range written as that range
        r = pql(f"select avg(HvPerceivedRangeEquity(hero, turn, '{perceived}')), avg(HvREquity(hero, turn)), "
                f"count(minHvPerceivedRangeEquity(hero, flop, '{perceived}', 0.5)), "
                f"count(minHvREquity(hero, flop, 0.5)) "
                f"from game='{game}', hero='{hero}', villain='{perceived}', board='{flop}'", exact=True)
        assert r.columns[0].fraction == r.columns[1].fraction
        assert r.columns[2].fraction == r.columns[3].fraction
        return
    check(game, {"hero": hero, "villain": villain}, flop, [
        ("avg", f"HvPerceivedRangeEquity(hero, flop, '{perceived}')",
         lambda d: O.hv_perceived_range_equity(d, H, "flop", holdings)),
        ("avg", f"HvPerceivedRangeEquity(hero, turn, '{perceived}')",
         lambda d: O.hv_perceived_range_equity(d, H, "turn", holdings)),
        ("count", f"minHvPerceivedRangeEquity(hero, turn, '{perceived}', 0.75)",
         lambda d: O.hv_perceived_range_equity(d, H, "turn", holdings) >= Fraction(3, 4)),
    ])


STUD_SPOTS = [
    ("studhi", {"p1": "AhKh2h9c5h3d", "p2": "QsQd5c9s8s7s"}),
    ("stud8", {"p1": "As2s3d5h9s4s", "p2": "KcKdQhJh9c8c"}),
]


@pytest.mark.parametrize("game,players", STUD_SPOTS, ids=[s[0] for s in STUD_SPOTS])
def test_stud_shapes(game, players):
    check(game, players, "", [
        ("count", "threeFlush(p1, third)", lambda d: O.three_flush(d, 0, "third")),
        ("count", "fourFlush(p1, sixth)", lambda d: O.four_flush(d, 0, "sixth")),
        ("count", "fourFlush(p2, seventh)", lambda d: O.four_flush(d, 1, "seventh")),
        ("avg", "fiveCardHiHandNumber(p1, seventh)", lambda d: O.five_card_hi_hand_number(d, 0, "seventh")),
        ("histogram", "fiveCardHiHandNumber(p2, fifth)", lambda d: O.five_card_hi_hand_number(d, 1, "fifth")),
    ])


def test_five_card_numbers_span_every_hand():
    assert len(O.five_card_keys()) == 7462
    r = pql("select min(fiveCardHiHandNumber(p1, fifth)), max(fiveCardHiHandNumber(p2, fifth)) "
            "from game='studhi', p1='AsKsQsJsTs', p2='7c5d4h3s2h'", exact=True)
    assert (r.columns[0].value, r.columns[1].value) == (1, 7462)


def test_hand_ranking_for_is_percentile():
    for players in ("6", "10", "6-handed", "10h"):
        r = pql(f"select avg(handRankingFor(hero, '{players}')) from game='holdem', hero='AsKh', villain='QQ'",
                trials=100, seed=1)
        n = int(players.rstrip("-handed").rstrip("h"))
        assert r.columns[0].value == pytest.approx(pe.percentile("holdem", "AsKh", n))


def test_conversions():
    r = pql("select count(riverCard() = toCard('Ah')), count(maxRank(boardRanks(river)) = toRank('K')), "
            "histogram(toString(handType(hero, river))), count(toString(handType(hero, river)) = 'pair') "
            "from game='holdem', hero='AsKs', villain='QQ', board='Kh7h2c3d'", exact=True)
    assert r.columns[0].fraction == Fraction(1, 44)  # 52 less the 8 cards dealt before it
    counts = {str(b): f for b, f, _ in r.columns[2].value}
    assert r.columns[3].fraction == Fraction(r.columns[3].count, r.trials)
    assert abs(counts["pair"] - float(r.columns[3].fraction)) < 1e-12


def test_flop_category_arguments_constant_quoted_or_computed():
    r = pql("select count(exactFlopHandCategory(hero, 'flopset')), count(exactFlopHandCategory(hero, FLOPSET)), "
            "count(minFlopHandCategory(hero, flopHandCategory(villain))), "
            "count(flopHandCategory(hero) >= flopHandCategory(villain)), histogram(flopHandCategory(villain)) "
            "from game='holdem', hero='7s7d', villain='AhKh', board='7c*'", exact=True)
    assert r.columns[0].fraction == r.columns[1].fraction > 0
    assert r.columns[2].fraction == r.columns[3].fraction == 1  # a set beats AK's flop
    assert {str(b) for b, _, _ in r.columns[4].value} >= {"FLOPNOTHING", "FLOPTOPPAIR"}


def test_every_ppt_function_is_known():
    from pokereval.query.compile import _FUNCTIONS, _SPECIAL  # noqa: PLC2701
    missing = [f for f in PPT_FUNCTIONS if f.lower() not in _FUNCTIONS and f.lower() not in _SPECIAL]
    assert len(PPT_FUNCTIONS) == 78 and not missing


@pytest.mark.parametrize("query,words", [
    ("select count(flopHandCategory(p1) = flopset) from game='studhi', p1='***', p2='***'",
     "means nothing in stud"),
    ("select count(exactFlopHandCategory(p1, FLOPSET)) from game='razz', p1='***', p2='***'",
     "means nothing in razz"),
    ("select count(minFlopHandCategory(p1, flush)) from game='holdem', p1='AA', p2='KK'",
     "needs a flop hand category"),
    ("select count(flopHandCategory(p1) = 'flopnada') from game='holdem', p1='AA', p2='KK'",
     "is not a flop hand category"),
    ("select avg(fiveCardHiHandNumber(p1, preflop)) from game='holdem', p1='AA', p2='KK'",
     "fewer than five cards"),
    ("select avg(fiveCardHiHandNumber(p1, fourth)) from game='studhi', p1='***', p2='***'",
     "fewer than five cards"),
    ("select avg(fiveCardHiHandNumber(p1, seventh)) from game='razz', p1='***', p2='***'",
     "means nothing in razz"),
    ("select avg(cardsPlay(p1, river)) from game='stud8', p1='***', p2='***'", "no board"),
    ("select count(threeFlush(p1, third)) from game='razz', p1='***', p2='***'", "razz"),
    ("select count(boardHasOneDistinctLoCard(fifth)) from game='stud8', p1='***', p2='***'", "no board"),
    ("select count(nutHiForHandType(p1, preflop)) from game='holdem', p1='AA', p2='KK'", "no board yet"),
    ("select count(nutHiForHandType(p1, fifth)) from game='studhi', p1='***', p2='***'", "no board"),
    ("select avg(handBoardIntersections(p1, fifth)) from game='studhi', p1='***', p2='***'", "no board"),
    ("select avg(handRankingFor(p1, '6')) from game='razz', p1='***', p2='***'", "no hand ordering"),
    ("select avg(handRankingFor(p1, '/no/such/file')) from game='holdem', p1='AA', p2='KK'", "handRankingFor"),
    ("select avg(HvPerceivedRangeEquity(p1, flop, 'ZZ')) from game='holdem', p1='AA', p2='KK'",
     "HvPerceivedRangeEquity"),
    ("select count(riverCard() = toCard('Zz')) from game='holdem', p1='AA', p2='KK'", "one card"),
    ("select count(maxRank(boardRanks(flop)) = toRank('11')) from game='holdem', p1='AA', p2='KK'", "one rank"),
    ("select count(toString()) from game='holdem', p1='AA', p2='KK'", "takes 1 argument"),
])
def test_refusals_are_one_line(query, words):
    with pytest.raises(PqlError) as caught:
        pql(query, trials=100, seed=1)
    message = str(caught.value)
    assert "\n" not in message and words in message and "column" in message, message
