"""Exceptions raised for bad input.

Every error is a :class:`ValueError` subclass, so callers that only know the
standard library can still catch it, and each message is one line that quotes
the offending input (the CLI prints it as is and exits with code 2).

The one-line promise is kept here, centrally, whatever a message quotes: control
characters, line and paragraph separators and other unprintable characters are
written as escapes (``\\n``, ``\\x1b``, ``\\u2028``), and a message longer than
:data:`MAX_MESSAGE` characters keeps its beginning and end around a note of what
was cut (an input of megabytes must not become a log line of megabytes).
"""

__all__ = ["PokerEvalError", "CardError", "GameError", "HandError", "MAX_MESSAGE", "one_line",
           "install_hint", "about", "interrupted"]

#: Longest error message, in characters (longer ones are cut in the middle).
MAX_MESSAGE = 1000


#: optional extra -> the packages it brings (pyproject.toml [project.optional-dependencies])
EXTRAS = {"web": "starlette uvicorn", "plot": "matplotlib", "cluster": "distributed",
          "hh": "pokerkit"}


def install_hint(extra: str) -> str:
    """How to install an optional extra, from PyPI or from a clone of the repository
    (``pokereval-hilo[...]`` works only where the distribution is published)."""
    return f"pip install {EXTRAS[extra]} (or, in a clone of pokereval: pip install \".[{extra}]\")"


def one_line(message: object) -> str:
    """``message`` as text on one line: unprintable characters escaped, at most
    :data:`MAX_MESSAGE` characters.

    >>> one_line("unknown card '\\n' in hole cards")
    "unknown card '\\\\n' in hole cards"
    """
    text = str(message)
    if not text.isprintable():  # fast path: most messages are plain
        text = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                       for ch in text)
    if len(text) > MAX_MESSAGE:
        head, tail = MAX_MESSAGE * 3 // 4, MAX_MESSAGE // 5
        cut = len(text) - head - tail
        text = f"{text[:head]} [... {cut:,} characters cut ...] {text[-tail:]}"
    return text


def interrupted(exc: BaseException) -> bool:
    """Whether a KeyboardInterrupt is in ``exc``'s chain of causes: Numba reports a
    Ctrl-C that lands while it boxes a kernel's result (Python code runs there) as a
    SystemError chained to the interrupt, which the caller should see as the interrupt."""
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen:
        if isinstance(link, KeyboardInterrupt):
            return True
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return False


class PokerEvalError(ValueError):
    """Base class of every input error raised by pokereval (its message is one line).

    ``field``: what the error is about, when known ("board", "dead", "player", "game",
    "option", or "hole": the hand given to :func:`pokereval.evaluate`); ``player``: the
    0-based player it is about (with ``field="player"``), else None.  A face points at
    the field with them, never by reading the message.
    """

    def __init__(self, message: object = "", *args: object, field: str | None = None,
                 player: int | None = None) -> None:
        super().__init__(one_line(message), *args)
        self.field = field
        self.player = player


class CardError(PokerEvalError):
    """An unknown card, or a card that appears twice (in one value or across
    hands, board and dead cards)."""


class GameError(PokerEvalError):
    """An unknown game name."""


class HandError(PokerEvalError):
    """A request that does not fit the game: wrong number of hole cards, too
    many or too few board cards, too many players for the deck, stud players on
    different streets, or a bad option value."""


class about:
    """``with about(field, player):`` an input error raised inside is about that field
    (unless it already says which): for checks that do not know what their input is.

    >>> try:
    ...     with about("board"):
    ...         raise CardError("unknown card 'Zz' in board")
    ... except CardError as error:
    ...     (error.field, error.player)
    ('board', None)
    """

    def __init__(self, field: str, player: int | None = None) -> None:
        self.field, self.player = field, player

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        # returns None: the error goes on, now naming its field
        if isinstance(error, PokerEvalError) and error.field is None:
            error.field, error.player = self.field, self.player
