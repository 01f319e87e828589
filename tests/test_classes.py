"""Hand classes (pokereval.classes) as users write them, and the one-line refusals where
exact cards are needed (issue 29: 'rank holdem AKs' answered "unknown card 'AK'")."""
from __future__ import annotations

import json

import pytest

import pokereval as pe
from pokereval.classes import hand_classes
from pokereval.cli import main


@pytest.mark.parametrize("text,cards", [("AKs", "AhKh"), ("AKo", "AhKd"), ("QQ", "QsQd"),
                                        ("(AK)", "AsKs"), ("aks", "AdKd"), ("72o", "7c2d")])
def test_holdem_classes_as_players_write_them(text, cards):
    hc = hand_classes(2)
    assert hc.class_of(text) == hc.class_of(cards)
    assert pe.percentile("holdem", text) == pe.percentile("holdem", cards)


def test_holdem_classes_print_as_players_write_them():
    # issue 29: hold'em classes printed as PPT's (AK) / AK
    hc = hand_classes(2)
    assert [hc.text(hc.class_of(c)) for c in ("AhKh", "AhKd", "QsQd", "7c2d")] == \
        ["AKs", "AKo", "QQ", "72o"]
    assert pe.hand_ordering("holdem").classes[4] == "AKs"
    # every class reads back from its text, and PPT's own notation still reads
    assert all(hc.parse_text(hc.text(i)) == i for i in range(len(hc)))
    assert hc.parse_text("(AK)") == hc.class_of("AKs") and hc.parse_text("AK") == hc.class_of("AKo")


def test_omaha_class_in_ppt_notation():
    assert pe.percentile("omaha", "(AK)(AK)") == pe.percentile("omaha", "AsKsAhKh")


@pytest.mark.parametrize("game,text,says", [
    ("holdem", "AK", "AKs (suited) or AKo (offsuit)"),
    ("omaha", "AA**", "'AA**' is not one hand"),
    ("holdem", "15%", "a range has no single place"),
    ("omaha-hilo", "AA2*", "pokereval range"),
])
def test_a_range_has_no_percentile(game, text, says):
    with pytest.raises(pe.HandError, match="^[^\n]*$") as info:
        pe.percentile(game, text)
    assert says in str(info.value)


@pytest.mark.parametrize("args,says", [
    (["rank", "holdem", "AK"], "AKs (suited) or AKo (offsuit)"),
    (["rank", "omaha", "AA**"], "'pokereval range' shows what it holds"),
    (["eval", "omaha-hilo", "AA**"], "'AA**' is a range; this needs exact cards"),
    (["eval", "holdem", "AKs"], "'AKs' is a range; this needs exact cards"),
    (["allin", "omaha-hilo", "1:AA**:300", "2:KhKdQcJc:300"], "'AA**' is a range"),
])
def test_cli_says_exact_cards_are_needed(args, says, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


def test_cli_rank_of_a_holdem_class(capsys):
    assert main(["rank", "holdem", "AKs", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["combos"] == 4 and data["percentile"] == pe.percentile("holdem", "AhKh")


def test_a_typo_is_still_an_unknown_card():
    with pytest.raises(pe.CardError, match=r"^unknown card 'Zz' in hand$"):
        pe.parse_cards("AhZz")
