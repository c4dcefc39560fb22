"""The card table: zones, moves, knowledge, views and determinisation."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardcore import DECK_36, DECK_52, CardTable, Layout, Visibility, Zone, parse_card, sample_table
from cardcore._table import SPECTATOR

STOCK, H0, H1, H2, PILE, TRICK, BOX0 = range(7)


def layout() -> Layout:
    return Layout(
        (
            Zone("stock", Visibility.HIDDEN, ordered=True),
            Zone("hand0", Visibility.OWNER, owner=0),
            Zone("hand1", Visibility.OWNER, owner=1),
            Zone("hand2", Visibility.OWNER, owner=2),
            Zone("pile", Visibility.PUBLIC),
            Zone("trick", Visibility.PUBLIC, ordered=True),
            Zone("box0", Visibility.HIDDEN),
        ),
        3,
        (1 << 52) - 1,
    )


def dealt(seed: int = 0) -> CardTable:
    t = layout().new_table([c.id for c in DECK_52], "stock")
    t, _ = t.shuffle(STOCK, seed + 1)
    for _ in range(5):
        for h in (H0, H1, H2):
            _, t = t.draw(STOCK, h)
    for _ in range(3):
        _, t = t.draw(STOCK, BOX0)
    return t


def c(text: str) -> int:
    return parse_card(text).id


def test_new_table_keeps_deck_order_top_first() -> None:
    """A stacked deck is given top card first; drawing takes that card first."""
    order = [x.id for x in DECK_52]
    t = layout().new_table(order, "stock")
    card, t2 = t.draw(STOCK, H0)
    assert card == order[0]
    assert t2.size(H0) == 1


def test_new_table_rejects_a_deck_with_missing_or_repeated_cards() -> None:
    """A stacked deck must hold each card once."""
    with pytest.raises(ValueError, match="exactly once"):
        layout().new_table([0, 0, *range(2, 52)], "stock")


def test_layout_rejects_duplicate_zone_names_and_ownerless_hands() -> None:
    """Zone names are unique and OWNER zones have an owner."""
    with pytest.raises(ValueError, match="unique"):
        Layout((Zone("a", Visibility.PUBLIC), Zone("a", Visibility.PUBLIC)), 2, 1)
    with pytest.raises(ValueError, match="owner"):
        Zone("hand", Visibility.OWNER)


def test_owner_sees_own_hand_only() -> None:
    """A seat knows its own hand, not the others', and nobody knows the stock or a box."""
    t = dealt()
    v0 = t.view(0)
    assert v0.known[H0] == t.masks[H0]
    assert v0.known[H1] == 0
    assert v0.sizes[H1] == 5
    assert v0.known[BOX0] == 0
    assert all(x == -1 for x in v0.orders[STOCK])


def test_public_move_is_known_to_all_and_stays_known() -> None:
    """A card played face up is known to everyone, and still known after it moves on openly."""
    t = dealt()
    card = next(iter(t.cards(H1))).id
    t = t.move(card, H1, TRICK)
    assert all(t.knows(s, card) for s in range(3))
    t = t.move(card, TRICK, H2)
    assert all(t.knows(s, card) for s in range(3))
    assert card in [x.id for x in t.view(0).cards(H2)]


def test_private_draw_is_seen_only_by_the_drawer() -> None:
    """A card drawn from the stock is known to the drawer only."""
    t = dealt()
    card, t = t.draw(STOCK, H1)
    assert t.knows(1, card)
    assert not t.knows(0, card)
    assert not t.knows(2, card)


def test_secret_move_makes_onlookers_forget_the_source_zone() -> None:
    """A card picked unseen from a hand blurs what others knew of that hand."""
    t = dealt()
    shown = next(iter(t.cards(H1))).id
    t = t.reveal(1 << shown, t.layout.all_seats)
    assert t.knows(2, shown)
    other = next(x.id for x in t.cards(H1) if x.id != shown)
    t2 = t.move(other, H1, H0, seen=0b011, secret=True)
    assert t2.knows(0, other) and t2.knows(1, other)
    assert not t2.knows(2, shown), "seat 2 cannot tell which card left hand1"
    assert not t2.knows(2, other)


def test_swap_to_bottom_is_public_and_positions_stay_known() -> None:
    """A card put face up at the bottom of the stock is known there by all."""
    t = dealt()
    card = next(iter(t.cards(H0))).id
    t = t.move(card, H0, TRICK).move(card, TRICK, STOCK, bottom=True)
    assert t.orders[STOCK][0] == card
    for s in range(3):
        assert t.view(s).orders[STOCK][0] == card
        assert t.view(s).orders[STOCK][1] == -1


def test_shuffle_forgets_positions() -> None:
    """After a shuffle nobody knows where the stock's cards are."""
    t = dealt()
    card = next(iter(t.cards(H0))).id
    t = t.move(card, H0, TRICK).move(card, TRICK, STOCK, bottom=True)
    t, _ = t.shuffle(STOCK, 99)
    assert not any(t.knows(s, card) for s in range(3))


def test_gather_collects_everything_and_forgets() -> None:
    """Gathering returns every card to one hidden zone, known to nobody."""
    t = dealt().gather(STOCK)
    assert t.size(STOCK) == 52
    assert t.known == (0, 0, 0)
    t.check()


def test_move_of_a_card_not_in_the_source_is_refused() -> None:
    """Moving a card from the wrong zone raises and names both."""
    t = dealt()
    card = next(iter(t.cards(H0))).id
    with pytest.raises(ValueError, match="not in zone 'hand1'"):
        t.move(card, H1, PILE)


def test_check_catches_a_vanished_card() -> None:
    """check() reports a card missing from every zone."""
    t = dealt()
    masks = list(t.masks)
    masks[H0] &= masks[H0] - 1
    broken = CardTable(t.layout, tuple(masks), t.orders, t.known)
    with pytest.raises(AssertionError, match="card conservation"):
        broken.check()


def test_check_catches_a_duplicated_card() -> None:
    """check() reports a card in two zones."""
    t = dealt()
    masks = list(t.masks)
    masks[PILE] |= t.masks[H0]
    broken = CardTable(t.layout, tuple(masks), t.orders, t.known)
    with pytest.raises(AssertionError, match="in two zones"):
        broken.check()


def test_spectator_sees_only_what_everyone_knows() -> None:
    """The onlooker view shows public cards and no hand."""
    t = dealt()
    card = next(iter(t.cards(H0))).id
    t = t.move(card, H0, PILE)
    v = t.view(SPECTATOR)
    assert v.known[PILE] == 1 << card
    assert v.known[H0] == v.known[H1] == 0


@settings(max_examples=60)
@given(st.integers(0, 10**6), st.integers(0, 2), st.integers(0, 10**6))
def test_sampled_table_gives_the_same_view(seed: int, seat: int, sample_seed: int) -> None:
    """Non-interference: a determinisation of a seat's view looks the same to that seat."""
    t = dealt(seed)
    t = t.move(next(iter(t.cards(H1))).id, H1, PILE)
    view = t.view(seat)
    sampled = sample_table(view, random.Random(sample_seed))
    sampled.check()
    assert sampled.view(seat) == view


def test_sampling_redeals_hidden_cards() -> None:
    """Different samples put different cards in an unseen hand."""
    t = dealt()
    hands = {sample_table(t.view(0), random.Random(i)).masks[H1] for i in range(20)}
    assert len(hands) > 10


def test_sampling_respects_exclusions() -> None:
    """A seat known to be void in a suit is dealt none of it."""
    t = dealt()
    hearts = sum(1 << x.id for x in DECK_52 if x.suit.name == "HEARTS")
    for i in range(30):
        s = sample_table(t.view(0), random.Random(i), exclude={H1: hearts})
        assert s.masks[H1] & hearts == 0 or s.masks[H1] & hearts & t.view(0).known[H1]


def test_sampling_reports_impossible_constraints() -> None:
    """Constraints that no deal satisfies raise ValueError."""
    t = dealt()
    with pytest.raises(ValueError, match="constraints"):
        sample_table(t.view(0), random.Random(0), exclude={H1: (1 << 52) - 1}, tries=5)


def test_view_json_round_trip() -> None:
    """A view survives JSON, unknown cards included."""
    from cardcore import TableView

    t = dealt()
    v = t.view(1)
    assert TableView.from_json(t.layout, v.to_json()) == v


def test_36_card_layout() -> None:
    """A layout may use the 36-card deck."""
    deck = sum(1 << x.id for x in DECK_36)
    lay = Layout((Zone("stock", Visibility.HIDDEN, ordered=True),), 4, deck)
    t = lay.new_table([x.id for x in DECK_36], 0)
    t.check()
    assert t.size(0) == 36


def test_onlooker_sampling_keeps_what_everyone_knows() -> None:
    """A card shown to everyone inside a hand stays known to all seats in a sampled table."""
    t = dealt()
    card = next(iter(t.cards(H1))).id
    t = t.reveal(1 << card, t.layout.all_seats)
    view = t.view(SPECTATOR)
    sampled = sample_table(view, random.Random(3))
    assert sampled.view(SPECTATOR) == view
    assert all(sampled.knows(s, card) for s in range(3))


def test_lazy_view_equals_the_view_built_from_its_parts() -> None:
    """A view made by ``CardTable.view`` is the same value as one built from its parts."""
    import copy
    import pickle

    import attrs

    from cardcore import TableView

    t = dealt(3)
    for seat in (0, 1, 2, SPECTATOR):
        lazy = t.view(seat)
        eager = TableView(t.layout, seat, lazy.sizes, lazy.known, lazy.orders)
        fresh = t.view(seat)
        assert fresh == eager and eager == fresh and hash(fresh) == hash(eager)
        assert repr(t.view(seat)) == repr(eager)
        assert pickle.loads(pickle.dumps(t.view(seat))) == eager
        assert copy.deepcopy(t.view(seat)) == eager
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            lazy.seat = 1
    assert t.view(0) != t.view(1)
    assert t.view(0) != t.view(0).known
    with pytest.raises(ValueError, match="no seat 3"):
        t.view(3)
    with pytest.raises(ValueError, match="no seat -2"):
        t.view(-2)


def test_lazy_view_reads_the_table_it_was_made_from() -> None:
    """The parts of a lazy view are those of the table at the time of the view."""
    t = dealt(4)
    v = t.view(1)
    card = next(iter(t.cards(H1))).id
    t2 = t.move(card, H1, PILE)
    assert v.known[H1] == t.masks[H1]
    assert v.sizes[PILE] == 0
    assert t2.view(1).sizes[PILE] == 1
    assert v.orders[STOCK] == tuple([-1] * len(t.orders[STOCK]))


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    seat=st.sampled_from([0, 1, 2, SPECTATOR]),
    sample_seed=st.integers(0, 10_000),
    moves=st.integers(0, 12),
    exclude=st.dictionaries(
        st.sampled_from([STOCK, H0, H1, H2, PILE, TRICK, BOX0, 9]),
        st.sampled_from([0, 0x1FFF, 0x1FFF << 13, 0b1011 << 26, 1 << 51, (1 << 40) - 1]),
        max_size=3,
    ),
)
def test_sample_table_deals_exactly_as_the_reference(
    seed: int, seat: int, sample_seed: int, moves: int, exclude: dict[int, int]
) -> None:
    """For the same random state, the fast sampler deals the very same table as the plain
    one it replaced (constraints or none, effective or not), or fails alike."""
    from tests._sample_reference import reference_sample_table

    t = dealt(seed)
    rng = random.Random(seed)
    for _ in range(moves):  # some public cards, some secret moves, a shuffle
        src = rng.choice([H0, H1, H2])
        card = rng.choice(t.cards(src)).id if t.size(src) else None
        if card is not None:
            t = t.move(card, src, rng.choice([PILE, TRICK, H0]), secret=rng.random() < 0.3)
    view = t.view(seat)
    try:
        want: CardTable | str = reference_sample_table(
            view, random.Random(sample_seed), exclude=exclude, tries=20
        )
    except ValueError as e:
        want = str(e)
    try:
        got: CardTable | str = sample_table(
            view, random.Random(sample_seed), exclude=exclude, tries=20
        )
    except ValueError as e:
        got = str(e)
    if isinstance(want, str):
        assert isinstance(got, str) and "constraints" in got and "constraints" in want
    else:
        assert got == want
        assert isinstance(got, CardTable) and got.view(seat) == view


def test_a_view_holds_nothing_of_the_table_it_came_from() -> None:
    """No object reachable from a seat's view is the table or its hidden order."""
    import gc

    from cardcore import DECK_52, CardTable, Layout, Visibility, Zone

    layout = Layout(
        (
            Zone("stock", Visibility.HIDDEN, ordered=True),
            Zone("hand0", Visibility.OWNER, owner=0),
            Zone("hand1", Visibility.OWNER, owner=1),
        ),
        2,
        (1 << 52) - 1,
    )
    table = layout.new_table([c.id for c in DECK_52], "stock")
    _, table = table.draw(0, 1)
    _, table = table.draw(0, 2)
    secret = table.orders[0]
    for seat in (-1, 0, 1):
        view = table.view(seat)
        seen: set[int] = set()
        todo: list[object] = [view]
        while todo:
            obj = todo.pop()
            if id(obj) in seen or isinstance(obj, (Layout, type)):
                continue
            seen.add(id(obj))
            assert not isinstance(obj, CardTable), f"seat {seat}'s view reaches the table"
            assert not (type(obj) is tuple and obj == secret), f"seat {seat} sees the stock"
            todo.extend(gc.get_referents(obj))
