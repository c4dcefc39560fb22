"""The words of human play: what a seat did, as far as the viewer may know it.

Nothing here looks at a game's full state while the game is on. A move is told from the
action's own text (``play 7♦`` becomes ``played 7♦``) with every card the viewer does not
know replaced by ``?``, where "knows" means what the viewer's own observation says
after the move (its :class:`~cardcore.TableView`). Only at game over, when everything is
public, are the hands read from the final state.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs

from cardcore._cards import Card, parse_card
from cardcore._table import CardTable, TableView, Visibility

__all__ = [
    "final_hands",
    "in_hand_order",
    "known_cards",
    "move_text",
    "own_cards",
    "past_tense",
    "without_legal",
]

_CARD: Final = re.compile(r"(?<![\w?])(?:10|[2-9TJQKA])[♣♦♥♠]")
"""A card as ``str(Card)`` writes it, inside an action's text."""

_IRREGULAR: Final = {
    "bid": "bid",
    "choose": "chose",
    "cut": "cut",
    "deal": "dealt",
    "draw": "drew",
    "give": "gave",
    "go": "went",
    "hold": "held",
    "keep": "kept",
    "lay": "laid",
    "lead": "led",
    "leave": "left",
    "put": "put",
    "say": "said",
    "steal": "offered to steal with",
    "take": "took",
    "throw": "threw",
    "trump": "named trump",
    "win": "won",
}
"""Verbs whose past tense is not made by adding -ed (``trump Q`` names the trump; a
steal is an offer that may yet lose to a better one)."""


def past_tense(text: str) -> str:
    """An action's text with its first word in the past tense: ``play 7♦`` -> ``played 7♦``.

    Args:
        text: the action as ``str(action)`` writes it, verb first.

    Returns:
        The text as a report of what was done; unchanged when it does not start with a
        lowercase word.
    """
    verb, sep, rest = text.partition(" ")
    if not verb.isalpha() or not verb.islower():
        return text
    if verb in _IRREGULAR:
        done = _IRREGULAR[verb]
    elif verb.endswith("e"):
        done = verb + "d"
    elif verb.endswith("y") and len(verb) > 1 and verb[-2] not in "aeiou":
        done = verb[:-1] + "ied"
    elif verb in ("stop", "drop", "swap", "flip", "skip", "tap", "chip", "nap"):
        done = verb + verb[-1] + "ed"
    else:
        done = verb + "ed"
    return done + sep + rest


def known_cards(view: TableView) -> int:
    """The mask of every card whose place the viewing seat knows.

    Args:
        view: the card part of one seat's observation.

    Returns:
        A card-set bitmask.
    """
    mask = 0
    for m in view.known:
        mask |= m
    for order in view.orders:
        for c in order:
            if c >= 0:
                mask |= 1 << c
    return mask


def own_cards(view: TableView, seat: int) -> int:
    """The mask of the cards in the seat's own zones that others do not see (its hand).

    Args:
        view: the card part of the seat's observation.
        seat: the seat.

    Returns:
        A card-set bitmask (0 for a game without such zones).
    """
    mask = 0
    for i, zone in enumerate(view.layout.zones):
        if zone.owner == seat and zone.visibility is not Visibility.PUBLIC:
            for card in view.cards(i):
                mask |= 1 << card.id
    return mask


def _cards_in(text: str) -> list[int]:
    out = []
    for m in _CARD.finditer(text):
        try:
            out.append(parse_card(m.group(0)).id)
        except ValueError:  # pragma: no cover - the pattern only matches cards
            continue
    return out


def in_hand_order(actions: Sequence[Any], rendered: str, own: int) -> list[Any]:
    """The legal actions, those made of one's own cards in the order the hand is drawn.

    The hand is the line of ``rendered`` that shows the most of the seat's own cards;
    actions whose cards are all in it are put in the order of those cards there (an
    action of several cards by its first, then its next ones), in the places such
    actions had, so that an action without cards (``pass``) stays where the game put it.

    Args:
        actions: the legal actions in the game's order.
        rendered: the seat's table as the game renders it.
        own: the seat's own cards (see :func:`own_cards`).

    Returns:
        The same actions, reordered.
    """
    best: list[int] = []
    for line in rendered.splitlines():
        mine = [c for c in _cards_in(line) if own >> c & 1]
        if len(set(mine)) > len(set(best)):
            best = mine
    where: dict[int, int] = {}
    for c in best:
        where.setdefault(c, len(where))
    slots: list[int] = []
    keyed: list[tuple[list[int], Any]] = []
    for i, action in enumerate(actions):
        cards = _cards_in(str(action))
        if cards and all(c in where for c in cards):
            slots.append(i)
            keyed.append(([where[c] for c in cards], action))
    out = list(actions)
    for i, (_, action) in zip(slots, sorted(keyed, key=lambda k: k[0]), strict=True):
        out[i] = action
    return out


def _hide(known: int) -> Callable[[re.Match[str]], str]:
    def sub(m: re.Match[str]) -> str:
        try:
            card = parse_card(m.group(0))
        except ValueError:  # pragma: no cover - the pattern only matches cards
            return "?"
        return m.group(0) if known >> card.id & 1 else "?"

    return sub


def move_text(action: str, known: int) -> str:
    """What a seat did, as the viewer may know it: ``played 7♦``, ``left ?``, ``bid 120``.

    Args:
        action: the action's text (``str(action)``).
        known: the cards the viewer knows the place of after the move (see
            :func:`known_cards`); any other card in the text shows as ``?``.

    Returns:
        The move in the past tense, hidden cards replaced.
    """
    return past_tense(_CARD.sub(_hide(known), action))


def without_legal(observation: Any) -> Any:
    """The observation with its legal actions left out, so that a rendering lists none.

    Human play lists the legal actions itself, numbered; the games' own renderings list
    them too. Observations that are not attrs classes with a ``legal_actions`` field are
    returned as they are.

    Args:
        observation: one seat's observation.

    Returns:
        An equal observation but for ``legal_actions == ()``.
    """
    cls = type(observation)
    if attrs.has(cls) and "legal_actions" in attrs.fields_dict(cls):
        try:
            return attrs.evolve(observation, legal_actions=())
        except (TypeError, ValueError):  # a validator that insists on its actions
            return observation
    return observation


def _zone_word(name: str, owner: int) -> str:
    """``hand2`` -> ``hand``: a seat's zone named without its seat number."""
    suffix = str(owner)
    return name[: -len(suffix)] if name.endswith(suffix) and len(name) > len(suffix) else name


def final_hands(game: Any, state: Any, num_players: int, label: Callable[[int], str]) -> list[str]:
    """Every seat's own cards at the end, which are public once the game is over.

    A seat's own cards are those of the zones it owns that are not face up (hands, and
    face-down piles such as boxes). They are read from the state's card table when it
    has one (``state.table``), else from each seat's own observation.

    Args:
        game: the rules.
        state: the final state (``game.current_player(state) is None``).
        num_players: the number of seats.
        label: how to name a seat (``seat 1 (random)``).

    Returns:
        One line per seat, e.g. ``seat 1 (random): hand 7♦ 8♣``; no lines at all when
        every such zone is empty (a trick game played out).
    """
    table = getattr(state, "table", None)
    lines: list[str] = []
    held = False
    for seat in range(num_players):
        parts: list[str] = []
        view: TableView | None = None
        if not isinstance(table, CardTable):
            view = game.observe(state, seat).table
        layout = table.layout if isinstance(table, CardTable) else view.layout  # type: ignore[union-attr]
        for i, zone in enumerate(layout.zones):
            if zone.owner != seat or zone.visibility is Visibility.PUBLIC:
                continue
            cards: Sequence[Card | None]
            if isinstance(table, CardTable):
                cards = table.cards(i)
            else:
                assert view is not None
                if zone.ordered:
                    cards = view.slots(i)
                else:
                    known = view.cards(i)
                    cards = [*known, *[None] * (view.size(i) - len(known))]
            text = " ".join("?" if c is None else str(c) for c in cards) or "-"
            parts.append(f"{_zone_word(zone.name, seat)} {text}")
        if parts:
            lines.append(f"{label(seat)}: " + "; ".join(parts))
        held = held or any(not p.endswith(" -") for p in parts)
    return lines if held else []
