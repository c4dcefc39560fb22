"""The codec check: plays random games and checks everything an RL adapter relies on."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any, Final, final

import attrs

from cardcore._game import Game
from cardcore._host import PluginHost
from cardcore.adapters._codec import Codec, legal_indices
from cardcore.adapters._registry import CodecRegistry, _game, default_registry

__all__ = ["CODEC_CHECKS", "CodecCheckError", "CodecReport", "check_codec"]

CODEC_CHECKS: Final[Mapping[str, str]] = {
    "index": "the action index is a bijection: action_at(action_index(a)) == a and "
    "action_index(action_at(i)) == i, every index in range; two builds of the codec "
    "number the actions alike",
    "mask": "the legal indexes (the action mask) are exactly the seat's legal actions, "
    "distinct, and empty for a seat that is not to move",
    "size": "every encoding has exactly observation_size values",
    "values": "every value is finite and in [-1, 1]",
    "observation-only": "the encoding depends on the observation only: the same observation "
    "twice, the observation rebuilt from JSON, and the seat's observation of a different "
    "state it cannot tell apart (a determinisation) all give equal encodings",
    "play": "decoded actions (action_at of a legal index) are accepted by the game",
}


@final
class CodecCheckError(AssertionError):
    """A codec check failed; the message names the check, the game and the place."""

    def __init__(self, check: str, message: str) -> None:
        self.check = check
        super().__init__(f"[{check}] {message}")


@final
@attrs.frozen(kw_only=True)
class CodecReport:
    """What :func:`check_codec` looked at (every check passed)."""

    game: str
    """The game id."""
    num_players: int
    """The seat count."""
    games: int
    """Random games played."""
    decisions: int
    """Decisions taken."""
    encodings: int
    """Observations encoded."""
    twins: int
    """Equal observations from different states (or from JSON) compared."""
    observation_size: int
    """The codec's encoding length."""
    num_actions: int
    """The codec's action count."""


def _check_index(codec: Codec, other: Codec | None, where: str) -> None:
    n = codec.num_actions
    for i in range(n):
        try:
            a = codec.action_at(i)
            j = codec.action_index(a)
        except (KeyError, IndexError) as e:
            raise CodecCheckError("index", f"{where}: index {i}: {e}") from None
        if j != i:
            raise CodecCheckError(
                "index", f"{where}: action_at({i}) is {str(a)!r}, whose index is {j}"
            )
    if other is None:
        return
    if (other.num_actions, other.observation_size) != (n, codec.observation_size):
        raise CodecCheckError(
            "index",
            f"{where}: two builds of the codec differ in size: "
            f"{n} / {other.num_actions} actions, "
            f"{codec.observation_size} / {other.observation_size} floats",
        )
    for i in range(n):
        if codec.action_at(i) != other.action_at(i):
            raise CodecCheckError(
                "index",
                f"{where}: two builds of the codec number actions differently at index {i}: "
                f"{str(codec.action_at(i))!r} / {str(other.action_at(i))!r}",
            )


def _check_encoding(codec: Codec, observation: Any, where: str) -> tuple[float, ...]:
    enc = tuple(codec.encode(observation))
    if len(enc) != codec.observation_size:
        raise CodecCheckError(
            "size", f"{where}: {len(enc)} values, declared {codec.observation_size}"
        )
    for i, x in enumerate(enc):
        if not (math.isfinite(x) and -1.0 <= x <= 1.0):
            raise CodecCheckError("values", f"{where}: value {i} is {x!r}, not in [-1, 1]")
    return enc


def _check_legal(codec: Codec, observation: Any, to_move: bool, where: str) -> Sequence[int]:
    legal = tuple(observation.legal_actions)
    try:
        idx = legal_indices(codec, observation)
    except KeyError as e:
        raise CodecCheckError("mask", f"{where}: {e.args[0]}") from None
    if not to_move:
        if idx:
            raise CodecCheckError("mask", f"{where}: a seat not to move has legal indexes {idx}")
        return idx
    if not idx:
        raise CodecCheckError("mask", f"{where}: the seat to move has no legal index")
    if len(set(idx)) != len(idx):
        raise CodecCheckError("mask", f"{where}: legal actions share an index: {idx}")
    for a, i in zip(legal, idx, strict=True):
        if not 0 <= i < codec.num_actions:
            raise CodecCheckError(
                "mask", f"{where}: {str(a)!r} has index {i}, outside 0..{codec.num_actions - 1}"
            )
        try:
            back = codec.action_at(i)
        except IndexError as e:
            raise CodecCheckError("index", f"{where}: {e}") from None
        if back != a:
            raise CodecCheckError(
                "index",
                f"{where}: {str(a)!r} has index {i}, but action_at({i}) is {str(back)!r}",
            )
    return idx


def check_codec(
    game: str | Game[Any, Any, Any],
    num_players: int | None = None,
    *,
    games: int = 10,
    seed: int = 0,
    codec: Codec | None = None,
    registry: CodecRegistry | None = None,
    host: PluginHost | None = None,
    preset: str = "default",
    twin_every: int = 3,
    **options: Any,
) -> CodecReport:
    """Play random games and check a game's codec (the checks of :data:`CODEC_CHECKS`).

    Args:
        game: a game id (built with ``preset`` and ``options``) or a built game.
        num_players: the seat count (default: the game's smallest).
        games: how many random games to play.
        seed: makes the games reproducible.
        codec: the codec to check (default: the registered one, built twice to check that
            its action numbering is fixed).
        registry: where to look the codec up (default: the installed plugins').
        host: the plugin host that builds a game given by id.
        preset: the preset, for a game given by id.
        twin_every: compare against a rebuilt observation every this many encodings.
        **options: option overrides, for a game given by id.

    Returns:
        A report of what was checked.

    Raises:
        CodecCheckError: a check failed (the message names it, the game and the step).
        CodecError: no codec is registered for the game.
    """
    g = _game(game, host, preset, options)
    n = g.min_players if num_players is None else num_players
    label = f"{g.name} ({n} players)"
    other: Codec | None = None
    if codec is None:
        reg = registry or default_registry()
        codec = reg.build(g, n)
        other = reg.build(g, n)
    _check_index(codec, other, label)
    rng = random.Random(seed)
    sampler = random.Random(seed + 1)
    decisions = encodings = twins = 0
    for k in range(games):
        state = g.initial_state(n, rng.randrange(2**32))
        step = 0
        while True:
            current = g.current_player(state)
            chosen: Any = None
            for seat in range(n):
                where = f"{label}, game {k}, decision {step}, seat {seat}"
                obs = g.observe(state, seat)
                enc = _check_encoding(codec, obs, where)
                encodings += 1
                if tuple(codec.encode(obs)) != enc:
                    raise CodecCheckError(
                        "observation-only", f"{where}: one observation, two encodings"
                    )
                idx = _check_legal(codec, obs, seat == current, where)
                if seat == current:
                    chosen = codec.action_at(idx[rng.randrange(len(idx))])
                if encodings % twin_every == 0:
                    twins += _check_twins(g, codec, state, obs, enc, sampler, where)
            if current is None:
                break
            try:
                state = g.apply(state, chosen)
            except ValueError as e:
                raise CodecCheckError(
                    "play", f"{label}, game {k}, decision {step}: {str(chosen)!r} refused: {e}"
                ) from None
            step += 1
            decisions += 1
    return CodecReport(
        game=g.name,
        num_players=n,
        games=games,
        decisions=decisions,
        encodings=encodings,
        twins=twins,
        observation_size=codec.observation_size,
        num_actions=codec.num_actions,
    )


def _check_twins(
    game: Game[Any, Any, Any],
    codec: Codec,
    state: Any,
    obs: Any,
    enc: tuple[float, ...],
    rng: random.Random,
    where: str,
) -> int:
    """Compare ``enc`` with encodings of equal observations built another way."""
    twins = []
    rebuilt = game.observation_from_json(obs.to_json())
    if rebuilt == obs:
        twins.append(("the observation rebuilt from JSON", rebuilt))
    sampled = game.sample_state(obs, rng)
    if sampled != state:
        twin = game.observe(sampled, obs.seat)
        if twin == obs:
            twins.append(("a determinised state's observation", twin))
    for what, twin in twins:
        if tuple(codec.encode(twin)) != enc:
            raise CodecCheckError(
                "observation-only", f"{where}: {what} is equal but encodes differently"
            )
    return len(twins)
