"""The RL codec of highcard: every action numbered, every observation as floats.

The action index (52 actions, the same for every option and player count): ``play`` of
each card, in card order. The observation: the card table as the seat knows it (stock,
hands, the trick, the finished rounds), the trick's cards in play order, the seat and the
seat to move, then the public facts of ``highcard_facts``.
"""

from __future__ import annotations

from cardcore import DECK_52
from cardcore.adapters import ActionIndex, Slots, TableCodec, TableEncoding, one_hot, scaled
from cardcore_highcard.actions import Play
from cardcore_highcard.rules import Highcard
from cardcore_highcard.state import HighcardObservation

__all__ = ["highcard_codec", "highcard_facts"]


def highcard_facts(obs: HighcardObservation, hand_size: int) -> list[float]:
    """The public numbers of an observation, each in ``[0, 1]`` (``2 * num_players`` of them).

    Args:
        obs: the observation.
        hand_size: the cards dealt to each player (rounds won are scaled by it).

    Returns:
        The rounds won by each seat, then the round's leader one-hot.
    """
    return [scaled(w, hand_size) for w in obs.wins] + one_hot(obs.leader, obs.num_players)


def highcard_codec(game: Highcard, num_players: int) -> TableCodec[Play]:
    """The highcard codec (registered by the plugin's hooks)."""
    hand_size = game.options.hand_size
    encoding = TableEncoding.for_game(
        game,
        num_players,
        facts=lambda obs: highcard_facts(obs, hand_size),
        facts_size=2 * num_players,
        slots=[Slots("trick", num_players)],
    )
    return TableCodec(encoding, ActionIndex(Play(card) for card in DECK_52))
