"""How closely an ordering built by pokereval's generator reproduces ProPokerTools'.

    python -m pokereval table build ordering omaha --passes 10 --trials 4 --out /tmp/omaha-10.npz
    python benchmarks/ppt_agreement.py omaha 10 /tmp/omaha-10.npz

Prints the Spearman rank correlation of the class positions and, for the top
5/10/15/25% of combos, the share of PPT's combos that the built ordering's top
cut also holds (ProPokerTools' orderings: Copyright ProPokerTools.com).
"""
import json
import sys

import numpy as np

from pokereval import orderings
from pokereval.classes import hand_classes
from pokereval.games import get_game


def prefix_classes(order, combos, x):
    cum = np.cumsum(combos[order])
    k = int(np.searchsorted(cum, x * cum[-1] * (1 - 1e-12))) + 1
    return set(order[:k].tolist())


def agreement(game, players, built_order):
    hc = hand_classes(get_game(game).hole)
    ppt = orderings.load(game, players)[0]
    pos_a = np.empty(len(hc)); pos_a[ppt] = np.arange(len(hc))
    pos_b = np.empty(len(hc)); pos_b[built_order] = np.arange(len(hc))
    out = {"spearman": float(np.corrcoef(pos_a, pos_b)[0, 1])}
    c = hc.combos.astype(float)  # combo-weighted Spearman: each class counts by its combos
    ra = np.cumsum(c[ppt])[np.argsort(ppt)] - c / 2  # mid-rank in combos
    rb = np.cumsum(c[built_order])[np.argsort(built_order)] - c / 2
    ma, mb = np.average(ra, weights=c), np.average(rb, weights=c)
    out["spearman_combos"] = float(np.average((ra - ma) * (rb - mb), weights=c)
                                   / np.sqrt(np.average((ra - ma) ** 2, weights=c)
                                             * np.average((rb - mb) ** 2, weights=c)))
    for x in (0.05, 0.10, 0.15, 0.25):
        a = prefix_classes(ppt, hc.combos, x)
        b = prefix_classes(built_order, hc.combos, x)
        out[f"top{int(x * 100)}%"] = float(hc.combos[list(a & b)].sum() / hc.combos[list(a)].sum())
    return out


if __name__ == "__main__":
    game, players, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with np.load(path) as z:
        order = z["order"].astype(np.int64)
    print(json.dumps(agreement(game, players, order), indent=1))
