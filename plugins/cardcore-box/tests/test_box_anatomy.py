"""The plugin's anatomy and its actions: one-way imports, short modules, shared actions."""

from __future__ import annotations

import copy
import pickle

import pytest

from cardcore import DECK_52, CardAction, load_game, parse_card
from cardcore.testing import check_plugin_anatomy
from cardcore_box import Play, TurnUp


def test_the_plugin_keeps_the_anatomy() -> None:
    """Each module has its place, imports run one way, and each module is short."""
    check_plugin_anatomy("cardcore_box", rule_modules=("history", "rounds", "deal"))


def test_actions_are_shared_frozen_instances() -> None:
    """However an action is made, it is the one shared object: == is is."""
    game = load_game("box")
    nine = parse_card("9♠")
    assert Play(nine) is Play([nine]) is Play.of(nine.id) is Play.from_mask(1 << nine.id)
    assert isinstance(Play(nine), CardAction) and Play(nine).card == nine
    assert TurnUp() is TurnUp() and str(TurnUp()) == "turn up" and repr(TurnUp()) == "TurnUp()"
    for a in [*(Play(c) for c in DECK_52), TurnUp()]:
        assert pickle.loads(pickle.dumps(a)) is a and copy.deepcopy(a) is a and copy.copy(a) is a
        assert game.parse_action(str(a)) is a and hash(a) == hash(game.parse_action(str(a)))
    with pytest.raises(AttributeError):
        Play(nine).mask = 0
    with pytest.raises(AttributeError):
        TurnUp().card = nine  # type: ignore[attr-defined]
