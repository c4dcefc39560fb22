"""check_codec passes a good codec and catches each kind of broken one."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from cardcore import DECK_52, Game, load_game
from cardcore.adapters import (
    CODEC_CHECKS,
    ActionIndex,
    CodecCheckError,
    CodecError,
    CodecRegistry,
    CodecSpec,
    TableCodec,
    check_codec,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def support(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(ROOT))
    from tests.adapters import rl_highcard

    return rl_highcard


@pytest.mark.parametrize("players", [2, 3, 4])
def test_highcard_codec_passes(support: Any, players: int) -> None:
    """The highcard test codec passes every check at every player count."""
    report = check_codec("highcard", players, games=4, registry=support.highcard_registry())
    assert report.game == "highcard"
    assert report.num_players == players
    assert report.games == 4
    assert report.decisions == 4 * 3 * players
    assert report.encodings == 4 * (3 * players + 1) * players
    assert report.twins > 0
    assert report.num_actions == 52


def test_check_codec_takes_a_built_game_and_options(support: Any) -> None:
    """A built game or an id with options both work; options reach the game."""
    reg = support.highcard_registry()
    report = check_codec("highcard", 2, games=2, registry=reg, hand_size=5)
    assert report.decisions == 2 * 5 * 2
    game = load_game("highcard", preset="quick")
    assert check_codec(game, 3, games=2, registry=reg).decisions == 2 * 3
    with pytest.raises(ValueError, match="given by id"):
        check_codec(game, 3, registry=reg, hand_size=2)


def test_missing_codec_is_a_codec_error() -> None:
    """Without a registered codec the check stops with the missing-hook message."""
    with pytest.raises(CodecError, match="cardcore_register_codecs"):
        check_codec("highcard", 2, registry=CodecRegistry(load_entrypoints=False))


class Broken:
    """Wraps a good codec; subclasses break one promise each."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.observation_size: int = inner.observation_size
        self.num_actions: int = inner.num_actions

    def encode(self, observation: Any) -> Sequence[float]:
        return list(self.inner.encode(observation))

    def action_index(self, action: Any) -> int:
        return int(self.inner.action_index(action))

    def action_at(self, index: int) -> Any:
        return self.inner.action_at(index)


class WrongSize(Broken):
    def encode(self, observation: Any) -> Sequence[float]:
        return [*super().encode(observation), 0.0]


class NotANumber(Broken):
    def encode(self, observation: Any) -> Sequence[float]:
        out = list(super().encode(observation))
        out[-1] = float("nan")
        return out


class OutOfRange(Broken):
    def encode(self, observation: Any) -> Sequence[float]:
        out = list(super().encode(observation))
        out[0] = 3.0  # an unscaled score
        return out


class Impure(Broken):
    """Counts its calls into the encoding: not a function of the observation."""

    calls = itertools.count()

    def encode(self, observation: Any) -> Sequence[float]:
        out = list(super().encode(observation))
        out[-1] = (next(self.calls) % 2) / 2
        return out


class RemembersTheGame(Broken):
    """Keys the encoding on the observation's identity, so an equal rebuilt one differs."""

    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self.seen: dict[int, float] = {}

    def encode(self, observation: Any) -> Sequence[float]:
        out = list(super().encode(observation))
        out[-1] = self.seen.setdefault(id(observation), random.random())
        return out


class ShiftedDecode(Broken):
    def action_at(self, index: int) -> Any:
        return self.inner.action_at((index + 1) % self.num_actions)


class ShiftedEncode(Broken):
    def action_index(self, action: Any) -> int:
        return (int(self.inner.action_index(action)) + 1) % self.num_actions


class IndexTooLarge(Broken):
    def action_index(self, action: Any) -> int:
        return int(self.inner.action_index(action)) + self.num_actions


def _codec(support: Any, players: int = 2) -> Any:
    return support.highcard_codec(load_game("highcard"), players)


@pytest.mark.parametrize(
    ("broken", "check"),
    [
        (WrongSize, "size"),
        (NotANumber, "values"),
        (OutOfRange, "values"),
        (Impure, "observation-only"),
        (RemembersTheGame, "observation-only"),
        (ShiftedDecode, "index"),
        (ShiftedEncode, "index"),
        (IndexTooLarge, "index"),
    ],
)
def test_broken_codecs_are_caught(support: Any, broken: type[Broken], check: str) -> None:
    """Each broken codec fails the check it breaks, with a message that names it."""
    assert check in CODEC_CHECKS
    with pytest.raises(CodecCheckError, match=rf"^\[{check}\] highcard \(2 players\)") as info:
        check_codec("highcard", 2, games=3, codec=broken(_codec(support)))
    assert info.value.check == check


def test_an_action_missing_from_the_index_is_caught() -> None:
    """A codec that does not list every action fails the mask check, naming the action."""
    game = load_game("highcard")
    from cardcore.adapters import TableEncoding
    from cardcore_highcard import Play

    few = TableCodec(TableEncoding.for_game(game, 2), ActionIndex(Play(c) for c in DECK_52[:40]))
    with pytest.raises(CodecCheckError, match=r"^\[mask\].*is not in the action index"):
        check_codec(game, 2, games=5, codec=few)


def test_two_legal_actions_sharing_an_index_are_caught(support: Any) -> None:
    """An index by rank only (suits collapsed) gives two legal cards one index."""

    class ByRank(Broken):
        def action_index(self, action: Any) -> int:
            return int(action.card.rank) - 2

        def action_at(self, index: int) -> Any:
            return self.inner.action_at(index)

    with pytest.raises(CodecCheckError, match=r"^\[index\]"):
        check_codec("highcard", 2, games=3, codec=ByRank(_codec(support)))


def test_a_mask_for_a_seat_not_to_move_is_caught(support: Any) -> None:
    """Observations listing actions for a waiting seat would give it a mask: caught."""

    game = load_game("highcard")
    codec = _codec(support)

    class Leaky:
        name = "highcard"
        min_players = 2

        def __getattr__(self, name: str) -> Any:
            return getattr(game, name)

        def observe(self, state: Any, seat: int) -> Any:
            import attrs

            obs = game.observe(state, seat)
            if state.current is not None and seat != state.current:
                return attrs.evolve(obs, legal_actions=game.legal_actions(state))
            return obs

    leaky: Game[Any, Any, Any] = Leaky()
    with pytest.raises(CodecCheckError, match=r"^\[mask\].*not to move"):
        check_codec(leaky, 2, games=1, codec=codec)


def test_action_numbering_must_not_change_between_builds(support: Any) -> None:
    """A factory that shuffles its actions numbers them differently each time: caught."""
    shuffles = random.Random(1)

    def unstable(game: Game[Any, Any, Any], players: int) -> Any:
        good = support.highcard_codec(game, players)
        actions = list(good.actions)
        shuffles.shuffle(actions)
        return TableCodec(good.encoding, ActionIndex(actions))

    reg = CodecRegistry(load_entrypoints=False)
    reg.register(CodecSpec(game="highcard", factory=unstable))
    with pytest.raises(CodecCheckError, match=r"^\[index\].*number actions differently"):
        check_codec("highcard", 2, games=1, registry=reg)


def test_decoded_actions_must_be_playable(support: Any) -> None:
    """A decoded action that equals the legal one but is not the game's own: caught."""

    class Lookalike:
        def __init__(self, action: Any) -> None:
            self.action = action

        def __eq__(self, other: object) -> bool:
            return str(other) == str(self.action)

        def __hash__(self) -> int:
            return hash(self.action)

        def __str__(self) -> str:
            return str(self.action)

    class Decoy(Broken):
        def action_at(self, index: int) -> Any:
            return Lookalike(self.inner.action_at(index))

    with pytest.raises(CodecCheckError, match=r"^\[play\].*refused"):
        check_codec("highcard", 2, games=1, codec=Decoy(_codec(support)))
