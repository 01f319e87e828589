"""Stand-ins for features other issues add to the engine (next-street distribution,
hand-type breakdown, percentiles), with the interfaces the web app codes against, so
the page's charts and badges are exercised before those features are merged.  They
are fakes: their numbers mean nothing, and only the web tests install them.
"""
from __future__ import annotations

import pokereval as pe

CURVE = [[0.1, 0.25], [0.5, 0.25], [0.9, 0.5]]
PERCENTILE = 0.123


class _Distribution:
    def __init__(self, game, hands):
        self.game, self.hands = game, hands

    def to_dict(self) -> dict:
        return {"game": self.game, "deals": 4,
                "players": [{"hand": h, "equity": sum(e * w for e, w in CURVE), "curve": CURVE}
                            for h in self.hands]}


def equity_distribution(game, hands, board="", dead="", *, exact=None, samples=None, seed=None,
                        threads=None):
    pe.equity(game, hands, board, dead)  # the same input checks
    return _Distribution(pe.get_game(game).name, list(hands))


def percentile(game, hand, players=10):
    if pe.get_game(game).name not in ("holdem", "omaha", "omaha-hilo", "omaha5", "omaha5-hilo"):
        raise pe.PokerEvalError(f"{game} has no hand ordering")
    return PERCENTILE


def _with_breakdown(equity):
    def wrapped(game, hands, board="", dead="", *, exact=None, samples=None, stderr=None, seed=None,
                threads=None, progress=None, breakdown=False):
        result = equity(game, hands, board, dead, exact=exact, samples=samples, stderr=stderr,
                        seed=seed, threads=threads, progress=progress)
        if breakdown:
            plain = result.to_dict

            def to_dict():
                data = plain()
                for p in data["players"]:
                    p["breakdown"] = {
                        "high": {"pair": {"won": 0.2, "tied": 0.0, "lost": 0.1},
                                 "straight": {"won": 0.3, "tied": 0.05, "lost": 0.0}},
                        "low": [{"category": "8-low", "won": 0.1, "tied": 0.0, "lost": 0.2}]}
                return data

            result.to_dict = to_dict
        return result

    wrapped.__doc__ = equity.__doc__
    return wrapped


def install() -> None:
    """In a server process: the stand-ins where the web app looks them up (pokereval.api)."""
    import pokereval.api as api

    api.equity_distribution = equity_distribution
    api.percentile = percentile
    api.equity = _with_breakdown(api.equity)
