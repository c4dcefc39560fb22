"""Noddy's actions and their text form: ``play 7♥``, ``show knave``, ``pass``.

``Play`` is a :class:`cardcore.CardAction`: one shared instance per card, so comparing
and hashing plays costs an identity check, and ``Play.of(card_id)`` is a table look-up.
``ShowKnave`` and ``Pass`` are :class:`cardcore.WordAction` classes: one instance each.
"""

from __future__ import annotations

from typing import Final, final

from cardcore import CardAction, WordAction, parse_card

__all__ = ["NoddyAction", "Pass", "Play", "ShowKnave", "parse_action"]


@final
class Play(CardAction, verb="play"):
    """Play one card of the hand onto the pile (ND-4.4): ``play 7♥``.

    ``Play(card)`` and ``Play.of(card_id)`` return the one shared play of that card.
    """

    __slots__ = ()


@final
class ShowKnave(WordAction, text="show knave"):
    """Show the jack of trumps in step 2 and score 1 at once (ND-4.2): ``show knave``."""

    __slots__ = ()


@final
class Pass(WordAction, text="pass"):
    """Do not claim the knave noddy in step 2 (ND-4.2): ``pass``."""

    __slots__ = ()


NoddyAction = Play | ShowKnave | Pass
"""Any Noddy action."""

SHOW_KNAVE: Final = ShowKnave()
"""The shared ``show knave`` action."""
PASS: Final = Pass()
"""The shared ``pass`` action."""


def parse_action(text: str) -> NoddyAction:
    """Parse ``play 7♥`` (or just ``7h``), ``show knave`` or ``pass``.

    Raises:
        ValueError: naming the input when it is not a Noddy action.
    """
    words = text.replace("_", " ").replace("-", " ").lower().split()
    if words == ["pass"]:
        return PASS
    if words in (["show", "knave"], ["knave"], ["show"]):
        return SHOW_KNAVE
    if words and words[0] == "play":
        words = words[1:]
    if len(words) == 1:
        try:
            return Play.of(parse_card(words[0]).id)
        except ValueError:
            pass
    raise ValueError(
        f"not a Noddy action: {text!r} (try 'play 7♥', 'play 10h', 'show knave' or 'pass')"
    )
