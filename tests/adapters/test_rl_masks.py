"""The action mask of long card-set listings, filled in numpy passes, is the listing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardcore import CardSubsets, ConcatActions
from cardcore.adapters import ActionIndex, TableCodec, _spaces
from cardcore.adapters import pettingzoo as pz
from cardcore.adapters._codec import mark_card_sets, mark_seen
from cardcore.adapters._spaces import _MANY_SUBSETS, ObservationEncoder, subset_masks


def _steal() -> tuple[Any, Any]:
    """Nyuri's environment for three and its steal class (a card-action class)."""
    env = pz.env("nyuri", 3, preset="pagat")
    return env, type(env.game.parse_action("steal 2♣"))


def _listings(steal: Any, count: int) -> list[CardSubsets[Any]]:
    """Seeded listings of every shape: sizes, weights, and a value to beat or none."""
    rng = random.Random(5)
    weights = [rng.randrange(1, 14) for _ in range(52)]
    out: list[CardSubsets[Any]] = []
    while len(out) < count:
        mask = rng.getrandbits(52) & rng.getrandbits(52)  # about 13 cards
        sizes = rng.choice([(1,), (2,), (3,), (1, 2), (2, 3), (1, 2, 3)])
        if rng.random() < 0.5:
            out.append(CardSubsets(steal, mask, sizes=sizes))
        else:
            above = rng.randrange(0, 30)
            out.append(CardSubsets(steal, mask, sizes=sizes, weights=weights, above=above))
    return out


def test_subset_masks_are_the_listings_masks_in_order() -> None:
    """``subset_masks`` equals ``list(masks())`` for every shape of listing."""
    _, steal = _steal()
    listings = _listings(steal, 300)
    assert sum(len(s) >= _MANY_SUBSETS for s in listings) > 20
    for subsets in listings:
        assert subset_masks(subsets).tolist() == list(subsets.masks())


def test_a_long_listing_marks_the_same_entries_as_one_by_one() -> None:
    """The numpy pass and the per-set lookup mark the same mask entries."""
    env, steal = _steal()
    encoder = ObservationEncoder(env.codec)
    index = env.codec.actions
    decline = env.game.parse_action("decline")
    for subsets in _listings(steal, 120):
        expected = bytearray(env.codec.num_actions)
        for action in subsets:
            expected[index.index(action)] = 1
        expected[index.index(decline)] = 1
        got = bytearray(env.codec.num_actions)
        encoder._fill(got, ConcatActions((decline,), subsets))
        assert got == expected


def test_a_long_listing_with_a_set_missing_from_the_index_is_named() -> None:
    """A long listing whose set the codec does not number is a KeyError naming it."""
    env, steal = _steal()
    codec = env.codec
    assert isinstance(codec, TableCodec)
    few = TableCodec(codec.encoding, ActionIndex([steal.of(c) for c in range(52)]))
    encoder = ObservationEncoder(few)
    subsets = CardSubsets(steal, (1 << 16) - 1, sizes=(1, 2))
    assert len(subsets) >= _MANY_SUBSETS
    with pytest.raises(KeyError, match="is not in the action index"):
        encoder._fill(bytearray(52), subsets)


@pytest.mark.parametrize(
    ("game_id", "players", "most"), [("box", 4, 4), ("noddy", 2, 3), ("nestors", 4, 36)]
)
def test_the_mask_marks_exactly_the_legal_actions_few_or_many(
    game_id: str, players: int, most: int
) -> None:
    """The step's mask (a plain loop for a few legal actions, ``map`` for more) marks
    exactly the legal actions' indexes, met for the first time or again, in seeded games."""
    env = pz.env(game_id, players)
    codec = env.codec
    assert isinstance(codec, TableCodec)
    encoder = ObservationEncoder(codec)
    index = codec.actions
    game = env.game
    rng = random.Random(9)
    sizes = set()
    for seed in range(4):
        state = game.initial_state(players, seed)
        while (seat := game.current_player(state)) is not None:
            obs = game.observe(state, seat)
            legal = list(obs.legal_actions)
            sizes.add(len(legal))
            mask = encoder.encode(obs)["action_mask"]
            assert mask.nonzero()[0].tolist() == sorted(index.index(a) for a in legal)
            state = game.apply(state, legal[rng.randrange(len(legal))])
    assert 1 in sizes
    assert max(sizes) > 4 if most > 4 else max(sizes) <= most  # Nestors takes both ways


def test_card_sets_marked_in_loops_are_the_listings_sets() -> None:
    """``mark_card_sets`` (the compiled build's way) marks each set's index, no other."""
    env, steal = _steal()
    index = env.codec.actions
    by_mask = {a.mask: i for i, a in enumerate(index.actions) if type(a) is steal}
    for subsets in _listings(steal, 200):
        expected = bytearray(env.codec.num_actions)
        for m in subsets.masks():
            expected[by_mask[m]] = 1
        got = bytearray(env.codec.num_actions)
        mark_card_sets(got, by_mask, subsets._keys, subsets._lead_segments())
        assert got == expected
    short = {m: i for m, i in by_mask.items() if m.bit_count() == 1}
    with pytest.raises(KeyError):
        mark_card_sets(bytearray(52), short, (0, 1, 2), [(0, 0, 2)])


def test_seen_actions_are_marked_and_an_unseen_one_is_a_key_error() -> None:
    """``mark_seen`` sets the entries of actions met by identity; a new object is a KeyError."""
    index = ActionIndex([("a",), ("b",), ("c",)])
    actions = index.actions
    mask = bytearray(3)
    mark_seen(mask, actions[::2], {id(a): i for i, a in enumerate(actions)})
    assert mask == bytearray([1, 0, 1])
    with pytest.raises(KeyError):
        mark_seen(bytearray(3), (("a",),), {})


@pytest.mark.parametrize(("game_id", "players"), [("nyuri", 3), ("box", 4), ("nestors", 4)])
def test_both_ways_of_filling_the_mask_agree(
    monkeypatch: pytest.MonkeyPatch, game_id: str, players: int
) -> None:
    """The compiled build's mask filling (loops) and the pure build's (``map`` passes,
    numpy for long listings) give the same observations, run here in either build."""
    env = pz.env(game_id, players, preset="pagat" if game_id == "nyuri" else "default")
    codec = env.codec
    pure = ObservationEncoder(codec)
    monkeypatch.setattr(_spaces, "_CODEC_COMPILED", True)
    looped = ObservationEncoder(codec)
    monkeypatch.setattr(_spaces, "_CODEC_COMPILED", False)
    game = env.game
    rng = random.Random(3)
    for seed in range(3):
        state = game.initial_state(players, seed)
        while (seat := game.current_player(state)) is not None:
            obs = game.observe(state, seat)
            a = pure.encode(obs)
            monkeypatch.setattr(_spaces, "_CODEC_COMPILED", True)
            b = looped.encode(obs)
            monkeypatch.setattr(_spaces, "_CODEC_COMPILED", False)
            assert a["observation"].tobytes() == b["observation"].tobytes()
            assert a["action_mask"].tobytes() == b["action_mask"].tobytes()
            legal = obs.legal_actions
            state = game.apply(state, legal[rng.randrange(len(legal))])
