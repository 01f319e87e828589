"""An independent settle for the tests: naive.py's hand keys, pots peeled off
level by level, halves and odd chips handed out one chip at a time.
Written from docs/RULES.md, without pokereval."""
from __future__ import annotations

import naive


def _keys(game, hole, board):
    """(high key or None, low key or None); for every key, bigger = better."""
    rules = naive.GAMES[game]
    high = low = None
    if rules.pot in ("high", "hilo"):
        high = naive.hand_high(game, hole, board)[0]
    if rules.pot == "hilo":
        found = naive.hand_low8(game, hole, board)
        low = None if found is None else tuple(-r for r in found[0])
    if rules.pot == "razz":
        low = tuple(-x for x in naive.hand_razz(hole, board)[0])
    return high, low


def _odd_order(game, seats, button, cards, low: bool):
    if naive.is_stud(game):  # highest card by suit (high); lowest by suit, ace low (low)
        if low:
            return sorted(seats, key=lambda s: min((naive.low_rank(c), c % 4) for c in cards[s]))
        return sorted(seats, key=lambda s: -max(cards[s]))
    if button is None:
        return sorted(seats)
    return sorted(seats, key=lambda s: (s - button - 1) % 1000)


def _hand_out(amount, winners, order, collected):
    """One chip at a time round the winners in odd-chip order (so nobody gets two odd chips)."""
    ranked = [s for s in order if s in winners]
    for i in range(amount):
        collected[ranked[i % len(ranked)]] += 1


def reference_settle(game, hands, board, contributions, folded=(), button=None):
    """{seat: chips collected} (no rake)."""
    live = [s for s in contributions if s not in set(folded)]
    left = dict(contributions)
    collected = {s: 0 for s in contributions}
    keys = {s: _keys(game, hands[s], board) for s in live if s in hands}
    pots = []  # [amount, contenders]
    while any(left[s] > 0 for s in live):
        level = min(left[s] for s in live if left[s] > 0)
        contenders = sorted(s for s in live if left[s] > 0)
        amount = 0
        for s in left:
            take = min(left[s], level)
            amount += take
            left[s] -= take
        if pots and pots[-1][1] == contenders:
            pots[-1][0] += amount
        else:
            pots.append([amount, contenders])
    pots[-1][0] += sum(left.values())  # folded chips above every live player's total
    rules = naive.GAMES[game]
    for amount, contenders in pots:
        if len(contenders) == 1:
            collected[contenders[0]] += amount
            continue
        best_high = max(keys[s][0] for s in contenders) if rules.pot != "razz" else None
        highs = [s for s in contenders if best_high is not None and keys[s][0] == best_high]
        lows_present = [keys[s][1] for s in contenders if keys[s][1] is not None]
        lows = [s for s in contenders if lows_present and keys[s][1] == max(lows_present)]
        if highs and lows:
            low_half = amount // 2
            _hand_out(amount - low_half, highs, _odd_order(game, contenders, button, hands, False), collected)
            _hand_out(low_half, lows, _odd_order(game, contenders, button, hands, True), collected)
        elif highs:
            _hand_out(amount, highs, _odd_order(game, contenders, button, hands, False), collected)
        else:
            _hand_out(amount, lows, _odd_order(game, contenders, button, hands, True), collected)
    return collected
