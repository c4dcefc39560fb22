"""The shuffle and the deal (NY-3): a new game's first state.

The dealer is drawn at random unless given, the deck is shuffled by the state's own RNG
(or stacked, for worked examples), and seven cards go to each player one at a time
clockwise from the dealer's left; the rest is the stock. Each player sees only their
own cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from cardcore import Card, CardTable, rng_below, rng_seed, rng_shuffle
from cardcore_nyuri.options import HAND_SIZE
from cardcore_nyuri.state import NyuriState, Phase, nyuri_layout

__all__ = ["deal"]

_CARD: Final[tuple[Card, ...]] = tuple(Card.of(c) for c in range(52))


def deal(
    num_players: int, seed: int, dealer: int | None = None, deck: Sequence[Card] | None = None
) -> NyuriState:
    """Shuffle (or stack) and deal seven cards each from the dealer's left (NY-3).

    Args:
        num_players: 2, 3 or 4.
        seed: seeds the state's RNG.
        dealer: the dealer seat; ``None`` draws it at random (NY-3.1).
        deck: a stacked deck, top card first, instead of the shuffle.

    Returns:
        The first state: the first layer, on the dealer's left, is to lay.

    Raises:
        ValueError: a bad player count, dealer seat or deck.
    """
    layout = nyuri_layout(num_players) if isinstance(num_players, int) else None
    if layout is None:
        raise ValueError(f"Nyuri is for 2, 3 or 4 players, not {num_players!r}")
    n = num_players
    rng = rng_seed(seed)
    if dealer is None:
        dealer, rng = rng_below(rng, n)
    elif not isinstance(dealer, int) or not 0 <= dealer < n:
        raise ValueError(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
    ids: Sequence[int]
    if deck is not None:
        ids = _stacked(deck)
    else:
        ids, rng = rng_shuffle(rng, range(52))
    # Deal one card at a time clockwise from the dealer's left (NY-3.2), the top card
    # first; each player sees only their own cards.
    masks = [0] * len(layout.zones)
    dealt = HAND_SIZE * n
    for i in range(dealt):
        masks[1 + (dealer + 1 + i) % n] |= 1 << ids[i]
    stock = tuple(reversed(ids[dealt:]))  # bottom first
    for c in stock:
        masks[0] |= 1 << c
    orders: list[tuple[int, ...]] = [()] * len(layout.zones)
    orders[0] = stock
    table = CardTable(layout, tuple(masks), tuple(orders), tuple(masks[1 : 1 + n]))
    first = (dealer + 1) % n
    return NyuriState(
        table=table,
        rng=rng,
        dealer=dealer,
        phase=Phase.LAY,
        layer=first,
        current=first,
        turn=1,
        dead_turns=0,
        last=None,
        end_reason="",
    )


def _stacked(deck: Sequence[Card]) -> list[int]:
    """The card ids of a stacked deck, top card first.

    Raises:
        ValueError: the deck does not hold each of the 52 cards exactly once.
    """
    if not all(isinstance(c, Card) for c in deck):
        raise ValueError("a stacked deck must be a sequence of cards, top card first")
    ids = [c.id for c in deck]
    if len(ids) != 52 or len(set(ids)) != 52:
        twice = sorted(c for c, k in Counter(ids).items() if k > 1)
        missing = sorted(set(range(52)) - set(ids))
        raise ValueError(
            "a stacked deck must hold each of the 52 cards exactly once; got "
            f"{len(ids)} cards, twice: [{' '.join(str(_CARD[c]) for c in twice)}], "
            f"missing: [{' '.join(str(_CARD[c]) for c in missing)}]"
        )
    return ids
