"""A bot that searches with ISMCTS and plays its play-outs with a game's heuristic bot.

Random play-outs are cheap but say little in games where random play is absurd (bidding
games, for one); letting the game's own heuristic play the play-outs costs more per
iteration and usually gives better moves per iteration. Run::

    python examples/heuristic_rollout_bot.py

or use the same thing from the command line, no code needed::

    cardcore play noddy --bots ismcts:iterations=40:rollout=noddy-heuristic,random
"""

from __future__ import annotations

from typing import Any

from cardcore import load_bot, load_game, play_match
from cardcore.bots import ISMCTSBot


class HeuristicRolloutBot:
    """ISMCTS whose play-outs are played by ``<game>-heuristic``."""

    name = "heuristic-rollout"

    def __init__(self, game: Any, *, seed: int = 0, iterations: int = 40) -> None:
        self._search = ISMCTSBot(
            game, seed=seed, iterations=iterations, rollout=f"{game.name}-heuristic"
        )

    def act(self, observation: Any) -> Any:
        """Search from the observation; the play-outs use the game's heuristic."""
        return self._search.act(observation)


def main() -> None:
    """Play a few games of Noddy against random, seats alternating, and print the result."""
    game = load_game("noddy")
    won = 0.0
    games = 6
    for seed in range(games):
        seat = seed % 2
        bots: list[Any] = [load_bot("random", game, seed=seed) for _ in range(2)]
        bots[seat] = HeuristicRolloutBot(game, seed=seed, iterations=20)
        outcome = play_match(game, bots, seed=seed).outcome
        assert outcome is not None
        won += float(outcome.shares[seat])
    print(f"HeuristicRolloutBot won {won:g} of {games} games of Noddy against random")


if __name__ == "__main__":
    main()
