"""Plugin hooks: Box, its heuristic bot, RL codec and search hints, as one record."""

from __future__ import annotations

from importlib.resources import files

from cardcore import BotSpec, CodecSpec, GameSpec, Plugin, SearchHints
from cardcore_box.bots import BoxHeuristic, survival_value
from cardcore_box.options import PRESETS, BoxOptions
from cardcore_box.rules import Box

plugin = Plugin(
    games=[
        GameSpec(
            name="box",
            title="Box",
            factory=Box,
            options_type=BoxOptions,
            presets=PRESETS,
            min_players=4,
            max_players=4,
            description="four players shed descending cards; the last player with a box wins",
            rules_version="1",
            # A player's summary, shipped as a file of the package (cardcore rules box).
            rules_text=files("cardcore_box").joinpath("rules.md").read_text(encoding="utf-8"),
        )
    ],
    bots=[
        BotSpec(
            name="box-heuristic",
            factory=BoxHeuristic,
            games=("box",),
            description="a sensible beginner at Box: keeps low cards, squeezes a weak next player",
        )
    ],
    codecs=[
        CodecSpec(
            game="box",
            # By reference: the encoding module (and NumPy) load when an RL environment asks.
            factory="cardcore_box.encoding:box_codec",
            description="the card table, the latest plays in order, the round, the last round",
        )
    ],
    # A score-aware value: the win share, plus a little for staying in longer.
    search_hints=[SearchHints(game="box", value=survival_value)],
)
"""What the ``cardcore`` entry point names."""
