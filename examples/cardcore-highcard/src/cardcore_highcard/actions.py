"""High card's one action, ``play 10♥``, and its text form."""

from __future__ import annotations

from typing import final

import attrs

from cardcore import Card, parse_card

__all__ = ["Play", "parse_action"]


@final
@attrs.frozen
class Play:
    """Play one card from the hand: ``play 10♥``."""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card}"


def parse_action(text: str) -> Play:
    """Parse ``play 10♥`` (or just ``10♥``).

    Raises:
        ValueError: the text is not a highcard action.
    """
    words = text.split()
    if words and words[0].lower() == "play":
        words = words[1:]
    if len(words) != 1:
        raise ValueError(f"not a highcard action: {text!r} (try 'play 10♥')")
    return Play(parse_card(words[0]))
