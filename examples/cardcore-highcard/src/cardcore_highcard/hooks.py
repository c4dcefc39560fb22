"""Plugin hooks: the game, and its RL codec, declared to cardcore as one record."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardcore import CodecSpec, GameSpec, Plugin
from cardcore_highcard.options import PRESETS, HighcardOptions
from cardcore_highcard.rules import Highcard

if TYPE_CHECKING:
    from cardcore.adapters import TableCodec
    from cardcore_highcard.actions import Play


def codec(game: Highcard, num_players: int) -> TableCodec[Play]:
    """The RL codec; its module (and NumPy) load only when an RL environment asks."""
    from cardcore_highcard.encoding import highcard_codec

    return highcard_codec(game, num_players)


plugin = Plugin(
    games=[
        GameSpec(
            name="highcard",
            title="High card",
            factory=Highcard,
            options_type=HighcardOptions,
            presets=PRESETS,
            min_players=2,
            max_players=4,
            description="each round, the highest card wins; a minimal example plugin",
        )
    ],
    codecs=[
        CodecSpec(
            game="highcard",
            factory=codec,
            description="the card table, the trick in order, rounds won and the round's leader",
        )
    ],
)
"""What the ``cardcore`` entry point names: cardcore reads the game and codec from it."""
