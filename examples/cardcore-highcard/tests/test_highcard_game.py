"""Tests for the highcard game: its rules, and the cardcore conformance kit."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardcore import IllegalActionError, load_game, parse_cards
from cardcore.adapters import check_codec
from cardcore.testing import check_codec_hook, check_game, check_plugin_anatomy, check_rules


def test_highest_card_wins_the_round() -> None:
    """The highest rank wins a round and leads the next."""
    game = load_game("highcard", hand_size=1)
    # A stacked deck, top card first: seat 1 (the dealer's left) gets 9♥, seat 0 gets K♠.
    deck = parse_cards("9♥ K♠") + tuple(
        c for c in __import__("cardcore").DECK_52 if str(c) not in ("9♥", "K♠")
    )
    state = game.initial_state(2, 0, dealer=0, deck=deck)
    assert game.current_player(state) == 1
    state = game.apply(state, game.parse_action("play 9♥"))
    state = game.apply(state, game.parse_action("play K♠"))
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0,)


def test_a_card_not_in_hand_is_refused() -> None:
    """Playing a card one does not hold raises IllegalActionError; the state is unchanged."""
    game = load_game("highcard")
    state = game.initial_state(2, 1)
    seat = game.current_player(state)
    assert seat is not None
    held = {a.card for a in game.legal_actions(state)}
    other = next(c for c in __import__("cardcore").DECK_52 if c not in held)
    with pytest.raises(IllegalActionError, match="is not in seat"):
        game.apply(state, game.parse_action(f"play {other}"))
    assert game.legal_actions(state) == tuple(
        sorted(game.legal_actions(state), key=lambda a: a.card)
    )


def test_conformance(tmp_path: Path) -> None:
    """The cardcore conformance kit passes under every preset and option change."""
    check_game("highcard", games=4, failure_dir=tmp_path)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_codec(players: int) -> None:
    """The RL codec numbers every action once and encodes only what the seat may know."""
    report = check_codec("highcard", players, games=3)
    assert report.num_actions == 52


def test_the_rules_text_names_every_preset_and_option() -> None:
    """The hooks ship a player's summary of the rules that names every preset and option."""
    check_rules("highcard")


def test_the_hooks_declare_the_codec_by_reference() -> None:
    """The hooks declare the codec by reference: listing the games imports no NumPy."""
    check_codec_hook("highcard")


def test_anatomy() -> None:
    """Modules import one way (hooks, encoding and render, rules, state, actions, options)."""
    check_plugin_anatomy("cardcore_highcard")
