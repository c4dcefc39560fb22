"""Plugin hooks: Nestors, its heuristic bot, RL codec, search and layout hints, as one record."""

from __future__ import annotations

from importlib.resources import files

from cardcore import BotSpec, CodecSpec, GameSpec, LayoutHints, Plugin, SearchHints
from cardcore_nestors.bots import (
    NestorsHeuristic,
    hand_apply,
    hand_number,
    heuristic_policy,
    match_value,
)
from cardcore_nestors.options import PRESETS, NestorsOptions
from cardcore_nestors.rules import Nestors

plugin = Plugin(
    games=[
        GameSpec(
            name="nestors",
            title="Nestors",
            factory=Nestors,
            options_type=NestorsOptions,
            presets=PRESETS,
            min_players=4,
            max_players=4,
            description="4 players in partnerships bid for a trump rank and play 3-card tricks",
            rules_version="1",
            # A player's summary, shipped as a file of the package (cardcore rules nestors).
            rules_text=files("cardcore_nestors").joinpath("rules.md").read_text(encoding="utf-8"),
        )
    ],
    bots=[
        BotSpec(
            name="nestors-heuristic",
            factory=NestorsHeuristic,
            games=("nestors",),
            description="a sensible beginner: bids on trump-rank cards, wins tricks cheaply",
        )
    ],
    codecs=[
        CodecSpec(
            game="nestors",
            # By reference: the encoding module (and NumPy) load when an RL environment asks.
            factory="cardcore_nestors.encoding:nestors_codec",
            description="the card table, the trick in order, scores, auction and trick facts",
        )
    ],
    # Play-outs by the heuristic, which also plays the other seats inside the tree; they
    # stop at the end of the hand (without dealing the next) and are scored from the
    # match scores. 400 iterations measured stronger than 100 (0.80 against 0.575 of the
    # heuristic over 20 deals; benchmarks/strength.md), at about 0.1 s of CPU a decision
    # with the state policy.
    search_hints=[
        SearchHints(
            game="nestors",
            rollout="nestors-heuristic",
            state_policy=heuristic_policy,
            opponent_model=True,
            value=match_value,
            segment=hand_number,
            segment_apply=hand_apply,
            iterations=400,
            determinizations=10,
        )
    ],
    # At the web table: the trick in the centre, the cards still to come next to it, and
    # each side's tricks won fanned, so that the table fits one screen.
    layout_hints=[
        LayoutHints(
            game="nestors",
            centre=["trick"],
            order=["trick", "row", "hole", "stock"],
            stacked=["won"],
        )
    ],
)
"""What the ``cardcore`` entry point names."""
