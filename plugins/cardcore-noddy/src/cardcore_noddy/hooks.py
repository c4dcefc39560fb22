"""Plugin hooks: Noddy, its heuristic bot, RL codec and search hints, as one record."""

from __future__ import annotations

from importlib.resources import files

from cardcore import BotSpec, CodecSpec, GameSpec, Plugin, SearchHints
from cardcore_noddy.bots import NoddyHeuristic, hand_number, race_value
from cardcore_noddy.options import PRESETS, NoddyOptions
from cardcore_noddy.rules import Noddy

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
            # A player's summary, shipped as a file of the package (cardcore rules noddy).
            rules_text=files("cardcore_noddy").joinpath("rules.md").read_text(encoding="utf-8"),
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
            # By reference: the encoding module (and NumPy) load when an RL environment asks.
            factory="cardcore_noddy.encoding:noddy_codec",
            description="the card table, the pile in order, scores, total and this hand's shows",
        )
    ],
    # Heuristic play-outs that stop at the end of the hand, scored from the race's scores.
    search_hints=[
        SearchHints(game="noddy", rollout="noddy-heuristic", value=race_value, segment=hand_number)
    ],
)
"""What the ``cardcore`` entry point names."""
