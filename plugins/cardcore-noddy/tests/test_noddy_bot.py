"""The ``noddy-heuristic`` bot: legal, reproducible, sensible, and stronger than random."""

from __future__ import annotations

import math

import attrs
import pytest

from cardcore import DECK_52, Card, load_bot, load_game, parse_card, parse_cards, play_match
from cardcore.bots import RandomBot
from cardcore.testing import check_bot
from cardcore_noddy import PRESETS, Noddy, NoddyHeuristic, Pass, Play, ShowKnave


def stacked(nd: str, d: str, up: str) -> list[Card]:
    a, b, u = parse_cards(nd), parse_cards(d), parse_card(up)
    top = [a[0], b[0], a[1], b[1], a[2], b[2], u]
    return top + [c for c in DECK_52 if c not in top]


def test_registered_and_checked_by_the_kit() -> None:
    """The bot is registered for noddy and passes the kit's bot checks."""
    g = load_game("noddy")
    assert isinstance(load_bot("noddy-heuristic", g, seed=1), NoddyHeuristic)
    check_bot("noddy-heuristic", "noddy", games=4)
    check_bot("noddy-heuristic", "noddy", options={}, games=2, seed=5)


def test_shows_the_knave() -> None:
    """Rule of thumb 1: always show the knave noddy."""
    g = Noddy()
    s = g.initial_state(2, 0, dealer=0, deck=stacked("J♥ 3♦ 9♥", "4♣ 8♦ Q♠", "6♥"))
    assert NoddyHeuristic(g).act(g.observe(s, 1)) == ShowKnave()


def test_takes_points_and_plays_out_alone() -> None:
    """Rules of thumb 3-4: make 15 when it can; alone, play out for the most points."""
    g = Noddy()
    s = g.initial_state(2, 0, dealer=0, deck=stacked("7♣ 8♦ 2♠", "8♠ 9♥ K♣", "4♥"))
    s = g.apply(g.apply(s, Pass()), Pass())
    s = g.apply(s, g.parse_action("play 7♣"))
    assert NoddyHeuristic(g).act(g.observe(s, 0)) == Play(parse_card("8♠"))
    s = g.apply(s, g.parse_action("play 8♠"))
    # ND holds 8♦ 2♠ at 15: the pair now (+2), then 2♠ to 25 (+2) and the last card.
    assert NoddyHeuristic(g).act(g.observe(s, 1)) == Play(parse_card("8♦"))


def _win_share(preset: str, games: int) -> tuple[float, float]:
    g = Noddy(PRESETS[preset])
    wins = 0.0
    for k in range(games):
        seat = k % 2
        bots: list[object] = [None, None]
        bots[seat] = NoddyHeuristic(g, seed=k)
        bots[1 - seat] = RandomBot(g, seed=10_000 + k)
        rec = play_match(g, bots, seed=k)
        assert rec.outcome is not None and rec.outcome.forfeit is None
        wins += float(rec.outcome.shares[seat])
    p = wins / games
    return p, 1.96 * math.sqrt(p * (1 - p) / games)


@pytest.mark.parametrize("preset", ["default", "historical"])
def test_beats_random(preset: str) -> None:
    """Over 400 fixed-seed games with seats rotated, the heuristic wins clearly more than
    half against ``random`` (the whole 95% interval is above one half).
    """
    share, half_width = _win_share(preset, 400)
    assert share - half_width > 0.55, (share, half_width)


def test_plays_any_configuration() -> None:
    """The bot reads the rules from the observation, so every option works."""
    g = Noddy(attrs.evolve(PRESETS["default"], twentyfive=False, last_card_at_31=True, target=61))
    rec = play_match(g, [NoddyHeuristic(g, seed=1), NoddyHeuristic(g, seed=2)], seed=3)
    assert rec.outcome is not None and rec.outcome.forfeit is None


def test_hooks_module_declares_the_plugin() -> None:
    """The hooks module's ``Plugin`` record is what the entry point names (mypy checks it
    against cardcore's hooks too)."""
    from importlib import metadata

    from cardcore import CardcoreHooks, Plugin
    from cardcore_noddy.hooks import plugin

    hooks: CardcoreHooks = plugin
    assert isinstance(plugin, Plugin)
    (spec,) = hooks.cardcore_register_games()
    assert (spec.name, spec.min_players, spec.max_players) == ("noddy", 2, 2)
    assert set(spec.presets) == set(PRESETS)
    assert [b.name for b in hooks.cardcore_register_bots()] == ["noddy-heuristic"]
    (hints,) = hooks.cardcore_register_search_hints()
    assert (hints.game, hints.rollout) == ("noddy", "noddy-heuristic")
    (ep,) = [e for e in metadata.entry_points(group="cardcore") if e.name == "noddy"]
    assert ep.value == "cardcore_noddy.hooks:plugin" and ep.load() is plugin
