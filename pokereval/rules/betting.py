"""Bet limits: the legal raise sizes of the player to act, and a betting round
that tracks them (cap, minimum raise, the reopening rule).

Amounts are integers in the smallest unit; a bet or raise is given as the
*total* the player has in front of them this round after it ("raise to").

>>> bet_limits("pot-limit", pot=200, current_bet=100, stack=1000, bet=10)   # the page's example
Limits(call=100, min=200, max=400)
>>> bet_limits("limit", current_bet=40, stack=500, bet=20, raises=4)       # capped
Limits(call=40, min=None, max=None)
>>> bet_limits("no-limit", current_bet=100, last_raise=100, stack=150, bet=20)
Limits(call=100, min=150, max=150)
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import NamedTuple

from .chips import RulesError, check_chips, check_seat, require

__all__ = ["Limits", "STRUCTURES", "bet_limits", "BettingRound"]

#: Betting structures and their accepted spellings.
STRUCTURES = {"limit": "limit", "fixed-limit": "limit", "fl": "limit",
              "pot-limit": "pot-limit", "pl": "pot-limit",
              "no-limit": "no-limit", "nl": "no-limit",
              "spread-limit": "spread-limit", "spread": "spread-limit"}
_KILL = {None: Fraction(1), "full": Fraction(2), "half": Fraction(3, 2)}


class Limits(NamedTuple):
    """``call``: chips to add to call (all-in if short).  ``min``/``max``: the legal
    "raise to" totals for a bet or raise, None when the player may not raise."""

    call: int
    min: int | None
    max: int | None


def _structure(name: str) -> str:
    key = "-".join(str(name).strip().lower().replace("_", " ").split())
    if key not in STRUCTURES:
        raise RulesError(f"unknown betting structure {name!r} (known: limit, pot-limit, "
                         f"no-limit, spread-limit)")
    return STRUCTURES[key]


def _killed(amount: int, kill: str | None, what: str) -> int:
    if kill not in _KILL:
        raise RulesError(f"kill must be None, 'full' (limits x2) or 'half' (x1.5), got {kill!r}")
    value = amount * _KILL[kill]
    require(value.denominator == 1, f"a half-kill {what} of {amount} x 1.5 is not a whole "
                                    f"number of chips")
    return int(value)


def bet_limits(structure: str, *, stack: int, bet: int, current_bet: int = 0,
               my_bet: int = 0, pot: int = 0, last_raise: int | None = None,
               raises: int = 0, cap: int | None = 4, big_bet: int | None = None,
               spread: tuple[int, int] | None = None, reopened: bool = True,
               kill: str | None = None) -> Limits:
    """The legal call and (min, max) raise-to totals of the player to act.

    ``stack``: chips behind; ``my_bet``: what the player already has in this
    round; ``current_bet``: the largest total anyone has this round; ``pot``: every
    chip in the middle, this round's bets included.  ``bet``: limit: the bet size
    of this street (small or big bet); pot- and no-limit: the minimum bet (the big
    blind).  ``last_raise``: size of the last full bet or raise this round (default
    ``current_bet``, or ``bet`` when nothing is bet yet).  Limit: ``raises`` bets and raises so far, at most ``cap`` (a bet and
    three raises; None = no cap, as heads-up); ``big_bet``: the larger bet a player
    may choose instead (stud high, an open pair on 4th street).  Spread limit:
    ``spread=(lowest, highest)`` bet; a raise is at least the previous bet or raise.
    ``reopened=False``: the player already acted and only all-in raises smaller
    than a full raise came since, so they may call or fold but not raise.
    ``kill``: "full" doubles the limits, "half" multiplies them by 1.5.
    """
    kind = _structure(structure)
    stack = check_chips(stack, "stack")
    bet = check_chips(bet, "bet")
    current_bet = check_chips(current_bet, "current_bet")
    my_bet = check_chips(my_bet, "my_bet")
    pot = check_chips(pot, "pot")
    require(bet > 0, "bet (the bet size, or the minimum bet) must be positive")
    require(my_bet <= current_bet, f"my_bet {my_bet} is more than current_bet {current_bet}")
    require(kind != "pot-limit" or pot >= current_bet,
            f"pot {pot} must include this round's bets (current_bet {current_bet})")
    last = (current_bet or bet) if last_raise is None else check_chips(last_raise, "last_raise")
    bet = _killed(bet, kill, "bet")
    last = _killed(last, kill, "raise")
    to_call = current_bet - my_bet
    call = min(to_call, stack)
    all_in = my_bet + stack
    if not reopened or stack <= to_call:
        return Limits(call, None, None)

    if kind == "limit":
        if cap is not None and raises >= cap:
            return Limits(call, None, None)
        step = bet if current_bet >= bet or current_bet == 0 else None
        low = current_bet + bet if step else bet  # below one bet (a bring-in): complete it
        high = low
        if big_bet is not None and raises == 0:  # stud: an open pair allows the big bet
            high = current_bet + _killed(check_chips(big_bet, "big_bet"), kill, "big bet")
    elif kind == "spread-limit":
        if spread is None or len(spread) != 2:
            raise RulesError("spread-limit needs spread=(lowest bet, highest bet)")
        lo, hi = (_killed(check_chips(x, "spread"), kill, "spread") for x in spread)
        require(0 < lo <= hi, f"spread must be (lowest, highest) with 0 < lowest <= highest, "
                              f"got {spread!r}")
        low = current_bet + max(lo, last if current_bet else lo)
        high = current_bet + hi
        if cap is not None and raises >= cap:
            return Limits(call, None, None)
    else:
        low = current_bet + max(last, bet) if current_bet else bet
        if kind == "pot-limit":  # call first, then raise by the whole pot
            high = current_bet + pot + to_call
        else:
            high = all_in
    high = max(low, high)
    if all_in < low:  # short: all-in for less is the only raise
        return Limits(call, all_in, all_in)
    return Limits(call, low, min(high, all_in))


class BettingRound:
    """One betting round: apply actions, ask :meth:`limits` for the player to act.

    ``stacks``: chips behind at the start of the round; ``order``: the action order
    (see :func:`first_to_act` / :func:`board_order`); ``posted``: blinds or bring-in
    already in this round; ``pot``: chips in the middle from earlier rounds.
    A full blind counts as the round's first bet (for the limit cap and the
    minimum raise).  An all-in raise smaller than a full raise (no-limit and
    pot-limit: the last bet or raise; limit: half a bet) does not reopen the
    betting to players who already acted.

    >>> r = BettingRound("no-limit", {1: 1000, 2: 130, 3: 1000}, [1, 2, 3], bet=20, posted={3: 20})
    >>> r.act("raise", 100); r.act("raise", 130); r.limits()   # 2 went all-in 50 short of a full raise
    Limits(call=110, min=210, max=1000)
    >>> r.act("call"); r.to_act, r.limits()   # 1 raised already: only 30 more came, so no reraise
    (1, Limits(call=30, min=None, max=None))
    """

    def __init__(self, structure: str, stacks: Mapping[int, int], order: Sequence[int], *,
                 bet: int, pot: int = 0, posted: Mapping[int, int] | None = None,
                 cap: int | None = 4, big_bet: int | None = None,
                 spread: tuple[int, int] | None = None, kill: str | None = None):
        self.structure = _structure(structure)
        self.order = [check_seat(s, "order") for s in order]
        require(len(set(self.order)) == len(self.order) >= 2,
                "order must list at least two distinct seats")
        self.stack = {s: check_chips(stacks.get(s), f"seat {s}'s stack") if s in stacks else
                      _missing(s) for s in self.order}
        self.bets = {s: 0 for s in self.order}
        for s, v in (posted or {}).items():
            s = check_seat(s, "posted")
            require(s in self.stack, f"posted names seat {s}, which is not in order")
            v = check_chips(v, f"seat {s}'s post")
            require(v <= self.stack[s], f"seat {s} posts {v} but has only {self.stack[s]}")
            self.bets[s], self.stack[s] = v, self.stack[s] - v
        self.bet, self.cap, self.big_bet, self.spread, self.kill = bet, cap, big_bet, spread, kill
        self.pot = check_chips(pot, "pot")
        top = max(self.bets.values())
        self.raises = 1 if top >= bet else 0
        self.last_raise = bet
        self.full_level = top if top >= bet else 0  # the bet level of the last full bet/raise
        self.faced: dict[int, int] = {}  # seat -> full level when it last acted
        self.folded: set[int] = set()
        self.turn = 0

    @property
    def current_bet(self) -> int:
        return max(self.bets.values())

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None when the round is over."""
        live = [s for s in self.order if s not in self.folded and self.stack[s] > 0]
        if len([s for s in self.order if s not in self.folded]) < 2:
            return None
        for i in range(len(self.order)):
            s = self.order[(self.turn + i) % len(self.order)]
            if s in live and (s not in self.faced or self.bets[s] < self.current_bet):
                return s
        return None

    def _acting(self) -> int:
        s = self.to_act
        if s is None:
            raise RulesError("the betting round is over: nobody is left to act")
        return s

    def limits(self) -> Limits:
        s = self._acting()
        reopened = s not in self.faced or self.full_level > self.faced[s]
        # nobody left who could answer a raise (everyone else folded or all-in): call or fold
        reopened = reopened and any(self.stack[o] > 0 for o in self.order
                                    if o != s and o not in self.folded)
        pot = self.pot + sum(self.bets.values())
        return bet_limits(self.structure, stack=self.stack[s], bet=self.bet,
                          current_bet=self.current_bet, my_bet=self.bets[s], pot=pot,
                          last_raise=self.last_raise, raises=self.raises, cap=self.cap,
                          big_bet=self.big_bet, spread=self.spread, reopened=reopened,
                          kill=self.kill)

    def act(self, action: str, amount: int | None = None) -> None:
        """``fold``, ``check``, ``call``, or ``bet``/``raise`` to ``amount`` (the total)."""
        s = self._acting()
        lim = self.limits()
        if action == "fold":
            self.folded.add(s)
        elif action == "check":
            require(lim.call == 0, f"seat {s} cannot check: {lim.call} to call")
        elif action == "call":
            self.bets[s] += lim.call
            self.stack[s] -= lim.call
        elif action in ("bet", "raise"):
            if lim.min is None or lim.max is None:
                raise RulesError(f"seat {s} may not raise here (call {lim.call} or fold)")
            total = check_chips(amount, "raise amount")
            require(lim.min <= total <= lim.max, f"seat {s} may raise to {lim.min}"
                    + (f"..{lim.max}" if lim.max != lim.min else "") + f", not {total}")
            size = total - self.current_bet
            full = size >= (self.bet // 2 if self.structure == "limit" else self.last_raise) \
                or self.current_bet < self.bet
            self.stack[s] -= total - self.bets[s]
            self.bets[s] = total
            if full:  # a full raise reopens the betting and sets the next minimum
                self.raises += 1
                self.last_raise = max(size, self.bet)
                self.full_level = total
        else:
            raise RulesError(f"unknown action {action!r} (fold, check, call, bet, raise)")
        self.faced[s] = self.full_level
        self.turn = (self.order.index(s) + 1) % len(self.order)


def _missing(seat: int) -> int:
    raise RulesError(f"order names seat {seat}, which has no stack")
