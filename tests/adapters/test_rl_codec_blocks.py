"""The codec building blocks: action index, table encoding, helpers; a light import."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cardcore import DECK_52, Card, load_game, parse_card
from cardcore.adapters import (
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

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def highcard_codec(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(ROOT))
    from tests.adapters.rl_highcard import highcard_codec

    return highcard_codec


def test_import_adapters_is_light() -> None:
    """`import cardcore.adapters` loads no numpy, gymnasium, pettingzoo or game plugin."""
    code = (
        "import sys, cardcore.adapters; "
        "bad = sorted({m.split('.')[0] for m in sys.modules} & {'numpy', 'gymnasium', "
        "'pettingzoo', 'cardcore_highcard', 'cardcore_nyuri', 'cardcore_noddy', 'cardcore_box', "
        "'cardcore_nestors'}); print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_adapters_all_is_sorted_and_complete() -> None:
    """cardcore.adapters.__all__ is sorted and names every public name."""
    import cardcore.adapters as mod

    assert mod.__all__ == sorted(mod.__all__, key=lambda s: (not s.isupper(), s))
    public = {n for n in dir(mod) if not n.startswith(("_", "@"))} - {"gymnasium", "pettingzoo"}
    assert public == set(mod.__all__)


def test_action_index_is_a_bijection() -> None:
    """Indexes follow the given order and map back to their actions."""
    index = ActionIndex(f"play {c}" for c in DECK_52)
    assert len(index) == 52
    for i, a in enumerate(index):
        assert index.index(a) == i
        assert index.at(i) == a
    assert index.actions[0] == f"play {DECK_52[0]}"
    assert index.lookup(index.at(7)) == 7


def test_action_index_refuses_duplicates_and_emptiness() -> None:
    """An action listed twice, or no action at all, is refused."""
    with pytest.raises(ValueError, match="listed twice: pass"):
        ActionIndex(["pass", "bid 1", "pass"])
    with pytest.raises(ValueError, match="at least one"):
        ActionIndex([])


def test_action_index_errors_name_the_problem() -> None:
    """Unknown actions and out-of-range indexes raise with a clear message."""
    index = ActionIndex(["pass", "bid 1"])
    with pytest.raises(KeyError, match="'bid 9' is not in the action index"):
        index.index("bid 9")
    with pytest.raises(KeyError, match="not in the action index"):
        index.index(["unhashable"])  # type: ignore[arg-type]
    with pytest.raises(IndexError, match=r"outside 0\.\.1"):
        index.at(2)
    with pytest.raises(IndexError):
        index.at(-1)


def test_action_index_with_a_key_looks_up_by_the_key() -> None:
    """A key function stands in for the action in lookups; shared keys are refused."""
    index = ActionIndex(["pass", "bid 10", "bid 20"], key=lambda a: a.split()[-1])
    assert index.index("bid 20") == 2
    assert index.lookup("pass") == 0
    assert index.at(1) == "bid 10"
    with pytest.raises(KeyError, match="'bid 30' is not in the action index"):
        index.index("bid 30")
    with pytest.raises(ValueError, match="actions share a key: bid 10 / raise 10"):
        ActionIndex(["bid 10", "raise 10"], key=lambda a: a.split()[-1])


def test_lookup_remembers_objects_but_answers_by_value() -> None:
    """Repeated and fresh-but-equal action objects get the same index."""
    from cardcore_highcard import Play

    index = ActionIndex(Play(c) for c in DECK_52)
    card = DECK_52[17]
    shared = Play(card)
    assert index.lookup(shared) == index.lookup(shared) == 17
    assert index.lookup(Play(card)) == 17
    assert index.index(Play(DECK_52[3])) == 3


def test_indices_match_one_lookup_per_action() -> None:
    """``indices`` answers like ``lookup`` for seen, fresh and repeated objects alike."""
    from cardcore_highcard import Play

    index: ActionIndex[Any] = ActionIndex(Play(c) for c in DECK_52)
    shared = [Play(DECK_52[i]) for i in (5, 0, 51)]
    assert index.indices(shared) == [5, 0, 51]  # first sight: the slow path
    assert index.indices(shared) == [5, 0, 51]  # every object seen: the fast path
    assert index.indices([shared[1], Play(DECK_52[7])]) == [0, 7]  # one fresh object
    assert index.indices(iter(shared)) == [5, 0, 51]  # any iterable
    assert index.indices([]) == []
    with pytest.raises(KeyError):
        index.indices([shared[0], "not an action"])


def test_remembered_ids_are_never_reused_for_other_actions() -> None:
    """The memo keeps every object it remembers alive, so a dead action's id, taken
    by a new object, can never answer with the dead action's index."""
    from cardcore_highcard import Play

    index = ActionIndex(Play(c) for c in DECK_52)
    for round_ in range(200):  # fresh objects each time: ids would be reused if freed
        i = round_ % 52
        assert index.indices([Play(DECK_52[i]), Play(DECK_52[51 - i])]) == [i, 51 - i]


def test_a_full_memo_starts_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the memo's limit, it is emptied (ids and kept objects together)."""
    import cardcore.adapters._codec as codec_module
    from cardcore_highcard import Play

    monkeypatch.setattr(codec_module, "_SEEN_LIMIT", 4)
    index = ActionIndex(Play(c) for c in DECK_52)
    for round_ in range(30):
        actions = [Play(DECK_52[(round_ + k) % 52]) for k in range(3)]
        assert index.indices(actions) == [(round_ + k) % 52 for k in range(3)]
        assert index.indices(actions) == [(round_ + k) % 52 for k in range(3)]


def test_encode_bytes_is_the_encoding_as_float32() -> None:
    """``encode_bytes``, ``encode_buffer``, ``encode_parts`` and ``encode`` agree."""
    from array import array

    game = load_game("highcard")
    enc = TableEncoding.for_game(
        game, 3, facts=lambda o: [w / 3 for w in o.wins], facts_size=3, slots=[Slots("trick", 2)]
    )
    state = game.initial_state(3, 4)
    for seat in (-1, 0, 1, 2):
        obs = game.observe(state, seat)
        raw = enc.encode_bytes(obs)
        assert len(raw) == 4 * enc.size
        assert array("f", raw) == enc.encode(obs)
        assert b"".join(enc.encode_parts(obs)) == raw
        buffer = enc.encode_buffer(obs)
        assert type(buffer) is bytearray
        assert buffer == raw
        assert buffer is not enc.encode_buffer(obs)


def test_one_hot_and_scaled() -> None:
    """one_hot marks one place (none for None); scaled clips to [-1, 1]."""
    assert one_hot(2, 4) == [0.0, 0.0, 1.0, 0.0]
    assert one_hot(None, 3) == [0.0, 0.0, 0.0]
    assert one_hot(5, 3) == [0.0, 0.0, 0.0]
    assert scaled(30, 120) == 0.25
    assert scaled(500, 120) == 1.0
    assert scaled(-500, 120) == -1.0


def test_table_encoding_layout_matches_feature_names() -> None:
    """Every position has a name, and the names follow the documented order."""
    game = load_game("highcard")
    enc = TableEncoding.for_game(
        game, 3, facts=lambda o: [0.5], facts_size=1, slots=[Slots("trick", 2)]
    )
    names = enc.feature_names()
    assert len(names) == enc.size == 6 * 53 + 2 * 52 + 3 + 3 + 1
    assert names[0] == "stock:2♣"
    assert names[52] == "hand0:2♣"
    assert names[6 * 52] == "size:stock"
    assert names[6 * 53] == "trick[bottom-0]:2♣"
    assert names[-1] == "fact:0"
    assert names[-7:-1] == ["seat:0", "seat:1", "seat:2", "to-move:0", "to-move:1", "to-move:2"]


def test_table_encoding_reads_what_the_seat_knows() -> None:
    """Known cards, zone sizes, seat and mover one-hots, trick slots and facts land in place."""
    game = load_game("highcard")
    deck = [parse_card(t) for t in (["2♣", "3♣", "4♣", "5♣", "A♠", "K♠"])]
    rest = [c for c in DECK_52 if c not in deck]
    state = game.initial_state(2, 0, dealer=1, deck=[*deck, *rest])
    obs = game.observe(state, 0)
    enc = TableEncoding.for_game(
        game, 2, facts=lambda o: [w / 3 for w in o.wins], facts_size=2, slots=[Slots("trick", 2)]
    )
    names = enc.feature_names()
    values = dict(zip(names, enc.encode(obs), strict=True))
    hand = set(game.observe(state, 0).table.cards("hand0"))
    for c in DECK_52:
        assert values[f"hand0:{c}"] == (1.0 if c in hand else 0.0)
        assert values[f"hand1:{c}"] == 0.0  # seat 0 cannot see seat 1's hand
    assert values["size:hand0"] == pytest.approx(3 / 52)
    assert values["size:hand1"] == pytest.approx(3 / 52)
    assert values["size:stock"] == pytest.approx(46 / 52)
    assert values["seat:0"] == 1.0 and values["seat:1"] == 0.0
    mover = game.current_player(state)
    assert values[f"to-move:{mover}"] == 1.0
    # Play a card: it shows in the trick zone and in the first trick slot.
    action = game.legal_actions(state)[0]
    after = game.apply(state, action)
    values = dict(zip(names, enc.encode(game.observe(after, 0)), strict=True))
    assert values[f"trick:{action.card}"] == 1.0
    assert values[f"trick[bottom-0]:{action.card}"] == 1.0
    assert sum(v for k, v in values.items() if k.startswith("trick[bottom-1]")) == 0.0


def test_table_encoding_top_slots_and_zone_subset() -> None:
    """from_top slots read the last placed card; `zones` restricts the zones encoded."""
    game = load_game("highcard")
    state = game.initial_state(2, 3)
    first = game.legal_actions(state)[0]
    state = game.apply(state, first)
    enc = TableEncoding.for_game(game, 2, zones=["trick"], slots=[Slots("trick", 1, from_top=True)])
    assert enc.size == 53 + 52 + 4
    values = dict(zip(enc.feature_names(), enc.encode(game.observe(state, 1)), strict=True))
    assert values[f"trick[top-0]:{first.card}"] == 1.0


def test_table_encoding_refuses_bad_declarations() -> None:
    """Unknown zones, slots on unordered zones and wrong fact counts are refused."""
    game = load_game("highcard")
    with pytest.raises(KeyError, match="no zone 'pile'"):
        TableEncoding.for_game(game, 2, zones=["pile"])
    with pytest.raises(ValueError, match="ordered"):
        TableEncoding.for_game(game, 2, slots=[Slots("hand0", 1)])
    with pytest.raises(ValueError, match="without a facts function"):
        TableEncoding.for_game(game, 2, facts_size=2)
    with pytest.raises(ValueError, match=">= 0"):
        TableEncoding.for_game(game, 2, facts=lambda o: [], facts_size=-1)
    enc = TableEncoding.for_game(game, 2, facts=lambda o: [1.0], facts_size=2)
    with pytest.raises(ValueError, match="returned 1 values, not the declared 2"):
        enc.encode(game.observe(game.initial_state(2, 0), 0))


def test_spectator_encodes_without_a_seat() -> None:
    """An onlooker's observation encodes with an all-zero seat one-hot."""
    game = load_game("highcard")
    enc = TableEncoding.for_game(game, 2)
    values = dict(
        zip(
            enc.feature_names(), enc.encode(game.observe(game.initial_state(2, 0), -1)), strict=True
        )
    )
    assert values["seat:0"] == values["seat:1"] == 0.0
    assert all(math.isfinite(v) for v in values.values())


def test_table_codec_is_a_codec(highcard_codec: Any) -> None:
    """A TableCodec satisfies the Codec protocol, and legal_indices follow the legal actions."""
    game = load_game("highcard")
    codec = highcard_codec(game, 2)
    assert isinstance(codec, Codec)
    assert isinstance(codec, TableCodec)
    assert codec.num_actions == 52
    assert "num_actions=52" in repr(codec)
    state = game.initial_state(2, 5)
    seat = game.current_player(state)
    assert seat is not None
    obs = game.observe(state, seat)
    idx = legal_indices(codec, obs)
    assert [codec.action_at(i) for i in idx] == list(obs.legal_actions)
    assert all(codec.action_at(i).card == Card.of(i) for i in idx)
    assert legal_indices(codec, game.observe(state, 1 - seat)) == []


def test_masks_encode_bit_by_bit() -> None:
    """Every card bit lands on its own float, whatever the mask (cached or not)."""
    import random
    import struct

    from cardcore.adapters import _codec

    rng = random.Random(3)
    masks = [0, (1 << 52) - 1, 1, 1 << 51, 1 << 12, 1 << 13, 1 << 38, 1 << 39]
    masks += [rng.getrandbits(52) for _ in range(200)]
    fresh = _codec._MaskBytes()  # every lookup a miss: the cache's own packing
    for mask in masks:
        expected = struct.pack("<52f", *((mask >> c) & 1 for c in range(52)))
        assert _codec._pack_mask(mask) == expected
        assert _codec._mask_floats(mask) == expected
        assert fresh[mask] == expected
    assert len(fresh) == len(set(masks))


def test_facts_may_come_packed() -> None:
    """A facts function may return float32 bytes; a wrong length names both sizes."""
    import struct

    game = load_game("highcard")
    as_floats = TableEncoding.for_game(
        game, 2, facts=lambda o: [w / 3 for w in o.wins], facts_size=2
    )
    packed = TableEncoding.for_game(
        game, 2, facts=lambda o: struct.pack("<2f", *(w / 3 for w in o.wins)), facts_size=2
    )
    obs = game.observe(game.initial_state(2, 1), 0)
    assert packed.encode_bytes(obs) == as_floats.encode_bytes(obs)
    short = TableEncoding.for_game(game, 2, facts=lambda o: b"\0" * 4, facts_size=2)
    with pytest.raises(ValueError, match="returned 4 bytes, not the declared 2 float32s"):
        short.encode(obs)
    wrong = TableEncoding.for_game(game, 2, facts=lambda o: [0.0], facts_size=2)
    with pytest.raises(ValueError, match="returned 1 values, not the declared 2"):
        wrong.encode(obs)


def test_packed_facts_pack_once_per_record_object() -> None:
    """PackedFacts packs a record once while the same object comes back, and packs any
    other object afresh (an equal-looking record of another game never gets stale bytes)."""
    import struct

    calls: list[object] = []

    def floats(record: list[int]) -> list[float]:
        calls.append(record)
        return [record[0] / 10, record[1] / 10]

    packer = PackedFacts(floats, 2)
    first = [1, 2]
    assert packer(first) == struct.pack("<2f", 0.1, 0.2)
    assert packer(first) == struct.pack("<2f", 0.1, 0.2)
    assert calls == [first]
    first[0] = 5  # never done with frozen records; shows the answer is by identity
    assert packer(first) == struct.pack("<2f", 0.1, 0.2)
    assert packer([5, 2]) == struct.pack("<2f", 0.5, 0.2)
    assert len(calls) == 2
    assert repr(packer) == "PackedFacts(size=2)"


def test_packed_facts_refuse_wrong_sizes() -> None:
    """A wrong count names both numbers; a size below one is refused at once."""
    packer: PackedFacts[object] = PackedFacts(lambda r: [0.0, 0.0, 0.0], 2)
    with pytest.raises(ValueError, match="returned 3 values, not the declared 2"):
        packer(object())
    with pytest.raises(ValueError, match="size must be >= 1"):
        PackedFacts(lambda r: [], 0)


@pytest.mark.parametrize(
    ("zones", "slots", "facts"),
    [
        (None, [Slots("trick", 2)], "floats"),
        (["trick"], [Slots("trick", 1, from_top=True)], None),
        (["done", "hand1", "stock"], [], "bytes"),
        (None, [Slots("trick", 2), Slots("done", 3, from_top=True)], "floats"),
        (["hand0", "trick"], [Slots("stock", 2)], "bytes"),
    ],
)
def test_encode_buffer_is_encode_parts_joined(
    zones: list[str] | None, slots: list[Slots], facts: str | None
) -> None:
    """The flat ``encode_buffer`` agrees with ``encode_parts`` for every shape of encoding.

    Zone subsets of one and several zones, no slot, one, two; no facts, facts as floats
    and as packed bytes; every seat, the onlooker, over a whole seeded game.
    """
    import struct

    game = load_game("highcard")
    fact_fn: Any = None
    size = 0
    if facts == "floats":
        fact_fn, size = (lambda o: [w / 3 for w in o.wins]), 3
    elif facts == "bytes":
        fact_fn, size = (lambda o: struct.pack("<3f", *(w / 3 for w in o.wins))), 3
    enc = TableEncoding.for_game(game, 3, facts=fact_fn, facts_size=size, zones=zones, slots=slots)
    state = game.initial_state(3, 5)
    seen = 0
    while True:
        for seat in (-1, 0, 1, 2):
            obs = game.observe(state, seat)
            buffer = enc.encode_buffer(obs)
            assert type(buffer) is bytearray
            assert buffer == b"".join(enc.encode_parts(obs))
            assert len(buffer) == 4 * enc.size
            seen += 1
        if game.current_player(state) is None:
            break
        state = game.apply(state, game.legal_actions(state)[0])
    assert seen > 8


def test_encode_buffer_names_a_wrong_facts_length() -> None:
    """Packed facts of the wrong length are refused by ``encode_buffer`` with both counts."""
    game = load_game("highcard")
    short = TableEncoding.for_game(game, 2, facts=lambda o: bytes(4), facts_size=2)
    floats = TableEncoding.for_game(game, 2, facts=lambda o: [0.0, 0.0, 0.0], facts_size=2)
    obs = game.observe(game.initial_state(2, 0), 0)
    with pytest.raises(ValueError, match="returned 4 bytes, not the declared 2 float32s"):
        short.encode_buffer(obs)
    with pytest.raises(ValueError, match="returned 3 values, not the declared 2"):
        floats.encode_buffer(obs)
