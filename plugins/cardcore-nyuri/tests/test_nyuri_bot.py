"""The nyuri-heuristic bot: legal, reproducible, and clearly stronger than random."""

from __future__ import annotations

import math

import pytest

from cardcore import load_bot, load_game, play_match
from cardcore.bots import RandomBot
from cardcore.testing import check_bot
from cardcore_nyuri import Nyuri, NyuriHeuristic


def win_share(preset: str, n: int, games: int) -> tuple[float, float]:
    """The heuristic's mean win share against random bots, seats rotated; and its 95% CI."""
    g = load_game("nyuri", preset=preset)
    assert isinstance(g, Nyuri)
    shares = []
    for k in range(games):
        seat = k % n
        bots = [
            NyuriHeuristic(g, seed=k) if i == seat else RandomBot(g, seed=1000 * k + i)
            for i in range(n)
        ]
        record = play_match(g, bots, seed=k)
        assert record.outcome is not None and record.outcome.forfeit is None
        shares.append(float(record.outcome.shares[seat]))
    mean = sum(shares) / games
    sd = math.sqrt(sum((x - mean) ** 2 for x in shares) / (games - 1))
    return mean, 1.96 * sd / math.sqrt(games)


def test_heuristic_beats_random_in_three_player_games() -> None:
    """Over 200 three-player default games the heuristic wins far above its 1/3 share."""
    mean, half = win_share("default", 3, 200)
    assert mean - half > 1 / 3 + 0.15, (mean, half)


@pytest.mark.parametrize(("preset", "n"), [("default", 2), ("default", 4), ("pagat", 3)])
def test_heuristic_beats_random_elsewhere(preset: str, n: int) -> None:
    """Two- and four-player default games and the pagat preset: well above 1/N."""
    mean, half = win_share(preset, n, 60)
    assert mean - half > 1 / n, (preset, n, mean, half)


@pytest.mark.parametrize("preset", ["default", "pagat"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_heuristic_is_legal_and_reproducible(preset: str, n: int) -> None:
    """The registered bot only plays legal actions and plays the same for the same seed."""
    g = load_game("nyuri", preset=preset)
    check_bot("nyuri-heuristic", g, games=2, players=n)
    bot = load_bot("nyuri-heuristic", g, seed=3)
    assert isinstance(bot, NyuriHeuristic)


def test_hooks_module_declares_the_plugin() -> None:
    """The hooks module's Plugin record implements cardcore's hooks (checked by mypy too)."""
    from cardcore import CardcoreHooks, Plugin, PluginHost
    from cardcore_nyuri.hooks import plugin

    assert isinstance(plugin, Plugin)
    hooks: CardcoreHooks = plugin
    (spec,) = hooks.cardcore_register_games()
    assert (spec.name, spec.min_players, spec.max_players) == ("nyuri", 2, 4)
    assert set(spec.presets) == {"default", "pagat"}
    (bot,) = hooks.cardcore_register_bots()
    assert (bot.name, bot.games) == ("nyuri-heuristic", ("nyuri",))
    host = PluginHost()
    assert host.game_spec("nyuri").distribution == "cardcore-nyuri"
