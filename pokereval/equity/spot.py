"""The spot of an equity request: hands (exact or ranges), board, dead cards and the
cards still to come, validated with one-line errors.

Each error says which field it is about (``error.field``: "game", "player", "board"
or "dead"; ``error.player``: the 0-based player), so a face can point at it without
reading the message.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import islice
from math import comb

from ..cards import cards_str, check_disjoint, parse_cards, rank_index, suit_index
from ..errors import CardError, HandError, about
from ..games import Game, check_hole_counts, get_game
from ..ranges import RangeError, holdings_excluding, parse_range

__all__ = ["Spot", "parse_spot", "read_hands", "plan_deal", "MAX_PLAYERS_BOARD",
           "MAX_PLAYERS_STUD"]

MAX_PLAYERS_BOARD = 10
MAX_PLAYERS_STUD = 8


# --------------------------------------------------------------------------
# Validation: the spot
# --------------------------------------------------------------------------

@dataclass
class Spot:
    game: Game
    holes: list  # per player: the exact hand's cards, or None for a range
    board: list[int]
    dead: list[int]
    unseen: list[int]  # cards not on the board, dead, nor in an exact hand
    hand_text: list[str]
    # board games: k missing board cards; stud: mo own cards each (+1 shared)
    k: int = 0
    mo: int = 0
    shared: bool = False
    ranges: list = field(default_factory=list)  # per player: Range (card-removed) or None

    @property
    def n(self) -> int:
        return len(self.holes)

    @property
    def ranged(self) -> bool:
        return any(r is not None for r in self.ranges)

    @property
    def deck_size(self) -> int:
        """Cards a run-out comes from (the same for every combination of holdings)."""
        return len(self.unseen) - sum(r.cards for r in self.ranges if r is not None)

    @property
    def runouts(self) -> int:
        """The number of equally likely run-outs (of one combination of holdings)."""
        u = self.deck_size
        if not self.game.stud:
            return comb(u, self.k)
        total = 1
        left = u
        if self.shared:
            total = u
            left -= 1
        for _ in range(self.n):
            total *= comb(left, self.mo)
            left -= self.mo
        return total


def _card_like(text: str) -> bool:
    """True when ``text`` is written as rank + letter pairs only (``AhKx``, ``AcZz``):
    such a text is read as plain cards, so a typo is a card error, not a range."""
    i, m = 0, len(text)
    pairs = 0
    while i < m:
        ch = text[i]
        if ch.isspace() or ch == ",":
            i += 1
            continue
        i += 2 if text.startswith("10", i) else 1
        if i >= m:
            return False
        suit = text[i]
        if not (suit.isalpha() or suit_index(suit) is not None) or rank_index(suit) is not None:
            return False
        i += 1
        pairs += 1
    return pairs > 0


def _read_hand(g: Game, text, i: int, ordering=None):
    """``(cards, None)`` for an exact hand, ``(None, Range)`` for a range (its percent
    terms cut ``ordering``, None: the shipped one)."""
    what = f"player {i + 1}"
    if not isinstance(text, str):
        return parse_cards(text, what), None
    try:
        cards = parse_cards(text, what)
    except CardError:
        if _card_like(text):
            raise
    else:
        if not (g.stud and "," in text and _stud_range_list(g, text)):
            return cards, None
    try:
        return None, parse_range(g, text, ordering=ordering)
    except RangeError as exc:
        raise RangeError(f"{what}: {exc}", exc.text, exc.position) from None


def _stud_range_list(g: Game, text: str) -> bool:
    """A stud text ``AhKdQc, JhTs9c``: a list of streets (a range), not one hand."""
    try:
        return all(len(parse_cards(part)) >= g.min_known for part in text.split(","))
    except CardError:
        return False


def read_hands(g: Game, hands, *, ordering=None) -> tuple[list, list]:
    """``(hands as a list, [(cards, None) or (None, Range)] per player)``: each hand read
    once, whatever board it will meet (:func:`parse_spot` takes them as ``read``);
    ``ordering``: what percent terms cut (see :func:`pokereval.parse_range`)."""
    if isinstance(hands, (str, bytes)) or not hasattr(hands, "__iter__"):
        raise HandError(f"hands must be a list of hands, one per player (e.g. ['AhKh', 'QsQd']), "
                        f"got {hands!r}", field="player")
    # refuse too many players before reading any hand (a list of a million ranges)
    most = MAX_PLAYERS_STUD if g.stud else MAX_PLAYERS_BOARD
    hands = list(islice(hands, most + 1))
    if len(hands) > most:
        _check_player_count(g, len(hands))
    read = []
    for i, h in enumerate(hands):
        with about("player", i):
            read.append(_read_hand(g, h, i, ordering))
    return hands, read


def parse_spot(game, hands, board, dead, read: tuple[list, list] | None = None, *,
               ordering=None) -> Spot:
    """The spot of a request; ``read``: :func:`read_hands` of ``hands``, done already;
    ``ordering``: what percent terms in the hands cut (None: the shipped orderings)."""
    with about("game"):
        g = get_game(game)
    hands, read_ = read if read is not None else read_hands(g, hands, ordering=ordering)
    holes = [c for c, _ in read_]
    ranges = [r for _, r in read_]
    with about("board"):
        board_cards = parse_cards(board if board is not None else "", "board")
    with about("dead"):
        dead_cards = parse_cards(dead if dead is not None else "", "dead cards")
    _check_disjoint(holes, board_cards, dead_cards)
    if any(r is not None for r in ranges):
        return _parse_ranged_spot(g, hands, holes, ranges, board_cards, dead_cards)

    n = len(holes)
    _check_player_count(g, n)
    check_hole_counts(g, [len(h) for h in holes], [cards_str(h) for h in holes])
    _check_board(g, board_cards)
    known = {c for h in holes for c in h} | set(board_cards) | set(dead_cards)
    unseen = [c for c in range(52) if c not in known]
    spot = Spot(g, holes, board_cards, dead_cards, unseen, [cards_str(h) for h in holes])
    return plan_deal(spot, n, len(holes[0]), len(unseen))


def _check_disjoint(holes: list, board_cards: list[int], dead_cards: list[int]) -> None:
    """No card twice among the exact hands, the board and the dead cards; the error is
    about the later of the two places (the board in "player 1 and board")."""
    groups = {f"player {i + 1}": h for i, h in enumerate(holes) if h is not None}
    groups["board"] = board_cards
    groups["dead cards"] = dead_cards
    try:
        check_disjoint(groups)
    except CardError as error:
        seen: set[int] = set()
        for i, cards in enumerate([*holes, board_cards, dead_cards]):
            if cards is not None and (seen.intersection(cards) or len(set(cards)) < len(cards)):
                error.field, error.player = ("player", i) if i < len(holes) else \
                    ("board" if i == len(holes) else "dead", None)
                break
            seen.update(cards or ())
        raise


def _check_player_count(g: Game, n: int) -> None:
    most = MAX_PLAYERS_STUD if g.stud else MAX_PLAYERS_BOARD
    if n < 2:
        raise HandError(f"{g.name} equity needs at least 2 hands, got {n}", field="player")
    if n > most:
        raise HandError(f"{g.name} is played by at most {most} players, got more than {most} hands",
                        field="player")


def _check_board(g: Game, board_cards: list[int]) -> None:
    """The board fits the game: none in stud, at most ``g.board`` cards, the first
    card dealt face up where the game needs it."""
    if g.stud:
        if board_cards:
            raise HandError(f"{g.name} has no board, got board {cards_str(board_cards)!r} "
                            f"(folded players' cards go in dead)", field="board")
        return
    if len(board_cards) > g.board:
        raise HandError(f"{g.name} has at most {g.board} board cards, got {len(board_cards)} "
                        f"({cards_str(board_cards)})", field="board")
    if len(board_cards) < g.min_board:
        raise HandError(f"{g.name} needs at least {g.min_board} board card (the first card "
                        f"is dealt face up), got an empty board; for no board use omaha5"
                        + ("-hilo" if g.low else ""), field="board")


def plan_deal(spot: Spot, n: int, held: int, u: int) -> Spot:
    """How the missing cards are dealt to ``n`` players holding ``held`` cards each from ``u``
    unseen cards: stud players draw their own (the seventh card shared when the deck runs
    short), board games draw the missing board cards."""
    g = spot.game
    if g.stud:
        missing = 7 - held
        spot.shared = u < missing * n
        spot.mo = missing - 1 if spot.shared else missing
        if spot.mo * n + spot.shared > u:
            raise HandError(f"too many players for the deck: {n} {g.name} players need "
                            f"{spot.mo * n + spot.shared} more cards but only {u} are unseen",
                            field="player")
    else:
        spot.k = g.board - len(spot.board)
        if spot.k > u:
            raise HandError(f"too many players for the deck: {n} hands, {len(spot.board)} board "
                            f"and {len(spot.dead)} dead cards leave {u} cards for the "
                            f"{spot.k} missing board cards", field="player")
    return spot


def _parse_ranged_spot(g: Game, hands, holes, ranges, board_cards, dead_cards) -> Spot:
    """The spot of a request with at least one range (see :func:`parse_spot`)."""
    n = len(holes)
    _check_player_count(g, n)
    sizes = [len(h) if h is not None else r.cards for h, r in zip(holes, ranges)]
    texts = [cards_str(h) if h is not None else str(hands[i]) for i, h in enumerate(holes)]
    check_hole_counts(g, sizes, texts, [h is not None for h in holes])
    _check_board(g, board_cards)
    fixed = [c for h in holes if h is not None for c in h]
    known = set(fixed) | set(board_cards) | set(dead_cards)
    removed = []
    for i, r in enumerate(ranges):
        if r is None:
            removed.append(None)
            continue
        try:
            removed.append(holdings_excluding(r, sorted(known)))
        except RangeError:
            parts = [name for name, cards in (("the board", board_cards), ("the dead cards", dead_cards),
                                              ("the exact hands", fixed)) if cards]
            error = RangeError(f"player {i + 1}: no holding of range {r.text!r} is left: every "
                               f"one uses a card of {' or '.join(parts)} "
                               f"({cards_str(sorted(known))})", r.text, None)
            error.field, error.player = "player", i
            raise error from None
    unseen = [c for c in range(52) if c not in known]
    spot = Spot(g, holes, board_cards, dead_cards, unseen, texts, ranges=removed)
    u = spot.deck_size
    if u < 0:
        raise HandError(f"too many players for the deck: {n} hands need more cards than the "
                        f"{len(unseen)} left", field="player")
    return plan_deal(spot, n, sizes[0], u)
