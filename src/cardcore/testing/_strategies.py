"""Hypothesis strategies for cards, options, seeds and reachable states."""

from __future__ import annotations

from typing import Any

import attrs
from hypothesis import strategies as st

from cardcore._cards import DECK_52, Card, mask_of
from cardcore._game import Game, GameSpec
from cardcore._options import option_infos

__all__ = ["card_sets", "cards", "options", "reachable_states", "seeds"]


def cards(deck: tuple[Card, ...] = DECK_52) -> st.SearchStrategy[Card]:
    """Single cards from a deck (52 cards by default; pass ``DECK_36`` for 36)."""
    return st.sampled_from(deck)


def card_sets(
    deck: tuple[Card, ...] = DECK_52, *, min_size: int = 0, max_size: int | None = None
) -> st.SearchStrategy[int]:
    """Card-set bitmasks of distinct cards from a deck."""
    return st.lists(st.sampled_from(deck), min_size=min_size, max_size=max_size, unique=True).map(
        mask_of
    )


def seeds() -> st.SearchStrategy[int]:
    """Game seeds."""
    return st.integers(0, 2**32 - 1)


def options(spec: GameSpec) -> st.SearchStrategy[Any]:
    """Options instances: each option drawn from its allowed values (integers: bounds, default)."""
    fields = {i.name: st.sampled_from(i.samples()) for i in option_infos(spec.options_type)}
    base = spec.presets["default"]
    return st.fixed_dictionaries(fields).map(lambda kw: attrs.evolve(base, **kw))


@st.composite
def reachable_states(
    draw: st.DrawFn, game: Game[Any, Any, Any], num_players: int, max_steps: int = 400
) -> Any:
    """States reached from a random seed by random legal play (shrinks towards the start)."""
    state = game.initial_state(num_players, draw(seeds()))
    steps = draw(st.integers(0, max_steps))
    for _ in range(steps):
        legal = game.legal_actions(state)
        if not legal:
            break
        state = game.apply(state, legal[draw(st.integers(0, len(legal) - 1))])
    return state
