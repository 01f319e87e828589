"""The game table: every rule that differs between games, as data.

=================  ====  =====  ===========  ====  =====  ====  =========
name               hole  board  exactly_two  high  low    stud  min_board
=================  ====  =====  ===========  ====  =====  ====  =========
holdem                2      5  no           yes   -      no    0
omaha                 4      5  yes          yes   -      no    0
omaha-hilo            4      5  yes          yes   eight  no    0
omaha5                5      5  yes          yes   -      no    0
omaha5-hilo           5      5  yes          yes   eight  no    0
courchevel            5      5  yes          yes   -      no    1
courchevel-hilo       5      5  yes          yes   eight  no    1
stud                  7      0  no           yes   -      yes   0
stud-hilo             7      0  no           yes   eight  yes   0
razz                  7      0  no           no    razz   yes   0
=================  ====  =====  ===========  ====  =====  ====  =========

>>> get_game("PLO8").name
'omaha-hilo'
>>> [g.name for g in games() if g.split]
['omaha-hilo', 'omaha5-hilo', 'courchevel-hilo', 'stud-hilo']
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import GameError, HandError

__all__ = ["Game", "GAMES", "games", "get_game"]


@dataclass(frozen=True)
class Game:
    """The rules of one game.

    ``hole`` is the number of cards a player holds at showdown (7 for stud,
    where ``board`` is 0); ``exactly_two`` means a hand is exactly two hole
    cards plus three board cards (the Omaha family). ``low`` is None (no low
    pot), ``"eight"`` (ace-to-five, eight or better, split pot) or ``"razz"``
    (ace-to-five lowball, pairs count, the whole pot). ``min_board`` is the
    number of board cards a spot must show (Courchevel deals one face up
    first); ``min_known`` the cards a player must show (3 in stud: third street).
    """

    name: str
    title: str
    hole: int
    board: int
    exactly_two: bool
    high: bool
    low: str | None
    stud: bool
    min_board: int
    min_known: int
    aliases: tuple[str, ...] = ()

    @property
    def split(self) -> bool:
        """True when the pot is split between the best high and the best low.

        >>> get_game("omaha-hilo").split, get_game("omaha").split, get_game("razz").split
        (True, False, False)
        """
        return self.high and self.eight

    @property
    def eight(self) -> bool:
        """True when the low is ace-to-five eight-or-better (the hi/lo games)."""
        return self.low == "eight"

    @property
    def razz(self) -> bool:
        """True when the low is ace-to-five lowball with pairs counting (razz)."""
        return self.low == "razz"

    @property
    def pot(self) -> str:
        """The pot kind: ``"high"`` (best high takes it), ``"split"`` (hi/lo) or
        ``"razz"`` (one pot, best ace-to-five low takes it).

        >>> [get_game(g).pot for g in ("holdem", "stud-hilo", "razz")]
        ['high', 'split', 'razz']
        """
        return "split" if self.split else ("razz" if self.razz else "high")

    @property
    def pot_label(self) -> str:
        """The pot kind in words, as ``pokereval games`` shows it.

        >>> get_game("razz").pot_label
        'low only'
        """
        return {"high": "high only", "split": "split hi/lo", "razz": "low only"}[self.pot]


def _flop(name: str, title: str, hole: int, aliases: tuple[str, ...], *, exactly_two: bool = True,
          low: str | None = None, min_board: int = 0) -> Game:
    """A board game (Hold'em, Omaha family)."""
    return Game(name, title, hole, 5, exactly_two, True, low, False, min_board, hole, aliases)


def _stud(name: str, title: str, aliases: tuple[str, ...], *, high: bool = True,
          low: str | None = None) -> Game:
    """A seven-card stud game: no board, at least third street known."""
    return Game(name, title, 7, 0, False, high, low, True, 0, 3, aliases)


_TABLE = (
    _flop("holdem", "Texas Hold'em", 2,
          ("hold'em", "hold-em", "nlhe", "texas-holdem", "texas-hold'em"),
          exactly_two=False),
    _flop("omaha", "Omaha", 4, ("plo", "omaha-hi")),
    _flop("omaha-hilo", "Omaha Hi/Lo", 4,
          ("omaha8", "o8", "plo8", "omaha-8", "omaha-hi-lo", "omaha-hi/lo"),
          low="eight"),
    _flop("omaha5", "5-Card Omaha", 5, ("plo5", "5-card-omaha", "5co", "omaha-5")),
    _flop("omaha5-hilo", "5-Card Omaha Hi/Lo", 5,
          ("big-o", "bigo", "plo5-8", "o5-8", "omaha5-8", "5-card-omaha-hi-lo",
           "5-card-omaha-hi/lo"),
          low="eight"),
    _flop("courchevel", "Courchevel", 5, ("courchevel-hi",), min_board=1),
    _flop("courchevel-hilo", "Courchevel Hi/Lo", 5,
          ("courchevel8", "courchevel-8", "courchevel-hi-lo", "courchevel-hi/lo"),
          low="eight", min_board=1),
    _stud("stud", "Seven Card Stud", ("7stud", "seven-card-stud", "7-card-stud", "stud-hi")),
    _stud("stud-hilo", "Seven Card Stud Hi/Lo",
          ("stud8", "stud-8", "7stud8", "seven-card-stud-hilo", "stud-hi-lo",
           "stud-hi/lo", "seven-card-stud-hi-lo", "seven-card-stud-hi/lo"),
          low="eight"),
    _stud("razz", "Razz", ("7-card-razz", "seven-card-razz"), high=False, low="razz"),
)

GAMES: dict[str, Game] = {g.name: g for g in _TABLE}


def _key(name: str) -> str:
    """Normalise a game name: case-insensitive, '_' and ' ' read as '-'."""
    return "-".join(name.strip().lower().replace("_", " ").split())


_LOOKUP: dict[str, Game] = {}
for _g in _TABLE:
    for _n in (_g.name, *_g.aliases):
        assert _key(_n) not in _LOOKUP, f"game name {_n!r} used twice"
        _LOOKUP[_key(_n)] = _g
del _g, _n


def games() -> list[Game]:
    """All games, in table order.

    >>> [g.name for g in games()][:3]
    ['holdem', 'omaha', 'omaha-hilo']
    """
    return list(GAMES.values())


def get_game(name: str | Game) -> Game:
    """The game called ``name`` (canonical name or alias, any case, '_' or ' '
    for '-'); a Game is returned as is.

    >>> get_game("Big O").title
    '5-Card Omaha Hi/Lo'
    >>> get_game("omaha9")
    Traceback (most recent call last):
    ...
    pokereval.errors.GameError: unknown game 'omaha9' (known: holdem, omaha, omaha-hilo, omaha5, omaha5-hilo, courchevel, courchevel-hilo, stud, stud-hilo, razz)
    """
    if isinstance(name, Game):
        return name
    game = _LOOKUP.get(_key(name)) if isinstance(name, str) else None
    if game is None:
        raise GameError(f"unknown game {name!r} (known: {', '.join(GAMES)})", field="game")
    return game


# --------------------------------------------------------------------------
# Card counts: the one check of how many cards a player or a hand to evaluate has
# --------------------------------------------------------------------------

def check_hole_counts(g: Game, sizes: list[int], texts: list[str],
                      fixed: list[bool] | None = None) -> None:
    """The one check of the players' card counts: ``sizes[i]`` cards for player ``i``
    (written ``texts[i]``); only the fixed hands' counts are checked against the game
    (``fixed[i]``, default all: a range's count was checked by its parser), and stud
    players must all be on the same street."""
    fixed = fixed if fixed is not None else [True] * len(sizes)
    for i, (size, text) in enumerate(zip(sizes, texts)):
        if not fixed[i]:
            continue
        if g.stud and not g.min_known <= size <= 7:
            raise HandError(f"{g.name} needs {g.min_known} to 7 cards per player but player "
                            f"{i + 1} has {size} ({text or 'none'})", field="player", player=i)
        if not g.stud and size != g.hole:
            raise HandError(f"{g.name} needs {g.hole} hole cards but player {i + 1} has "
                            f"{size} ({text or 'none'})", field="player", player=i)
    if g.stud:
        for i, (size, text) in enumerate(zip(sizes, texts)):
            if size != sizes[0]:
                raise HandError(f"{g.name} players must all be on the same street: player 1 has "
                                f"{sizes[0]} cards but player {i + 1} has {size} ({text})",
                                field="player", player=i)


def check_eval_counts(g: Game, hole: list[int], board: list[int], hole_text: object,
                      board_text: object) -> None:
    """The card counts of one hand to evaluate (:func:`pokereval.evaluate`): a complete
    hand, 5 to 7 stud cards or the hole cards plus enough board cards."""
    if g.stud:
        if not 5 <= len(hole) <= 7:
            raise HandError(f"{g.name} evaluates 5 to 7 cards, got {len(hole)} ({hole_text!s})",
                            field="hole")
        if board:
            raise HandError(f"{g.name} has no board, got board {board_text!s}", field="board")
        return
    if len(hole) != g.hole:
        raise HandError(f"{g.name} needs {g.hole} hole cards, got {len(hole)} ({hole_text!s})",
                        field="hole")
    least = 3 if g.exactly_two else 5 - g.hole
    if len(board) > g.board:
        raise HandError(f"{g.name} has at most {g.board} board cards, got {len(board)} "
                        f"({board_text!s})", field="board")
    if len(board) < least:
        raise HandError(f"{g.name} needs at least {least} board cards to make a hand, "
                        f"got {len(board)} ({board_text!s})", field="board")
