"""What the faces (``pokereval.cli``, ``pokereval.web``) say to their users, in one place:
the equity request schema (a ``pokereval batch`` line, a ``POST /api/equity`` body), the
JSON text of answers, the result / hand / game dicts, the columns and the footer of the
equity table, and one-line messages.

The command line and the web app both build their answers here, so ``pokereval equity
--json``, ``pokereval batch`` and the web API give the same shapes.  This module sits
beside :mod:`pokereval.api` (above the engine, below the faces) and imports nothing
heavy: ``pokereval games`` and ``--help`` start fast.

>>> call, options = parse_request({"game": "holdem", "hands": ["AhAd", "KsKd"], "seed": 1})
>>> call, options["seed"]
(['holdem', ['AhAd', 'KsKd'], '', ''], 1)
>>> dumps({"equity": float("nan"), "share": [0.5, 0.25]})
'{"equity":null,"share":[0.5,0.25]}'
"""
from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from typing import Any

from . import api
from .errors import one_line as _escaped
from .games import Game, games, get_game

__all__ = ["BATCH_FIELDS", "REQUEST_OPTIONS", "RequestError", "parse_request", "type_name",
           "one_line", "json_default", "clean", "dumps", "result_dict", "hand_dict",
           "evaluation_dict", "game_dict", "games_list", "max_players", "default_stderr",
           "format_seconds", "format_percent", "finite", "cell", "worst_stderr",
           "LEADING_COLUMNS", "equity_columns", "table_columns", "equity_table_spec",
           "legend", "footer"]

#: The fields of an equity request (a batch line, a web body), in the order help names them.
BATCH_FIELDS = ("game", "hands", "board", "dead", "exact", "samples", "stderr", "seed",
                "threads", "breakdown", "id")
#: The request fields passed to ``equity`` as keyword options (checked by the engine).
REQUEST_OPTIONS = ("exact", "samples", "stderr", "seed", "threads")


class RequestError(Exception):
    """A request of the wrong shape (not an object, an unknown or missing field, a field of
    the wrong type): the face answers it as bad input, with this one-line message."""


# ---------------------------------------------------------------------------
# Requests
# ---------------------------------------------------------------------------


def type_name(value: Any) -> str:
    """How a message names the JSON type of ``value``.

    >>> type_name([1]), type_name(None), type_name(2.5)
    ('a list', 'null', 'a number')
    """
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false",
            type(None): "null", int: "a number", float: "a number"}.get(type(value), "a value")


def parse_request(obj: Any, fields: tuple[str, ...] = BATCH_FIELDS) -> tuple[list[Any], dict[str, Any]]:
    """Check an equity request's shape: the positional arguments and the options of
    ``equity``.  The engine checks the content (cards, counts, option values) with its
    own messages.  Raises :class:`RequestError`.

    >>> parse_request({"game": "holdem", "hands": "AhAd"})
    Traceback (most recent call last):
    ...
    pokereval.protocol.RequestError: 'hands' must be a list of strings, one per player
    """
    if not isinstance(obj, dict):
        raise RequestError(f"expected a JSON object, got {type_name(obj)}")
    unknown = [k for k in obj if k not in fields]
    if unknown:
        raise RequestError(f"unknown field {unknown[0]!r} (known: {', '.join(fields)})")
    for key in ("game", "hands"):
        if key not in obj:
            raise RequestError(f"missing field {key!r}")
    game, hands = obj["game"], obj["hands"]
    if not isinstance(game, str):
        raise RequestError(f"'game' must be a string, got {type_name(game)}")
    if not isinstance(hands, list) or not all(isinstance(h, str) for h in hands):
        raise RequestError("'hands' must be a list of strings, one per player")
    options = {k: obj.get(k) for k in REQUEST_OPTIONS}
    breakdown = obj.get("breakdown")
    if breakdown is not None and not isinstance(breakdown, bool):
        raise RequestError(f"'breakdown' must be true or false, got {type_name(breakdown)}")
    if breakdown:  # what each hand makes, won / tied / lost (equity(..., breakdown=True))
        options["breakdown"] = True
    board, dead = obj.get("board"), obj.get("dead")
    return [game, hands, "" if board is None else board, "" if dead is None else dead], options


def one_line(message: object) -> str:
    """An error message on one printable line, whatever the exception (argparse's
    included) put in it: unprintable characters escaped (see :func:`pokereval.errors.one_line`),
    runs of white space made one space.

    >>> one_line("unknown   card 'Zz'")
    "unknown card 'Zz'"
    """
    return " ".join(_escaped(message).split())


# ---------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------


def json_default(value: Any) -> Any:
    """JSON for what ``json`` does not know: NumPy scalars and arrays, fractions, sets.

    >>> json_default(Fraction(1, 3)), json_default({3, 1})
    ('1/3', [1, 3])
    """
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    for attr in ("item", "tolist"):  # numpy scalar / array
        if hasattr(value, attr):
            return getattr(value, attr)()
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def clean(obj: Any) -> Any:
    """``obj`` with NaN and infinities (no JSON for them) replaced by None.

    >>> clean({"a": [float("inf"), 1.0], "b": (2, float("nan"))})
    {'a': [None, 1.0], 'b': [2, None]}
    """
    if type(obj) in (int, str, bool) or obj is None:  # most leaves: nothing to check
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [clean(v) for v in obj]
    if hasattr(obj, "tolist"):  # numpy
        return clean(obj.tolist())
    return obj


_NUMBER_LIST = re.compile(r"\[[-+0-9.eE,\s]*\]")
# JSON leaves these raw inside strings, but many line readers (Python's splitlines,
# older JavaScript) break lines at them: escaped, one answer stays one line.
_LINE_BREAKS = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}


def dumps(obj: Any, *, indent: int | None = None) -> str:
    """JSON text: compact on one line, or indented with lists of numbers kept on one line
    (the outcome counts would otherwise take a line per number).

    >>> print(dumps({"x": [1, 2], "s": "a\\u2028b"}, indent=2))
    {
      "x": [1, 2],
      "s": "a\\u2028b"
    }
    """
    text = json.dumps(clean(obj), default=json_default, indent=indent, ensure_ascii=False,
                      separators=None if indent else (",", ":"))
    if indent:
        text = _NUMBER_LIST.sub(
            lambda m: "[" + ", ".join(x.strip() for x in m.group(0)[1:-1].split(",")) + "]", text)
    return text.translate(_LINE_BREAKS)


# ---------------------------------------------------------------------------
# Answers
# ---------------------------------------------------------------------------


def result_dict(result: Any) -> dict:
    """An equity result as ``pokereval equity --json`` writes it (``partial`` always there)."""
    data = dict(result.to_dict())
    data.setdefault("partial", bool(result.partial))
    return data


def hand_dict(hand: Any) -> dict | None:
    """One evaluated hand (high or low; None: no qualifying low)."""
    if hand is None:
        return None
    return {"name": str(hand), "cards": hand.cards, "category": hand.category,
            "value": int(hand.value)}


def evaluation_dict(game: Game, hole: str, board: str, result: Any) -> dict:
    """``pokereval eval --json`` and ``POST /api/evaluate``: one holding's best hands."""
    return {"game": game.name, "hole": hole, "board": board,
            "high": hand_dict(result.high), "low": hand_dict(result.low)}


def game_dict(g: Game) -> dict:
    """One game of ``pokereval games --json`` and ``GET /api/games``."""
    return {"name": g.name, "title": g.title, "hole": g.hole, "board": g.board,
            "min_board": g.min_board, "exactly_two": g.exactly_two, "stud": g.stud,
            "high": g.high, "low": g.low, "split": g.split, "pot": g.pot,
            "aliases": list(g.aliases)}


def games_list() -> list[dict]:
    """Every game, as ``pokereval games --json`` lists them.

    >>> [g["name"] for g in games_list()][:3]
    ['holdem', 'omaha', 'omaha-hilo']
    """
    return [game_dict(g) for g in games()]


def max_players(game: str | Game) -> int:
    """The most players one equity request may have in ``game``.

    >>> max_players("omaha-hilo"), max_players("razz")
    (10, 8)
    """
    g = get_game(game)
    return api.MAX_PLAYERS_STUD if g.stud else api.MAX_PLAYERS_BOARD


def default_stderr() -> float:
    """The precision target ``equity`` samples to when it chooses to sample."""
    return api.DEFAULT_STDERR


# ---------------------------------------------------------------------------
# The equity table: columns, cells, footer
# ---------------------------------------------------------------------------


def format_percent(x: float, digits: int = 2) -> str:
    """A probability as a percentage with its sign.

    >>> format_percent(0.12345)
    '12.35%'
    """
    return f"{100.0 * x:.{digits}f}%"


def format_seconds(s: float) -> str:
    """A duration as the footers write it.

    >>> format_seconds(0.004), format_seconds(0.25), format_seconds(3.5), format_seconds(150)
    ('4.0 ms', '250 ms', '3.50 s', '2 min 30 s')
    """
    if s < 1:
        return f"{s * 1000:.0f} ms" if s >= 0.0095 else f"{s * 1000:.1f} ms"
    if s < 120:
        return f"{s:.2f} s"
    minutes, sec = divmod(s, 60)
    return f"{int(minutes)} min {sec:.0f} s"


def finite(x: Any) -> bool:
    """True when ``x`` is a finite number."""
    try:
        return math.isfinite(float(x))
    except (TypeError, ValueError):
        return False


def cell(x: Any) -> str:
    """A probability as a percentage without the sign (the legend says "%").

    >>> cell(0.5), cell(float("nan"))
    ('50.00', '-')
    """
    return f"{100.0 * float(x):.2f}" if finite(x) else "-"


def worst_stderr(result: Any) -> float | None:
    """The largest standard error among the players (None when there is none yet)."""
    errors = [float(p.std_error) for p in result.players if finite(p.std_error)]
    return max(errors) if errors else None


def equity_columns(game: Game) -> list[tuple[str, str]]:
    """The figure columns for ``game`` after Hand and Equity: (header, player field).

    Split games also have a no-low figure; it is the same for every player (how often
    no low qualifies), so the table gives it once, under the rows.

    >>> equity_columns(get_game("razz"))
    [('Win', 'low_win'), ('Tie', 'low_tie')]
    """
    if game.split:
        return [("High\nwin", "high_win"), ("High\ntie", "high_tie"), ("Low\nwin", "low_win"),
                ("Low\ntie", "low_tie"), ("\nScoop", "scoop"), ("\n3/4", "three_quarters"),
                ("\nQuartered", "quartered")]
    if game.razz:  # one pot, won by the best low: reported in the low fields
        return [("Win", "low_win"), ("Tie", "low_tie")]
    return [("Win", "high_win"), ("Tie", "high_tie")]


#: The columns every equity table starts with: (header, key).
LEADING_COLUMNS = [("Hand", "hand"), ("Equity", "equity")]


def table_columns(game: Game) -> list[tuple[str, str]]:
    """Every column of ``game``'s equity table, in order: (header, key); the key is the
    player field the column shows (``hand``, ``equity``, then :func:`equity_columns`).

    >>> table_columns(get_game("holdem"))
    [('Hand', 'hand'), ('Equity', 'equity'), ('Win', 'high_win'), ('Tie', 'high_tie')]
    """
    return LEADING_COLUMNS + equity_columns(game)


def equity_table_spec() -> dict[str, dict]:
    """The equity table of every game, as ``GET /api/spec`` serves it to the page: its
    columns (``key``: the player field; ``label``: the CLI's header on one line).  The
    page draws its table from this, and the legend and footer of each answer come with
    the answer (:func:`legend`, :func:`footer`), so the page and the CLI agree.

    >>> equity_table_spec()["razz"]["columns"][2:]
    [{'key': 'low_win', 'label': 'Win'}, {'key': 'low_tie', 'label': 'Tie'}]
    """
    return {g.name: {"columns": [{"key": key, "label": " ".join(header.split())}
                                 for header, key in table_columns(g)]}
            for g in games()}


def legend(result: Any) -> str:
    """The line under the equity table's rows: the unit, and in split games how often no
    low qualifies (the same for every player, so given once)."""
    text = "All figures in %."
    if get_game(result.game).split and result.players and finite(result.players[0].no_low):
        text += f" No low qualifies on {cell(result.players[0].no_low)}% of run-outs."
    return text


def footer(result: Any, why: str | None = "interrupted") -> str:
    """The equity table's footer: how the answer was obtained and how long it took.

    A partial answer's footer starts ``PARTIAL (why):`` (``PARTIAL:`` when ``why`` is
    None: the web page's figures while a run is still going)."""
    partial = f"PARTIAL ({why}):" if why else "PARTIAL:"
    n = int(result.samples)
    took = format_seconds(float(result.elapsed))
    if result.exact:
        if not result.partial:
            return f"exact: {n:,} run-outs walked, {took}"
        share = getattr(result, "fraction_done", None)
        of = f" ({100 * share:.1f}% of all)" if share is not None and finite(share) else ""
        return (f"{partial} {n:,} run-outs walked{of}, {took}; the figures "
                "cover those run-outs only, not the exact answer")
    worst = worst_stderr(result)
    if worst is None:
        se = "no standard error yet"
    else:
        errors = [float(p.std_error) for p in result.players]
        same = all(abs(e - worst) < 5e-7 for e in errors)
        se = f"standard error {'' if same else 'up to '}{format_percent(worst, 3 if worst < 0.001 else 2)}"
    text = f"sampled: {n:,} run-outs, {se}, {took}"
    seed = getattr(result, "seed", None)
    if seed is not None:
        text += f" (seed {seed})"
    return f"{partial} {text}" if result.partial else text
