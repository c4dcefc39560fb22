"""`load_game` and `load_bot` are typed: a mypy --strict script gets `Game` and `Bot`, not `Any`.

mypy checks this module in `make typecheck`: `assert_type` fails there if either function
returns `Any` again. The test body also runs, so the calls are real.
"""

from __future__ import annotations

from typing import Any, assert_type

from cardcore import Bot, Game, PluginHost, load_bot, load_game


def test_load_game_and_load_bot_have_precise_types() -> None:
    """The static types are `Game[...]` and `Bot`; the run-time objects match them."""
    game = load_game("highcard")
    assert_type(game, Game[Any, Any, Any])
    bot = load_bot("random", game, seed=1)
    assert_type(bot, Bot)
    host = PluginHost()
    assert_type(host.load_game("highcard"), Game[Any, Any, Any])
    assert_type(host.load_bot("ismcts:iterations=5", game), Bot)
    state = game.initial_state(2, 0)
    obs = game.observe(state, 0)
    assert bot.act(obs) in obs.legal_actions
