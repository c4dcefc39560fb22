"""Plugin hooks: the game, and its RL codec, declared to cardcore as one record."""

from __future__ import annotations

from importlib.resources import files

from cardcore import CodecSpec, GameSpec, Plugin
from cardcore_highcard.options import PRESETS, HighcardOptions
from cardcore_highcard.rules import Highcard

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
            # rules.md: a player's summary (aim, deal, a turn, scoring, the end, the options of
            # each preset); rewrite it with the game. 'cardcore rules highcard' prints it.
            rules_text=files("cardcore_highcard").joinpath("rules.md").read_text(encoding="utf-8"),
        )
    ],
    codecs=[
        CodecSpec(
            game="highcard",
            # By reference: the encoding module (and NumPy) load when an RL environment asks.
            factory="cardcore_highcard.encoding:highcard_codec",
            description="the card table, the trick in order, rounds won and the round's leader",
        )
    ],
)
"""What the ``cardcore`` entry point names: cardcore reads the game and codec from it."""
