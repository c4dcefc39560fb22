"""Test support: a codec for the highcard example game, registered from code.

The highcard example ships the same codec through its hooks; the adapter tests register
this copy in registries of their own, isolated from the installed plugins. Tests import it as
``tests.adapters.rl_highcard`` after putting the repository root on ``sys.path``.
"""

from __future__ import annotations

from typing import Any

from cardcore import DECK_52, Game
from cardcore.adapters import (
    ActionIndex,
    CodecRegistry,
    CodecSpec,
    Slots,
    TableCodec,
    TableEncoding,
    one_hot,
    scaled,
)
from cardcore_highcard import Play


def highcard_codec(game: Game[Any, Any, Any], num_players: int) -> TableCodec[Play]:
    """Rounds won and the round's leader as facts; the trick's order as slots."""
    hand = game.options.hand_size

    def facts(obs: Any) -> list[float]:
        return [scaled(w, hand) for w in obs.wins] + one_hot(obs.leader, num_players)

    encoding = TableEncoding.for_game(
        game,
        num_players,
        facts=facts,
        facts_size=2 * num_players,
        slots=[Slots("trick", num_players)],
    )
    return TableCodec(encoding, ActionIndex(Play(card) for card in DECK_52))


HIGHCARD = CodecSpec(game="highcard", factory=highcard_codec, description="test codec")


def highcard_registry() -> CodecRegistry:
    """An isolated registry that knows the highcard codec only."""
    registry = CodecRegistry(load_entrypoints=False)
    registry.register(HIGHCARD)
    return registry
