"""Plugin hooks: Nyuri, its heuristic bot, RL codec and search hints, as one record."""

from __future__ import annotations

from importlib.resources import files

from cardcore import BotSpec, CodecSpec, GameSpec, Plugin, SearchHints
from cardcore_nyuri.bots import PLAYOUT_HORIZON, NyuriHeuristic, heuristic_policy, playout_value
from cardcore_nyuri.options import PRESETS, NyuriOptions
from cardcore_nyuri.rules import Nyuri

plugin = Plugin(
    games=[
        GameSpec(
            name="nyuri",
            title="Nyuri",
            factory=Nyuri,
            options_type=NyuriOptions,
            presets=PRESETS,
            min_players=2,
            max_players=4,
            description="lay a card; the others steal it with higher cards; most cards won wins",
            rules_version="1",
            # A player's summary, shipped as a file of the package (cardcore rules nyuri).
            rules_text=files("cardcore_nyuri").joinpath("rules.md").read_text(encoding="utf-8"),
        )
    ],
    bots=[
        BotSpec(
            name="nyuri-heuristic",
            factory=NyuriHeuristic,
            games=("nyuri",),
            description="a sensible beginner: lays hard-to-steal cards, steals cheaply and safely",
        )
    ],
    codecs=[
        CodecSpec(
            game="nyuri",
            # By reference: the encoding module (and NumPy) load when an RL environment asks.
            factory="cardcore_nyuri.encoding:nyuri_codec",
            description="the card table, the stock's bottom, counts, target value, last turn",
        )
    ],
    # Heuristic play-outs (by its state policy, which chooses as the bot does without
    # building observations) and a score-aware value: the win share, plus a little for
    # the card margin. After a few decisions the value plays the heuristic on to the end
    # itself, where it skips the rounds of a circle (two-player hand capture): the same
    # ends as play-outs to the end, and the same searches.
    search_hints=[
        SearchHints(
            game="nyuri",
            rollout="nyuri-heuristic",
            state_policy=heuristic_policy,
            value=playout_value,
            horizon=PLAYOUT_HORIZON,
        )
    ],
)
"""What the ``cardcore`` entry point names."""
