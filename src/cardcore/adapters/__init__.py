"""Reinforcement-learning adapters: codecs, and PettingZoo / Gymnasium environments.

Importing this package is light (no numpy): it holds the codec protocol, the building
blocks for a game's codec, the codec registry and the codec check. The environments live
in :mod:`cardcore.adapters.pettingzoo` and :mod:`cardcore.adapters.gymnasium` and need
the ``cardcore[rl]`` extra (numpy, gymnasium, pettingzoo).

A game declares its codec with a ``cardcore_register_codecs`` function in its plugin's
hooks module, yielding :class:`CodecSpec` records (see ``docs/how-to/rl.md``).
"""

from cardcore.adapters._bench import Overhead, bench_overhead, measure_overhead
from cardcore.adapters._check import CODEC_CHECKS, CodecCheckError, CodecReport, check_codec
from cardcore.adapters._codec import (
    ActionIndex,
    Codec,
    PackedFacts,
    Slots,
    TableCodec,
    TableEncoding,
    legal_indices,
    one_hot,
    scaled,
)
from cardcore.adapters._registry import (
    CodecError,
    CodecProblem,
    CodecRegistry,
    CodecSpec,
    default_registry,
    load_codec,
    register_codec,
)

__all__ = [
    "CODEC_CHECKS",
    "ActionIndex",
    "Codec",
    "CodecCheckError",
    "CodecError",
    "CodecProblem",
    "CodecRegistry",
    "CodecReport",
    "CodecSpec",
    "Overhead",
    "PackedFacts",
    "Slots",
    "TableCodec",
    "TableEncoding",
    "bench_overhead",
    "check_codec",
    "default_registry",
    "legal_indices",
    "load_codec",
    "measure_overhead",
    "one_hot",
    "register_codec",
    "scaled",
]
