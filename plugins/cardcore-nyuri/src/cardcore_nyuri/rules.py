"""Nyuri ("Steal") rules: the game object, from the deal to the outcome.

Players take turns as the *layer*: the layer puts a card face up (alone, or with a
higher card of its suit on top as a bodyguard), and every other player in turn may try
to steal it with one, two or three hand cards worth more. The best offer takes the
target; a player who did not steal draws from the stock. Rule ids (``NY-4.4``) refer to
the Nyuri rules specification; the plugin's README summarises them. The zones of the
card table are described in :mod:`cardcore_nyuri.state`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final, NoReturn

from cardcore import (
    SPECTATOR,
    Card,
    CardTable,
    GameText,
    IllegalActionError,
    Layout,
    Outcome,
    TextForm,
    card_ids,
    new_table,
    rng_below,
    sample_table,
)
from cardcore._build import mypyc_attr
from cardcore_nyuri.actions import (
    _HIGHER_SAME_SUIT,
    _LAYS,
    _SUIT_OF,
    Decline,
    Lay,
    NyuriAction,
    Steal,
    Swap,
    TakeBack,
    parse_nyuri_action,
)
from cardcore_nyuri.deal import deal
from cardcore_nyuri.options import NyuriOptions
from cardcore_nyuri.state import (
    _CODEC,
    NyuriObservation,
    NyuriState,
    NyuriZones,
    Phase,
    TurnRecord,
    new_observation,
    new_record,
    new_state,
    nyuri_layout,
    nyuri_zones,
)
from cardcore_nyuri.steals import _mask_value, offer_actions, steal_problem

__all__ = ["Nyuri"]

_CARD: Final[tuple[Card, ...]] = tuple(Card.of(c) for c in range(52))

_LAY: Final = Phase.LAY
_OFFER: Final = Phase.OFFER
_RETURN: Final = Phase.RETURN
_OVER: Final = Phase.OVER

_RETURN_BOTH: Final[tuple[NyuriAction, ...]] = (TakeBack(), Swap())
_RETURN_TAKE: Final[tuple[NyuriAction, ...]] = (TakeBack(),)
_LISTED: Final[list[tuple[Any, Any, Any]]] = [(None, None, ())]  # last game, state, listing


def _all_know(known: tuple[int, ...], m: int) -> tuple[int, ...]:
    """``known`` with the cards of ``m`` known to every seat (face up)."""
    return tuple([k | m for k in known])


# ---- the rules ---------------------------------------------------------------------


# Compiled by mypyc into a native class that Python classes may still subclass (not
# final, so that a subclass's methods are the ones called).
@mypyc_attr(allow_interpreted_subclasses=True)
class Nyuri(GameText[NyuriAction, NyuriObservation]):
    """The Nyuri rules under fixed ``options`` (default: the ``default`` preset).

    Build it with ``cardcore.load_game("nyuri")``.
    """

    name = "nyuri"
    min_players = 2
    max_players = 4

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as class, options and own attributes (a compiled game has no ``__dict__``)."""
        return (type(self), (self.options,), dict(getattr(self, "__dict__", {})) or None)

    def __init__(self, options: NyuriOptions | None = None) -> None:
        self.options: NyuriOptions = options if options is not None else NyuriOptions()
        o = self.options
        self._pile = o.capture == "pile"
        self._empty_hand_end = o.end == "first_empty_hand"
        self._penalty = o.three_card_penalty
        self._any_suit = o.guarded_single == "any_suit"
        self._limit = o.turn_limit

    def __repr__(self) -> str:
        return f"Nyuri({self.options!r})"

    # ---- setup -----------------------------------------------------------------------

    def teams(self, num_players: int) -> tuple[tuple[int, ...], ...] | None:
        """No partnerships: everyone plays for themselves."""
        return None

    def max_turns(self, num_players: int) -> int:
        """An upper bound on the turns of one game.

        With ``capture=pile`` the bound of NY-9.6, ``(104 - 7N) + 26(N - 1) + N``; with
        ``capture=hand``, ``end=stock_exhausted`` and N >= 3 the bound ``52 - 7N`` of
        NY-9.7; otherwise (and whenever smaller) the turn limit.
        """
        n = num_players
        bound = self._limit
        if self._pile:
            bound = min(bound, (104 - 7 * n) + 26 * (n - 1) + n)
        elif not self._empty_hand_end and n >= 3:
            bound = min(bound, 52 - 7 * n)
        return bound

    def max_decisions(self, num_players: int) -> int:
        """A turn has at most N + 1 decisions: a lay, N - 1 offers and a return."""
        return self.max_turns(num_players) * (num_players + 1)

    def layout(self, num_players: int) -> Layout:
        """The card-table layout for a player count."""
        return nyuri_layout(num_players)

    def zones(self, num_players: int) -> NyuriZones:
        """The zone indexes for a player count."""
        return nyuri_zones(num_players)

    def initial_state(
        self,
        num_players: int,
        seed: int,
        *,
        dealer: int | None = None,
        deck: Sequence[Card] | None = None,
    ) -> NyuriState:
        """Shuffle (or stack) and deal seven cards each from the dealer's left (NY-3).

        Args:
            num_players: 2, 3 or 4.
            seed: seeds the state's RNG.
            dealer: the dealer seat; ``None`` draws it at random (NY-3.1).
            deck: a stacked deck, top card first, instead of the shuffle.

        Raises:
            ValueError: a bad player count, dealer seat or deck.
        """
        return deal(num_players, seed, dealer, deck)

    # ---- whose turn, what is legal ---------------------------------------------------

    def current_player(self, state: NyuriState) -> int | None:
        """The seat to decide, or ``None`` when the game is over."""
        return state.current

    def legal_actions(self, state: NyuriState) -> Sequence[NyuriAction]:
        """The current player's legal actions, in a fixed order.

        Lay: each hand card in card order, each followed by its guarded lays. Offer:
        ``decline``, single cards in card order, then pairs and triples as combinations
        of the hand sorted by value (then suit), a lazy sequence that builds a steal only
        when it is read. Return: ``take back``, then ``swap`` when the stock is not empty.
        """
        listed = _LISTED[0]  # kept: an observation of the mover and its caller share it
        if listed[1] is state and listed[0] is self:
            return listed[2]  # type: ignore[no-any-return]
        out = self._listing(state)
        _LISTED[0] = (self, state, out)
        return out

    def _listing(self, state: NyuriState) -> Sequence[NyuriAction]:
        phase = state.phase
        masks = state.table.masks
        if phase is _OFFER:
            n = state.table.layout.num_seats
            assert state.current is not None
            hand = masks[1 + state.current]
            target = masks[1 + 2 * n].bit_length() - 1
            guard = masks[2 + 2 * n].bit_length() - 1
            return offer_actions(hand, target, guard, any_suit=self._any_suit)
        if phase is _LAY:
            hand = masks[1 + state.layer]
            out: list[NyuriAction] = []
            m = hand
            while m:  # each card in card order, then the same card under each bodyguard
                low = m & -m
                m ^= low
                c = low.bit_length() - 1
                row = 53 * c  # the lays of c: _LAYS[row + guard], unguarded at row + 52
                out.append(_LAYS[row + 52])
                guards = hand & _HIGHER_SAME_SUIT[c]
                while guards:
                    g = guards & -guards
                    guards ^= g
                    out.append(_LAYS[row + g.bit_length() - 1])
            return tuple(out)
        if phase is _RETURN:
            return _RETURN_BOTH if masks[0] else _RETURN_TAKE
        return ()

    def steal_problem(self, offer: int, target: int, guard: int = -1) -> str | None:
        """Why a set of cards cannot steal a target (NY-4.4), or ``None`` if it can.

        The offer is a card mask, the target and its bodyguard card ids (``guard`` -1:
        unguarded); the reason comes in the players' words.
        """
        return steal_problem(offer, target, guard, any_suit=self._any_suit)

    # ---- applying actions ------------------------------------------------------------

    def apply(self, state: NyuriState, action: NyuriAction) -> NyuriState:
        """Play ``action`` for the current player; return the new state.

        Raises:
            IllegalActionError: the action is not legal now (the reason says why);
                ``state`` is unchanged.
        """
        phase = state.phase
        kind = type(action)
        if phase is _OFFER:
            if kind is Steal or kind is Decline:
                return self._offer(state, action)  # type: ignore[arg-type]
            self._refuse(state, action, "the other players may only steal or decline now")
        if phase is _LAY:
            if kind is Lay:
                return self._lay(state, action)  # type: ignore[arg-type]
            self._refuse(state, action, f"seat {state.layer} must lay a card first")
        if phase is _RETURN:
            if kind is TakeBack:
                return self._return(state, swap=False)
            if kind is Swap:
                if not state.table.masks[0]:
                    self._refuse(state, action, "cannot swap: the stock is empty")
                return self._return(state, swap=True)
            self._refuse(state, action, f"nobody stole: seat {state.layer} must take back or swap")
        raise IllegalActionError(action, "the game is over")

    def _refuse(self, state: NyuriState, action: object, reason: str) -> NoReturn:
        if not isinstance(action, Lay | Steal | Decline | TakeBack | Swap):
            reason = f"not a Nyuri action ({type(action).__name__})"
        raise IllegalActionError(action, reason, self.legal_actions(state))

    def _lay(self, state: NyuriState, action: Lay) -> NyuriState:
        table = state.table
        layer = state.layer
        hand = 1 + layer
        n = table.layout.num_seats
        c = action.card.id
        hmask = table.masks[hand]
        if not (hmask >> c) & 1:
            self._refuse(state, action, f"{action.card} is not in your hand")
        masks = list(table.masks)
        shown = 1 << c
        masks[1 + 2 * n] = shown
        if action.guard is not None:
            g = action.guard.id
            if not (hmask >> g) & 1:
                self._refuse(state, action, f"{action.guard} is not in your hand")
            if _SUIT_OF[g] != _SUIT_OF[c]:
                self._refuse(
                    state,
                    action,
                    f"{action.guard} cannot guard {action.card}: "
                    "a bodyguard must be of the same suit",
                )
            if g <= c:
                self._refuse(
                    state,
                    action,
                    f"{action.guard} cannot guard {action.card}: a bodyguard must be higher",
                )
            masks[2 + 2 * n] = 1 << g
            shown |= 1 << g
        masks[hand] = hmask ^ shown
        # Face up on the table: every seat now knows where these cards are.
        table = new_table((table.layout, tuple(masks), table.orders, _all_know(table.known, shown)))
        return new_state(
            table,
            state.rng,
            state.dealer,
            _OFFER,
            layer,
            layer + 1 if layer + 1 < n else 0,
            state.turn,
            state.dead_turns,
            state.last,
            "",
        )

    def _offer(self, state: NyuriState, action: Steal | Decline) -> NyuriState:
        table = state.table
        seat = state.current
        assert seat is not None
        n = table.layout.num_seats
        if type(action) is Steal:
            m = action.mask
            masks = list(table.masks)
            hmask = masks[1 + seat]
            if hmask & m != m:
                missing = " ".join(str(c) for c in action.cards if not hmask & c.bit)
                self._refuse(state, action, f"{missing} not in your hand")
            t = masks[1 + 2 * n].bit_length() - 1
            g = masks[2 + 2 * n].bit_length() - 1
            problem = steal_problem(m, t, g, any_suit=self._any_suit)
            if problem is not None:
                self._refuse(state, action, problem)
            masks[1 + seat] = hmask ^ m
            masks[3 + 2 * n + seat] = m
            # The offer is face up: every seat now knows where these cards are.
            table = new_table((table.layout, tuple(masks), table.orders, _all_know(table.known, m)))
        nxt = seat + 1 if seat + 1 < n else 0
        if nxt != state.layer:
            return new_state(
                table,
                state.rng,
                state.dealer,
                _OFFER,
                state.layer,
                nxt,
                state.turn,
                state.dead_turns,
                state.last,
                "",
            )
        return self._resolve(state, table)

    def _resolve(self, state: NyuriState, table: CardTable) -> NyuriState:
        """Resolution and draws (NY-4.5, NY-4.6), then the turn's end or the return.

        The table is rebuilt in one step. Cards leaving the face-up zones were known to
        every seat, so nobody's knowledge changes; a draw is seen by the drawer only.
        """
        n = table.layout.num_seats
        layer = state.layer
        masks = list(table.masks)
        tz = 1 + 2 * n
        gz = tz + 1
        oz = gz + 1
        best = 0
        winner = -1
        offers: list[tuple[Card, ...]] = [()] * n
        for k in range(1, n):
            s = (layer + k) % n
            m = masks[oz + s]
            if m:
                offer = Steal.from_mask(m)
                offers[s] = offer.cards
                masks[oz + s] = 0
                v = _mask_value(m)
                if v > best:
                    best = v
                    winner = s
        tmask = masks[tz]
        gmask = masks[gz]
        target = _CARD[tmask.bit_length() - 1]
        guard = _CARD[gmask.bit_length() - 1] if gmask else None
        rng = state.rng
        penalty = False
        orders = table.orders
        known = table.known
        if winner >= 0:
            # Losing offers go back to their owners' hands (NY-4.5).
            for s in range(n):
                m = table.masks[oz + s]
                if m and s != winner:
                    masks[1 + s] |= m
            wmask = table.masks[oz + winner]
            masks[(1 + n + winner) if self._pile else (1 + winner)] |= tmask | gmask | wmask
            masks[tz] = 0
            masks[gz] = 0
            if self._penalty and wmask.bit_count() == 3 and masks[1 + winner]:
                table = new_table((table.layout, tuple(masks), orders, known))
                wh = masks[1 + winner]
                i, rng = rng_below(rng, wh.bit_count())
                card = list(card_ids(wh))[i]
                # A card picked unseen from W's hand, seen by L and W only (NY-8.2).
                table = table.move(
                    card, 1 + winner, 1 + layer, seen=(1 << layer) | (1 << winner), secret=True
                )
                masks = list(table.masks)
                known = table.known
                penalty = True
            dead = 0
        else:
            dead = 0 if masks[0] else state.dead_turns + 1
        drew: list[int] = []
        stock = orders[0]
        if stock:
            known_l = list(known)
            top = len(stock)
            for k in range(1, n):
                if not top:
                    break
                s = (layer + k) % n
                if s != winner:
                    top -= 1
                    bit = 1 << stock[top]
                    masks[0] ^= bit
                    masks[1 + s] |= bit
                    known_l[s] |= bit
                    drew.append(s)
            if drew:
                orders = (stock[:top], *orders[1:])
                known = tuple(known_l)
        table = new_table((table.layout, tuple(masks), orders, known))
        record = new_record(
            state.turn,
            layer,
            target,
            guard,
            tuple(offers),
            winner if winner >= 0 else None,
            penalty,
            tuple(drew),
            "",
        )
        if winner < 0:
            return new_state(
                table, rng, state.dealer, _RETURN, layer, layer, state.turn, dead, record, ""
            )
        return self._end_turn(state, table, rng, dead, record)

    def _return(self, state: NyuriState, *, swap: bool) -> NyuriState:
        """Take back or swap (NY-4.7), then the turn's end.

        The target and bodyguard were face up, so every seat knows where they go.
        """
        table = state.table
        n = table.layout.num_seats
        layer = state.layer
        hand = 1 + layer
        tz = 1 + 2 * n
        masks = list(table.masks)
        tmask = masks[tz]
        gmask = masks[tz + 1]
        masks[tz] = masks[tz + 1] = 0
        orders = table.orders
        known = table.known
        if swap:
            # The target at the very bottom, the bodyguard just above it (NY-T23) ...
            under: tuple[int, ...] = (tmask.bit_length() - 1,)
            if gmask:
                under += (gmask.bit_length() - 1,)
            stock = under + orders[0]
            # ... then L draws as many cards from the top, seen by L only.
            drawn = stock[-len(under) :]
            stock = stock[: -len(under)]
            got = 0
            for c in drawn:
                got |= 1 << c
            masks[0] = (masks[0] | tmask | gmask) ^ got
            masks[hand] |= got
            orders = (stock, *orders[1:])
            known = tuple(k | got if s == layer else k for s, k in enumerate(known))
        else:
            masks[hand] |= tmask | gmask
        table = new_table((table.layout, tuple(masks), orders, known))
        last = state.last
        assert last is not None
        record = new_record(
            last.turn,
            last.layer,
            last.target,
            last.guard,
            last.offers,
            None,
            False,
            last.drew,
            "swap" if swap else "take back",
        )
        return self._end_turn(state, table, state.rng, state.dead_turns, record)

    def _end_turn(
        self, state: NyuriState, table: CardTable, rng: int, dead: int, record: TurnRecord
    ) -> NyuriState:
        """The end checks of section 5, then the next layer (NY-4.1, NY-4.8)."""
        n = table.layout.num_seats
        masks = table.masks
        layer = state.layer
        reason = ""
        if self._empty_hand_end:
            for s in range(n):
                if not masks[1 + s]:
                    reason = f"seat {s}'s hand is empty"
                    break
        elif not masks[0]:
            reason = "the stock is exhausted"
        if not reason and dead >= n:
            reason = f"{n} dead turns in a row"
        if not reason and state.turn >= self._limit:
            reason = f"the turn limit ({self._limit}) was reached"
        nxt = layer
        if not reason:
            for k in range(1, n + 1):
                nxt = (layer + k) % n
                if masks[1 + nxt]:
                    break
            else:
                reason = "every hand is empty"
        if reason:
            return new_state(
                table, rng, state.dealer, _OVER, layer, None, state.turn, dead, record, reason
            )
        return new_state(table, rng, state.dealer, _LAY, nxt, nxt, state.turn + 1, dead, record, "")

    # ---- information -----------------------------------------------------------------

    def observe(self, state: NyuriState, seat: int) -> NyuriObservation:
        """What ``seat`` may know of ``state`` (``-1``: an onlooker), per section 8."""
        view = state.table.view(seat)
        n = view.layout.num_seats
        first = 1 + n if self._pile else 1  # the zones counted (NY-6.1): piles or hands
        return new_observation(
            seat,
            n,
            state.dealer,
            state.phase,
            state.layer,
            state.current,
            state.turn,
            state.dead_turns,
            state.last,
            state.end_reason,
            view.sizes[first : first + n],
            view,
            self.legal_actions(state) if seat == state.current else (),
        )

    def counts(self, state: NyuriState) -> tuple[int, ...]:
        """Each player's count (NY-6.1): pile sizes, or hand sizes with ``capture=hand``."""
        n = state.table.layout.num_seats
        base = 1 + n if self._pile else 1
        return tuple(map(int.bit_count, state.table.masks[base : base + n]))

    def outcome(self, state: NyuriState) -> Outcome | None:
        """The result once the game is over (NY-6): the highest counts share the win."""
        if state.phase is not _OVER:
            return None
        return Outcome.from_scores(self.counts(state), reason=state.end_reason)

    def sample_state(self, observation: NyuriObservation, rng: random.Random) -> NyuriState:
        """A full state agreeing with everything the observing seat knows.

        The unseen cards are dealt at random into the places the seat cannot see; no
        rule reveals more (a decline does not show that no steal was possible).
        """
        o = observation
        table = sample_table(o.table, rng)
        if o.seat == SPECTATOR:
            # Keep what the onlooker knows known to all: its view of the sample is its own.
            public = 0
            for m in o.table.known:
                public |= m
            table = table.reveal(public, table.layout.all_seats)
        return new_state(
            table,
            rng.getrandbits(64),
            o.dealer,
            o.phase,
            o.layer,
            o.current_player,
            o.turn,
            o.dead_turns,
            o.last,
            o.end_reason,
        )


# Nyuri.text_form: Actions read as ``lay 7♥``, ``lay 5d guard 9d``, ``steal 4s+4d``, ``decline``,
# ``take back`` or ``swap``, cards as ``10♥``, ``10h`` or ``Th``; observations from
# their JSON (2-4 players); the table as text by ``render.py``.
# Set on the class once it is built: under mypyc, an attribute written in the class
# body would be stored on every game object (and pickled with it).
setattr(  # noqa: B010 - mypy allows no class attribute here, mypyc needs one
    Nyuri,
    "text_form",
    TextForm(
        parse=parse_nyuri_action,
        observation=NyuriObservation,
        codec=_CODEC,
        num_players=(2, 3, 4),
        render="cardcore_nyuri.render:render_observation",  # by reference: render.py sits above the rules
    ),
)
