"""Codecs: observations as fixed-size float vectors, actions as fixed indexes.

A :class:`Codec` is what a learning library needs from a game: a vector of numbers per
observation and a fixed numbering of every action the game can ever produce for a player
count. The building blocks here make a game's codec a few lines: :class:`ActionIndex`
numbers a tuple of actions, :class:`TableEncoding` turns the card part of any observation
(a :class:`cardcore.TableView`) plus a few game-supplied public numbers into floats, and
:class:`TableCodec` joins the two.

Nothing here imports numpy: an encoding is an ``array.array("f")`` (a sequence of
floats) that numpy reads without copying element by element.
"""

from __future__ import annotations

import functools
import struct
from array import array
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import Any, Final, Generic, TypeVar, final

from cardcore._cards import Card
from cardcore._table import Layout, TableView
from cardcore.adapters._protocol import Codec, Slots

__all__ = [
    "ActionIndex",
    "Codec",
    "PackedFacts",
    "Slots",
    "TableCodec",
    "TableEncoding",
    "legal_indices",
    "one_hot",
    "scaled",
]

A = TypeVar("A", bound=Hashable)

CARD_BITS: Final = 52
"""Every zone is encoded over the 52 card ids, whatever the deck in play."""


def legal_indices(codec: Codec, observation: Any) -> list[int]:
    """The indexes of the observation's legal actions (empty when the seat is not to move).

    The environments' action masks are built from this; :func:`check_codec` checks it.
    """
    if isinstance(codec, TableCodec):
        try:
            return codec.actions.indices(observation.legal_actions)
        except (KeyError, TypeError, AttributeError):
            pass  # look each action up again below, for the error that names it
    index = codec.action_index
    return [index(a) for a in observation.legal_actions]


def mark_seen(mask: bytearray, legal: tuple[Any, ...], seen: dict[int, Any]) -> None:
    """Set ``mask[i] = 1`` for each action of ``legal``, found in ``seen`` by identity.

    ``seen`` is an :class:`ActionIndex`'s memo (the id of each action object met, to its
    index); the environments fill their action masks with it. In the compiled build the
    loop runs in C.

    Raises:
        KeyError: an action the index has not met yet (by identity); the entries set
            before it stay set.
    """
    for action in legal:
        mask[seen[id(action)]] = 1


def mark_card_sets(
    mask: bytearray,
    by_mask: dict[int, Any],
    keys: Sequence[int],
    segments: Sequence[tuple[int, int, int]],
) -> None:
    """Set ``mask[by_mask[m]] = 1`` for the card mask ``m`` of each set of a listing.

    The listing is a :class:`cardcore.CardSubsets`' parts (its card ids and segments:
    a fixed lead plus every choice of one, two or three of the cards from a position
    on), walked as its ``masks()`` walks them, without a generator step per set. In the
    compiled build the loops run in C (``by_mask``'s values typed ``Any`` stay Python ints:
    the mask is indexed with them as they are, not unboxed and boxed again).

    Raises:
        KeyError: a set that ``by_mask`` does not list; the entries set before it stay set.
    """
    bits = [1 << (key & 63) for key in keys]
    k = len(bits)
    for lead, start, added in segments:
        if added == 1:
            for c in range(start, k):
                mask[by_mask[lead | bits[c]]] = 1
        elif added == 2:
            for b in range(start, k - 1):
                head = lead | bits[b]
                for c in range(b + 1, k):
                    mask[by_mask[head | bits[c]]] = 1
        else:
            for a in range(start, k - 2):
                for b in range(a + 1, k - 1):
                    head = lead | bits[a] | bits[b]
                    for c in range(b + 1, k):
                        mask[by_mask[head | bits[c]]] = 1


_SEEN_LIMIT: Final = 1 << 16
"""How many action objects an :class:`ActionIndex` remembers before starting afresh."""


@final
class ActionIndex(Generic[A]):
    """A two-way map over a fixed, deterministic tuple of every possible action.

    Build it from an iterable that always yields the same actions in the same order
    (loops over ``DECK_52``, ``range`` and sorted tuples, never over a ``set``).

    Args:
        actions: every action the game can produce for one seat count, each once.
        key: optional: a cheap hashable stand-in for an action, used for lookups instead
            of the action itself (e.g. a card mask for a set of cards: hashing a tuple
            of card objects costs more than the rest of an environment step). Equal
            actions must have equal keys, and listed actions distinct keys.

    Raises:
        ValueError: the iterable is empty, or yields an action (or a key) twice.

    Example:
        >>> from cardcore.adapters import ActionIndex
        >>> index = ActionIndex(["pass", "bid 1", "bid 2"])
        >>> index.index("bid 1"), index.at(2), len(index)
        (1, 'bid 2', 3)
    """

    __slots__ = ("_actions", "_index", "_key", "_seen", "lookup")

    def __init__(self, actions: Iterable[A], *, key: Callable[[A], Hashable] | None = None) -> None:
        self._actions: tuple[A, ...] = tuple(actions)
        self._key = key
        keys: Iterable[Hashable] = self._actions if key is None else map(key, self._actions)
        self._index: dict[Hashable, int] = {k: i for i, k in enumerate(keys)}
        if not self._actions:
            raise ValueError("an action index needs at least one action")
        if len(self._index) != len(self._actions):
            first: dict[Hashable, A] = {}
            dups = []
            for a in self._actions:
                k = a if key is None else key(a)
                if k in first:
                    dups.append(f"{first[k]} / {a}" if key is not None else str(a))
                first[k] = a
            what = "actions share a key" if key is not None else "actions listed twice"
            raise ValueError(f"{what}: {', '.join(dups[:5])}")
        table = self._index
        find: Callable[[A], int] = table.__getitem__ if key is None else lambda a: table[key(a)]
        # Games hand out the same action objects again and again (shared tables of
        # plays), and hashing an action (a tuple of cards) can cost more than a game's
        # step: remember the index of each object seen, by its id. ``kept`` holds every
        # remembered object, so no other object can take its id while the entry lives.
        seen: dict[int, int] = {}
        kept: list[A] = []
        self._seen = seen

        def lookup(action: A) -> int:
            hit = seen.get(id(action))
            if hit is not None:
                return hit
            index = find(action)
            if len(kept) >= _SEEN_LIMIT:
                seen.clear()
                kept.clear()
            seen[id(action)] = index
            kept.append(action)
            return index

        self.lookup: Callable[[A], int] = lookup
        """The index of an action as fast as it gets; a bare ``KeyError`` if unknown."""

    def indices(self, actions: Iterable[A]) -> list[int]:
        """The indexes of several actions (a bare ``KeyError`` if one is unknown).

        Example:
            >>> ActionIndex(["pass", "bid 1", "bid 2"]).indices(["bid 2", "pass"])
            [2, 0]
        """
        if not isinstance(actions, (tuple, list)):
            actions = tuple(actions)
        try:  # every object seen before: the whole lookup runs in C
            return list(map(self._seen.__getitem__, map(id, actions)))
        except KeyError:
            return list(map(self.lookup, actions))

    def __len__(self) -> int:
        return len(self._actions)

    def __iter__(self) -> Iterator[A]:
        return iter(self._actions)

    def __repr__(self) -> str:
        return f"ActionIndex({len(self._actions)} actions)"

    @property
    def actions(self) -> tuple[A, ...]:
        """Every action, in index order."""
        return self._actions

    def index(self, action: A) -> int:
        """The index of ``action``.

        Raises:
            KeyError: the action is not in the index (the message names it).
        """
        try:
            return self.lookup(action)
        except (KeyError, TypeError, AttributeError):
            raise KeyError(
                f"action {str(action)!r} is not in the action index "
                f"({len(self._actions)} actions); the codec does not list every action"
            ) from None

    def at(self, index: int) -> A:
        """The action at ``index``.

        Raises:
            IndexError: ``index`` is outside ``0 .. len - 1``.
        """
        if not 0 <= index < len(self._actions):
            raise IndexError(f"action index {index} is outside 0..{len(self._actions) - 1}")
        return self._actions[index]


def one_hot(index: int | None, size: int) -> list[float]:
    """``size`` zeros with a one at ``index`` (all zeros for ``None`` or out of range).

    Example:
        >>> one_hot(1, 3), one_hot(None, 2)
        ([0.0, 1.0, 0.0], [0.0, 0.0])
    """
    out = [0.0] * size
    if index is not None and 0 <= index < size:
        out[index] = 1.0
    return out


def scaled(value: float, maximum: float) -> float:
    """``value / maximum`` clipped to ``[-1, 1]``, for scores, bids and counts.

    Example:
        >>> scaled(60, 120), scaled(300, 120), scaled(-7, 5)
        (0.5, 1.0, -1.0)
    """
    x = value / maximum
    return 1.0 if x > 1.0 else -1.0 if x < -1.0 else x


R = TypeVar("R")


@final
class PackedFacts(Generic[R]):
    """Packs a record's facts as float32 ``bytes``, once per record object.

    Consecutive observations often share sub-records that the game builds once and
    reuses (the match scores during a deal, the deal during its tricks), and packing
    their facts again on every step is wasted work. A ``PackedFacts`` keeps the last
    record it packed and answers a call with the *same object* (by identity, so
    equal-looking records of another game never mix) without packing again. Use it for
    the parts of a game's ``facts`` that come from such records, and join the parts.

    Args:
        floats: the record's facts (each in ``[-1, 1]``).
        size: how many floats ``floats`` returns, always.

    Raises:
        ValueError: (on a call) ``floats`` returned another number of values.

    Example:
        >>> from cardcore.adapters import PackedFacts
        >>> scores = PackedFacts(lambda s: [s[0] / 100, s[1] / 100], 2)
        >>> match = (50, 25)
        >>> scores(match) == scores(match)
        True
        >>> len(scores(match))
        8
    """

    __slots__ = ("_floats", "_last", "_struct", "size")

    def __init__(self, floats: Callable[[R], Sequence[float]], size: int) -> None:
        if size < 1:
            raise ValueError(f"size must be >= 1, not {size}")
        self._floats = floats
        self._struct = struct.Struct(f"<{size}f")
        self.size = size
        """How many floats each record packs to."""
        self._last: tuple[object, bytes] = (_NOTHING, b"")
        """The last record and its packed facts, in one tuple so threads see a pair."""

    def __call__(self, record: R) -> bytes:
        """The record's facts as ``4 * size`` bytes (little-endian float32s)."""
        last = self._last
        if last[0] is record:
            return last[1]
        packed = _pack_facts(self._struct, self._floats(record))
        self._last = (record, packed)
        return packed

    def __repr__(self) -> str:
        return f"PackedFacts(size={self.size})"


_NOTHING: Final = object()
"""Never a record: what a new :class:`PackedFacts` remembers."""


def _pack_facts(packer: struct.Struct, values: Sequence[float]) -> bytes:
    """Facts as float32 bytes; a wrong count is a ``ValueError`` that names both counts."""
    try:
        return packer.pack(*values)
    except struct.error:
        declared = packer.size // 4
        raise ValueError(
            f"the facts function returned {len(values)} values, not the declared {declared}"
        ) from None


def _pack_bits(value: int, width: int) -> bytes:
    return struct.pack(f"<{width}f", *((value >> i) & 1 for i in range(width)))


_CARD_ONE_HOT: Final = (*(_pack_bits(1 << c, CARD_BITS) for c in range(CARD_BITS)),)
_NO_CARD: Final = bytes(4 * CARD_BITS)


_MASK_CACHE_LIMIT: Final = 1 << 14
_SUIT_FLOATS: list[bytes] = []
"""Per 13-bit value (one suit of a mask), its bits as float32s; filled on first use."""


class _MaskBytes(dict[int, bytes]):
    """Card masks as 52 float32s, packed on first use and forgotten when too many.

    Zones keep their masks for many steps, so most lookups hit; a hit is a plain dict
    lookup (``map(_MASK_CACHE.__getitem__, masks)`` runs in C), a miss packs the mask.
    """

    __slots__ = ()

    def __missing__(self, mask: int) -> bytes:
        # A step meets a new mask or two (a card moved): :func:`_pack_mask`, inlined.
        if len(self) >= _MASK_CACHE_LIMIT:
            self.clear()
        suit = _SUIT_FLOATS or _fill_suit_floats()
        out = self[mask] = b"".join(
            (
                suit[mask & 8191],
                suit[(mask >> 13) & 8191],
                suit[(mask >> 26) & 8191],
                suit[mask >> 39],
            )
        )
        return out


_MASK_CACHE: Final = _MaskBytes()


K = TypeVar("K", bound=Hashable)


class _Memo(dict[K, bytes]):
    """Packed bytes per key, made by ``pack`` on first use and forgotten when too many.

    A hit is one dict lookup; the encoders keep one per part that repeats from step to
    step (the zone sizes, the cards in a zone's first positions).
    """

    __slots__ = ("_pack",)

    def __init__(self, pack: Callable[[K], bytes]) -> None:
        super().__init__()
        self._pack = pack

    def __missing__(self, key: K) -> bytes:
        if len(self) >= _MASK_CACHE_LIMIT:
            self.clear()
        out = self[key] = self._pack(key)
        return out


_BUFFER: Final = bytearray()
"""Joins parts into a new ``bytearray`` (``bytearray.join`` never changes this one)."""


def _pack_slots(count: int, picked: tuple[int, ...]) -> bytes:
    """The one-hots of the cards in ``count`` positions (``-1`` or absent: all zero)."""
    out = [_CARD_ONE_HOT[c] if c >= 0 else _NO_CARD for c in picked]
    out.append(_NO_CARD * (count - len(picked)))
    return b"".join(out)


def _mask_floats(mask: int) -> bytes:
    """A 52-card mask as 52 float32s (card id order)."""
    return _MASK_CACHE[mask]


def _pack_mask(mask: int) -> bytes:
    suit = _SUIT_FLOATS or _fill_suit_floats()
    return b"".join(
        (suit[mask & 8191], suit[(mask >> 13) & 8191], suit[(mask >> 26) & 8191], suit[mask >> 39])
    )


def _fill_suit_floats() -> list[bytes]:
    """Build the per-suit table (8,192 entries of 52 bytes, about a millisecond)."""
    low = [struct.pack("<8f", *((v >> i) & 1 for i in range(8))) for v in range(256)]
    high = [struct.pack("<5f", *((v >> i) & 1 for i in range(5))) for v in range(32)]
    _SUIT_FLOATS[:] = [lo + hi for hi in high for lo in low]
    return _SUIT_FLOATS


@final
class TableEncoding:
    """Encodes an observation's table generically, plus the game's public numbers.

    The layout of the vector, in order:

    * per encoded zone: 52 floats, 1 where the seat knows that card to be in the zone;
    * per encoded zone: its size divided by the number of cards in play;
    * per :class:`Slots`: 52 floats per position, one-hot of the card there (all zero
      when the seat does not know it or the position is empty);
    * the observing seat, one-hot over the seats;
    * the seat to move, one-hot over the seats (all zero when the game is over);
    * the game's facts: ``facts(observation)``, exactly ``facts_size`` floats in ``[-1, 1]``.

    Args:
        layout: the game's layout for this player count (see :meth:`for_game`).
        facts: the game's public numbers (scores, bids, phase) from an observation; use
            :func:`scaled` and :func:`one_hot` to keep them in ``[-1, 1]``. It may also
            return them already packed as little-endian float32 ``bytes``
            (``struct.pack("<{n}f", ...)``), e.g. from parts it packed once and keeps.
        facts_size: how many floats ``facts`` returns, always.
        zones: the zones to encode by name (default: every zone of the layout).
        slots: ordered positions to encode one-hot.

    Raises:
        ValueError: an unknown zone, a slot on an unordered zone, or a negative size.

    Example:
        >>> from cardcore import load_game
        >>> from cardcore.adapters import TableEncoding
        >>> game = load_game("highcard")
        >>> enc = TableEncoding.for_game(game, 2, facts=lambda o: [w / 3 for w in o.wins],
        ...                              facts_size=2)
        >>> enc.size  # 5 zones x 53 + 2 seat + 2 to-move + 2 facts
        271
    """

    def __init__(
        self,
        layout: Layout,
        *,
        facts: Callable[[Any], Sequence[float] | bytes] | None = None,
        facts_size: int = 0,
        zones: Sequence[str] | None = None,
        slots: Sequence[Slots] = (),
    ) -> None:
        if facts_size < 0:
            raise ValueError(f"facts_size must be >= 0, not {facts_size}")
        if facts is None and facts_size:
            raise ValueError("facts_size given without a facts function")
        self.layout = layout
        """The layout the encoding was built for."""
        names = [z.name for z in layout.zones] if zones is None else list(zones)
        self._zones = tuple(layout.zone(n) for n in names)
        self._every_zone = self._zones == tuple(range(len(layout.zones)))
        for s in slots:
            if not layout.zones[layout.zone(s.zone)].ordered:
                raise ValueError(f"slots need an ordered zone; {s.zone!r} is not ordered")
        self._slots = tuple((layout.zone(s.zone), s.count, s.from_top) for s in slots)
        self._slot_bytes = tuple(
            (z, count, top, _Memo[tuple[int, ...]](functools.partial(_pack_slots, count)))
            for z, count, top in self._slots
        )
        """Per slot: its zone, count, end, and the packed one-hots per tuple of card ids."""
        self._facts = facts
        self._facts_struct = struct.Struct(f"<{facts_size}f")
        self.facts_size = facts_size
        """How many floats the game's facts take."""
        n = layout.num_seats
        deck_size = max(1, layout.deck.bit_count())
        self._sizes = tuple(struct.pack("<f", k / deck_size) for k in range(CARD_BITS + 1))
        """Per number of cards, the packed size of a zone holding them."""
        hot = {s: struct.pack(f"<{n}f", *(float(i == s) for i in range(n))) for s in range(-1, n)}
        self._seats_hot = {
            (s, cur): hot[s] + hot[-1 if cur is None else cur]
            for s in range(-1, n)
            for cur in (None, *range(n))
        }
        """Per (observing seat, seat to move), both one-hots."""
        self._seats = n
        self.size: int = (
            len(self._zones) * (CARD_BITS + 1)
            + sum(c for _, c, _ in self._slots) * CARD_BITS
            + 2 * n
            + facts_size
        )
        """The length of every encoding."""
        self.encode_buffer: Callable[[Any], bytearray] = _TableBuffer(self)
        """The encoding as a fresh, writable ``bytearray`` (what the environments wrap).

        One callable built for this encoding's zones, slots and facts, with everything it
        reads bound once: the environments call it on every step.

        Raises:
            ValueError: the facts function returned the wrong number of values.
        """

    @classmethod
    def for_game(
        cls,
        game: Any,
        num_players: int,
        *,
        facts: Callable[[Any], Sequence[float] | bytes] | None = None,
        facts_size: int = 0,
        zones: Sequence[str] | None = None,
        slots: Sequence[Slots] = (),
    ) -> TableEncoding:
        """Build the encoding for a game and player count (the layout read from a deal).

        Args:
            game: the rules (a :class:`cardcore.Game`).
            num_players: the seat count.
            facts: see the class.
            facts_size: see the class.
            zones: see the class.
            slots: see the class.

        Returns:
            The encoding.
        """
        view: TableView = game.observe(game.initial_state(num_players, 0), 0).table
        return cls(view.layout, facts=facts, facts_size=facts_size, zones=zones, slots=slots)

    def feature_names(self) -> list[str]:
        """A short name per position of the vector (``hand0:A♠``, ``size:stock``, ...)."""
        zones = self.layout.zones
        out: list[str] = []
        for z in self._zones:
            out += [f"{zones[z].name}:{Card.of(c)}" for c in range(CARD_BITS)]
        out += [f"size:{zones[z].name}" for z in self._zones]
        for z, count, top in self._slots:
            end = "top" if top else "bottom"
            for k in range(count):
                out += [f"{zones[z].name}[{end}-{k}]:{Card.of(c)}" for c in range(CARD_BITS)]
        out += [f"seat:{s}" for s in range(self._seats)]
        out += [f"to-move:{s}" for s in range(self._seats)]
        out += [f"fact:{i}" for i in range(self.facts_size)]
        return out

    def encode(self, observation: Any) -> array[float]:
        """The observation as ``size`` float32 values.

        Raises:
            ValueError: the facts function returned the wrong number of values.
        """
        return array("f", self.encode_bytes(observation))

    def encode_bytes(self, observation: Any) -> bytes:
        """The encoding as ``4 * size`` bytes: little-endian float32s, for ``np.frombuffer``.

        Raises:
            ValueError: the facts function returned the wrong number of values.
        """
        return b"".join(self.encode_parts(observation))

    def encode_parts(self, observation: Any) -> list[bytes]:
        """The encoding in pieces whose concatenation is :meth:`encode_bytes`.

        Raises:
            ValueError: the facts function returned the wrong number of values.
        """
        view: TableView = observation.table
        sizes, known, orders = view._parts  # the view's own parts (read-only tuples)
        if self._every_zone:
            parts = [*map(_MASK_CACHE.__getitem__, known), *map(self._sizes.__getitem__, sizes)]
        else:
            zones = self._zones
            parts = [_MASK_CACHE[known[z]] for z in zones]
            parts += [self._sizes[sizes[z]] for z in zones]
        for z, count, top, packed in self._slot_bytes:
            order = orders[z]
            parts.append(packed[order[: -count - 1 : -1] if top else order[:count]])
        seat = observation.seat
        cur = observation.current_player
        parts.append(self._seats_hot[seat if 0 <= seat < self._seats else -1, cur])
        if self._facts is not None:
            values = self._facts(observation)
            if type(values) is bytes:  # packed by the game: float32s, little-endian
                if len(values) != 4 * self.facts_size:
                    raise ValueError(
                        f"the facts function returned {len(values)} bytes, "
                        f"not the declared {self.facts_size} float32s ({4 * self.facts_size} bytes)"
                    )
                parts.append(values)
            else:
                parts.append(_pack_facts(self._facts_struct, values))
        return parts


@final
class _TableBuffer:
    """:attr:`TableEncoding.encode_buffer`: the encoding's parts joined, in one call.

    Everything it reads is bound once, as typed attributes: the environments call it on
    every step, and the compiled build turns its loops into C. The facts' length is
    checked once, on the joined buffer (a wrong one is named by
    :meth:`TableEncoding.encode_parts`, which checks each part).
    """

    __slots__ = (
        "_check",
        "_facts",
        "_facts_struct",
        "_masks",
        "_nbytes",
        "_seats_hot",
        "_sizes",
        "_slots",
        "_zones",
    )

    def __init__(self, encoding: TableEncoding) -> None:
        self._masks: dict[int, bytes] = _MASK_CACHE
        self._sizes: tuple[bytes, ...] = encoding._sizes
        self._zones: tuple[int, ...] | None = None if encoding._every_zone else encoding._zones
        self._slots: tuple[tuple[int, int, bool, _Memo[tuple[int, ...]]], ...] = (
            encoding._slot_bytes
        )
        # Per observing seat (a seat off the table: -1), per seat to move, both one-hots.
        # A plain dict built in plain loops: the compiled build mis-builds a dict subclass
        # filled through ``setdefault`` from nested tuple targets.
        rows: dict[int, dict[int | None, bytes]] = {}
        for key, packed in encoding._seats_hot.items():
            seat, to_move = key
            row = rows.get(seat)
            if row is None:
                row = rows[seat] = {}
            row[to_move] = packed
        self._seats_hot = rows
        self._facts = encoding._facts
        self._facts_struct = encoding._facts_struct
        self._nbytes = 4 * encoding.size
        self._check = encoding.encode_parts

    def __call__(self, observation: Any) -> bytearray:
        """The encoding as a fresh ``bytearray`` (see :attr:`TableEncoding.encode_buffer`)."""
        table: TableView = observation.table
        sizes, known, orders = table._parts
        masks = self._masks
        size_bytes = self._sizes
        parts: list[bytes] = []
        zones = self._zones
        if zones is None:
            for mask in known:
                parts.append(masks[mask])
            for size in sizes:
                parts.append(size_bytes[size])
        else:
            for z in zones:
                parts.append(masks[known[z]])
            for z in zones:
                parts.append(size_bytes[sizes[z]])
        for z, count, top, packed in self._slots:
            order = orders[z]
            parts.append(packed[order[: -count - 1 : -1] if top else order[:count]])
        row = self._seats_hot.get(observation.seat)
        if row is None:  # a seat off the table (an onlooker)
            row = self._seats_hot[-1]
        parts.append(row[observation.current_player])
        facts = self._facts
        if facts is not None:
            values = facts(observation)
            if type(values) is bytes:  # packed by the game: float32s, little-endian
                parts.append(values)
            else:
                parts.append(_pack_facts(self._facts_struct, values))
        out = _BUFFER.join(parts)
        if len(out) != self._nbytes:
            self._check(observation)  # raises the ValueError that names the facts' length
        return out


@final
class TableCodec(Generic[A]):
    """A :class:`Codec` made of a :class:`TableEncoding` and an :class:`ActionIndex`.

    Args:
        encoding: how observations become floats.
        actions: the fixed numbering of every action.
    """

    def __init__(self, encoding: TableEncoding, actions: ActionIndex[A]) -> None:
        self.encoding = encoding
        """The observation encoding."""
        self.actions = actions
        """The action index."""
        self.observation_size: int = encoding.size
        """The length of every encoding."""
        self.num_actions: int = len(actions)
        """How many actions the index numbers."""
        self._encode = encoding.encode
        self._index = actions.index
        self._at = actions.at

    def __repr__(self) -> str:
        return (
            f"TableCodec(observation_size={self.observation_size}, num_actions={self.num_actions})"
        )

    def encode(self, observation: Any) -> array[float]:
        """The observation as ``observation_size`` floats (see :class:`TableEncoding`)."""
        return self._encode(observation)

    def action_index(self, action: A) -> int:
        """The fixed index of an action.

        Raises:
            KeyError: the action is not in the index.
        """
        return self._index(action)

    def action_at(self, index: int) -> A:
        """The action with this index.

        Raises:
            IndexError: the index is out of range.
        """
        return self._at(index)
