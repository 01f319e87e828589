"""Exhaustive checks of the C evaluator through pokereval._native.

Every five-card hand (2,598,960) against the known category counts, the
7,462 classes, and the naive oracle's order; 6- and 7-card evaluation against
the best of their 5-card subsets; all 6- and 7-card hands (seconds: the walk is in C).
"""
from collections import Counter
from itertools import chain, combinations, combinations_with_replacement
from math import comb

import numpy as np
import pytest

import naive
from pokereval import _native

# Known counts (hands per category: high card .. straight flush)
FIVE_CARD_COUNTS = [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40]
FIVE_CARD_CLASSES = [1277, 2860, 858, 858, 10, 1277, 156, 156, 10]
SIX_CARD_COUNTS = [6612900, 9730740, 2532816, 732160, 361620, 205792, 165984, 14664, 1844]
SEVEN_CARD_COUNTS = [23294460, 58627800, 31433400, 6461620, 6180020, 4047644, 3473184,
                     224848, 41584]


def all_hands(k):
    """Every k-card hand as uint8 rows [C(52, k), k], cards ascending."""
    n = comb(52, k)
    flat = np.fromiter(chain.from_iterable(combinations(range(52), k)), dtype=np.uint8, count=n * k)
    return flat.reshape(n, k)


@pytest.fixture(scope="module")
def five():
    return all_hands(5)


def test_five_card_high(five):
    values = _native.eval_hi_batch(five)
    assert values.dtype == np.uint16 and values.shape == (len(five),)
    assert np.bincount(values >> 12, minlength=9).tolist() == FIVE_CARD_COUNTS
    distinct = np.unique(values)
    assert len(distinct) == 7462
    assert np.bincount(distinct >> 12, minlength=9).tolist() == FIVE_CARD_CLASSES
    assert (values & 0xFFF).min() >= 1                       # order >= 1 in every category


def test_five_card_lows(five):
    low = _native.eval_low8_batch(five)
    qualifying = low[low > 0]
    assert len(qualifying) == 56 * 4 ** 5                      # 56 rank sets x any suits
    assert len(np.unique(qualifying)) == 56
    razz = _native.eval_razz_batch(five)
    assert razz.min() >= 1
    assert len(np.unique(razz)) == 6175                      # one per rank multiset


def _rank_multiset_hands():
    """One five-card hand per rank multiset (never a flush), plus a flush per 5 distinct ranks."""
    rows = []
    for ranks in combinations_with_replacement(range(13), 5):
        if max(Counter(ranks).values()) > 4:
            continue
        rows.append([4 * r + i % 4 for i, r in enumerate(ranks)])   # equal ranks, distinct suits
        if len(set(ranks)) == 5:
            rows.append([4 * r + 2 for r in ranks])                  # all hearts
    return rows


def _check_order(values, keys):
    """values (bigger = better) order the hands exactly as the naive keys (bigger = better)."""
    order = sorted(range(len(keys)), key=keys.__getitem__)
    for i, j in zip(order, order[1:]):
        want = (keys[j] > keys[i]) - (keys[j] < keys[i])
        got = (int(values[j]) > int(values[i])) - (int(values[j]) < int(values[i]))
        assert got == want, (naive.cards_str(ROWS[i]), naive.cards_str(ROWS[j]))


ROWS = _rank_multiset_hands()


def test_five_card_classes_match_naive():
    """Every high class, razz class and low of five cards, ordered as the oracle orders them."""
    rows = np.array(ROWS, dtype=np.uint8)
    high = _native.eval_hi_batch(rows)
    _check_order(high, [naive.high_key(r) for r in ROWS])
    razz = _native.eval_razz_batch(rows)
    _check_order(razz, [tuple(-x for x in naive.razz_key(r)) for r in ROWS])
    low = _native.eval_low8_batch(rows)
    lows = [naive.low8_key(r) for r in ROWS]
    _check_order(low, [(0,) if k is None else (1, *(-x for x in k)) for k in lows])


@pytest.mark.parametrize("k", [6, 7])
@pytest.mark.parametrize("deck", ["full", "four ranks", "two suits"])
def test_best_of_k_is_best_five_card_subset(k, deck):
    """A k-card value equals the best value over its five-card subsets (high, low, razz)."""
    cards = {"full": np.arange(52),
             "four ranks": np.arange(4 * 9, 4 * 13),          # J Q K A: quads, boats, broadway
             "two suits": np.arange(52).reshape(13, 4)[:, 2:].ravel()}[deck]   # flushes
    rng = np.random.default_rng(k * 100 + len(cards))
    n = 20000
    pick = np.argsort(rng.random((n, len(cards))), axis=1)[:, :k]
    hands = cards[pick].astype(np.uint8)
    subsets = list(combinations(range(k), 5))
    fives = hands[:, subsets].reshape(-1, 5)                   # [n * len(subsets), 5]
    for fn in (_native.eval_hi_batch, _native.eval_low8_batch, _native.eval_razz_batch):
        best = fn(fives).reshape(n, len(subsets)).max(axis=1)
        assert (fn(hands) == best).all(), fn.__name__
        assert (fn(np.ascontiguousarray(hands[:, ::-1])) == best).all(), fn.__name__   # order-free


@pytest.mark.slow  # 20,358,520 hands built in Python: 10-20 s; the 7-card walk below is in C
def test_all_six_card_hands():
    values = _native.eval_hi_batch(all_hands(6))
    assert np.bincount(values >> 12, minlength=9).tolist() == SIX_CARD_COUNTS


def test_all_seven_card_hands():
    counts = _native.enumerate7_counts()
    assert len(counts) == 9 and sum(int(c) for c in counts) == comb(52, 7)
    assert [int(c) for c in counts] == SEVEN_CARD_COUNTS
