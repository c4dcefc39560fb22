"""A custom bot: plays its highest-ranked legal card, else the first legal action.

Run it against the built-in random bot::

    python examples/my_bot.py

or in an arena by import path::

    cardcore arena highcard --bots examples.my_bot:HighestCardBot,random --games 20
"""

from __future__ import annotations

from typing import Any

from cardcore import load_bot, load_game, play_match


class HighestCardBot:
    """Greedy: among legal actions that carry a card, pick the highest rank."""

    name = "highest-card"

    def __init__(self, game: object = None, *, seed: int = 0) -> None:
        self.decisions = 0  # memory across a match lives on the bot itself

    def start_match(self, game: object, seat: int, num_players: int) -> None:
        """Called once before the first decision (optional)."""
        self.decisions = 0

    def act(self, observation: Any) -> Any:
        """Return one of ``observation.legal_actions``."""
        self.decisions += 1
        legal = observation.legal_actions
        with_cards = [a for a in legal if hasattr(a, "card")]
        if with_cards:
            return max(with_cards, key=lambda a: a.card.rank)
        return legal[0]


def main() -> None:
    """Play 200 games of high card against random and print the win share."""
    game = load_game("highcard")
    total = 0.0
    for seed in range(200):
        seat = seed % 2  # rotate seats so neither seat's advantage counts
        bots: list[Any] = [load_bot("random", game, seed=seed), load_bot("random", game, seed=seed)]
        bots[seat] = HighestCardBot(game, seed=seed)
        outcome = play_match(game, bots, seed=seed).outcome
        assert outcome is not None
        total += float(outcome.shares[seat])
    print(f"HighestCardBot wins {total / 200:.0%} of 200 games against random")


if __name__ == "__main__":
    main()
