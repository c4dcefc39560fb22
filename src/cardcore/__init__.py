"""cardcore: typed card games, bots, tournaments and the tools to trust them.

The public API is re-exported here; plugin authors import only from ``cardcore`` and
``cardcore.testing``. Importing this module loads no game, no CLI library and no numpy.
"""

from cardcore import _build  # noqa: F401 - first: with CARDCORE_PURE set, the pure modules load
from cardcore._actions import CardAction, WordAction
from cardcore._botspec import BotOption
from cardcore._cards import (
    DECK_36,
    DECK_52,
    Card,
    Rank,
    Suit,
    card_ids,
    cards_of,
    mask_of,
    parse_card,
    parse_cards,
)
from cardcore._codec import JsonCodec
from cardcore._engine import play_match
from cardcore._game import (
    Action,
    Bot,
    BotSpec,
    CodecSpec,
    Game,
    GameSpec,
    GameText,
    IllegalActionError,
    Observation,
    Outcome,
    State,
    TextForm,
)
from cardcore._hooks import CardcoreHooks, LayoutHints, Plugin, SearchHints, hookimpl
from cardcore._host import (
    PluginConflict,
    PluginError,
    PluginHost,
    PluginInfo,
    PluginProblem,
    load_bot,
    load_game,
)
from cardcore._isolation import IsolatedBot, isolated_bot
from cardcore._lazy import CardSubsets, ConcatActions, LazyActions
from cardcore._match_record import MatchRecord, RecordError, Step, replay, verify
from cardcore._options import (
    OptionError,
    OptionInfo,
    build_options,
    option,
    option_infos,
    options_to_json,
)
from cardcore._records import record_builder
from cardcore._rng import rng_below, rng_next, rng_seed, rng_shuffle
from cardcore._table import (
    SPECTATOR,
    CardTable,
    Layout,
    TableView,
    Visibility,
    Zone,
    new_table,
    sample_table,
)

__version__ = "0.1.0"

__all__ = [
    "DECK_36",
    "DECK_52",
    "SPECTATOR",
    "Action",
    "Bot",
    "BotOption",
    "BotSpec",
    "Card",
    "CardAction",
    "CardSubsets",
    "CardTable",
    "CardcoreHooks",
    "CodecSpec",
    "ConcatActions",
    "Game",
    "GameSpec",
    "GameText",
    "IllegalActionError",
    "IsolatedBot",
    "JsonCodec",
    "Layout",
    "LayoutHints",
    "LazyActions",
    "MatchRecord",
    "Observation",
    "OptionError",
    "OptionInfo",
    "Outcome",
    "Plugin",
    "PluginConflict",
    "PluginError",
    "PluginHost",
    "PluginInfo",
    "PluginProblem",
    "Rank",
    "RecordError",
    "SearchHints",
    "State",
    "Step",
    "Suit",
    "TableView",
    "TextForm",
    "Visibility",
    "WordAction",
    "Zone",
    "build_options",
    "card_ids",
    "cards_of",
    "hookimpl",
    "isolated_bot",
    "load_bot",
    "load_game",
    "mask_of",
    "new_table",
    "option",
    "option_infos",
    "options_to_json",
    "parse_card",
    "parse_cards",
    "play_match",
    "record_builder",
    "replay",
    "rng_below",
    "rng_next",
    "rng_seed",
    "rng_shuffle",
    "sample_table",
    "verify",
]
