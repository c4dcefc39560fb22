"""Plugin hooks: Noddy, its heuristic bot, RL codec and search hints, as one record."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardcore import BotSpec, CodecSpec, GameSpec, Plugin, SearchHints
from cardcore_noddy.bots import NoddyHeuristic, hand_number, race_value
from cardcore_noddy.options import PRESETS, NoddyOptions
from cardcore_noddy.rules import Noddy

if TYPE_CHECKING:
    from cardcore.adapters import TableCodec
    from cardcore_noddy.actions import NoddyAction


def codec(game: Noddy, num_players: int) -> TableCodec[NoddyAction]:
    """The RL codec; its module (and NumPy) load only when an RL environment asks."""
    from cardcore_noddy.encoding import noddy_codec

    return noddy_codec(game, num_players)


plugin = Plugin(
    games=[
        GameSpec(
            name="noddy",
            title="Noddy",
            factory=Noddy,
            options_type=NoddyOptions,
            presets=PRESETS,
            min_players=2,
            max_players=2,
            description="a 17th-century race to 31 for two: shows, fifteens and the knave noddy",
            rules_version="1",
        )
    ],
    bots=[
        BotSpec(
            name="noddy-heuristic",
            factory=NoddyHeuristic,
            games=("noddy",),
            description="a sensible beginner: shows the knave, takes points, avoids giving 15 or 31",
        )
    ],
    codecs=[
        CodecSpec(
            game="noddy",
            factory=codec,
            description="the card table, the pile in order, scores, total and this hand's shows",
        )
    ],
    # Heuristic play-outs that stop at the end of the hand, scored from the race's scores.
    search_hints=[
        SearchHints(game="noddy", rollout="noddy-heuristic", value=race_value, segment=hand_number)
    ],
)
"""What the ``cardcore`` entry point names."""
