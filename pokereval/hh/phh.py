"""PHH (the pokerkit project's open hand-history standard) -> :class:`~pokereval.hh.model.Hand`.

PHH files are read with pokerkit's own parser (``pokerkit.HandHistory``, the optional
``hh`` extra: ``pip install pokerkit``), never a hand-written copy of it: a ``.phh``
file holds one hand, a ``.phhs`` file many, each under a ``[name]`` table header.  A
``.phhs`` file is read one hand at a time (a hand is the lines from its header to the
next), so a long file is never loaded whole.

pokerkit plays each hand through its own state machine; its operations (antes, blinds,
bring-ins, deals, bets, shows, the chips pushed) become the hand's actions.  Players
are the PHH order (the first to the button's left; in stud the seating order), seats
the ``seats`` field or 1, 2, ...; the button (board games) is the last player.
``collected``: each player's payoff plus what they put in (a bet nobody matched is
returned as an ``"uncalled"`` line, as PokerStars writes it).  PHH states no rake
(pokerkit's default takes none), so the rake is 0.

Variants read: ``FO/8`` (Omaha Hi/Lo limit), ``F7S/8`` (Stud Hi/Lo), ``FR`` (Razz),
``F7S`` (Stud), ``NT``/``FT`` (Hold'em no limit/limit), ``PO`` (Omaha pot limit).  The
others (short deck, draw games) are refused with the reason.
"""
from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from decimal import Decimal

from ..errors import install_hint, one_line
from .model import STUD_STREETS, UNKNOWN, Action, Hand, HandHistoryError, Refused, Seat
from .stream import MAX_BLOCK_LINES, open_source

__all__ = ["read_phh", "parse_phh", "VARIANTS", "looks_like_phh", "PHH_SUFFIXES"]

#: PHH variant -> (pokereval game, limit)
VARIANTS = {"FO/8": ("omaha-hilo", "limit"), "F7S/8": ("stud-hilo", "limit"),
            "FR": ("razz", "limit"), "F7S": ("stud", "limit"), "NT": ("holdem", "no limit"),
            "FT": ("holdem", "limit"), "PO": ("omaha", "pot limit")}
#: variants pokerkit knows that pokereval does not play
OTHER_VARIANTS = {"NS": "short-deck Hold'em", "N2L1D": "2-7 single draw",
                  "F2L3D": "2-7 triple draw", "FB": "Badugi"}
PHH_SUFFIXES = (".phh", ".phhs")
#: a TOML table header on its own line: "[3]", ["hand 12"], [a.b]
_HEADER = re.compile(r"^\[\s*([^\[\]]+?)\s*\]\s*(?:#.*)?$")
_KEY = re.compile(r"^[A-Za-z_][\w-]*\s*=")
_MAX_CHARS = 2_000_000


def looks_like_phh(first_line: str) -> bool:
    """Whether the first non-blank line of a file starts a PHH file (a TOML key or header)."""
    text = first_line.strip().lstrip("\ufeff")
    return bool(_KEY.match(text) or (_HEADER.match(text) and "#" not in text.split("]")[0]))


def _pokerkit():
    try:
        import pokerkit
    except ImportError:
        raise HandHistoryError("reading PHH files needs pokerkit: "
                               + install_hint("hh")) from None
    return pokerkit


def read_phh(source, encoding: str = "utf-8") -> Iterator[Hand | Refused]:
    """Every hand of a ``.phh`` / ``.phhs`` file (a path, a file or lines), in order."""
    pk = _pokerkit()
    lines, name, close = open_source(source, encoding)
    try:
        for start, title, text in _blocks(lines):
            if text is None:
                yield Refused(f"a line is not {encoding} text", title, start, name)
                continue
            if title is None and not text.strip():
                continue
            try:
                hh = _load(pk, title, text)
                yield parse_phh(hh, hand_id=title or str(getattr(hh, "hand", "") or 1),
                                source=name, line=start)
            except HandHistoryError as exc:
                yield Refused(one_line(exc), title, start, name)
            except Exception as exc:  # pokerkit's parser and state machine: any error refuses
                yield Refused(one_line(f"pokerkit: {type(exc).__name__}: {exc}"), title, start,
                              name)
    finally:
        if close is not None:
            close()


def _blocks(lines) -> Iterator[tuple[int, str | None, str | None]]:
    """(first line, table name or None, the hand's TOML text or None when undecodable)."""
    start, title, buf, bad, count = 1, None, [], False, 0
    for number, raw in enumerate(lines, 1):
        if raw is None:
            bad = True
            continue
        line = raw.rstrip("\r\n").lstrip("\ufeff")
        m = _HEADER.match(line.strip())
        if m and not (title is not None and m.group(1).startswith(title + ".")):
            if buf or title is not None:
                yield start, title, None if bad else "\n".join(buf)
            start, title, buf, bad, count = number, m.group(1).strip("'\""), [], False, 0
            continue
        count += len(line)
        if len(buf) >= MAX_BLOCK_LINES or count > _MAX_CHARS:
            bad = bad or len(buf) >= MAX_BLOCK_LINES
            continue
        buf.append(line)
    if buf or title is not None:
        yield start, title, None if bad else "\n".join(buf)


def _load(pk, title: str | None, text: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns about fields it does not know
        return pk.HandHistory.loads(text)


def _scale(hh) -> int:
    """Units per chip: 10 ** (decimal places of the finest amount in the hand)."""
    values = list(hh.antes) + list(hh.blinds_or_straddles or []) + list(hh.starting_stacks)
    values += [v for v in (hh.bring_in, hh.small_bet, hh.big_bet, hh.min_bet) if v is not None]
    for action in hh.actions:
        parts = action.split("#")[0].split()
        if len(parts) >= 3 and parts[1] == "cbr":
            values.append(Decimal(parts[2].replace(",", "")))
    places = 0
    for v in values:
        if isinstance(v, Decimal) and v.is_finite():
            places = max(places, -v.normalize().as_tuple().exponent)
    if places > 6:
        raise HandHistoryError(f"amounts finer than 6 decimal places ({places})")
    return 10 ** places


def parse_phh(hh, *, hand_id: str = "1", source: str = "", line: int = 0) -> Hand:
    """A pokerkit ``HandHistory`` -> :class:`Hand` (raises HandHistoryError if refused)."""
    pk = _pokerkit()
    variant = hh.variant
    if variant not in VARIANTS:
        what = OTHER_VARIANTS.get(variant, "a variant pokerkit's PHH reader knows")
        raise HandHistoryError(f"PHH variant {variant!r} ({what}) is not a game pokereval plays")
    game, limit = VARIANTS[variant]
    stud = game in ("stud", "stud-hilo", "razz")
    scale = _scale(hh)

    def units(value) -> int:
        v = Decimal(str(value)) * scale
        if v != v.to_integral_value():
            raise HandHistoryError(f"amount {value} is finer than the hand's unit")
        return int(v)

    n = len(hh.starting_stacks)
    if n < 2:
        raise HandHistoryError(f"{n} player(s): a hand needs two or more")
    seat_numbers = list(hh.seats) if hh.seats else list(range(1, n + 1))
    names = list(hh.players) if hh.players else [f"p{i + 1}" for i in range(n)]
    if len(seat_numbers) != n or len(names) != n:
        raise HandHistoryError(f"{len(names)} players and {len(seat_numbers)} seats listed for "
                               f"{n} starting stacks")
    if len(set(seat_numbers)) != n or len(set(names)) != n:
        raise HandHistoryError("a seat or a player is listed twice")
    seats = tuple(Seat(int(seat_numbers[i]), str(names[i]), units(hh.starting_stacks[i]))
                  for i in range(n))
    state = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit's advice (a card "not recommended")
        for state in hh:  # pokerkit's own replay of the actions
            pass
    if state is None or state.status:
        raise HandHistoryError("the actions end before the hand does (truncated?)")
    ops = state.operations
    st = pk.state
    for op in ops:
        if isinstance(op, st.RunoutCountSelection) and op.runout_count not in (None, 1):
            raise HandHistoryError("run more than once: not read from PHH yet")
        if isinstance(op, st.StandingPatOrDiscarding):
            raise HandHistoryError("draw games are not played by pokereval")
    seat_of = [s.seat for s in seats]
    street = "3rd" if stud else "preflop"
    actions: list[Action] = []
    commit = [0] * n  # this street's bets (blinds, bring-in, bets)
    put_in = [0] * n
    cards: dict[int, list[str]] = {}
    dealt_known: set[int] = set()
    board: list[str] = []
    blind_kinds = _blind_kinds(hh, n)
    folded: set[int] = set()

    def add(i, kind, amount=0, to=0, shown=()):
        put_in[i] += amount if kind in ("ante", "small blind", "big blind", "post", "bring-in",
                                        "bet", "call", "raise") else 0
        all_in = amount > 0 and put_in[i] >= seats[i].stack
        actions.append(Action(street, seat_of[i], kind, amount, to, all_in, tuple(shown)))

    def end_street():
        top = sorted(range(n), key=lambda i: commit[i], reverse=True)
        if commit[top[0]] > commit[top[1]]:
            back = commit[top[0]] - commit[top[1]]
            put_in[top[0]] -= back
            actions.append(Action(street, seat_of[top[0]], "uncalled", back))
        commit[:] = [0] * n

    for op in ops:
        if isinstance(op, st.AntePosting):
            add(op.player_index, "ante", units(op.amount))
        elif isinstance(op, st.BlindOrStraddlePosting):
            amount = units(op.amount)
            commit[op.player_index] += amount
            add(op.player_index, blind_kinds.get(op.player_index, "post"), amount)
        elif isinstance(op, st.BringInPosting):
            amount = units(op.amount)
            commit[op.player_index] += amount
            add(op.player_index, "bring-in", amount)
        elif isinstance(op, st.CheckingOrCalling):
            amount = units(op.amount)
            commit[op.player_index] += amount
            add(op.player_index, "call" if amount else "check", amount)
        elif isinstance(op, st.CompletionBettingOrRaisingTo):
            to = units(op.amount)
            i = op.player_index
            kind = "raise" if max(commit) > 0 else "bet"
            amount = to - commit[i]
            commit[i] = to
            add(i, kind, amount, to if kind == "raise" else 0)
        elif isinstance(op, st.Folding):
            folded.add(op.player_index)
            add(op.player_index, "fold")
        elif isinstance(op, st.BetCollection):
            end_street()
        elif isinstance(op, st.HoleDealing):
            got = [repr(c) if c else UNKNOWN for c in op.cards]
            have = cards.setdefault(op.player_index, [])
            if stud and have:
                end_street()
                street = STUD_STREETS[min(len(have) + len(got), 7) - 3]
            have += got
            if any(c != UNKNOWN for c in got) and not stud:
                dealt_known.add(op.player_index)
            if stud and len(have) == 3 and UNKNOWN not in have[:2]:
                dealt_known.add(op.player_index)
        elif isinstance(op, st.BoardDealing):
            if stud:
                raise HandHistoryError("a stud hand with a shared card: not read from PHH yet")
            end_street()
            board += [repr(c) if c else UNKNOWN for c in op.cards]
            street = {3: "flop", 4: "turn", 5: "river"}.get(len(board), street)
        elif isinstance(op, st.HoleCardsShowingOrMucking):
            shown = [repr(c) if c else UNKNOWN for c in op.hole_cards]
            if not shown:
                actions.append(Action("showdown", seat_of[op.player_index], "muck"))
            elif any(c != UNKNOWN for c in shown):
                have = cards.setdefault(op.player_index, [])
                merged = [s if s != UNKNOWN else (have[k] if k < len(have) else UNKNOWN)
                          for k, s in enumerate(shown)] + have[len(shown):]
                for a, b in zip(have, merged):
                    if UNKNOWN not in (a, b) and a != b:
                        raise HandHistoryError(f"{names[op.player_index]}'s cards shown as "
                                               f"{''.join(shown)}, dealt {''.join(have)}")
                cards[op.player_index] = merged
                actions.append(Action("showdown", seat_of[op.player_index], "show",
                                      cards=tuple(shown)))
    end_street()
    if UNKNOWN in board:
        raise HandHistoryError("a board card is not known")
    payoffs = [units(p) for p in state.payoffs]
    collected = {seat_of[i]: payoffs[i] + put_in[i] for i in range(n) if payoffs[i] + put_in[i]}
    if any(v < 0 for v in collected.values()):
        raise HandHistoryError("pokerkit's payoffs and the actions disagree")
    for i in range(n):
        if payoffs[i] + put_in[i] > 0:
            actions.append(Action("showdown", seat_of[i], "collect", payoffs[i] + put_in[i],
                                  pot="pot"))
    known = {seat_of[i]: tuple(c) for i, c in sorted(cards.items())
             if any(x != UNKNOWN for x in c) and (stud or UNKNOWN not in c)}
    hero = seat_of[next(iter(dealt_known))] if len(dealt_known) == 1 else None
    stakes = (_stakes(hh, units, stud, limit))
    started = "-".join(f"{v:02d}" if isinstance(v, int) else str(v)
                       for v in (hh.year, hh.month, hh.day) if v is not None)
    if hh.time is not None:
        started = f"{started} {hh.time}".strip()
    unit = Decimal(1) / scale
    return Hand("PHH", str(hand_id), game, variant, limit, stakes, str(hh.currency or ""),
                unit, seats, tuple(actions), known, (tuple(board),), collected,
                sum(put_in), 0, None if stud else seat_of[-1], None, hero, None,
                str(hh.table or ""), hh.seat_count, started, source, line)


def _blind_kinds(hh, n: int) -> dict[int, str]:
    """Player index -> "small blind" / "big blind" / "post" (pokerkit: heads-up, the
    first player posts the big blind and the button the small)."""
    blinds = list(hh.blinds_or_straddles or [])
    if n == 2 and len(blinds) >= 2:
        return {0: "big blind", 1: "small blind"}
    out = {}
    for i, v in enumerate(blinds[:n]):
        if v:
            out[i] = "small blind" if i == 0 else "big blind" if i == 1 else "post"
    return out


def _stakes(hh, units, stud: bool, limit: str) -> tuple[int, int]:
    if stud or limit == "limit":
        return units(hh.small_bet), units(hh.big_bet)
    blinds = [b for b in (hh.blinds_or_straddles or []) if b]
    if len(blinds) >= 2:
        return units(blinds[0]), units(blinds[1])
    return (0, units(blinds[0])) if blinds else (0, units(hh.min_bet or 0))
