"""Box rules (rule ids ``BX-…`` refer to the Box specification).

Four players each have a hand of up to four cards and a *box* of up to four face-down
cards that nobody, the owner included, may look at. A round is a descending run: the
leader plays the highest rank in their hand, and each following player must play a card
of rank equal to or lower than the last one (an equal rank reverses the direction). A
player who cannot follow turns up a random box card: if it fits it is played, if it is
too high it goes to the extra pile of the player who played last, who wins the round.
After a round hands are refilled to four, boxes are refilled for players who played from
their box, and players with an empty box are out. The last player with a box wins.

Cards are ids (``suit * 13 + rank - 2``) and card sets are ``int`` bitmasks (see
:mod:`cardcore_box.state`); the deal is in :mod:`cardcore_box.deal`, the seats' order
and the end of a round in :mod:`cardcore_box.rounds`.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, Final

from cardcore import (
    DECK_52,
    SPECTATOR,
    Card,
    CardTable,
    GameText,
    IllegalActionError,
    Outcome,
    TextForm,
    new_table,
    rng_below,
    rng_seed,
    sample_table,
)
from cardcore._build import mypyc_attr
from cardcore_box.actions import BoxAction, Play, TurnUp, parse_box_action
from cardcore_box.deal import deal, shuffle52
from cardcore_box.history import observed_events, public_events
from cardcore_box.options import NUM_PLAYERS, BoxOptions
from cardcore_box.rounds import NEXT, end_round
from cardcore_box.state import (
    BOX,
    CODEC,
    DISCARD,
    DRAW,
    EXTRA,
    HAND,
    TABLE,
    BoxObservation,
    BoxState,
    Ending,
    advance,
    layout,
    new_observation,
)

__all__ = ["Box"]

# ---- card facts (BX-2.1: ranks only, suits play no part) ------------------------------

_RANK: Final[tuple[int, ...]] = tuple(c % 13 for c in range(52))
"""Per card id, its rank index: 0 for a 2 … 12 for an ace."""
_OF_RANK: Final[tuple[int, ...]] = tuple(
    sum(1 << (s * 13 + r) for s in range(4)) for r in range(13)
)
"""Per rank index, the mask of the four cards of that rank."""
_UP_TO: Final[tuple[int, ...]] = tuple(sum(_OF_RANK[: r + 1]) for r in range(13))
"""Per rank index, the mask of every card of that rank or lower."""
_ABOVE: Final[tuple[int, ...]] = tuple(((1 << 52) - 1) & ~m for m in _UP_TO)
"""Per rank index, the mask of every card of a higher rank."""
_FOLLOW: Final[tuple[int, ...]] = tuple(_UP_TO[_RANK[c]] for c in range(52))
"""Per card id, the mask of every card that may follow it (rank equal or lower)."""
_SHOW_ORDER: Final[tuple[int, ...]] = tuple((12 - c % 13) * 4 + c // 13 for c in range(52))
"""Per card id, its place when listing cards: highest rank first, then by suit."""
_LOW13: Final = (1 << 13) - 1
_RANK_WORDS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


# The core's functions the moves call, as constants: compiled, a constant is read from
# a C static, a plain imported name from the module's dictionary on every call.
_NEW_TABLE: Final = new_table
_ADVANCE: Final = advance
_RNG_BELOW: Final = rng_below
_PLAY: Final = Play
_TURN_UP: Final = TurnUp


def _highest_rank(hand: int) -> int:
    """The highest rank index held in a non-empty card mask."""
    return ((hand | hand >> 13 | hand >> 26 | hand >> 39) & _LOW13).bit_length() - 1


# ---- legal actions, shared ------------------------------------------------------------

_ONLY_TURN_UP: Final[tuple[BoxAction, ...]] = (TurnUp(),)
_PLAYS: Final[tuple[Play, ...]] = tuple(Play.of(c) for c in range(52))
"""Per card id, its play."""
_ONLY_PLAY: Final[tuple[tuple[BoxAction, ...], ...]] = tuple((p,) for p in _PLAYS)
"""Per card id, the legal actions when that card is the only one to play (most often)."""


def _plays(m: int) -> tuple[BoxAction, ...]:
    """The plays of the cards of ``m`` (two or more), highest rank first, then by suit."""
    hi = m.bit_length() - 1
    rest = m ^ (1 << hi)
    if not rest & (rest - 1):
        lo = rest.bit_length() - 1
        if _SHOW_ORDER[hi] < _SHOW_ORDER[lo]:
            return (_PLAYS[hi], _PLAYS[lo])
        return (_PLAYS[lo], _PLAYS[hi])
    # Three or four cards: rank by rank from the highest, each rank's cards by suit.
    out: list[BoxAction] = []
    ranks = (m | m >> 13 | m >> 26 | m >> 39) & _LOW13
    while ranks:
        r = ranks.bit_length() - 1
        ranks ^= 1 << r
        for c in _OF_RANK_IDS[r]:
            if (m >> c) & 1:
                out.append(_PLAYS[c])
    return tuple(out)


_OF_RANK_IDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(s * 13 + r for s in range(4)) for r in range(13)
)
"""Per rank index, the ids of its four cards by suit."""


# Compiled by mypyc into a native class that Python classes may still subclass (not
# final, so that a subclass's methods are the ones called).
@mypyc_attr(allow_interpreted_subclasses=True)
class Box(GameText[BoxAction, BoxObservation]):
    """The Box rules under fixed options; build it with ``cardcore.load_game("box")``."""

    name = "box"
    min_players = NUM_PLAYERS
    max_players = NUM_PLAYERS

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as class, options and own attributes (a compiled game has no ``__dict__``)."""
        return (type(self), (self.options,), dict(getattr(self, "__dict__", {})) or None)

    def __init__(self, options: BoxOptions | None = None) -> None:
        self.options: Final = options or BoxOptions()
        """The typed options."""
        self._fill: Final = self.options.box_refill == "fill_to_four"
        self._outcomes: Final[dict[tuple[object, ...], Outcome]] = {}
        """Outcomes built, by the facts they follow from (see :meth:`outcome`)."""

    def __repr__(self) -> str:
        return f"Box({self.options!r})"

    def teams(self, num_players: int) -> tuple[tuple[int, ...], ...] | None:
        """No partnerships: every player plays for themselves."""
        return None

    def max_decisions(self, num_players: int) -> int:
        """A true bound: each decision takes one card out of a hand or a box for good.

        Cards only reach hands and boxes from the deal and the draw pile, which never
        grows (BX-9.7), so a game has at most 52 decisions (BX-9.8).
        """
        return 52

    # ---- setup (BX-3) ----------------------------------------------------------------

    def initial_state(
        self,
        num_players: int,
        seed: int,
        *,
        dealer: int | None = None,
        deck: Sequence[Card] | None = None,
    ) -> BoxState:
        """Shuffle (or stack) and deal: four box cards, then four hand cards each.

        Args:
            num_players: must be 4 (BX-1.1).
            seed: seeds the state's RNG (the shuffle, the dealer, box turn-ups).
            dealer: the dealer seat, or ``None`` to pick one at random (BX-3.1).
            deck: a stacked deck of all 52 cards, top card first; it goes to the
                dealer's left first, so its first 16 cards are the boxes (BX-3.2).

        Raises:
            ValueError: a wrong player count, dealer seat or deck.
        """
        lay = layout(num_players)
        rng = rng_seed(seed)
        if dealer is None:
            dealer, rng = rng_below(rng, NUM_PLAYERS)
        elif not isinstance(dealer, int) or not 0 <= dealer < NUM_PLAYERS:
            raise ValueError(f"dealer must be a seat 0-3, not {dealer!r}")
        if deck is not None:
            if not all(isinstance(c, Card) for c in deck):
                raise ValueError("a stacked deck must be a sequence of cards")
            ids: Sequence[int] = [c.id for c in deck]
            if len(ids) != 52 or len(set(ids)) != 52:
                raise ValueError(
                    f"a stacked deck must hold each of the 52 cards exactly once "
                    f"(got {len(ids)} cards, {len(set(ids))} different)"
                )
        else:
            ids, rng = shuffle52(rng)
        first = (dealer + 1) % NUM_PLAYERS
        out = (0,) * NUM_PLAYERS
        return BoxState(
            deal(lay, ids, dealer), rng, dealer, 1, first, first, 1, 15, out, (), (), ()
        )

    # ---- decisions (BX-4) -------------------------------------------------------------

    def current_player(self, state: BoxState) -> int | None:
        """The seat to decide, or ``None`` at the end."""
        return state.current

    def legal_actions(self, state: BoxState) -> tuple[BoxAction, ...]:
        """The current player's options, highest rank first (then by suit).

        Leading: every hand card of the highest rank held (BX-4.3), or ``turn up`` with
        an empty hand. Following: every hand card of rank <= the last table card, or
        ``turn up`` when there is none (BX-4.4, BX-4.6).
        """
        cur = state.current
        if cur is None:
            return ()
        t = state.table
        hand = t.masks[HAND + cur]
        order = t.orders[TABLE]
        if order:
            m = hand & _FOLLOW[order[-1]]
        elif hand:
            folded = (hand | hand >> 13 | hand >> 26 | hand >> 39) & _LOW13  # ranks held
            m = hand & _OF_RANK[folded.bit_length() - 1]
        else:
            return _ONLY_TURN_UP
        if not m:
            return _ONLY_TURN_UP
        if not m & (m - 1):
            return _ONLY_PLAY[m.bit_length() - 1]
        return _plays(m)

    def apply(self, state: BoxState, action: BoxAction) -> BoxState:
        """Play ``action`` for the current player; return the new state.

        Raises:
            IllegalActionError: the action is not legal here (the reason says why).
        """
        cur = state.current
        if cur is None:
            raise IllegalActionError(action, "the game is over")
        t = state.table
        hand = t.masks[HAND + cur]
        order = t.orders[TABLE]
        rng = state.rng
        if isinstance(action, _PLAY):
            c = action.mask.bit_length() - 1
            if not (hand >> c) & 1:
                raise IllegalActionError(
                    action, f"you do not hold {DECK_52[c]} in your hand", self.legal_actions(state)
                )
            if order:
                top = order[-1]
                if _RANK[c] > _RANK[top]:
                    raise IllegalActionError(
                        action,
                        f"{DECK_52[c]} is higher than the {DECK_52[top]} on the table",
                        self.legal_actions(state),
                    )
            else:
                best = _highest_rank(hand)
                if _RANK[c] != best:
                    raise IllegalActionError(
                        action,
                        f"you must lead your highest rank: {DECK_52[c]} is lower than your "
                        f"{_RANK_WORDS[best]}",
                        self.legal_actions(state),
                    )
            src = HAND + cur
            src_mask = hand
            boxed = False
        elif isinstance(action, _TURN_UP):
            if order:
                top = order[-1]
                if hand & _FOLLOW[top]:
                    raise IllegalActionError(
                        action,
                        f"you can follow the {DECK_52[top]} from your hand, so you may not "
                        "turn up a box card",
                        self.legal_actions(state),
                    )
            elif hand:
                raise IllegalActionError(
                    action,
                    "you hold cards, so you must lead your highest card from your hand",
                    self.legal_actions(state),
                )
            # BX-4.6a / BX-4.3: a box card chosen uniformly at random, seen by nobody
            # before: the k-th card of the box, lowest id first.
            src = BOX + cur
            box = src_mask = t.masks[src]
            size = 0  # the box's cards, counted (a method call costs more when compiled)
            m = box
            while m:
                m &= m - 1
                size += 1
            k, rng = _RNG_BELOW(rng, size)
            for _ in range(k):
                box &= box - 1
            c = (box & -box).bit_length() - 1
            if order and _RANK[c] > _RANK[order[-1]]:
                # Failed draw: the card goes face up to the extra pile of the player who
                # played last, who wins the round.
                winner = state.played_by[-1]
                # (the table ``t.move(c, src, EXTRA + winner)`` gives, built at once).
                bit = 1 << c
                masks = list(t.masks)
                masks[src] = src_mask ^ bit
                masks[EXTRA + winner] = t.masks[EXTRA + winner] | bit
                k0, k1, k2, k3 = t.known
                known = (k0 | bit, k1 | bit, k2 | bit, k3 | bit)
                t = _NEW_TABLE((t.layout, tuple(masks), t.orders, known))
                played_by, from_box = state.played_by, state.from_box
                return end_round(
                    state,
                    t,
                    rng,
                    played_by,
                    from_box,
                    winner,
                    cur,
                    Ending.FAILED_DRAW,
                    c,
                    self._fill,
                )
            boxed = True
        else:
            raise IllegalActionError(
                action,
                "that is not a Box action (play a card or turn up)",
                self.legal_actions(state),
            )
        # The card goes face up onto the table, seen by every seat: the table
        # ``t.move(c, src, TABLE)`` gives, built at once (the tests compare the two).
        bit = 1 << c
        tm = t.masks
        masks = list(tm)
        masks[src] = src_mask ^ bit  # int operations, not those of list items
        masks[TABLE] = tm[TABLE] | bit
        # Tuples grow by concatenation: one copy (a starred display goes through a list
        # in the compiled build).
        grown = order + (c,)  # noqa: RUF005
        orders = (t.orders[DRAW], (), (), (), (), (), (), (), (), (), (), (), (), grown, ())
        k0, k1, k2, k3 = t.known
        t = _NEW_TABLE((t.layout, tuple(masks), orders, (k0 | bit, k1 | bit, k2 | bit, k3 | bit)))
        # BX-4.5: an equal rank reverses the direction; BX-4.4, BX-4.7: the next active
        # seat follows.
        direction = state.direction
        if order and _RANK[order[-1]] == _RANK[c]:
            direction = -direction
        nxt = NEXT[direction][state.active][cur]
        played_by = state.played_by + (cur,)  # noqa: RUF005 (one copy, as above)
        from_box = state.from_box + (boxed,)  # noqa: RUF005
        if not masks[BOX + nxt] and not masks[HAND + nxt] & _FOLLOW[c]:
            # BX-4.6b: stuck with an empty box; the round ends, nothing else moves.
            return end_round(
                state, t, rng, played_by, from_box, cur, nxt, Ending.EMPTY_BOX, None, self._fill
            )
        return _ADVANCE(state, t, rng, nxt, direction, played_by, from_box)

    # ---- observing ------------------------------------------------------------------

    def observe(self, state: BoxState, seat: int) -> BoxObservation:
        """What ``seat`` may know of ``state`` (``-1``: an onlooker)."""
        if seat != SPECTATOR and not 0 <= seat < NUM_PLAYERS:
            raise ValueError(f"seat must be 0-3 or -1 (onlooker), not {seat}")
        return new_observation(
            seat,
            NUM_PLAYERS,
            state.dealer,
            state.round,
            state.leader,
            state.current,
            state.direction,
            state.out,
            state.played_by,
            state.from_box,
            state.rounds,
            state.table.view(seat),
            self.legal_actions(state) if seat == state.current else (),
        )

    def public_events(
        self, before: BoxState, action: BoxAction, after: BoxState
    ) -> tuple[Hashable, ...]:
        """The public events one move made (BX-8.1), for the kit's public-history check.

        See :mod:`cardcore_box.history` for the events.
        """
        return public_events(before, action, after)

    def observed_events(self, observation: BoxObservation) -> tuple[Hashable, ...]:
        """The public events an observation holds: every finished round and this one."""
        return tuple(observed_events(observation))

    def outcome(self, state: BoxState) -> Outcome | None:
        """The result once the game is over (BX-6).

        The last player with a box wins (BX-6.1). If the last players went out together,
        the most extra cards among them wins and equal counts share (BX-6.2). Scores
        rank the rest: a seat scores the round it went out in, a winner one more than
        the final round.
        """
        if state.current is not None:
            return None
        # The outcome follows from who went out when, and (when the last players went
        # out together) their extra piles: a search scores every play-out, so each
        # outcome is built once (an outcome is an immutable value).
        active = state.active
        key: tuple[object, ...] = (active, state.out)
        if not active:
            m = state.table.masks
            key = (active, state.out, *(m[EXTRA + p].bit_count() for p in range(NUM_PLAYERS)))
        found = self._outcomes.get(key)
        if found is None:
            found = self._outcomes[key] = self._outcome(state)
        return found

    def _outcome(self, state: BoxState) -> Outcome:
        """:meth:`outcome` of a finished game, built."""
        final = max(state.out)
        survivors = [p for p in range(NUM_PLAYERS) if (state.active >> p) & 1]
        if survivors:
            winners = survivors
            reason = f"seat {survivors[0]} is the last player with a box"
        else:
            group = [p for p in range(NUM_PLAYERS) if state.out[p] == final]
            extras = {p: state.table.masks[EXTRA + p].bit_count() for p in group}
            most = max(extras.values())
            winners = [p for p in group if extras[p] == most]
            reason = (
                f"seats {', '.join(map(str, group))} went out together; "
                f"most extra cards ({most}): seat{'s' if len(winners) > 1 else ''} "
                f"{', '.join(map(str, winners))}"
            )
        scores = [
            float(final + 1) if p in winners else float(state.out[p]) for p in range(NUM_PLAYERS)
        ]
        return Outcome.from_scores(scores, reason=reason)

    # ---- determinisation ------------------------------------------------------------

    def sample_state(self, observation: BoxObservation, rng: random.Random) -> BoxState:
        """A full state agreeing with everything the observing seat knows.

        Unseen cards (other hands, every box, the draw pile, mucked hands) are dealt at
        random, keeping what this round revealed: a leader who led from the hand holds
        nothing higher than the lead, and a player who turned up a box card this round
        holds nothing as low as the card they could not follow.
        """
        o = observation
        table_cards = o.table.orders[TABLE]
        exclude: dict[int, int] = {}
        for i, (seat, boxed) in enumerate(zip(o.played_by, o.from_box, strict=True)):
            if i == 0:
                if not boxed:
                    exclude[HAND + seat] = (
                        exclude.get(HAND + seat, 0) | _ABOVE[_RANK[table_cards[0]]]
                    )
            elif boxed:
                exclude[HAND + seat] = (
                    exclude.get(HAND + seat, 0) | _UP_TO[_RANK[table_cards[i - 1]]]
                )
        table = sample_table(o.table, rng, exclude=exclude)
        # The discard is face down, but the played cards in it went there face up: every
        # seat knows them, which ``sample_table`` (looking only at zone visibility) does
        # not restore for the other seats or for an onlooker.
        shown = o.table.known[DISCARD]
        if shown:
            table = CardTable(
                table.layout, table.masks, table.orders, tuple(k | shown for k in table.known)
            )
        active = 0
        for p, gone in enumerate(o.out):
            if not gone:
                active |= 1 << p
        return BoxState(
            table=table,
            rng=rng.getrandbits(64),
            dealer=o.dealer,
            round=o.round,
            leader=o.leader,
            current=o.current_player,
            direction=o.direction,
            active=active,
            out=o.out,
            played_by=o.played_by,
            from_box=o.from_box,
            rounds=o.rounds,
        )


# Box.text_form: Actions read as ``play 9♠`` (or ``play 9s``, or just ``9♠``) or ``turn up``;
# observations from their JSON (4 players); the table as text by ``render.py``.
# Set on the class once it is built: under mypyc, an attribute written in the class
# body would be stored on every game object (and pickled with it).
setattr(  # noqa: B010 - mypy allows no class attribute here, mypyc needs one
    Box,
    "text_form",
    TextForm(
        parse=parse_box_action,
        observation=BoxObservation,
        codec=CODEC,
        num_players=(NUM_PLAYERS,),
        render="cardcore_box.render:render",  # by reference: render.py sits above the rules
    ),
)
