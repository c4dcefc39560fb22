"""Card-carrying actions, fixed-word actions and lazy legal actions."""

from __future__ import annotations

import copy
import functools
import itertools
import pickle
import random
from collections.abc import Callable
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardcore import (
    CardAction,
    CardSubsets,
    ConcatActions,
    LazyActions,
    WordAction,
    card_ids,
    parse_card,
    parse_cards,
)
from cardcore._lazy import card_subsets_after


class Play(CardAction, verb="play"):
    """Play a card."""

    __slots__ = ()


class Leave(CardAction, verb="leave"):
    """Leave a card."""

    __slots__ = ()


def _high_first(c: int) -> tuple[int, int]:
    return (-(c % 13), -(c // 13))


class Steal(CardAction, verb="steal", sizes=(1, 2, 3), key=_high_first):
    """Offer one to three cards."""

    __slots__ = ()

    @property
    def value(self) -> int:
        return sum(int(c.rank) for c in self.cards)


class Take(CardAction, verb="take", sizes=(2,), separator=" "):
    """Take two cards."""

    __slots__ = ()


VALUE = tuple(c % 13 + 2 for c in range(52))


def test_one_shared_instance_per_card_set() -> None:
    """Every way of naming an action gives the same object, so equality is identity."""
    seven = parse_card("7♦")
    a = Play(seven)
    assert a is Play.of(seven.id) is Play.from_mask(seven.bit) is Play.parse("play 7d")
    assert a is Play([seven]) is pickle.loads(pickle.dumps(a)) is copy.deepcopy(a) is copy.copy(a)
    assert a == Play.parse("PLAY 7♦") and hash(a) == hash(Play.parse("play 7♦"))
    assert a != Leave(seven) and Leave(seven) is Leave.of(seven.id)
    assert a.card == seven and a.card_id == seven.id and a.mask == seven.bit
    assert {a: 1}[Play.parse("play 7d")] == 1


def test_singles_of_a_mask_are_the_shared_actions_in_card_order() -> None:
    """``singles(mask)``: one shared single-card action per card of the mask, by id."""
    r = random.Random(6)
    for size in (0, 1, 2, 3, 5, 52):
        ids = sorted(r.sample(range(52), size))
        mask = sum(1 << c for c in ids)
        got = Play.singles(mask)
        assert got == tuple(Play.of(c) for c in ids)
        assert all(a is Play.of(c) for a, c in zip(got, ids, strict=True))
        assert Leave.singles(mask) == tuple(Leave.of(c) for c in card_ids(mask))
    for bad in (-1, 1 << 52):
        with pytest.raises(ValueError, match="not a card mask"):
            Play.singles(bad)
    with pytest.raises(ValueError, match="does not take a single card"):
        Take.singles(3)


@given(st.integers(0, (1 << 52) - 1))
def test_singles_of_any_mask_walk_its_cards(mask: int) -> None:
    """Any hand, however large (read suit by suit), gives its cards' shared actions by id."""
    want = tuple(Play.of(c) for c in range(52) if (mask >> c) & 1)
    got = Play.singles(mask)
    assert got == want and all(a is b for a, b in zip(got, want, strict=True))
    assert Play.singles(mask) == want  # again, from the suits' tables built on first use
    assert Leave.singles(mask) == tuple(Leave.of(c) for c in card_ids(mask))


_PIQUET_DECK = sum(1 << (13 * s + r) for s in range(4) for r in range(5, 13))  # 7 to ace
_ODD_DECK = 0b1010000000001 | 0b111 << 13 | 1 << 51  # gaps, a short suit, no hearts


@functools.cache
def _singles_in(kind: type[Play | Leave], deck: int) -> Callable[[int], tuple[CardAction, ...]]:
    """``kind.singles_in(deck)``, built once per test session (a full deck takes a moment)."""
    return kind.singles_in(deck)


@settings(max_examples=200, deadline=None)  # the first example builds the tables
@given(st.sampled_from([(1 << 52) - 1, _PIQUET_DECK, _ODD_DECK, 0]), st.integers(0, (1 << 52) - 1))
def test_singles_in_a_deck_read_like_singles(deck: int, cards: int) -> None:
    """``singles_in(deck)``: the same shared actions as ``singles`` for any mask of the deck."""
    mask = cards & deck
    for kind in (Play, Leave):
        got = _singles_in(kind, deck)(mask)
        want = kind.singles(mask)
        assert got == want and all(a is b for a, b in zip(got, want, strict=True))


def test_singles_in_checks_the_deck() -> None:
    """The deck must be a card mask, and the class must take a single card."""
    for bad in (-1, 1 << 52):
        with pytest.raises(ValueError, match="not a card mask"):
            Play.singles_in(bad)
    with pytest.raises(ValueError, match="does not take a single card"):
        Take.singles_in(7)


def test_singles_of_every_size_and_suit_pattern() -> None:
    """Hands of 0 to 52 cards, and every rank pattern of one suit, read as a plain walk."""
    r = random.Random(8)
    for size in range(53):
        for _ in range(5):
            mask = sum(1 << c for c in r.sample(range(52), size))
            assert Play.singles(mask) == tuple(Play.of(c) for c in card_ids(mask))
    for suit in range(4):
        for bits in range(1 << 13):
            mask = bits << (13 * suit)
            assert Leave.singles(mask) == tuple(Leave.of(c) for c in card_ids(mask))


def test_text_form_and_card_order() -> None:
    """Cards print in the class's order, whatever order they came in, and read back."""
    s = Steal(parse_cards("4♦ Q♣ 4♠"))
    assert str(s) == "steal Q♣+4♠+4♦" and repr(s) == "Steal(steal Q♣+4♠+4♦)"
    assert s is Steal.parse("steal 4d+4s+qc") is Steal.parse("steal 4♠, Q♣ 4♦")
    assert s.value == 20
    t = Take(parse_cards("9♠ K♦"))
    assert str(t) == "take K♦ 9♠" and Take.parse(str(t)) is t
    assert str(Play.parse("play 10h")) == "play 10♥"
    for action in (s, t, Play.parse("play Th")):
        assert type(action).parse(str(action)) is action


def test_bad_input_is_refused_with_a_clear_error() -> None:
    """Wrong verbs, counts, repeats and garbage raise ValueError naming the input."""
    with pytest.raises(ValueError, match="not a play action: 'steal 7♦'"):
        Play.parse("steal 7♦")
    with pytest.raises(ValueError, match="not a play action: 'play'"):
        Play.parse("play")
    with pytest.raises(ValueError, match="not a play action: 'play 7x'"):
        Play.parse("play 7x")
    with pytest.raises(ValueError, match="takes 1 card"):
        Play.parse("play 7d 8d")
    with pytest.raises(ValueError, match="takes 2 card"):
        Take.parse("take 7d")
    with pytest.raises(ValueError, match="appears twice"):
        Steal(parse_cards("7d 7d"))
    with pytest.raises(ValueError, match="takes 1 or 2 or 3"):
        Steal.from_mask(0)
    with pytest.raises(ValueError, match="not a card mask"):
        Play.from_mask(1 << 60)
    with pytest.raises(TypeError, match="takes cards"):
        Steal(["7d"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="single card"):
        Take.of(3)
    with pytest.raises(ValueError, match="has 2 cards"):
        _ = Take(parse_cards("9♠ K♦")).card
    with pytest.raises(ValueError, match="not a play action"):
        Play.parse(None)


def test_actions_are_frozen_and_class_options_checked() -> None:
    """Nobody can change a shared action; a subclass must name a proper verb and sizes."""
    a = Play.of(5)
    with pytest.raises(AttributeError, match="frozen"):
        a.mask = 3
    with pytest.raises(AttributeError, match="frozen"):
        del a.cards
    with pytest.raises(TypeError, match="verb"):

        class Bad(CardAction, verb="Play"):
            pass

    with pytest.raises(TypeError, match="sizes"):

        class Bad2(CardAction, verb="x", sizes=(0,)):
            pass


class Pass(WordAction, text="pass"):
    """Pass."""

    __slots__ = ()


class TakeBack(WordAction, text="take back"):
    """Take a card back."""

    __slots__ = ()


class OtherPass(WordAction, text="pass"):
    """Another game's pass."""

    __slots__ = ()


def test_a_word_action_is_one_frozen_shared_instance() -> None:
    """``Pass() is Pass()``, printed as its text, the same object after pickling or copying."""
    assert Pass() is Pass() and Pass() == Pass() and hash(Pass()) == hash(Pass())
    assert str(TakeBack()) == TakeBack.text == "take back" and repr(TakeBack()) == "TakeBack()"
    for a in (Pass(), TakeBack()):
        assert pickle.loads(pickle.dumps(a)) is a and copy.copy(a) is a and copy.deepcopy(a) is a
    others: tuple[object, ...] = (OtherPass(), TakeBack(), "pass")
    assert all(Pass() != b for b in others), "other classes are never equal, even same text"
    with pytest.raises(AttributeError, match="frozen"):
        Pass().text = "fold"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="frozen"):
        del TakeBack().x  # type: ignore[attr-defined]


@pytest.mark.parametrize("text", ["", "Pass", " pass", "take  back", "take back "])
def test_a_word_action_needs_lower_case_words(text: str) -> None:
    """The text is lower-case words with single spaces, as the parsers read them."""
    with pytest.raises(TypeError, match="lower-case words"):

        class Bad(WordAction, text=text):
            pass


def test_the_word_action_base_has_no_instance() -> None:
    """Only a subclass, which names its text, has an instance."""
    with pytest.raises(TypeError, match="subclass it with a text"):
        WordAction()


def _reference(
    mask: int, sizes: tuple[int, ...], above: int | None, weights: tuple[int, ...] = VALUE
) -> list[int]:
    """The masks CardSubsets must list, in its documented order, built the slow way."""
    ids = sorted(card_ids(mask), key=lambda c: (weights[c], c))
    out = []
    for size in sizes:
        for combo in itertools.combinations(ids, size):
            if above is None or sum(weights[c] for c in combo) > above:
                m = 0
                for c in combo:
                    m |= 1 << c
                out.append(m)
    return out


@settings(max_examples=200, deadline=None)
@given(
    mask=st.integers(0, (1 << 52) - 1).map(lambda m: m & random.Random(m).getrandbits(52)),
    sizes=st.sampled_from([(1,), (2,), (3,), (1, 2), (1, 2, 3), (2, 3)]),
    above=st.one_of(st.none(), st.integers(0, 40)),
)
def test_card_subsets_list_exactly_the_sets_in_order(
    mask: int, sizes: tuple[int, ...], above: int | None
) -> None:
    """Length, every index, iteration and membership agree with a plain listing."""
    mask &= (1 << 52) - 1
    if mask.bit_count() > 14:
        mask &= (1 << 20) - 1 | (1 << 45)
    lazy = CardSubsets(Steal, mask, sizes=sizes, weights=VALUE, above=above)
    want = [Steal.from_mask(m) for m in _reference(mask, sizes, above)]
    assert len(lazy) == len(want)
    assert [lazy[i] for i in range(len(lazy))] == want == list(lazy)
    assert list(lazy.masks()) == [w.mask for w in want] and lazy.action is Steal
    assert lazy == tuple(want) and tuple(want) == lazy and hash(lazy) == hash(tuple(want))
    for a in want:
        assert a in lazy
    outside = [Steal.from_mask(m) for m in _reference(((1 << 52) - 1) & ~mask, (1,), None)[:5]]
    for a in outside:
        assert a not in lazy
    wanted = set(want)
    for m in _reference(mask, (1, 2, 3), None)[:300]:  # the right cards, too little value
        if Steal.from_mask(m) not in wanted:
            assert Steal.from_mask(m) not in lazy
    if want:
        assert lazy[-1] == want[-1] and lazy[1:3] == tuple(want[1:3])
        assert random.Random(1).choice(lazy) == random.Random(1).choice(want)


def test_card_subsets_without_weights_and_membership_edges() -> None:
    """Without weights every set of the sizes is listed, in card-id order."""
    hand = parse_cards("2♣ 3♣ 4♣ 5♣")
    mask = sum(c.bit for c in hand)
    lazy = CardSubsets(Steal, mask, sizes=(2,))
    assert [str(a) for a in lazy] == [
        "steal 3♣+2♣",
        "steal 4♣+2♣",
        "steal 5♣+2♣",
        "steal 4♣+3♣",
        "steal 5♣+3♣",
        "steal 5♣+4♣",
    ]
    assert Steal(hand[:1]) not in lazy, "wrong size"
    other: object = Play(hand[0])
    assert other not in lazy, "wrong class"
    text: object = "steal 3♣+2♣"
    assert text not in lazy, "text is not an action"
    with pytest.raises(IndexError, match="out of range"):
        lazy[6]
    with pytest.raises(ValueError, match="needs 'weights'"):
        CardSubsets(Steal, mask, above=3)
    with pytest.raises(ValueError, match="sizes must be"):
        CardSubsets(Steal, mask, sizes=(4,))
    empty = CardSubsets(Steal, 0)
    assert len(empty) == 0 and not empty and list(empty) == [] and empty == ()
    assert "0 actions" in repr(empty) and "6 actions: steal 3♣+2♣" in repr(lazy)


def test_card_subsets_read_weights_of_any_sequence_and_refuse_others() -> None:
    """A list of weights lists what the same tuple does; a weight that is no int is named."""
    mask = sum(c.bit for c in parse_cards("2♣ 9♦ 9♥ J♠ K♣ A♦ 4♥"))
    for sizes, above in (((1, 2, 3), 20), ((2, 3), None), ((3,), 12)):
        from_tuple = CardSubsets(Steal, mask, sizes=sizes, weights=VALUE, above=above)
        from_list = CardSubsets(Steal, mask, sizes=sizes, weights=list(VALUE), above=above)
        want = [Steal.from_mask(m) for m in _reference(mask, sizes, above)]
        assert list(from_tuple) == list(from_list) == want
        assert [from_list[i] for i in range(len(want))] == want
    with pytest.raises(ValueError, match=r"weights must be ints, not 2\.5"):
        CardSubsets(Steal, mask, weights=[2.5] * 52, above=3)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="weights must be ints"):
        CardSubsets(Steal, mask, weights=(2.5,) * 52, above=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="sizes must be"):
        CardSubsets(Steal, mask, sizes=[0, 1])


@settings(max_examples=100, deadline=None)
@given(
    weights=st.lists(st.integers(-6, 6), min_size=52, max_size=52).map(tuple),
    mask=st.integers(0, (1 << 52) - 1),
    sizes=st.sampled_from([(1,), (2,), (2, 3), (1, 2, 3)]),
    above=st.integers(-12, 12),
)
def test_card_subsets_rank_any_weights_tuple_as_sorting_does(
    weights: tuple[int, ...], mask: int, sizes: tuple[int, ...], above: int
) -> None:
    """Weights with ties and negatives: a tuple (cards ranked a weight at a time, kept
    per tuple) lists what a list (the keys sorted) and the slow reference list."""
    mask &= random.Random(mask).getrandbits(52) & random.Random(~mask).getrandbits(52)
    want = _reference(mask, sizes, above, weights)
    for _ in range(2):  # the second time from the kept ranking
        from_tuple = CardSubsets(Steal, mask, sizes=sizes, weights=weights, above=above)
        assert list(from_tuple.masks()) == want
        assert [a.mask for a in from_tuple] == want
    from_list = CardSubsets(Steal, mask, sizes=sizes, weights=list(weights), above=above)
    assert list(from_list.masks()) == want


def test_card_subsets_sort_short_or_partly_bad_weights_and_still_name_the_bad_one() -> None:
    """Fewer than 52 weights, or one that is no int on a card not offered, still list the
    sets (the keys sorted); offering the card whose weight is no int is refused."""
    short = tuple(range(20, 0, -1))  # cards 0-19 only, the highest id the lightest
    mask = 0b1011_0110_1101
    want = _reference(mask, (1, 2), 25, short)
    assert [a.mask for a in CardSubsets(Steal, mask, sizes=(1, 2), weights=short, above=25)] == want
    bad = (*VALUE[:51], cast("int", 2.5))
    mask = sum(c.bit for c in parse_cards("2♣ 9♦ 9♥ J♠ K♣ A♦ 4♥"))
    for _ in range(2):
        sets = CardSubsets(Steal, mask, sizes=(2, 3), weights=bad, above=20)
        assert [a.mask for a in sets] == _reference(mask, (2, 3), 20)
    with pytest.raises(ValueError, match=r"weights must be ints, not 2\.5 \(card 51\)"):
        CardSubsets(Steal, mask | 1 << 51, weights=bad, above=3)


def test_card_subsets_after_a_head_lists_what_concat_does() -> None:
    """``card_subsets_after``: the head, then the sets (just the head when none fit)."""
    head = (Play(parse_cards("2♣")[0]),)
    mask = sum(c.bit for c in parse_cards("2♣ 9♦ 9♥ J♠ K♣ A♦ 4♥ 7♠"))
    for sizes, above in (((2,), 12), ((2, 3), 20), ((2, 3), 30)):
        got = card_subsets_after(head, Steal, mask, sizes, VALUE, above)
        sets = CardSubsets(Steal, mask, sizes=sizes, weights=VALUE, above=above)
        assert isinstance(got, ConcatActions)
        assert list(got) == list(ConcatActions(head, sets)) == [*head, *sets]
        assert [got[i] for i in range(len(got))] == list(got)
    assert card_subsets_after(head, Steal, mask, (2,), VALUE, 40) is head


def test_concat_joins_fixed_and_lazy_parts() -> None:
    """A fixed action then lazy ones: one sequence, membership asking each part."""
    decline = Play.of(0)
    steals = CardSubsets(Steal, sum(c.bit for c in parse_cards("9♥ 10♥ J♥")), sizes=(1, 2))
    legal = ConcatActions((decline,), (), steals)
    want = (decline, *steals)
    assert len(legal) == 7 and tuple(legal) == want and legal == want
    assert [legal[i] for i in range(7)] == list(want) and legal[-1] is want[-1]
    assert decline in legal and steals[3] in legal and Play.of(1) not in legal
    assert legal.index(steals[2]) == 3 and legal.count(decline) == 1
    assert len(ConcatActions()) == 0 and ConcatActions() == ()
    assert legal != want[:-1] and legal != list(want) and legal != "x"


def test_reading_by_index_is_the_listing_and_checks_its_bounds() -> None:
    """The plain-index path of lazy parts (nested too) agrees with the full listing."""
    steals = CardSubsets(Steal, sum(c.bit for c in parse_cards("9♥ 10♥ J♥ Q♠")), sizes=(1, 2))
    inner = ConcatActions((Play.of(0),), steals)
    outer = ConcatActions([Play.of(1)], inner, (Play.of(2),))
    listed = (Play.of(1), Play.of(0), *steals, Play.of(2))
    n = len(listed)
    assert len(outer) == n and [outer[i] for i in range(n)] == list(listed)
    assert [outer[i - n] for i in range(n)] == list(listed), "negative indexes"
    assert [steals[i] for i in range(len(steals))] == list(steals)
    assert outer[2:5] == listed[2:5] and steals[1:3] == tuple(steals)[1:3]
    for bad in (n, -n - 1):
        with pytest.raises(IndexError, match=f"legal action index {bad} out of range"):
            outer[bad]
    with pytest.raises(IndexError, match="out of range"):
        steals[len(steals)]
    with pytest.raises(IndexError, match="out of range"):
        CardSubsets(Steal, 0)[0]


def test_a_lazy_sequence_needs_only_len_and_item() -> None:
    """The base gives the rest; the default membership reads the actions."""

    class Evens(LazyActions[int]):
        __slots__ = ("n",)

        def __init__(self, n: int) -> None:
            self.n = n

        def __len__(self) -> int:
            return self.n

        def _item(self, index: int) -> int:
            return 2 * index

    e = Evens(4)
    assert tuple(e) == (0, 2, 4, 6) and 4 in e and 5 not in e and e[-2] == 4
    assert list(reversed(e)) == [6, 4, 2, 0] and e[::2] == (0, 4)
    assert Evens(4) == Evens(4) and Evens(3) != Evens(4)


def test_lazy_actions_of_builds_each_action_when_read() -> None:
    """LazyActions.of: a length and a function of the index; membership by the given test."""
    reads: list[int] = []

    def item(i: int) -> str:
        reads.append(i)
        return f"a{i}"

    legal = LazyActions.of(4, item, contains=lambda v: isinstance(v, str) and v[:1] == "a")
    assert len(legal) == 4 and reads == []
    assert legal[2] == "a2" and reads == [2]
    assert legal == ("a0", "a1", "a2", "a3")
    assert "a9" in legal and "b1" not in legal
    assert "a1" in LazyActions.of(2, item) and "a7" not in LazyActions.of(2, item)
    assert repr(legal).startswith("LazyActions.of(4 actions: a0, a1, a2, a3")
    with pytest.raises(ValueError, match="count must be at least 0"):
        LazyActions.of(-1, item)
