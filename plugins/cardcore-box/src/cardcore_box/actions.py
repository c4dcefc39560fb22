"""Box's actions and their text form: ``play 9♠`` and ``turn up`` (BX-4.3).

Both are shared instances, so equality is identity and hashing is the object's own:
``Play`` is a :class:`cardcore.CardAction` (one instance per card, text and parsing from
the core), ``TurnUp`` a :class:`cardcore.WordAction` (a single instance).
"""

from __future__ import annotations

from typing import Final, final

from cardcore import CardAction, WordAction

__all__ = ["BoxAction", "Play", "TurnUp", "parse_box_action"]


@final
class Play(CardAction, verb="play"):
    """Play a card from the hand: ``play 9♠`` (BX-4.3, BX-4.4).

    ``Play(card)`` and ``Play.of(card_id)`` give the one shared instance for that card;
    its ``card`` is the hand card played.
    """

    __slots__ = ()


@final
class TurnUp(WordAction, text="turn up"):
    """Turn up a random card of one's own box: ``turn up`` (BX-4.3, BX-4.6).

    A :class:`cardcore.WordAction`: there is one instance, ``TurnUp() is TurnUp()``.
    """

    __slots__ = ()


_TURN_UP: Final = TurnUp()

BoxAction = Play | TurnUp
"""Any Box action."""


def parse_box_action(text: str) -> BoxAction:
    """Read ``play 9♠`` (or ``play 9s``, or just ``9♠``) or ``turn up``.

    Case does not matter; ``turn-up``, ``turnup`` and ``turn`` also turn up a box card.

    Raises:
        ValueError: naming the text when it is not a Box action.
    """
    if isinstance(text, str):
        words = text.lower().replace("-", " ").split()
        if words in (["turn", "up"], ["turnup"], ["turn"]):
            return _TURN_UP
        if words and words[0] != "play":
            words.insert(0, "play")
        try:
            return Play.parse(" ".join(words))
        except ValueError:
            pass
    raise ValueError(f"not a Box action: {text!r} (try 'play 9♠' or 'turn up')")
