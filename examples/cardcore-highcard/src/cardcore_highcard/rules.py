"""High card rules.

Each player is dealt ``hand_size`` cards. In each round every player, starting with the
round's leader, plays one card face up; the highest rank wins the round (suits do not
count; equal highest ranks: nobody wins it) and leads the next. When hands are empty,
the most rounds won wins the game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import final

import attrs

from cardcore import (
    DECK_52,
    SPECTATOR,
    Card,
    GameText,
    IllegalActionError,
    Outcome,
    TextForm,
    card_ids,
    rng_below,
    rng_seed,
    sample_table,
)
from cardcore_highcard.actions import Play, parse_action
from cardcore_highcard.options import HighcardOptions
from cardcore_highcard.state import CODEC, LAYOUTS, STOCK, HighcardObservation, HighcardState

__all__ = ["Highcard"]


@final
class Highcard(GameText[Play, HighcardObservation]):
    """The rules object; build it with ``cardcore.load_game("highcard", ...)``."""

    name = "highcard"
    min_players = 2
    max_players = 4

    def __init__(self, options: HighcardOptions | None = None) -> None:
        self.options = options or HighcardOptions()

    def teams(self, num_players: int) -> None:
        """No partnerships."""
        return

    def max_decisions(self, num_players: int) -> int:
        """Every decision plays one card."""
        return num_players * self.options.hand_size

    def _value(self, card: int) -> int:
        rank = card % 13 + 2
        return 1 if rank == 14 and self.options.ace == "low" else rank

    def initial_state(
        self,
        num_players: int,
        seed: int,
        *,
        dealer: int | None = None,
        deck: Sequence[Card] | None = None,
    ) -> HighcardState:
        """Shuffle (or stack), deal ``hand_size`` each from the dealer's left."""
        if not 2 <= num_players <= 4:
            raise ValueError(f"highcard needs 2-4 players, not {num_players}")
        layout = LAYOUTS[num_players]
        rng = rng_seed(seed)
        if dealer is None:
            dealer, rng = rng_below(rng, num_players)
        elif not 0 <= dealer < num_players:
            raise ValueError(f"dealer must be a seat 0-{num_players - 1}, not {dealer}")
        if deck is not None:
            table = layout.new_table([c.id for c in deck], STOCK)
        else:
            table = layout.new_table([c.id for c in DECK_52], STOCK)
            table, rng = table.shuffle(STOCK, rng)
        for _ in range(self.options.hand_size):
            for k in range(1, num_players + 1):
                seat = (dealer + k) % num_players
                _, table = table.draw(STOCK, 1 + seat)
        first = (dealer + 1) % num_players
        return HighcardState(
            table=table,
            rng=rng,
            dealer=dealer,
            leader=first,
            current=first,
            wins=(0,) * num_players,
        )

    def current_player(self, state: HighcardState) -> int | None:
        """The seat to play, or ``None`` at the end."""
        return state.current

    def legal_actions(self, state: HighcardState) -> tuple[Play, ...]:
        """Any card of the hand."""
        if state.current is None:
            return ()
        return tuple(Play(Card.of(c)) for c in card_ids(state.table.masks[1 + state.current]))

    def apply(self, state: HighcardState, action: Play) -> HighcardState:
        """Play a card; the last card of a round decides it."""
        seat = state.current
        if seat is None:
            raise IllegalActionError(action, "the game is over")
        if not isinstance(action, Play):
            raise IllegalActionError(action, "not a highcard action", self.legal_actions(state))
        hand = 1 + seat
        if not (state.table.masks[hand] >> action.card.id) & 1:
            raise IllegalActionError(
                action, f"{action.card} is not in seat {seat}'s hand", self.legal_actions(state)
            )
        n = len(state.wins)
        trick = 1 + n
        table = state.table.move(action.card.id, hand, trick)
        nxt = (seat + 1) % n
        if nxt != state.leader:
            return attrs.evolve(state, table=table, current=nxt)
        played = table.orders[trick]
        values = [self._value(c) for c in played]
        best = max(values)
        wins = state.wins
        leader = state.leader
        if values.count(best) == 1:
            winner = (state.leader + values.index(best)) % n
            wins = tuple(w + (i == winner) for i, w in enumerate(wins))
            leader = winner
        for c in played:
            table = table.move(c, trick, trick + 1)
        current = leader if table.masks[1 + leader] else None
        return attrs.evolve(state, table=table, wins=wins, leader=leader, current=current)

    def observe(self, state: HighcardState, seat: int) -> HighcardObservation:
        """The seat's view (``-1``: an onlooker)."""
        legal = self.legal_actions(state) if seat == state.current and seat != SPECTATOR else ()
        return HighcardObservation(
            seat=seat,
            num_players=len(state.wins),
            dealer=state.dealer,
            leader=state.leader,
            current_player=state.current,
            wins=state.wins,
            table=state.table.view(seat),
            legal_actions=legal,
        )

    def outcome(self, state: HighcardState) -> Outcome | None:
        """Most rounds won wins; ties share."""
        if state.current is not None:
            return None
        return Outcome.from_scores(state.wins)

    def sample_state(self, observation: HighcardObservation, rng: random.Random) -> HighcardState:
        """Deal the unseen cards at random; everything public is copied."""
        table = sample_table(observation.table, rng)
        return HighcardState(
            table=table,
            rng=rng.getrandbits(64),
            dealer=observation.dealer,
            leader=observation.leader,
            current=observation.current_player,
            wins=observation.wins,
        )

    # ---- text ----

    text_form = TextForm(
        parse=parse_action,
        observation=HighcardObservation,
        codec=CODEC,
        num_players=(2, 3, 4),
        render="cardcore_highcard.render:render",  # by reference: render.py sits above the rules
    )
    """Actions read as ``play 10♥`` (or just ``10♥``); observations from their JSON for 2-4
    players; the table as text by ``render.py``."""
