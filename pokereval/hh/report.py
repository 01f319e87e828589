"""The hand-history report: per game and stake, the hands read, replayed and priced, and
one player's result: won, all-in EV adjusted won, and luck (won - EV-adjusted won).

The player is the one named, or else each hand's hero (the seat the history dealt its
own cards to).  Won = collected - put in, for every hand the player was dealt; the
EV-adjusted figure replaces, in every priced all-in, what was collected by the
expectation (:mod:`pokereval.hh.pricing`).  Amounts are in the game's money (or
chips) and in big blinds (the big bet in limit games: the second figure of the stakes).
Hands stream through: memory holds the rows, the problems and one point per hand of
the chart series, never the hands.
"""
from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from .judge import judged
from .model import Hand, Refused
from .pricing import Pricing
from .replay import Replay

__all__ = ["Row", "HandReport", "hand_report", "row_key", "money_text", "MAX_LISTED"]

#: Most refusals, problems, unchecked hands and left-out spots listed (the rows count all).
MAX_LISTED = 1000


@dataclass
class Row:
    """One game and stake.  Amounts in units of ``unit`` (``big``: units per big blind/bet)."""

    game: str
    limit: str
    stakes: str
    currency: str
    unit: Decimal
    big: int
    tournament: bool
    hands: int = 0
    agrees: int = 0
    differs: int = 0
    unchecked: int = 0
    allins: int = 0
    priced: int = 0
    left_out: int = 0
    player_hands: int = 0
    won: int = 0
    luck: float = 0.0
    sampled: int = 0

    @property
    def ev_won(self) -> float:
        return self.won - self.luck

    def money(self, units: float) -> float:
        return float(Decimal(str(units)) * self.unit)

    def in_big(self, units: float) -> float:
        return units / self.big if self.big else 0.0

    def to_dict(self) -> dict:
        return {"game": self.game, "limit": self.limit, "stakes": self.stakes,
                "currency": self.currency, "tournament": self.tournament, "hands": self.hands,
                "replay": {"agrees": self.agrees, "differs": self.differs,
                           "unchecked": self.unchecked},
                "allins": self.allins, "priced": self.priced, "sampled": self.sampled,
                "left_out": self.left_out, "player_hands": self.player_hands,
                "won": self.money(self.won), "ev_won": self.money(self.ev_won),
                "luck": self.money(self.luck), "won_bb": self.in_big(self.won),
                "ev_won_bb": self.in_big(self.ev_won), "luck_bb": self.in_big(self.luck)}


@dataclass
class HandReport:
    """``rows`` per game and stake; ``refused`` hands with their reasons; ``problems``:
    (hand id, disagreement) of the replay; ``left_out``: (hand id, why an all-in was not
    priced); ``series``: per hand of the player, (cumulative won, cumulative EV-adjusted
    won) in big blinds; ``elapsed``: seconds."""

    player: str | None
    rows: dict[tuple, Row] = field(default_factory=dict)
    refused: list[Refused] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)
    unchecked: list[tuple[str, str]] = field(default_factory=list)
    left_out: list[tuple[str, str]] = field(default_factory=list)
    series: list[tuple[float, float]] = field(default_factory=list)
    elapsed: float = 0.0
    refused_count: int = 0

    @property
    def hands(self) -> int:
        return sum(r.hands for r in self.rows.values())

    def to_dict(self) -> dict:
        return {"player": self.player, "hands": self.hands, "refused_count": self.refused_count,
                "elapsed": self.elapsed, "rows": [r.to_dict() for r in self.rows.values()],
                "refused": [r.to_dict() for r in self.refused],
                "problems": [{"hand_id": h, "problem": p} for h, p in self.problems],
                "unchecked": [{"hand_id": h, "reason": p} for h, p in self.unchecked],
                "left_out": [{"hand_id": h, "reason": p} for h, p in self.left_out]}


def row_key(hand: Hand) -> tuple:
    return (hand.game, hand.limit, hand.stakes, hand.currency, hand.tournament is not None)


def money_text(hand: Hand, units: int) -> str:
    """``units`` as the history writes money: ``$0.10``, ``$2``, ``1500`` (chips)."""
    value = hand.money(units)
    sign = {"USD": "$", "EUR": "€", "GBP": "£"}.get(hand.currency, "")
    text = f"{value:.2f}" if hand.unit < 1 and value != value.to_integral_value() else f"{value:f}"
    return sign + text


def _stakes_text(hand: Hand) -> str:
    small, big = (money_text(hand, x) for x in hand.stakes)
    return f"{small}/{big}" + (" (tournament)" if hand.tournament else "")


def hand_report(hands: Iterable[Hand | Refused], player: str | None = None, *,
                game: str | None = None, samples: int | None = None,
                on_hand=None, executor=None) -> HandReport:
    """The report of ``hands`` (what :func:`pokereval.read_hands` yields).

    ``player``: whose result (default: each hand's hero); ``game``: only hands of this
    game (a pokereval game name); ``samples``: run-outs per sampled all-in (default:
    ``allin_ev``'s); ``on_hand(hand, replay, pricing)`` is called after each hand
    (progress, or a per-hand listing; ``replay`` and ``pricing`` are None for a refused
    hand).  ``executor``: replay and price the hands there, in batches (a process pool,
    a Dask client's executor: :func:`pokereval.tables.executors.open_executor`); the
    report is the same as in this process.
    """
    started = time.perf_counter()
    report = HandReport(player)
    won_total = ev_total = 0.0
    if game is not None:
        hands = (h for h in hands if not h.ok or h.game == game)
    for hand, rep, pricing in judged(hands, samples, executor=executor):
        if not hand.ok:
            report.refused_count += 1
            _listed(report.refused, hand)
            if on_hand is not None:
                on_hand(hand, None, None)
            continue
        key = row_key(hand)
        row = report.rows.get(key)
        if row is None:
            row = report.rows[key] = Row(hand.game, hand.limit, _stakes_text(hand),
                                         hand.currency, hand.unit, hand.stakes[1],
                                         hand.tournament is not None)
        _count(report, row, hand, rep, pricing)
        seat = hand.seat_of(player) if player is not None else hand.hero
        if seat is not None:
            row.player_hands += 1
            won = hand.collected.get(seat, 0) - rep.contributions.get(seat, 0)
            luck = pricing.luck.get(seat, 0.0) if pricing.luck else 0.0
            row.won += won
            row.luck += luck
            won_total += row.in_big(won)
            ev_total += row.in_big(won - luck)
            report.series.append((won_total, ev_total))
        if on_hand is not None:
            on_hand(hand, rep, pricing)
    report.elapsed = time.perf_counter() - started
    return report


def _count(report: HandReport, row: Row, hand: Hand, rep: Replay, pricing: Pricing) -> None:
    row.hands += 1
    if rep.status == "agrees":
        row.agrees += 1
    elif rep.status == "differs":
        row.differs += 1
        for p in rep.problems:
            _listed(report.problems, (hand.hand_id, p))
    else:
        row.unchecked += 1
        _listed(report.unchecked, (hand.hand_id, rep.reason))
    if pricing.status != "none":
        row.allins += 1
    if pricing.status == "priced":
        row.priced += 1
        row.sampled += not pricing.exact
    elif pricing.status == "left out":
        row.left_out += 1
        _listed(report.left_out, (hand.hand_id, pricing.reason))


def _listed(items: list, item) -> None:
    if len(items) < MAX_LISTED:
        items.append(item)
