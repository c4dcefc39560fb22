"""Golden playthroughs: a seeded game with every observation rendered, kept as text."""

from __future__ import annotations

import difflib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardcore._game import Game
from cardcore._table import SPECTATOR
from cardcore.bots._random import RandomBot

__all__ = ["assert_golden", "playthrough"]

REGEN_ENV = "CARDCORE_REGEN_GOLDEN"


def playthrough(
    game: Game[Any, Any, Any],
    num_players: int,
    seed: int,
    *,
    bots: Sequence[Any] | None = None,
    dealer: int | None = None,
) -> str:
    """Play a seeded game and render every seat's observation (and the onlooker's) at every step.

    Args:
        game: the rules.
        num_players: seats.
        seed: the game's seed (random bots are seeded from it too).
        bots: one bot per seat (default: seeded random bots).
        dealer: optional dealer seat.

    Returns:
        The whole playthrough as text.
    """
    players = (
        list(bots)
        if bots is not None
        else [RandomBot(game, seed=seed * 31 + i) for i in range(num_players)]
    )
    state = game.initial_state(num_players, seed, dealer=dealer)
    out = [f"# {game.name}, {num_players} players, seed {seed}"]
    step = 0
    while True:
        out.append(f"\n## step {step}")
        for seat in [SPECTATOR, *range(num_players)]:
            who = "onlooker" if seat == SPECTATOR else f"seat {seat}"
            out.append(f"### {who}")
            out.append(game.render(game.observe(state, seat)))
        cur = game.current_player(state)
        if cur is None:
            break
        action = players[cur].act(game.observe(state, cur))
        out.append(f"### seat {cur} plays: {action}")
        state = game.apply(state, action)
        step += 1
    outcome = game.outcome(state)
    assert outcome is not None
    out.append(f"\n## outcome\n{outcome.to_json()}")
    return "\n".join(out) + "\n"


def assert_golden(path: str | Path, text: str) -> None:
    """Compare ``text`` with the stored file; rewrite it when ``CARDCORE_REGEN_GOLDEN=1``.

    Raises:
        AssertionError: with a unified diff when they differ (or the file is missing).
    """
    p = Path(path)
    if os.environ.get(REGEN_ENV) == "1":
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
        return
    if not p.exists():
        raise AssertionError(f"golden file {p} is missing; run with {REGEN_ENV}=1 to create it")
    old = p.read_text(encoding="utf-8")
    if old != text:
        diff = "".join(
            list(
                difflib.unified_diff(
                    old.splitlines(keepends=True),
                    text.splitlines(keepends=True),
                    "stored",
                    "now",
                )
            )[:80]
        )
        raise AssertionError(
            f"{p} differs from this playthrough ({REGEN_ENV}=1 rewrites it):\n{diff}"
        )
