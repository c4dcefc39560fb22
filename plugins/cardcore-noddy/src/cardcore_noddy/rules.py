"""Noddy rules: a 17th-century race to 31 for two players (rule ids ``ND-...``).

A game is many hands. Each hand deals 3 cards each and turns one up (trumps); a turned-up
jack scores at once (ND-4.1); the holder of the trump jack may show it for 1 (ND-4.2);
both players score their show (ND-6.1); then they play their cards to one pile without
the running total passing 31, scoring as they go (ND-4.4, ND-6.3). The first player to
reach the target wins at once (ND-5.2), awards being added in the order of ND-5.3.

The only decisions are ``show knave`` / ``pass`` in step 2 and which card to play. Every
go, show and award is automatic and appears in the observation as a public event.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final, cast

from cardcore import (
    SPECTATOR,
    Card,
    CardTable,
    GameText,
    IllegalActionError,
    Outcome,
    TextForm,
    rng_seed,
)
from cardcore._build import mypyc_attr
from cardcore_noddy.actions import (
    PASS,
    SHOW_KNAVE,
    NoddyAction,
    Pass,
    Play,
    ShowKnave,
    parse_action,
)
from cardcore_noddy.deal import HandStart, bump, cut_for_dealer, sample_table, stacked_top
from cardcore_noddy.options import NoddyOptions
from cardcore_noddy.scoring import (
    JACK_OF,
    PIP,
    PLAYABLE,
    SEQ,
    SUIT,
    ScoringRules,
    award_table,
    pile_code_of,
    show_keys,
    total_codes,
)
from cardcore_noddy.state import (
    _CODEC,
    HANDS,
    LAYOUT,
    MAX_TOTAL,
    PILE,
    TURNUP,
    Event,
    Go,
    KnavePassed,
    KnaveShown,
    LastCard,
    NoddyObservation,
    NoddyState,
    Phase,
    Played,
    new_observation,
    new_played,
    new_state,
    play_on,
)

__all__ = ["MAX_TOTAL", "Noddy"]

_KNAVE: Final = Phase.KNAVE
_PLAYING: Final = Phase.PLAY
_OVER: Final = Phase.OVER
_SHOW_TRIES: Final = 1000
"""Random tries to find hidden cards that reproduce an announced show (``sample_state``)."""
_ALL: Final = LAYOUT.all_seats
_CARD: Final = tuple(Card.of(i) for i in range(52))
_KNAVE_PASSED: Final = (KnavePassed(0), KnavePassed(1))
"""The two possible passes: events are immutable values, so one of each is shared."""
_GO: Final = tuple(Go(seat, total) for seat in (0, 1) for total in range(32))
"""Every go, by ``seat * 32 + total``."""


# Names of other modules that the moves use, as constants: compiled, a constant is read
# from a C static, an imported name from the module's dictionary on every use.
_NEW_STATE: Final = new_state
_TUPLE_NEW: Final = cast(
    "Callable[[type[CardTable], tuple[object, ...]], CardTable]", tuple.__new__
)
"""``tuple.__new__``: ``_TUPLE_NEW(_CARD_TABLE, parts)`` is ``cardcore.new_table(parts)``
without the ``functools.partial`` call in between."""
_CARD_TABLE: Final = CardTable
_NEW_PLAYED: Final = new_played
_PLAY_ON: Final = play_on
_LAYOUT: Final = LAYOUT
_PLAY: Final = Play
_PASS: Final = Pass
_SHOW: Final = (SHOW_KNAVE, PASS)
_ONLY_PASS: Final = (PASS,)

_PLAYED_KEPT: Final = 1 << 15
"""At most this many play events are kept for sharing (a few megabytes): the same card,
total, award and score recur often, but their combinations are many."""

_NOT_PICKLED: Final = frozenset(("_played", "_next"))
"""Attributes that a pickled game leaves behind (``__init__`` starts them afresh)."""

_PLAY_OF: Final = tuple(Play.of(c) for c in range(52))
"""The shared play of each card id."""


def _plays(playable: int) -> tuple[Play, ...]:
    """``Play.singles(playable)``: the plays of a mask's cards, in card order.

    A hand holds at most 3 cards, so its masks are read here without a loop; compiled,
    this costs less than the call of the core's class method in another module, and
    needs no table of the masks seen.
    """
    a = playable & -playable
    rest = playable ^ a
    if not rest:
        return (_PLAY_OF[a.bit_length() - 1],) if a else ()
    b = rest & -rest
    rest ^= b
    if not rest:
        return (_PLAY_OF[a.bit_length() - 1], _PLAY_OF[b.bit_length() - 1])
    if rest & (rest - 1):  # more than 3 cards: never in a Noddy hand
        return Play.singles(playable)
    return (
        _PLAY_OF[a.bit_length() - 1],
        _PLAY_OF[b.bit_length() - 1],
        _PLAY_OF[rest.bit_length() - 1],
    )


# Compiled by mypyc into a native class that Python classes may still subclass (not
# final, so that a subclass's methods are the ones called).
@mypyc_attr(allow_interpreted_subclasses=True)
class Noddy(GameText[NoddyAction, NoddyObservation]):
    """The rules object; build it with ``cardcore.load_game("noddy", ...)``."""

    name = "noddy"
    min_players = 2
    max_players = 2

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as class, options and own attributes (a compiled game has no ``__dict__``).

        The shared play events and the last state played are left behind: the copy
        starts them afresh, as a compiled game's copy does.
        """
        own = getattr(self, "__dict__", {})
        kept = {k: v for k, v in own.items() if k not in _NOT_PICKLED}
        return (type(self), (self.options,), kept or None)

    def __init__(self, options: NoddyOptions | None = None) -> None:
        self.options = options or NoddyOptions()
        o = self.options
        self.rules = ScoringRules(
            twentyfive=o.twentyfive,
            run_values=ScoringRules.run_table(o.run_values),
            ace_bonus=o.ace_bonus,
            knave_in_count=o.knave_noddy == "in_count",
        )
        """The scoring options, for the show counter and the play scorer."""
        self._target = o.target
        self._last_at_31 = o.last_card_at_31
        self._total_codes = tuple(196 * c for c in total_codes(self.rules))
        self._awards = award_table(self.rules)
        self._last_events: dict[int, LastCard] = {}
        """Last-card events by score and seat (immutable, so shared)."""
        self._played: dict[int, Played] = {}
        """Play events by score, seat, card, total and award code (immutable, so shared;
        at most ``_PLAYED_KEPT`` of them)."""
        self._knave_step = o.knave_noddy == "show_early"
        """Whether hands have the step-2 decision; without it the only phase with a seat
        to move is the play, so the phase is not read."""
        self._start = HandStart(o, self.rules)
        """The automatic steps of every hand: the deal, the turned-up jack, the shows."""
        self._next: tuple[NoddyState | None, int, tuple[Play, ...]] = (None, 0, ())
        """The last state that ``apply`` returned in the play, its mover and legal plays,
        worked out there from values at hand: asked about that very state (as the next
        decision does), ``current_player`` and ``legal_actions`` read no field of it."""

    # ---- metadata ----------------------------------------------------------------------

    def teams(self, num_players: int) -> tuple[tuple[int, ...], ...] | None:
        """No partnerships (ND-1.4)."""
        return None

    def max_decisions(self, num_players: int) -> int:
        """At most 8 decisions a hand (2 in step 2, 6 cards) and ``2 * target - 1`` hands.

        Every finished hand awards at least 1 point (the last card, or 2 for 31), and
        the game ends before the two scores together reach ``2 * target - 1``.
        """
        return 8 * (2 * self._target - 1)

    # ---- setup -------------------------------------------------------------------------

    def initial_state(
        self,
        num_players: int,
        seed: int,
        *,
        dealer: int | None = None,
        deck: Sequence[Card] | None = None,
    ) -> NoddyState:
        """Cut for the dealer if none is given (ND-3.1), shuffle or stack, and deal (ND-3.3).

        Args:
            num_players: must be 2.
            seed: seeds the state's RNG (the cut and every shuffle).
            dealer: the first dealer (0 or 1), or ``None`` to cut.
            deck: a stacked deck for the first hand, top card first (all 52 cards).

        Raises:
            ValueError: a wrong player count, dealer seat or deck.
        """
        if num_players != 2:
            raise ValueError(f"noddy is for 2 players, not {num_players}")
        rng = rng_seed(seed)
        cuts: tuple[Event, ...] = ()
        if dealer is None:
            cuts, dealer, rng = cut_for_dealer(rng)
        elif dealer not in (0, 1):
            raise ValueError(f"dealer must be seat 0 or 1, not {dealer!r}")
        top = None if deck is None else stacked_top(deck)
        return self._start.deal(rng, dealer, (0, 0), 0, cuts, (), top)

    def start_hand(
        self,
        *,
        scores: tuple[int, int],
        dealer: int,
        deck: Sequence[Card] | None = None,
        hand: int = 1,
        seed: int = 0,
    ) -> NoddyState:
        """A state at the start of a hand with the given scores, for tests and analysis.

        The hand is dealt (stacked or shuffled) and steps 1-3 run as in play, so awards
        are checked against the target in the order of ND-5.3.

        Args:
            scores: both players' scores before the hand (each below the target).
            dealer: the dealer of the hand (0 or 1).
            deck: a stacked deck, top card first, or ``None`` to shuffle with ``seed``.
            hand: the hand's number.
            seed: seeds the state's RNG.

        Raises:
            ValueError: scores already at the target, a wrong dealer or deck.
        """
        if len(scores) != 2 or min(scores) < 0 or max(scores) >= self._target:
            raise ValueError(f"scores must be two numbers from 0 to {self._target - 1}: {scores}")
        self.initial_state(2, seed, dealer=dealer, deck=deck)  # checks the dealer and deck
        top = None if deck is None else stacked_top(deck)
        return self._start.deal(
            rng_seed(seed), dealer, (int(scores[0]), int(scores[1])), hand - 1, (), (), top
        )

    # ---- queries -----------------------------------------------------------------------

    def current_player(self, state: NoddyState) -> int | None:
        """The seat to decide, or ``None`` when the game is over."""
        nxt = self._next
        if nxt[0] is state:
            return nxt[1]
        return state.current

    def legal_actions(self, state: NoddyState) -> tuple[NoddyAction, ...]:
        """The mover's choices, in a fixed order.

        Step 2: ``show knave`` (for the holder of the trump jack only), then ``pass``.
        The play: every card of the hand that keeps the total at 31 or less, in card order.
        """
        nxt = self._next
        if nxt[0] is state:
            return nxt[2]
        seat = state.current
        if seat is None:
            return ()
        table = state.table
        if not self._knave_step or state.phase is _PLAYING:
            playable = table.masks[1 + seat] & PLAYABLE[MAX_TOTAL - state.total]  # HANDS
            return _plays(playable)
        turnup = (table.masks[TURNUP] & -table.masks[TURNUP]).bit_length() - 1
        if (table.masks[1 + seat] >> JACK_OF[SUIT[turnup]]) & 1:
            return _SHOW
        return _ONLY_PASS

    def outcome(self, state: NoddyState) -> Outcome | None:
        """The first to reach the target wins (ND-6.4); there are no ties."""
        if state.phase is not _OVER:
            return None
        return Outcome.from_scores(state.scores, reason=f"reached {self._target}")

    # ---- moves -------------------------------------------------------------------------

    def apply(self, state: NoddyState, action: NoddyAction) -> NoddyState:
        """Carry out a decision, then everything automatic up to the next decision.

        Raises:
            IllegalActionError: the action is not legal here; ``state`` is untouched.
        """
        seat = state.current
        if seat is None:
            raise IllegalActionError(action, "the game is over")
        if self._knave_step and state.phase is not _PLAYING:
            # Step 2 (ND-4.2): ``show knave`` or ``pass``; after the dealer's, the shows.
            kind = type(action)
            dealer = state.dealer
            if kind is _PASS and seat != dealer:
                # The non-dealer passes: the dealer decides next (the most common step 2).
                return _NEW_STATE(
                    state.table,
                    state.rng,
                    dealer,
                    state.scores,
                    _KNAVE,
                    dealer,
                    state.total,
                    state.gone,
                    state.hand,
                    state.events + (_KNAVE_PASSED[seat],),  # noqa: RUF005 (one copy, no list)
                )
            table = state.table
            rng = state.rng
            hand = state.hand
            gone = state.gone
            scores = state.scores
            total = state.total
            turnup = (table.masks[TURNUP] & -table.masks[TURNUP]).bit_length() - 1
            knave = JACK_OF[SUIT[turnup]]
            event: Event
            if kind is ShowKnave:
                if not (table.masks[HANDS[seat]] >> knave) & 1:
                    raise IllegalActionError(
                        action,
                        f"you do not hold the knave noddy ({Card.of(knave)}, the jack of trumps)",
                        self.legal_actions(state),
                    )
                table = table.reveal(1 << knave, _ALL)
                score = scores[seat] + 1
                scores = bump(scores, seat, score)
                event = KnaveShown(seat, _CARD[knave], 1, score)
                if score >= self._target:
                    won = (*state.events, event, self._start.won(seat, score))
                    return _NEW_STATE(
                        table, rng, dealer, scores, _OVER, None, total, gone, hand, won
                    )
            elif kind is Pass:
                event = _KNAVE_PASSED[seat]
            else:
                raise IllegalActionError(
                    action,
                    "step 2 (the knave noddy) comes first: choose 'show knave' or 'pass'"
                    if kind is Play
                    else "not a Noddy action",
                    self.legal_actions(state),
                )
            if seat != dealer:
                events = state.events + (event,)  # noqa: RUF005 (one copy, no list)
                return _NEW_STATE(
                    table, rng, dealer, scores, _KNAVE, dealer, total, gone, hand, events
                )
            tm = table.masks
            nd_show, d_show = show_keys(tm[2 - dealer], tm[1 + dealer], turnup)
            return self._start.shows(
                table,
                turnup,
                nd_show,
                d_show,
                rng,
                dealer,
                scores,
                total,
                gone,
                hand,
                state.events,
                (event,),
            )
        # Step 4 (ND-4.4): play a card to the pile, score it (ND-6.3), go, or end the play.
        if type(action) is not _PLAY:  # Play is final: the same as isinstance
            raise IllegalActionError(
                action, self._why_not_in_play(action), self.legal_actions(state)
            )
        bit = action.mask
        card = bit.bit_length() - 1
        table = state.table
        m = table.masks
        if not m[seat + 1] & bit:
            raise IllegalActionError(
                action, f"{action.card} is not in your hand", self.legal_actions(state)
            )
        total = state.total + PIP[card]
        if total > MAX_TOTAL:
            raise IllegalActionError(
                action,
                f"{action.card} would take the count past 31 ({state.total} + {PIP[card]} "
                f"= {total})",
                self.legal_actions(state),
            )
        # The card moves from the hand to the public, ordered pile.
        pile = table.orders[PILE] + (card,)
        # The masks that do not change are passed on as objects: compiled, an int read
        # from the tuple would be unboxed, then boxed anew (a new object for a large mask).
        mo: tuple[object, ...] = m
        masks = cast(
            "tuple[int, ...]",
            (mo[0], m[1] ^ bit, mo[2], mo[3], m[4] | bit)
            if seat == 0
            else (mo[0], mo[1], m[2] ^ bit, mo[3], m[4] | bit),
        )
        k = table.known
        after = (_LAYOUT, masks, ((), (), (), (), pile), (k[0] | bit, k[1] | bit))
        # It scores (ND-6.3): the award for the total and the pile's last cards.
        code = self._total_codes[total]
        n = len(pile)
        if n > 2:
            code += pile_code_of(pile)
        elif n == 2 and SEQ[pile[0]] == SEQ[card]:
            code += 49  # pile_code of two cards: a pair, or nothing
        parts, points = self._awards[code]
        scores = state.scores
        score = scores[seat] + points
        if points:
            scores = (score, scores[1]) if seat == 0 else (scores[0], score)
        key = (((((((score << 1) | seat) << 6) | card) << 5) | total) << 10) | code
        played = self._played.get(key)
        if played is None:
            played = _NEW_PLAYED(seat, _CARD[card], total, points, parts, score)
            if len(self._played) < _PLAYED_KEPT:
                self._played[key] = played
        events = state.events
        gone = state.gone
        if score >= self._target:
            won = (*events, played, self._start.won(seat, score))
            return _NEW_STATE(
                _TUPLE_NEW(_CARD_TABLE, after),
                state.rng,
                state.dealer,
                scores,
                _OVER,
                None,
                total,
                gone,
                state.hand,
                won,
            )
        # The other seat plays next if it can; else it goes (once a hand), and this seat
        # plays on if it can. The play goes on: the RNG, dealer, phase and hand stay, and
        # the updater copies them (see state.play_on).
        room = PLAYABLE[MAX_TOTAL - total]
        opp = 1 - seat
        opp_hand = masks[2 - seat]
        playable = opp_hand & room
        if playable:
            events = events + (played,)  # noqa: RUF005 (one copy, no list)
            result = _PLAY_ON(
                state, _TUPLE_NEW(_CARD_TABLE, after), scores, opp, total, gone, events
            )
            self._next = (result, opp, _plays(playable))
            return result
        new: tuple[Event, ...] = (played,)
        if opp_hand and not gone[opp]:
            gone = (True, gone[1]) if opp == 0 else (gone[0], True)
            new = (played, _GO[opp * 32 + total])
        playable = masks[seat + 1] & room
        if playable:
            events = events + new
            result = _PLAY_ON(
                state, _TUPLE_NEW(_CARD_TABLE, after), scores, seat, total, gone, events
            )
            self._next = (result, seat, _plays(playable))
            return result
        rng = state.rng
        dealer = state.dealer
        hand = state.hand
        if total < MAX_TOTAL or self._last_at_31:
            # The play ends (ND-4.4): the last-card point, then the next hand (ND-4.5).
            score += 1
            scores = bump(scores, seat, score)
            last = self._last_events.get(score * 2 + seat)
            if last is None:
                last = self._last_events[score * 2 + seat] = LastCard(seat, 1, score)
            new = (*new, last)
            if score >= self._target:
                won = (*events, *new, self._start.won(seat, score))
                return _NEW_STATE(
                    _TUPLE_NEW(_CARD_TABLE, after),
                    rng,
                    dealer,
                    scores,
                    _OVER,
                    None,
                    total,
                    gone,
                    hand,
                    won,
                )
        # A new deal gathers every card: the table after the play is never built.
        return self._start.deal(rng, 1 - dealer, scores, hand, events, new)

    def _why_not_in_play(self, action: object) -> str:
        if isinstance(action, ShowKnave):
            return "the knave noddy can be shown only in step 2, before the shows"
        if isinstance(action, Pass):
            return (
                "you hold a card that keeps the count at 31 or less, so you must play "
                "(a go is only for a player who cannot play)"
            )
        return "not a Noddy action"

    # ---- information -------------------------------------------------------------------

    def observe(self, state: NoddyState, seat: int) -> NoddyObservation:
        """What ``seat`` may know (ND-8); ``-1`` is an onlooker."""
        if seat not in (0, 1, SPECTATOR):
            raise ValueError(f"seat must be 0, 1 or -1 (onlooker), not {seat!r}")
        return new_observation(
            seat,
            2,
            state.current,
            state.table.view(seat),
            self.legal_actions(state) if seat == state.current else (),
            self.options,
            state.dealer,
            state.scores,
            state.phase,
            state.total,
            state.gone,
            state.hand,
            state.events,
        )

    def sample_state(self, observation: NoddyObservation, rng: random.Random) -> NoddyState:
        """A full state that agrees with everything the observing seat knows.

        The cards the seat cannot see are dealt at random into the hands (and the rest
        is the stock), keeping what the public events reveal:

        * a seat that went at total T holds no card of pip value 31 - T or less (ND-4.4);
        * a seat whose show was announced gets cards that, with those it has played this
          hand and the turn-up, give exactly that breakdown (ND-4.3), when such cards turn
          up within 1,000 random draws (a very rare show falls back to the go
          constraint only).

        Raises:
            ValueError: no deal of the hidden cards fits the go constraints.
        """
        o = observation
        table = sample_table(o, self.rules, rng, tries=_SHOW_TRIES)
        return NoddyState(
            table=table,
            rng=rng.getrandbits(64),
            dealer=o.dealer,
            scores=o.scores,
            phase=o.phase,
            current=o.current_player,
            total=o.total,
            gone=o.gone,
            hand=o.hand,
            events=o.events,
        )


# Noddy.text_form: Actions read as ``play 7♥`` (or just ``7h``), ``show knave`` or ``pass``;
# observations from their JSON (2 players); the table as text by ``render.py``.
# Set on the class once it is built: under mypyc, an attribute written in the class
# body would be stored on every game object (and pickled with it).
setattr(  # noqa: B010 - mypy allows no class attribute here, mypyc needs one
    Noddy,
    "text_form",
    TextForm(
        parse=parse_action,
        observation=NoddyObservation,
        codec=_CODEC,
        num_players=(2,),
        render="cardcore_noddy.render:render",  # by reference: render.py sits above the rules
    ),
)
