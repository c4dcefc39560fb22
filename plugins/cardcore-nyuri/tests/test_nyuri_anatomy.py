"""The plugin's anatomy and its actions: one-way imports, short modules, shared actions.

That the checker catches an import against the order is shown by the core's own tests.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from cardcore import (
    Card,
    CardAction,
    LazyActions,
    load_game,
    parse_card,
    parse_cards,
)
from cardcore.testing import check_plugin_anatomy
from cardcore_nyuri import Decline, Lay, Nyuri, Phase, Steal, Swap, TakeBack

RULE_MODULES = ("steals", "deal")
"""Nyuri's own rule modules, below ``rules``: which sets may steal (NY-4.4), the deal (NY-3)."""


def test_the_plugin_keeps_the_anatomy() -> None:
    """Every module has its place, imports run one way and each reads in one sitting."""
    check_plugin_anatomy("cardcore_nyuri", rule_modules=RULE_MODULES)


def test_actions_are_shared_instances() -> None:
    """However an action is made, it is the one shared object: == is is."""
    four = parse_cards("4♠ 4♦")
    assert Steal(four) is Steal(reversed(four)) is Steal.from_mask(four[0].bit | four[1].bit)
    assert isinstance(Steal(four), CardAction) and Steal.of(5) is Steal(Card.of(5))
    c, g = parse_card("5♦"), parse_card("9♦")
    assert Lay(c, g) is Lay(c, g) is Lay.of(c.id, g.id) and Lay(c) is Lay.of(c.id)
    assert Lay(g, c) is not Lay(c, g) and Lay(g, c).card == g, "a lay keeps its order"
    assert Lay(c, g).value == 14 and Lay(c).guard is None
    assert Decline() is Decline() and TakeBack() is TakeBack() and Swap() is Swap()
    game = load_game("nyuri")
    for a in (Steal(four), Lay(c, g), Lay(c), Decline(), TakeBack(), Swap()):
        assert pickle.loads(pickle.dumps(a)) is a and copy.deepcopy(a) is a and copy.copy(a) is a
        assert game.parse_action(str(a)) is a
    with pytest.raises(AttributeError, match="frozen"):
        Lay(c).card = g
    with pytest.raises(AttributeError, match="frozen"):
        Steal(four).mask = 0
    with pytest.raises(TypeError, match="card"):
        Lay("5♦")  # type: ignore[arg-type]


def test_offers_are_lazy_and_list_the_same_actions() -> None:
    """A large hand's offer decision has a lazy sequence of legal actions, equal to their
    full listing (a small hand, of at most 28 pairs and triples, has a tuple of them)."""
    game = load_game("nyuri", preset="pagat")
    assert isinstance(game, Nyuri)
    state = game.initial_state(2, 3)
    state = game.apply(state, game.legal_actions(state)[0])
    assert type(game.legal_actions(state)) is tuple  # seven cards
    rng = random.Random(3)
    while (
        state.phase is not Phase.OFFER
        or state.table.masks[1 + (state.current or 0)].bit_count() <= 8
    ):
        legal = game.legal_actions(state)
        state = game.apply(state, legal[rng.randrange(len(legal))])
    legal = game.legal_actions(state)
    assert isinstance(legal, LazyActions)
    listed = tuple(legal)
    assert legal == listed and len(legal) == len(listed) > 20
    assert listed[0] is Decline() and all(a in legal for a in listed)
    assert [legal[i] for i in range(len(legal))] == list(listed) and legal[-1] is listed[-1]
    hand = state.table.masks[1 + (state.current or 0)]
    outside = Steal.from_mask(((1 << 52) - 1) & ~hand & -(((1 << 52) - 1) & ~hand))
    assert outside not in legal and Lay(parse_card("2♣")) not in legal
    obs = game.observe(state, state.current or 0)
    assert obs.legal_actions == listed and obs == game.observation_from_json(obs.to_json())
