"""The card table: where every card is, and which seats know it.

One structure decides hidden information for every game. A :class:`Layout` names the
zones of a game (stock, hands, piles, table, ...) and who may look into each; a
:class:`CardTable` is an immutable value holding the cards of each zone plus, per seat,
the set of cards whose location that seat knows (perfect recall). Games move cards
through the table and say who sees each move; observations project the table for one
seat (:meth:`CardTable.view`), and determinisation deals the cards a seat does not know
into the places it cannot see (:func:`sample_table`).

Inside, cards are ids (0..51) and sets of cards are ``int`` bitmasks, so a move costs a
few tuple operations.

Knowledge rules (each is enforced here, not by the games):

* a card in a ``PUBLIC`` zone is known to every seat; a card in an ``OWNER`` zone is
  known to its owner; nobody looks into a ``HIDDEN`` zone;
* a move is seen by the seats given as ``seen``, plus everyone who can look into the
  source or the destination zone; those seats know where the card now is;
* a seat that does not see a move keeps what it knew, since the position the card left
  from is public (the top of the stock, a named card), unless the move is ``secret``
  (a card picked unseen from a zone): then that seat forgets the location of every card
  that was in the source zone, because it cannot tell which one left;
* shuffling a zone makes its order unknown to everyone who cannot look into it.
"""

from __future__ import annotations

import enum
import functools
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final, NamedTuple, final

import attrs

from cardcore._cards import Card, card_ids, cards_of
from cardcore._projection import known_of, sizes_of
from cardcore._rng import rng_below, shuffle_like_random

__all__ = ["CardTable", "Layout", "TableView", "Visibility", "Zone", "new_table", "sample_table"]

SPECTATOR: Final = -1
"""The seat number of an onlooker who sees only what every seat sees."""

CARD_TEXT: Final = tuple(str(Card.of(c)) for c in range(52))
"""Per card id, the card's text (``10♥``), as JSON data shows it."""


class Visibility(enum.Enum):
    """Who may look into a zone."""

    PUBLIC = "public"
    """Face up: every seat sees the cards (a trick, a capture pile, a turn-up)."""
    OWNER = "owner"
    """Seen by the zone's owner only (a hand)."""
    HIDDEN = "hidden"
    """Face down: nobody looks (a stock, a hole card, a box)."""


@final
@attrs.frozen
class Zone:
    """One zone of a layout."""

    name: str
    """Unique name, e.g. ``"stock"``, ``"hand1"``."""
    visibility: Visibility
    """Who may look into the zone."""
    owner: int | None = None
    """The owning seat, for ``OWNER`` zones (and for per-seat public zones)."""
    ordered: bool = False
    """Whether order matters (stock, trick): then positions are tracked, bottom first."""

    def __attrs_post_init__(self) -> None:
        if self.visibility is Visibility.OWNER and self.owner is None:
            raise ValueError(f"zone {self.name!r}: an OWNER zone needs an owner seat")


def _popcount(m: int) -> int:
    return m.bit_count()


@final
@attrs.frozen(repr=False, cache_hash=True)
class Layout:
    """The zones of a game for a number of seats, and the deck in play.

    A layout is fixed per game and player count; build it once and share it.
    """

    zones: tuple[Zone, ...]
    """Every zone, in a fixed order (the zone index is its position here)."""
    num_seats: int
    """Number of seats at the table."""
    deck: int
    """Bitmask of the cards in play (52 or 36 cards, or any subset)."""
    index: Mapping[str, int] = attrs.field(init=False, eq=False)
    """Zone name to zone index."""
    watchers: tuple[int, ...] = attrs.field(init=False, eq=False)
    """Per zone, the seat mask of who may look into it."""
    all_seats: int = attrs.field(init=False, eq=False)
    """Seat mask with every seat set."""
    ordered: tuple[bool, ...] = attrs.field(init=False, eq=False)
    """Per zone, whether it is ordered."""
    ordered_zones: tuple[int, ...] = attrs.field(init=False, eq=False)
    """The indexes of the ordered zones."""

    def __attrs_post_init__(self) -> None:
        names = [z.name for z in self.zones]
        if len(set(names)) != len(names):
            raise ValueError(f"zone names must be unique: {names}")
        everyone = (1 << self.num_seats) - 1
        watchers = []
        for z in self.zones:
            if z.visibility is Visibility.PUBLIC:
                watchers.append(everyone)
            elif z.visibility is Visibility.OWNER:
                assert z.owner is not None
                if not 0 <= z.owner < self.num_seats:
                    raise ValueError(f"zone {z.name!r}: owner {z.owner} is not a seat")
                watchers.append(1 << z.owner)
            else:
                watchers.append(0)
        object.__setattr__(self, "index", {n: i for i, n in enumerate(names)})
        object.__setattr__(self, "watchers", tuple(watchers))
        object.__setattr__(self, "all_seats", everyone)
        object.__setattr__(self, "ordered", tuple(z.ordered for z in self.zones))
        ordered_zones = tuple(i for i, z in enumerate(self.zones) if z.ordered)
        object.__setattr__(self, "ordered_zones", ordered_zones)

    def __repr__(self) -> str:
        return f"Layout({[z.name for z in self.zones]}, seats={self.num_seats})"

    def zone(self, name: str) -> int:
        """The index of the zone called ``name``."""
        try:
            return self.index[name]
        except KeyError:
            raise KeyError(f"no zone {name!r}; zones are {list(self.index)}") from None

    def new_table(self, order: Sequence[int], into: str | int) -> CardTable:
        """A table with every card of ``order`` (ids, top card first) in one zone.

        Nobody knows anything yet, except what the zone's visibility shows.
        """
        z = into if isinstance(into, int) else self.zone(into)
        mask = 0
        for c in order:
            mask |= 1 << c
        if mask != self.deck or len(order) != _popcount(self.deck):
            raise ValueError("the deck order must hold each card of the deck exactly once")
        masks = [0] * len(self.zones)
        masks[z] = mask
        orders: list[tuple[int, ...]] = [()] * len(self.zones)
        if self.zones[z].ordered:
            orders[z] = tuple(reversed(order))
        known = tuple(mask if (self.watchers[z] >> s) & 1 else 0 for s in range(self.num_seats))
        return CardTable(self, tuple(masks), tuple(orders), known)


class CardTable(NamedTuple):
    """Where every card is and who knows it: an immutable value.

    Every method that changes something returns a new table. Zones are addressed by
    index (fast) as given by :meth:`Layout.zone`. A table is a named tuple so that
    making one costs next to nothing: it is rebuilt on every move.
    """

    layout: Layout
    """The zones this table is laid out in."""
    masks: tuple[int, ...]
    """Per zone, the bitmask of the cards in it."""
    orders: tuple[tuple[int, ...], ...]
    """Per ordered zone, its card ids bottom to top; ``()`` for unordered zones."""
    known: tuple[int, ...]
    """Per seat, the bitmask of cards whose location the seat knows."""

    def __repr__(self) -> str:
        return _table_repr(self)

    # ---- reading -------------------------------------------------------------------

    def mask(self, zone: int) -> int:
        """Bitmask of the cards in a zone."""
        return self.masks[zone]

    def size(self, zone: int) -> int:
        """Number of cards in a zone."""
        return self.masks[zone].bit_count()

    def cards(self, zone: int) -> tuple[Card, ...]:
        """The cards of a zone: bottom to top for ordered zones, else in id order."""
        if self.layout.zones[zone].ordered:
            return tuple(Card.of(c) for c in self.orders[zone])
        return cards_of(self.masks[zone])

    def top(self, zone: int) -> int:
        """The id of the top card of an ordered zone."""
        return self.orders[zone][-1]

    def where(self, card: int) -> int:
        """The index of the zone holding a card id."""
        bit = 1 << card
        for i, m in enumerate(self.masks):
            if m & bit:
                return i
        raise KeyError(f"card {Card.of(card)} is not on the table")

    def knows(self, seat: int, card: int) -> bool:
        """Whether ``seat`` knows where ``card`` is."""
        return bool((self.known[seat] >> card) & 1)

    # ---- moving --------------------------------------------------------------------

    def move(
        self,
        card: int,
        src: int,
        dst: int,
        *,
        seen: int = 0,
        secret: bool = False,
        bottom: bool = False,
    ) -> CardTable:
        """Move one card (by id) from zone ``src`` to zone ``dst``.

        Args:
            card: the card id; it must be in ``src``.
            src: source zone index.
            dst: destination zone index.
            seen: seat mask of seats that see which card moved, beyond those who can look
                into ``src`` or ``dst`` (use ``layout.all_seats`` for a card shown to all).
            secret: the card was picked unseen (at random, face down): seats that do not
                see the move forget every card of ``src``.
            bottom: put the card at the bottom of an ordered ``dst`` instead of the top.

        Returns:
            The new table.
        """
        bit = 1 << card
        layout = self[0]
        masks = list(self[1])
        src_mask = masks[src]
        if not src_mask & bit:
            raise ValueError(f"{Card.of(card)} is not in zone {layout.zones[src].name!r}")
        masks[src] = src_mask ^ bit
        masks[dst] |= bit
        orders = self[2]
        ordered = layout.ordered
        if ordered[src] or ordered[dst]:
            olist = list(orders)
            if ordered[src]:
                o = olist[src]
                if o[-1] == card:
                    olist[src] = o[:-1]
                else:
                    i = o.index(card)
                    olist[src] = o[:i] + o[i + 1 :]
            if ordered[dst]:
                olist[dst] = (card, *olist[dst]) if bottom else (*olist[dst], card)
            orders = tuple(olist)
        watchers = layout.watchers
        seen |= watchers[src] | watchers[dst]
        known = self[3]
        if seen == layout.all_seats:
            known = tuple([k | bit for k in known])
        elif secret:
            known = tuple(
                [k | bit if (seen >> s) & 1 else k & ~src_mask for s, k in enumerate(known)]
            )
        elif seen:
            known = tuple([k | bit if (seen >> s) & 1 else k for s, k in enumerate(known)])
        return _new_table((layout, tuple(masks), orders, known))

    def move_many(self, cards: int, src: int, dst: int, *, seen: int = 0) -> CardTable:
        """Move a set of cards (a mask) between two unordered zones, openly."""
        masks = list(self.masks)
        if masks[src] & cards != cards:
            raise _not_in(self, cards & ~masks[src], src)
        zones = self.layout.zones
        if zones[src].ordered or zones[dst].ordered:
            table = self
            for c in card_ids(cards):
                table = table.move(c, src, dst, seen=seen)
            return table
        masks[src] ^= cards
        masks[dst] |= cards
        watchers = self.layout.watchers
        seen |= watchers[src] | watchers[dst]
        known = tuple(k | cards if (seen >> s) & 1 else k for s, k in enumerate(self.known))
        return CardTable(self.layout, tuple(masks), self.orders, known)

    def draw(self, src: int, dst: int, *, seen: int = 0) -> tuple[int, CardTable]:
        """Move the top card of ordered zone ``src`` to ``dst``; return its id too."""
        card = self.orders[src][-1]
        return card, self.move(card, src, dst, seen=seen)

    def reveal(self, cards: int, seats: int) -> CardTable:
        """Show ``cards`` (a mask) to ``seats`` (a seat mask) where they lie."""
        known = tuple(k | cards if (seats >> s) & 1 else k for s, k in enumerate(self.known))
        return CardTable(self.layout, self.masks, self.orders, known)

    def shuffle(self, zone: int, rng: int) -> tuple[CardTable, int]:
        """Shuffle an ordered zone with the RNG state ``rng``; return the new RNG state.

        Seats that cannot look into the zone forget where its cards are.
        """
        order = list(self.orders[zone])
        for i in range(len(order) - 1, 0, -1):
            j, rng = rng_below(rng, i + 1)
            order[i], order[j] = order[j], order[i]
        orders = list(self.orders)
        orders[zone] = tuple(order)
        w = self.layout.watchers[zone]
        m = self.masks[zone]
        known = tuple(k if (w >> s) & 1 else k & ~m for s, k in enumerate(self.known))
        return CardTable(self.layout, self.masks, tuple(orders), known), rng

    def gather(self, dst: int) -> CardTable:
        """Move every card into zone ``dst`` (unshuffled, in id order), as between hands.

        Seats that cannot look into ``dst`` forget where every card is.
        """
        masks = [0] * len(self.masks)
        everything = 0
        for m in self.masks:
            everything |= m
        masks[dst] = everything
        orders: list[tuple[int, ...]] = [()] * len(self.masks)
        if self.layout.zones[dst].ordered:
            orders[dst] = tuple(card_ids(everything))
        w = self.layout.watchers[dst]
        known = tuple(everything if (w >> s) & 1 else 0 for s in range(self.layout.num_seats))
        return CardTable(self.layout, tuple(masks), tuple(orders), known)

    # ---- projecting ----------------------------------------------------------------

    def view(self, seat: int) -> TableView:
        """What ``seat`` knows of the table (``-1``: an onlooker who sees only the public).

        The view holds only what the seat knows: never the table itself, so nothing in an
        observation reaches a card the seat has not seen.
        """
        layout = self[0]
        if not -1 <= seat < layout.num_seats:
            raise ValueError(f"no seat {seat} at a table of {layout.num_seats}")
        sizes, known, orders = _project(self, seat)
        return TableView(layout, seat, sizes, known, orders)

    def check(self) -> None:
        """Check the table's own invariants (card conservation, consistent knowledge).

        Raises:
            AssertionError: naming the broken invariant.
        """
        _check(self)


_new_table: Callable[
    [tuple[Layout, tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]], CardTable
] = functools.partial(tuple.__new__, CardTable)
"""Build a CardTable from a 4-tuple without the named tuple's argument handling."""

new_table = _new_table
"""``new_table((layout, masks, orders, known))``: a table from its four parts, unchecked.

For games that update the table directly in a hot path; a test should show that what
they build equals the same moves made through :meth:`CardTable.move`."""


def _not_in(table: CardTable, missing: int, zone: int) -> ValueError:
    """The error for cards (a mask) that a move expected in ``zone`` but are not there."""
    names = " ".join(map(str, cards_of(missing)))
    return ValueError(f"{names} not in zone {table.layout.zones[zone].name!r}")


def _table_repr(table: CardTable) -> str:
    """``CardTable(hand0=[...], ...)``: each zone's cards, an ordered zone's bottom first."""
    parts = []
    for z, m in zip(table.layout.zones, table.masks, strict=True):
        if z.ordered:
            cards = " ".join(str(Card.of(c)) for c in table.orders[table.layout.index[z.name]])
        else:
            cards = " ".join(str(c) for c in cards_of(m))
        parts.append(f"{z.name}=[{cards}]")
    return "CardTable(" + ", ".join(parts) + ")"


def _check(table: CardTable) -> None:
    """:meth:`CardTable.check`: raise an AssertionError naming a broken invariant."""
    seen = 0
    for z, m in zip(table.layout.zones, table.masks, strict=True):
        if seen & m:
            dup = " ".join(map(str, cards_of(seen & m)))
            raise AssertionError(f"card conservation: {dup} in two zones (also {z.name})")
        seen |= m
        if z.ordered:
            o = table.orders[table.layout.index[z.name]]
            om = 0
            for c in o:
                om |= 1 << c
            if om != m or len(o) != m.bit_count():
                raise AssertionError(f"zone {z.name}: order and contents disagree")
    if seen != table.layout.deck:
        lost = " ".join(map(str, cards_of(table.layout.deck & ~seen)))
        extra = " ".join(map(str, cards_of(seen & ~table.layout.deck)))
        raise AssertionError(f"card conservation: missing [{lost}] extra [{extra}]")
    for i, m in enumerate(table.masks):
        w = table.layout.watchers[i]
        for s in range(table.layout.num_seats):
            if (w >> s) & 1 and table.known[s] & m != m:
                raise AssertionError(
                    f"seat {s} can look into {table.layout.zones[i].name} but does not know it"
                )


def _project(table: CardTable, seat: int) -> _Parts:
    """The sizes, known masks and orders of ``table`` as ``seat`` knows them.

    Every part is built in one pass over the zones (:mod:`cardcore._projection`); only
    the ordered zones the seat knows in part are looked at card by card. A seat that
    knows every card shares the table's own tuples: they hold nothing it may not see.
    """
    layout, masks, orders, known_by = table
    deck = layout.deck
    if seat < 0:  # the onlooker knows what every seat knows
        k = deck
        for kk in known_by:
            k &= kk
    else:
        k = known_by[seat]
    sizes = sizes_of(masks)
    if k & deck == deck:
        return sizes, masks, orders
    known = known_of(masks, k)
    if known is masks:
        return sizes, masks, orders
    hide: list[tuple[int, ...]] | None = None
    for z in layout.ordered_zones:
        o = orders[z]
        if o and known[z] != masks[z]:  # an ordered zone the seat knows only in part
            if hide is None:
                hide = list(orders)
            hide[z] = tuple([c if (k >> c) & 1 else -1 for c in o]) if known[z] else _UNSEEN[len(o)]
    return sizes, known, orders if hide is None else tuple(hide)


_UNSEEN: Final[tuple[tuple[int, ...], ...]] = tuple((-1,) * n for n in range(65))
"""Per length, an ordered zone of that many cards none of which the seat knows."""


_Parts = tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]


@final
class TableView:
    """The card part of one seat's observation: what that seat knows of the table.

    A frozen value, compared and hashed by seat, sizes, known cards and orders (not by
    layout). It holds only those parts, never the table it was projected from.

    Args:
        layout: the zones.
        seat: the observing seat (``-1``: an onlooker).
        sizes: per zone, how many cards it holds.
        known: per zone, the mask of the cards the seat knows to be there.
        orders: per ordered zone, bottom to top, a card id or ``-1`` where unknown.
    """

    __slots__ = ("_parts", "layout", "seat")

    layout: Layout
    """The zones."""
    seat: int
    """The observing seat (``-1``: an onlooker)."""
    _parts: _Parts

    def __init__(
        self,
        layout: Layout,
        seat: int,
        sizes: tuple[int, ...],
        known: tuple[int, ...],
        orders: tuple[tuple[int, ...], ...],
    ) -> None:
        # The attributes' own setters: a view is frozen to everyone else. A tuple passes
        # through ``tuple`` as itself, so a view from :meth:`CardTable.view` copies nothing.
        object.__setattr__(self, "layout", layout)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "_parts", (tuple(sizes), tuple(known), tuple(orders)))

    @property
    def sizes(self) -> tuple[int, ...]:
        """Per zone, how many cards it holds (always public)."""
        return self._parts[0]

    @property
    def known(self) -> tuple[int, ...]:
        """Per zone, the mask of the cards the seat knows to be there."""
        return self._parts[1]

    @property
    def orders(self) -> tuple[tuple[int, ...], ...]:
        """Per ordered zone, bottom to top, a card id or ``-1`` where the seat does not know."""
        return self._parts[2]

    def __setattr__(self, name: str, value: object) -> None:
        raise attrs.exceptions.FrozenInstanceError()

    def __delattr__(self, name: str) -> None:
        raise attrs.exceptions.FrozenInstanceError()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not TableView:
            return NotImplemented
        assert isinstance(other, TableView)
        return self.seat == other.seat and self._parts == other._parts

    def __hash__(self) -> int:
        return hash((TableView, self.seat, self._parts))

    def __reduce__(self) -> tuple[type[TableView], tuple[object, ...]]:
        return (TableView, (self.layout, self.seat, self.sizes, self.known, self.orders))

    def __repr__(self) -> str:
        parts = []
        for i, z in enumerate(self.layout.zones):
            parts.append(f"{z.name}={self.describe(i)}")
        return f"TableView(seat={self.seat}, " + ", ".join(parts) + ")"

    def size(self, zone: int | str) -> int:
        """How many cards a zone holds."""
        return self.sizes[self._z(zone)]

    def cards(self, zone: int | str) -> tuple[Card, ...]:
        """The cards this seat knows to be in a zone (ordered zones: bottom to top)."""
        i = self._z(zone)
        if self.layout.zones[i].ordered:
            return tuple(Card.of(c) for c in self.orders[i] if c >= 0)
        return cards_of(self.known[i])

    def slots(self, zone: int | str) -> tuple[Card | None, ...]:
        """An ordered zone bottom to top, ``None`` where this seat does not know the card."""
        i = self._z(zone)
        return tuple(Card.of(c) if c >= 0 else None for c in self.orders[i])

    def mask(self, zone: int | str) -> int:
        """Bitmask of the cards this seat knows to be in a zone."""
        return self.known[self._z(zone)]

    def describe(self, zone: int | str) -> str:
        """A short text: known cards, plus ``?`` for each unknown one."""
        i = self._z(zone)
        if self.layout.zones[i].ordered:
            return "[" + " ".join(str(Card.of(c)) if c >= 0 else "?" for c in self.orders[i]) + "]"
        cards = [str(c) for c in cards_of(self.known[i])]
        cards += ["?"] * (self.sizes[i] - len(cards))
        return "[" + " ".join(cards) + "]"

    def to_json(self) -> dict[str, object]:
        """The view as JSON-ready data, zones by name (cards as ``10♥``, unknown as null)."""
        zones: dict[str, object] = {}
        out: dict[str, object] = {"seat": self.seat, "zones": zones}
        sizes, known, orders = self._parts
        text = CARD_TEXT
        for i, z in enumerate(self.layout.zones):
            if z.ordered:
                zones[z.name] = [text[c] if c >= 0 else None for c in orders[i]]
            else:
                cards: list[str | None] = list(map(text.__getitem__, card_ids(known[i])))
                if sizes[i] > len(cards):
                    cards += [None] * (sizes[i] - len(cards))
                zones[z.name] = cards
        return out

    @classmethod
    def from_json(cls, layout: Layout, data: Mapping[str, object]) -> TableView:
        """Rebuild a view from :meth:`to_json` data."""
        seat = data.get("seat")
        zones = data.get("zones")
        if not isinstance(seat, int) or not isinstance(zones, Mapping):
            raise ValueError("table view: needs 'seat' (int) and 'zones' (object)")
        sizes, known, orders = [], [], []
        text_ids = _CARD_IDS
        for z in layout.zones:
            raw = zones.get(z.name)
            if not isinstance(raw, list):
                raise ValueError(f"table view: zone {z.name!r} missing or not a list")
            try:  # the texts to_json writes, looked up; anything else is parsed below
                ids = [-1 if c is None else text_ids[c] for c in raw]
            except (KeyError, TypeError):
                ids = [_card_id(c) for c in raw]
            sizes.append(len(ids))
            m = 0
            for c in ids:
                if c >= 0:
                    m |= 1 << c
            known.append(m)
            orders.append(tuple(ids) if z.ordered else ())
        return cls(layout, seat, tuple(sizes), tuple(known), tuple(orders))

    def _z(self, zone: int | str) -> int:
        return zone if isinstance(zone, int) else self.layout.zone(zone)


_CARD_IDS: Final = {t: c for c, t in enumerate(CARD_TEXT)}
"""Per card text as :meth:`TableView.to_json` writes it, the card id."""


def _card_id(text: object) -> int:
    """A card id from JSON data: the id of a card's text, ``-1`` for anything else."""
    from cardcore._cards import parse_card

    return parse_card(text).id if isinstance(text, str) else -1


def sample_table(
    view: TableView,
    rng: random.Random,
    *,
    exclude: Mapping[int, int] | None = None,
    tries: int = 200,
) -> CardTable:
    """Deal the cards ``view.seat`` does not know into the places it cannot see.

    Zone sizes and every known card and position are kept, so the sampled table gives the
    observing seat exactly the same view. Other seats know just what they can look at.

    The deal shuffles the unknown cards once per try (``rng.shuffle``) and hands them
    out zone by zone, the most constrained zones first; the same ``rng`` state gives the
    same table.

    Args:
        view: the observing seat's view.
        rng: the sampler's random source.
        exclude: optional constraints, zone index to a mask of cards that cannot be
            there (e.g. a seat that failed to follow suit holds none of that suit).
        tries: how many random deals to try before giving up on the constraints.

    Returns:
        A full table consistent with the view.

    Raises:
        ValueError: when no deal satisfies the constraints.
    """
    layout = view.layout
    sizes, known_parts, view_orders = view._parts
    known_all = 0
    for m in known_parts:
        known_all |= m
    unknown_mask = layout.deck & ~known_all
    needs = [n - m.bit_count() for n, m in zip(sizes, known_parts, strict=True)]
    unknown = _ids(unknown_mask)
    if sum(needs) != len(unknown):
        raise ValueError(
            f"the view is inconsistent: {len(unknown)} unknown cards for {sum(needs)} places"
        )
    exclude = exclude or {}
    masks = list(known_parts)
    if not any(m and needs[z] for z, m in exclude.items() if 0 <= z < len(needs)):
        # No constraint on a zone that receives cards: each zone, in order, takes the next
        # cards of the shuffled pool (what the general deal below does too).
        shuffle_like_random(rng, unknown)
        fill: list[list[int]] | None = _slices(unknown, needs)
    else:
        for _ in range(tries):
            fill = _deal(unknown, needs, exclude, unknown_mask, rng)
            if fill is not None:
                break
        else:
            raise ValueError("no deal of the unknown cards satisfies the constraints")
    assert fill is not None
    ordered = layout.ordered
    orders = [o if ordered[i] else () for i, o in enumerate(view_orders)]
    bits = _BITS
    for i, cards in enumerate(fill):
        if cards:
            # Distinct bits: their sum is their union.
            masks[i] |= sum(map(bits.__getitem__, cards))
            if orders[i]:
                it = iter(cards)
                orders[i] = tuple([c if c >= 0 else next(it) for c in orders[i]])
    known = []
    seat = view.seat
    for s, zones in enumerate(_seat_zones(layout)):
        k = known_all if seat in (s, SPECTATOR) else 0
        for i in zones:
            k |= masks[i]
        known.append(k)
    return _new_table((layout, tuple(masks), tuple(orders), tuple(known)))


_BITS: Final[tuple[int, ...]] = tuple(1 << c for c in range(64))


@functools.cache
def _byte_ids() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``_byte_ids()[i][b]``: the ids of the set bits of ``b`` as byte ``i`` of a mask.

    Built on first use, to keep ``import cardcore`` quick.
    """
    return tuple(
        tuple(tuple(8 * i + j for j in range(8) if (b >> j) & 1) for b in range(256))
        for i in range(8)
    )


def _ids(mask: int) -> list[int]:
    """The ids in a card-set mask (below 64), lowest first, as a list."""
    out: list[int] = []
    table = _byte_ids()
    for i, b in enumerate(mask.to_bytes(8, "little")):
        if b:
            out += table[i][b]
    return out


@functools.lru_cache(maxsize=64)
def _seat_zones(layout: Layout) -> tuple[tuple[int, ...], ...]:
    """Per seat, the zones it may look into."""
    return tuple(
        tuple(i for i, w in enumerate(layout.watchers) if (w >> s) & 1)
        for s in range(layout.num_seats)
    )


def _slices(pool: list[int], needs: Sequence[int]) -> list[list[int]]:
    """Hand out ``pool`` in order: each zone takes the next ``needs[i]`` cards."""
    fill: list[list[int]] = []
    at = 0
    for n in needs:
        fill.append(pool[at : at + n])
        at += n
    return fill


def _deal(
    unknown: Sequence[int],
    needs: Sequence[int],
    exclude: Mapping[int, int],
    unknown_mask: int,
    rng: random.Random,
) -> list[list[int]] | None:
    pool = list(unknown)
    shuffle_like_random(rng, pool)
    fill: list[list[int]] = [[] for _ in needs]
    # Most constrained zones first, so that a feasible deal is usually found at once.
    order = sorted(range(len(needs)), key=lambda i: (-(exclude.get(i, 0).bit_count()), i))
    for i in order:
        n = needs[i]
        if not n:
            continue
        bad = exclude.get(i, 0) & unknown_mask
        if not bad:  # nothing in the pool is excluded: the first n cards
            fill[i] = pool[:n]
            pool = pool[n:]
            continue
        took: list[int] = []
        rest: list[int] = []
        for c in pool:
            if len(took) < n and not (bad >> c) & 1:
                took.append(c)
            else:
                rest.append(c)
        if len(took) < n:
            return None
        fill[i] = took
        pool = rest
    return fill


def zones_named(layout: Layout, names: Iterable[str]) -> tuple[int, ...]:
    """Zone indexes for several names."""
    return tuple(layout.zone(n) for n in names)
