"""Decks for leak tests: two deals that differ only in cards one seat cannot see.

Imported by the tests as ``tests.serve.decks`` (the repository root is on ``sys.path``).
"""

from __future__ import annotations

from typing import Any

from cardcore import Card, cards_of, load_game, parse_card

GAMES = {"box": 4, "nestors": 4, "noddy": 2, "nyuri": 3}
"""The four games and a player count for each."""


def swap_hidden(game_id: str, players: int, seed: int) -> tuple[list[str], list[str], int]:
    """Two decks whose deals differ only in two cards hidden from the first mover.

    The agent sits at the first mover's seat; the two cards, in two different zones that
    the agent cannot see into (other hands, the stock), change places.
    """
    game = load_game(game_id)
    deck = [str(c) for c in deck_of(game, game.initial_state(players, seed))]
    stacked = game.initial_state(players, seed, deck=[parse_card(c) for c in deck])
    seat = game.current_player(stacked)
    assert seat is not None
    table = stacked.table
    view = game.observe(stacked, seat).table
    known = 0
    for m in view.known:
        known |= m
    by_zone: dict[int, str] = {}
    for c in reversed(deck):
        card = parse_card(c)
        zone = table.where(card.id)
        if table.layout.zones[zone].owner != seat and not (known >> card.id) & 1:
            by_zone.setdefault(zone, c)
    assert len(by_zone) >= 2, "no two zones hold cards hidden from the first mover"
    x, y = list(by_zone.values())[:2]
    other = [y if c == x else x if c == y else c for c in deck]
    assert (
        game.current_player(game.initial_state(players, seed, deck=[parse_card(c) for c in other]))
        == seat
    )
    return deck, other, seat


def deck_of(game: Any, state: Any) -> list[Card]:
    """Every card of the game's deck, in a fixed order (the stacked deck to deal from)."""
    return list(cards_of(state.table.layout.deck))
