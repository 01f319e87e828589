"""pokereval.suits: suit-renaming classes of range combinations (exact range spots)."""
from itertools import permutations, product

import numpy as np

import pokereval.suits as S
from pokereval.cards import parse_cards
from pokereval.api import equity
from pokereval.ranges import parse_range


def _blocks(game, texts):
    return [np.asarray(parse_range(game, t).holdings, dtype=np.uint8) for t in texts]


def _compatible(blocks):
    rows = [list(range(len(b))) for b in blocks]
    out = []
    for combo in product(*rows):
        cards = [c for b, r in zip(blocks, combo) for c in b[r].tolist()]
        if len(set(cards)) == len(cards):
            out.append(combo)
    return np.array(out, dtype=np.int64)


def test_aks_vs_qq_preflop_is_two_classes_of_twelve():
    blocks = _blocks("holdem", ["AKs", "QQ"])
    maps = S.symmetries(blocks, [None, None], [])
    assert len(maps) == 23  # every renaming keeps both ranges
    local = _compatible(blocks)
    first, sizes = S.classes(local, maps)
    assert sorted(sizes.tolist()) == [12, 12] and sizes.sum() == len(local) == 24


def test_classes_agree_with_an_independent_suit_pattern():
    """Members of a class have the same suit pattern and class sizes add up (brute
    force over every combination, with a board that keeps only some renamings)."""
    game = "holdem"
    blocks = _blocks(game, ["AKs, QJo", "TT, 98s"])
    board = parse_cards("2c3c")
    blocks = [b[~np.isin(b, board).any(axis=1)] for b in blocks]
    maps = S.symmetries(blocks, [None, None], board)
    assert len(maps) == 5  # renamings of d, h, s only
    local = _compatible(blocks)
    first, sizes = S.classes(local, maps)
    assert sizes.sum() == len(local)
    # brute force: a combination's least image over the renamings that fix clubs
    def least_image(combo):
        images = []
        for perm in permutations("dhs"):
            rename = dict(zip("cdhs", "c" + "".join(perm)))
            suit = {0: "c", 1: "d", 2: "h", 3: "s"}
            back = {"c": 0, "d": 1, "h": 2, "s": 3}
            images.append(tuple(tuple(sorted((c & ~3) | back[rename[suit[c & 3]]]
                                             for c in b[r].tolist()))
                                for b, r in zip(blocks, combo)))
        return min(images)
    by_image = {}
    for combo in local.tolist():
        key = least_image(combo)
        by_image[key] = by_image.get(key, 0) + 1
    assert sorted(sizes.tolist()) == sorted(by_image.values())


def test_weights_break_symmetry():
    r = parse_range("holdem", "AsKs@2, AhKh")
    blocks = [np.asarray(r.holdings, dtype=np.uint8), _blocks("holdem", ["QQ"])[0]]
    maps = S.symmetries(blocks, [np.asarray(r.weights), None], [])
    assert maps  # e.g. swapping clubs and diamonds keeps everything
    for per_player in maps:  # but no renaming may swap the two weighted holdings
        assert np.array_equal(per_player[0], np.arange(len(blocks[0])))


def test_exact_range_spots_same_with_and_without_symmetry(monkeypatch):
    spots = [
        ("holdem", ["AKs, KQo@0.5", "QQ", "JJ"], "7c8c2d", ""),
        ("holdem", ["AA, KK", "QQ, AKs@2"], "Ts9s8d", ""),
        ("omaha-hilo", ["AA23", "KKQQ"], "Tc8c4c5c", ""),
    ]
    results = []
    for symmetries in (S.symmetries, lambda *a: []):
        monkeypatch.setattr(S, "symmetries", symmetries)
        results.append([equity(*s, exact=True) for s in spots])
    for a, b in zip(*results):
        assert a.samples == b.samples and a.acceptance == b.acceptance
        for p, q in zip(a.players, b.players):
            assert p.equity_fraction == q.equity_fraction
            assert (p.high_win, p.high_tie, p.low_win, p.low_tie, p.scoop) == \
                   (q.high_win, q.high_tie, q.low_win, q.low_tie, q.scoop)


def _least_relabelling(holding):
    """Brute force: the least sorted tuple over the 24 suit relabellings of a holding."""
    return min(tuple(sorted((c & ~3) | perm[c & 3] for c in holding))
               for perm in permutations(range(4)))


def test_class_keys_group_holdings_as_their_least_relabelling():
    rows = np.asarray(parse_range("omaha", "AA**, KQJT").holdings, dtype=np.uint8)[::97]
    keys = S.class_keys(rows)
    least = [_least_relabelling(h) for h in rows.tolist()]
    for i in range(len(rows)):  # same key exactly when the same least relabelling
        assert ((keys == keys[i]) == np.array([m == least[i] for m in least])).all()
    assert len(np.unique(keys)) == len(set(least)) > 1


def test_is_symmetric_under_every_relabelling_with_its_weights():
    def brute(r):
        base = {tuple(h): w for h, w in zip(r.holdings.tolist(), r.weights.tolist())}
        return all(base.get(tuple(sorted((c & ~3) | perm[c & 3] for c in h))) == w
                   for perm in permutations(range(4)) for h, w in base.items())
    cases = {"QQ": True, "AKs": True, "AKs, QJo": True, "AsKs": False,
             "AsKs@2, AhKh, AdKd, AcKc": False, "QQ@3, AKs@2": True}
    for text, want in cases.items():
        r = parse_range("holdem", text)
        assert S.is_symmetric(r.holdings, r.weights) is want == brute(r), text
    assert not S.is_symmetric(np.zeros((0, 2), dtype=np.uint8), np.zeros(0))
