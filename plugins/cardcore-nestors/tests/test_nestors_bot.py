"""The nestors-heuristic bot: legal, deterministic, and clearly stronger than random."""

from __future__ import annotations

import math

from cardcore import play_match
from cardcore.bots import RandomBot
from cardcore_nestors import Nestors, NestorsHeuristic, NestorsOptions


def heuristic_share(game: Nestors, games: int, seed: int = 0) -> tuple[float, float, float]:
    """Win share of a heuristic partnership against a random one, seats rotated.

    Returns the share and its 95% Wilson score interval (low, high).
    """
    total = 0.0
    for k in range(games):
        team = k % 2  # the heuristic plays seats {0, 2} in even games, {1, 3} in odd ones
        bots = [
            NestorsHeuristic(game, seed=seed + 10 * k + i)
            if i % 2 == team
            else RandomBot(game, seed=seed + 10 * k + i)
            for i in range(4)
        ]
        record = play_match(game, bots, seed=seed + k)
        assert record.outcome is not None
        assert record.outcome.forfeit is None
        total += record.outcome.reward(team)
    p = total / games
    z = 1.96
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return p, centre - half, centre + half


def test_heuristic_beats_random() -> None:
    """Over 200 full games with seats rotated, the heuristic wins far above the 50% baseline."""
    p, low, high = heuristic_share(Nestors(), 200, seed=1)
    assert low > 0.75, (p, low, high)


def test_heuristic_beats_random_under_pagat_and_options() -> None:
    """The bot also wins under the other preset and with a low minimum bid."""
    for options in (NestorsOptions(next_dealer="bidder"), NestorsOptions(min_bid=5)):
        p, low, high = heuristic_share(Nestors(options), 40, seed=7)
        assert low > 0.6, (options, p, low, high)


def test_heuristic_is_deterministic() -> None:
    """The same seeds give the same match."""
    game = Nestors(NestorsOptions(threshold=300))

    def once() -> tuple[str, ...]:
        bots = [NestorsHeuristic(game, seed=i) for i in range(4)]
        return play_match(game, bots, seed=5).actions

    assert once() == once()


def test_evaluate_estimates_from_the_public_scores() -> None:
    """evaluate() is 0.5 at the start, 1/0 for winners/losers at the end (search cut-offs)."""
    from cardcore import load_bot, verify

    game = Nestors(NestorsOptions(threshold=100))
    start = game.initial_state(4, 3)
    assert game.evaluate(start, 0) == 0.5
    bots = [load_bot("nestors-heuristic", game, seed=i) for i in range(4)]
    record = play_match(game, bots, seed=3)
    assert record.outcome is not None
    final = verify(record)
    for seat in range(4):
        assert game.evaluate(final, seat) == record.outcome.reward(seat)


def test_heuristic_policy_plays_as_the_bot_from_states() -> None:
    """The state policy the search plays out with chooses exactly as the bot would.

    One bot and one policy per seat, seeded alike, see the same moves (its own tie-break
    draws included) over whole matches in both presets and with a low minimum bid, some
    of them with random moves mixed in so that unusual positions come up too.
    """
    import random

    from cardcore_nestors.bots import heuristic_policy

    compared = 0
    for options in (
        NestorsOptions(threshold=300),
        NestorsOptions(threshold=300, next_dealer="bidder"),  # the pagat preset
        NestorsOptions(threshold=300, min_bid=5),
    ):
        game = Nestors(options)
        for g in range(6):
            bots = [NestorsHeuristic(game, seed=g * 4 + i) for i in range(4)]
            policies = [heuristic_policy(game, g * 4 + i) for i in range(4)]
            noise = random.Random(g)
            wild = RandomBot(game, seed=g)
            state = game.initial_state(4, g)
            while (seat := game.current_player(state)) is not None:
                o = game.observe(state, seat)
                chosen = bots[seat].act(o)
                assert policies[seat](state) == chosen, (o.phase, state.play)
                compared += 1
                if g % 2 and noise.random() < 0.3:
                    chosen = wild.act(o)
                state = game.apply(state, chosen)
    assert compared > 5000


def test_b_s_odds_know_every_card_that_keeps_the_trick_from_b() -> None:
    """The heuristic's mask of C's cards that stop B winning agrees with the trick rules.

    Checked for every pair of A's and B's cards and every trump rank against
    ``trick_winner`` card by card (NS-4.14).
    """
    from cardcore_nestors.bots import _c_beats
    from cardcore_nestors.state import DECK_IDS
    from cardcore_nestors.tricks import trick_winner

    for trump in (14, 11, 10):
        for a in DECK_IDS:
            for b in DECK_IDS:
                if a == b:
                    continue
                expected = sum(
                    1 << c
                    for c in DECK_IDS
                    if c not in (a, b) and trick_winner(a, b, c, trump) != 1
                )
                assert _c_beats(a, b, trump) == expected, (a, b, trump)


def test_hand_apply_is_apply_up_to_the_hand_end_and_leaves_the_next_deal_out() -> None:
    """The search hints' ``segment_apply`` gives apply's states; at a hand's end the same
    scores, hand number and match value, but no shuffle or deal of the next hand.

    Over whole matches in both presets, random moves mixed in; an illegal move is refused
    as apply refuses it, with the legal actions.
    """
    import random

    import pytest

    from cardcore import IllegalActionError
    from cardcore_nestors.actions import Play
    from cardcore_nestors.bots import hand_apply, hand_number, match_value
    from cardcore_nestors.state import PH_AUCTION, PH_PLAY

    ends = 0
    for options in (NestorsOptions(threshold=300), NestorsOptions(next_dealer="bidder")):
        game = Nestors(options)
        step = hand_apply(game)
        for g in range(3):
            bots = [NestorsHeuristic(game, seed=g * 4 + i) for i in range(4)]
            wild, noise = RandomBot(game, seed=g), random.Random(g)
            state = game.initial_state(4, g)
            while (seat := game.current_player(state)) is not None:
                o = game.observe(state, seat)
                action = wild.act(o) if noise.random() < 0.2 else bots[seat].act(o)
                real, fast = game.apply(state, action), step(state, action)
                if fast != real:  # only the last card of a hand that does not end the match
                    assert (state.phase, state.play.trick, real.phase) == (
                        PH_PLAY,
                        12,
                        PH_AUCTION,
                    )
                    ends += 1
                    assert fast.match == real.match
                    assert fast.current == real.current
                    assert hand_number(game, fast) == hand_number(game, real)
                    assert fast.rng == state.rng != real.rng
                    for s in range(4):
                        assert match_value(game, fast, s) == match_value(game, real, s)
                state = real
            with pytest.raises(IllegalActionError) as refused:
                step(game.initial_state(4, g), Play.of(0))
            assert refused.value.legal
    assert ends > 10


def test_hand_apply_leaves_a_changed_apply_in_charge() -> None:
    """A subclass or wrapper with its own ``apply`` gets that apply back: no move skips it."""
    from typing import Any

    from cardcore_nestors.bots import hand_apply

    class Counting(Nestors):
        def apply(self, state: Any, action: Any) -> Any:
            return super().apply(state, action)

    class Wrapper:
        def __init__(self, game: Nestors) -> None:
            self.options = game.options
            self.apply = game.apply

    game = Nestors(NestorsOptions())
    counting = Counting(NestorsOptions())
    assert hand_apply(counting) == counting.apply
    wrapped = Wrapper(game)
    assert hand_apply(wrapped) is wrapped.apply
    assert hand_apply(game) != game.apply
