"""Nestors rules: an auction for a trump rank, then twelve three-card tricks.

Four players in two fixed partnerships ({0, 2} and {1, 3}) play a 36-card deck over
many hands until a partnership reaches ``+threshold`` (or a partnership reaches
``-threshold``). Rule ids (``NS-4.14`` ...) refer to the Nestors specification; the
modules' comments cite them where each rule is applied.

This module holds the :class:`Nestors` game: setup, legal actions, observation, outcome
and determinisation. The moves themselves are in :mod:`cardcore_nestors.auction` and
:mod:`cardcore_nestors.tricks`, the deals and the scoring of a hand in
:mod:`cardcore_nestors.deal`.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Final

from cardcore import (
    SPECTATOR,
    Card,
    CardTable,
    GameText,
    IllegalActionError,
    Outcome,
    TableView,
    TextForm,
    card_ids,
    rng_seed,
    rng_shuffle,
    sample_table,
)
from cardcore._build import mypyc_attr
from cardcore_nestors.actions import (
    BIDS_FROM,
    PASS_BIDS_FROM,
    PASS_ONLY,
    TRUMP_RANKS,
    TRUMPS,
    Bid,
    Leave,
    NestorsAction,
    Pass,
    Play,
    Take,
    Trump,
    parse_action,
)
from cardcore_nestors.auction import call_bid, call_pass, name_trump
from cardcore_nestors.cards import HIGH, RANK_MASK, SUIT_MASK, mask_points, points_of
from cardcore_nestors.deal import check_deck, deal_state, dealt_table
from cardcore_nestors.history import observed_events, public_events
from cardcore_nestors.options import MAX_BID, TEAMS, NestorsOptions, max_deals
from cardcore_nestors.state import (
    CODEC,
    DECK,
    DECK_IDS,
    HAND,
    HOLE,
    LAYOUT,
    NUM_ZONES,
    PH_AUCTION,
    PH_LEAD,
    PH_LEAVE,
    PH_OVER,
    PH_PLAY,
    PH_TAKE,
    PH_TRUMP,
    ROW,
    STOCK,
    TRICK,
    WON,
    MatchInfo,
    NestorsObservation,
    NestorsState,
    Phase,
    new_observation,
)
from cardcore_nestors.tricks import c_may_play, lead_trump, leave_carry, play_card, take_row

__all__ = ["Nestors", "check_invariants", "hand_sizes", "positive_constraints", "sample_placed"]

_PLAYS_OF: Final = Play.singles_in(DECK)
"""The plays of a hand (``Play.singles`` for the 36-card deck): one look-up per suit."""
_LEAVES_OF: Final = Leave.singles_in(DECK)
"""The leave actions of a set of cards, likewise."""

_WRONG_KIND: Final = {
    Phase.AUCTION: "it is the auction: bid or pass",
    Phase.TRUMP: "you won the auction: name the trump rank (A, J or 10)",
    Phase.LEAD: "trick 1 starts with your trump: play one",
    Phase.TAKE: "take two of the face-up row cards with your trump",
    Phase.PLAY: "it is time to play a card",
    Phase.LEAVE: "you won the trick: leave one of the four cards as the carry card",
}


# Compiled by mypyc into a native class that Python classes may still subclass (not
# final, so that a subclass's methods are the ones called).
@mypyc_attr(allow_interpreted_subclasses=True)
class Nestors(GameText[NestorsAction, NestorsObservation]):
    """The rules object; build it with ``cardcore.load_game("nestors", ...)``.

    Safety rule (the spec sets no limit on the number of hands): a game stops after
    :attr:`max_deals` deals, void deals included; the higher score then wins, and equal
    scores share the win. Random play stays far below it.
    """

    name = "nestors"
    min_players = 4
    max_players = 4

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as class, options and own attributes (a compiled game has no ``__dict__``)."""
        return (type(self), (self.options,), dict(getattr(self, "__dict__", {})) or None)

    def __init__(self, options: NestorsOptions | None = None) -> None:
        self.options: NestorsOptions = options or NestorsOptions()
        self.max_deals: int = max_deals(self.options)
        """The safety limit on deals per game (void deals included)."""
        self.max_deal_decisions: int = 49 + (MAX_BID - self.options.min_bid) // 5
        """The most decisions one deal can take (auction, trump, 12 tricks)."""

    # ---- metadata ----

    def teams(self, num_players: int) -> tuple[tuple[int, ...], ...]:
        """The partnerships {0, 2} and {1, 3} (NS-2.1)."""
        return TEAMS

    def max_decisions(self, num_players: int) -> int:
        """A true bound: :attr:`max_deals` deals of at most 49 + (190 - min_bid) / 5 each.

        A deal has at most 3 passes and (190 - min_bid) / 5 + 1 rising bids, one trump
        call, 2 decisions for trick 1, 4 for each of tricks 2 to 11 and 2 for trick 12.
        """
        return self.max_deals * self.max_deal_decisions

    # ---- setup ----

    def initial_state(
        self,
        num_players: int,
        seed: int,
        *,
        dealer: int | None = None,
        deck: Sequence[Card] | None = None,
    ) -> NestorsState:
        """The state before the first call of the auction (NS-3.1 to NS-3.5).

        Args:
            num_players: must be 4.
            seed: seeds the state's RNG.
            dealer: the first dealer, or ``None`` to turn cards up until a 6 (NS-3.1).
            deck: a stacked deck, top card first, used instead of the first shuffle.
                With ``dealer=None`` the cards that choose the dealer are turned up from
                it; the cards are then gathered and shuffled for the deal.

        Raises:
            ValueError: a wrong player count, dealer seat or deck.
        """
        if num_players != 4:
            raise ValueError(f"Nestors is for exactly 4 players, not {num_players}")
        if dealer is not None and (isinstance(dealer, bool) or dealer not in range(4)):
            raise ValueError(f"the dealer must be a seat 0-3, not {dealer!r}")
        rng = rng_seed(seed)
        if deck is not None:
            order = tuple(check_deck(deck))
        else:
            order, rng = rng_shuffle(rng, DECK_IDS)
        first_draw: tuple[Card, ...] = ()
        if dealer is None:
            for i, c in enumerate(order):  # NS-3.1: the first to receive a 6 deals
                if c % 13 + 2 == 6:
                    dealer = i % 4
                    first_draw = tuple(Card.of(x) for x in order[: i + 1])
                    break
            assert dealer is not None
            order, rng = rng_shuffle(rng, DECK_IDS)
        match = MatchInfo(
            scores=(0, 0),
            last_made=None,
            first_draw=first_draw,
            recent=(),
            winners=(),
            reason="",
        )
        return deal_state(dealt_table(order, dealer), rng, match, dealer, 1)

    # ---- queries ----

    def current_player(self, state: NestorsState) -> int | None:
        """The seat to decide, or ``None`` at the end."""
        return state.current

    def legal_actions(self, state: NestorsState) -> tuple[NestorsAction, ...]:
        """The current player's legal actions, in a fixed order."""
        phase = state.phase
        seat = state.current
        if seat is None:
            return ()
        t = state.table
        masks = t[1]  # the table's masks (by index: a named tuple's fields read slower)
        if phase is PH_PLAY:
            hand = masks[HAND + seat]
            played = t[2][TRICK]
            if len(played) == 2 and state.play.trick < 12:  # C's obligations (NS-4.13)
                hand = c_may_play(hand, played[0], played[1], state.deal.trump)
            return _PLAYS_OF(hand)
        if phase is PH_LEAVE:
            return _LEAVES_OF(masks[TRICK] | masks[ROW])
        if phase is PH_AUCTION:
            d = state.deal
            if masks[HAND + seat] & HIGH:
                low = max(self.options.min_bid, d.high + 5)
                if d.passed.bit_count() == 3:  # NS-4.4: the dealer must bid
                    return BIDS_FROM[low]
                return PASS_BIDS_FROM[low]
            if d.passed.bit_count() == 3:
                return ()
            return PASS_ONLY
        if phase is PH_TRUMP:
            hand = masks[HAND + seat]
            return tuple(TRUMPS[r] for r in TRUMP_RANKS if hand & RANK_MASK[r])
        if phase is PH_LEAD:
            return _PLAYS_OF(masks[HAND + seat] & RANK_MASK[state.deal.trump])
        if phase is PH_TAKE:  # every pair of the three row cards, in card order
            row = masks[ROW]
            return tuple(Take.from_mask(row ^ (1 << c)) for c in reversed(tuple(card_ids(row))))
        return ()

    # ---- applying ----

    def apply(self, state: NestorsState, action: NestorsAction) -> NestorsState:
        """Play ``action`` for the current player and return the new state.

        Raises:
            IllegalActionError: the action is not legal here; ``state`` is unchanged.
        """
        phase = state.phase
        kind = type(action)
        o = self.options
        try:
            if phase is PH_PLAY:
                if kind is Play:
                    return play_card(o, state, action)  # type: ignore[arg-type]
            elif phase is PH_LEAVE:
                if kind is Leave:
                    return leave_carry(o, state, action)  # type: ignore[arg-type]
            elif phase is PH_AUCTION:
                if kind is Bid:
                    return call_bid(o, state, action)  # type: ignore[arg-type]
                if kind is Pass:
                    return call_pass(o, state, action)  # type: ignore[arg-type]
            elif phase is PH_TRUMP:
                if kind is Trump:
                    return name_trump(o, state, action)  # type: ignore[arg-type]
            elif phase is PH_LEAD:
                if kind is Play:
                    return lead_trump(o, state, action)  # type: ignore[arg-type]
            elif phase is PH_TAKE:
                if kind is Take:
                    return take_row(o, state, action)  # type: ignore[arg-type]
            else:
                raise IllegalActionError(action, "the game is over")
        except IllegalActionError as e:  # the moves give the reason; add what is legal
            raise IllegalActionError(action, e.reason, self.legal_actions(state)) from None
        raise IllegalActionError(action, _WRONG_KIND[phase], self.legal_actions(state))

    # ---- observing ----

    def observe(self, state: NestorsState, seat: int) -> NestorsObservation:
        """What ``seat`` may know of ``state`` (``-1``: an onlooker)."""
        if seat != SPECTATOR and seat not in range(4):
            raise ValueError(f"no seat {seat}; seats are 0-3 (or -1 for an onlooker)")
        legal = self.legal_actions(state) if seat == state.current else ()
        return new_observation(
            seat,
            4,
            state.current,
            state.table.view(seat),
            legal,
            state.phase,
            state.match,
            state.deal,
            state.play,
        )

    def public_events(
        self, before: NestorsState, action: NestorsAction, after: NestorsState
    ) -> tuple[Hashable, ...]:
        """The public events one move made (NS-8.1), for the kit's public-history check.

        See :mod:`cardcore_nestors.history` for the events.
        """
        return public_events(before, action, after)

    def observed_events(self, observation: NestorsObservation) -> tuple[Hashable, ...]:
        """The public events an observation holds: the recent deals and this one so far."""
        return tuple(observed_events(observation))

    def outcome(self, state: NestorsState) -> Outcome | None:
        """The result once the game is over: the winning partnership scores 1, the other 0.

        The game scores are in :attr:`MatchInfo.scores` and in the outcome's reason; they
        do not always rank the partnerships (NS-6.5: the latest made contract can beat a
        higher score, and with ``minus_1000=wins`` a negative score can win), so the
        outcome's scores are win marks.
        """
        if state.phase is not PH_OVER:
            return None
        m = state.match
        marks = [1.0 if s % 2 in m.winners else 0.0 for s in range(4)]
        reason = f"{m.reason}; final scores {m.scores[0]} to {m.scores[1]}"
        return Outcome.from_scores(marks, teams=TEAMS, reason=reason)

    def evaluate(self, state: NestorsState, seat: int) -> float:
        """A 0-to-1 estimate of the seat's partnership winning, from the public scores.

        Search bots use it to cut long play-outs short (their ``horizon`` option): the
        score lead as a share of the threshold, mapped linearly onto 0..1.
        """
        if state.phase is PH_OVER:
            return 1.0 if seat % 2 in state.match.winners else 0.0
        mine = state.match.scores[seat % 2]
        theirs = state.match.scores[1 - seat % 2]
        lead = max(-1.0, min(1.0, (mine - theirs) / self.options.threshold))
        return 0.5 + 0.5 * lead

    # ---- sampling ----

    def sample_state(self, observation: NestorsObservation, rng: random.Random) -> NestorsState:
        """A full state consistent with everything the observing seat knows.

        Constraints the rules reveal are kept: a seat whose card showed it lacks a suit
        holds none of it (NS-8.4); a seat that bid (and a dealer forced to bid) holds an
        A, J or 10 until trick play starts; the bidder holds a trump until trick 1.
        """
        o = observation
        exclude: dict[int, int] = {}
        for s in range(4):
            v = o.play.voids[s]
            if v and s != o.seat:
                exclude[HAND + s] = sum(SUIT_MASK[x] for x in range(4) if (v >> x) & 1)
        need = positive_constraints(o)
        table = None
        if need:
            for _ in range(60):
                t = sample_table(o.table, rng, exclude=exclude)
                if all(t.masks[z] & m for z, m in need):
                    table = t
                    break
            if table is None:
                table = sample_placed(o, rng, exclude, need)
        else:
            table = sample_table(o.table, rng, exclude=exclude, tries=2000)
        return NestorsState(
            table=table,
            rng=rng.getrandbits(64),
            phase=o.phase,
            current=o.current_player,
            match=o.match,
            deal=o.deal,
            play=o.play,
        )


# Nestors.text_form: Actions read as :func:`cardcore_nestors.parse_action` says; observations from their
# JSON (4 players); the table as text by ``render.py``.
# Set on the class once it is built: under mypyc, an attribute written in the class
# body would be stored on every game object (and pickled with it).
setattr(  # noqa: B010 - mypy allows no class attribute here, mypyc needs one
    Nestors,
    "text_form",
    TextForm(
        parse=parse_action,
        observation=NestorsObservation,
        codec=CODEC,
        num_players=(4,),
        render="cardcore_nestors.render:render_observation",  # by reference: render.py sits above the rules
    ),
)


def positive_constraints(o: NestorsObservation) -> list[tuple[int, int]]:
    """Cards some other seat must hold, as the rules reveal: ``(zone, mask)`` pairs."""
    if o.phase not in (Phase.AUCTION, Phase.TRUMP, Phase.LEAD):
        return []
    d = o.deal
    seats = {s for s, b in d.calls if b}
    if o.phase is Phase.AUCTION and d.passed.bit_count() == 3:
        seats.add(d.dealer)  # the deal was not void: the dealer holds an A, J or 10
    need = {HAND + s: HIGH for s in seats}
    if o.phase is Phase.LEAD and d.bidder is not None:
        need[HAND + d.bidder] = RANK_MASK[d.trump]
    return [(z, m) for z, m in sorted(need.items()) if z != HAND + o.seat]


def sample_placed(
    o: NestorsObservation,
    rng: random.Random,
    exclude: Mapping[int, int],
    need: Sequence[tuple[int, int]],
) -> CardTable:
    """Sample after placing one required card in each constrained hand.

    Raises:
        ValueError: no deal of the unseen cards satisfies the constraints.
    """
    view = o.table
    known_all = 0
    for m in view.known:
        known_all |= m
    free = DECK & ~known_all
    known = list(view.known)
    placed = 0
    for z, m in need:
        options = list(card_ids(free & m & ~placed & ~exclude.get(z, 0)))
        if not options:
            raise ValueError("no deal of the unknown cards satisfies the constraints")
        c = rng.choice(options)
        placed |= 1 << c
        known[z] |= 1 << c
    fake = TableView(view.layout, view.seat, view.sizes, tuple(known), view.orders)
    t = sample_table(fake, rng, exclude=exclude, tries=2000)
    k = list(t.known)
    if o.seat != SPECTATOR:  # the observer does not know where the placed cards are
        k[o.seat] &= ~placed
    else:  # an onlooker's sample gives every seat the onlooker's knowledge: not these
        k = [ks & ~(placed & ~t.masks[HAND + s]) for s, ks in enumerate(k)]
    return CardTable(LAYOUT, t.masks, t.orders, tuple(k))


# ---- the invariants of spec section 9 (for tests) ----


def hand_sizes(trick: int, played: int, bidder: int) -> tuple[int, ...]:
    """Hand sizes (by seat) during play, from the schedule of NS-T18.

    Args:
        trick: the trick being played (1 to 12).
        played: cards already played to it (for trick 1: 0 before the trump, else 1).
        bidder: the bidder's seat.
    """
    rel = [9, 8, 8, 8] if trick == 1 and played == 0 else [8, 8, 8, 8]
    for t in range(2, trick + 1):
        n = 3 if t < 12 else 2
        if t == trick:
            n = played
        lead = t - 1 if t < 12 else 0
        for k in range(n):
            rel[(lead + k) % 4] -= 1
    return tuple(rel[(s - bidder) % 4] for s in range(4))


def check_invariants(game: Nestors, state: NestorsState) -> None:
    """Check the invariants of spec section 9 (and a few of section 6) on a state.

    Raises:
        AssertionError: naming the broken invariant.
    """
    t = state.table
    t.check()  # NS-9.1: each of the 36 cards in exactly one zone
    total = sum(t.size(z) for z in range(NUM_ZONES))
    assert total == 36, f"NS-9.1: {total} cards on the table, not 36"
    sizes = [t.size(HAND + s) for s in range(4)]
    phase = state.phase
    d = state.deal
    p = state.play
    if phase in (Phase.AUCTION, Phase.TRUMP):  # NS-9.2: after the first deal
        assert sizes == [5, 5, 5, 5], f"NS-9.2: hands {sizes} after the first deal"
        got = (t.size(HOLE), t.size(ROW), t.size(STOCK))
        assert got == (1, 3, 12), f"NS-9.2: hole, row and stock hold {got} after the first deal"
    high = 0
    for seat, b in d.calls:  # NS-9.7
        if b:
            assert b % 5 == 0, f"NS-9.7: bid {b} is not a multiple of 5"
            assert game.options.min_bid <= b <= MAX_BID, f"NS-9.7: bid {b} is out of range"
            assert b > high, f"NS-9.7: bid {b} by seat {seat} does not raise {high}"
            high = b
    assert high == d.high, f"NS-9.7: the high bid is {d.high} but the calls say {high}"
    if phase in (Phase.LEAD, Phase.TAKE, Phase.PLAY, Phase.LEAVE):
        assert d.bidder is not None, "NS-4.3: trick play without a bidder"
        assert d.trump in TRUMP_RANKS, "NS-4.7: trick play without a trump rank"
        assert (t.size(STOCK), t.size(HOLE)) == (0, 0), "NS-9.2: cards left undealt"
        played = t.size(TRICK)
        if phase is Phase.LEAD:
            assert (played, t.size(ROW)) == (0, 3), "NS-9.2: 3 face-up cards after the deal"
        elif phase is Phase.TAKE:
            assert (played, t.size(ROW)) == (1, 3), "NS-4.11: the trump waits for 2 row cards"
        elif phase is Phase.PLAY:
            assert t.size(ROW) == 1, f"NS-9.3: {t.size(ROW)} carry cards during trick play"
            assert played < (3 if p.trick < 12 else 2), "NS-4.13: too many cards in the trick"
            who = (p.leader + played) % 4
            assert state.current == who, f"NS-4.13: seat {state.current} plays, not {who}"
            assert sizes[who] > 0, f"NS-9.6: seat {who} must play but has no card"
        else:
            assert p.trick < 12, "NS-4.16: nothing is left in trick 12"
            assert (played, t.size(ROW)) == (3, 1), "NS-4.15: the winner takes 3 of 4 cards"
        want = list(hand_sizes(p.trick, played, d.bidder))
        assert sizes == want, f"NS-9.6: hands {sizes} in trick {p.trick}, expected {want}"
        for team in (0, 1):  # NS-9.4: every trick holds exactly 3 cards
            won = t.size(WON + team)
            assert won == 3 * p.tricks[team], f"NS-9.4: {won} cards in {p.tricks[team]} tricks"
            pts = mask_points(t.masks[WON + team], points_of(d.trump)) + 5 * p.tricks[team]
            assert pts == p.points[team], f"NS-6.1: running points {p.points}, expected {pts}"
        done = p.tricks[0] + p.tricks[1]
        assert done == p.trick - 1, f"NS-9.4: {done} tricks won before trick {p.trick}"
    r = state.match.last_hand
    if phase is Phase.OVER and r is not None and not r.void:  # the final hand
        assert (t.size(ROW), t.size(TRICK)) == (0, 0), "NS-9.3: cards left after trick 12"
        won = t.size(WON) + t.size(WON + 1)
        assert won == 36, f"NS-9.4: only {won} cards in tricks at the end of the hand"
        assert sum(p.tricks) == 12, f"NS-9.4: {sum(p.tricks)} tricks in the hand"
    if r is not None and not r.void:  # NS-9.5, NS-9.8
        assert r.bidder is not None
        assert sum(r.points) == 190, f"NS-9.5: hand points {r.points} do not total 190"
        dp = r.points[r.bidder % 2]
        assert r.made == (dp >= r.contract), "NS-6.2: made means D >= contract"
        if r.made:
            want_sum = 190
        elif game.options.fail_penalty == "taken":
            want_sum = 190 - 2 * dp
        else:
            want_sum = 190 - dp - r.contract
        assert sum(r.change) == want_sum, f"NS-9.8: hand scores {r.change} sum wrongly"
    assert d.number <= game.max_deals, "safety rule: too many deals"
