"""The section-9 invariants after every action of many complete random games."""

from __future__ import annotations

import itertools
import random
from typing import Any

import attrs
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from cardcore import CardTable, PluginHost
from cardcore.testing import configurations
from cardcore_noddy import (
    PRESETS,
    Deal,
    KnaveShown,
    LastCard,
    Noddy,
    NoddyOptions,
    NoddyState,
    Phase,
    Played,
    Shown,
    TurnupJack,
)
from cardcore_noddy.scoring import MAX_SHOW, PIP
from cardcore_noddy.state import HANDS, PILE


def check_invariants(g: Noddy, before: NoddyState | None, s: NoddyState) -> None:
    """Check ND-9.1 .. ND-9.8 (and that the public events add up to the scores).

    Raises:
        AssertionError: naming the broken invariant.
    """
    target = g.options.target
    # ND-9.1: every card in exactly one zone; stock + hands + turn-up + pile = 52.
    s.table.check()
    assert sum(s.table.size(z) for z in range(5)) == 52, "ND-9.1: 52 cards on the table"
    # ND-9.2: the running total never exceeds 31 and is the pile's pip sum.
    pile = s.table.orders[PILE]
    assert 0 <= s.total <= 31, f"ND-9.2: running total {s.total}"
    assert s.total == sum(PIP[c] for c in pile), "ND-9.2: total differs from the pile"
    # ND-9.3: at most 3 cards each, at most 6 on the pile.
    assert len(pile) <= 6, "ND-9.3: more than 6 cards on the pile"
    starts = [i for i, e in enumerate(s.events) if isinstance(e, Deal)]
    assert starts, "no hand was dealt"
    this_hand = s.events[starts[-1] :]
    for seat in (0, 1):
        played = sum(1 for e in this_hand if isinstance(e, Played) and e.seat == seat)
        assert played <= 3, f"ND-9.3: seat {seat} played {played} cards"
        assert s.table.size(HANDS[seat]) + played == 3, f"ND-9.3: seat {seat}'s cards"
    # ND-9.4: integer scores that never decrease.
    assert all(type(x) is int for x in s.scores), "ND-9.4: scores must be integers"
    if before is not None:
        assert all(a >= b for a, b in zip(s.scores, before.scores, strict=True)), (
            f"ND-9.4: a score decreased ({before.scores} -> {s.scores})"
        )
    # ND-9.5: a show scores 0..20.
    for e in s.events:
        if isinstance(e, Shown):
            assert 0 <= e.points <= MAX_SHOW, f"ND-9.5: a show of {e.points}"
    # ND-9.6: the game ends exactly when one score reaches the target; the other is below.
    reached = [x >= target for x in s.scores]
    if s.phase is Phase.OVER:
        assert s.current is None
        assert sum(reached) == 1, f"ND-9.6: scores {s.scores} at the end (target {target})"
    else:
        assert s.current in (0, 1)
        assert not any(reached), f"ND-9.6: score {s.scores} reached {target} but play goes on"
    # ND-9.7: one last-card point per finished hand below 31; none at 31 unless the option.
    for a, b in itertools.pairwise(starts):
        hand = s.events[a:b]
        totals = [e.total for e in hand if isinstance(e, Played)]
        last = sum(1 for e in hand if isinstance(e, LastCard))
        ended_at_31 = bool(totals) and totals[-1] == 31
        expect = 1 if not ended_at_31 or g.options.last_card_at_31 else 0
        if totals:
            assert last == expect, f"ND-9.7: {last} last-card points (final total {totals[-1]})"
    # ND-9.8: the dealer alternates from hand to hand.
    dealers = [e.dealer for e in s.events if isinstance(e, Deal)]
    assert all(x != y for x, y in itertools.pairwise(dealers)), f"ND-9.8: dealers {dealers}"
    assert dealers[-1] == s.dealer, "ND-9.8: the state's dealer is not the hand's dealer"
    # The public events account for every point (ND-8.1).
    totals_by_seat = [0, 0]
    for e in s.events:
        if isinstance(e, TurnupJack | KnaveShown | Shown | Played | LastCard):
            totals_by_seat[e.seat] += e.points
    assert tuple(totals_by_seat) == s.scores, "ND-8.1: the events do not add up to the scores"


def play_random_game(g: Noddy, seed: int, rng: random.Random) -> NoddyState:
    s = g.initial_state(2, seed)
    check_invariants(g, None, s)
    steps = 0
    while s.current is not None:
        legal = g.legal_actions(s)
        after = g.apply(s, legal[rng.randrange(len(legal))])
        check_invariants(g, s, after)
        s = after
        steps += 1
    assert steps <= g.max_decisions(2)
    assert g.outcome(s) is not None
    return s


SPEC = PluginHost().game_spec("noddy")
CONFIGS = configurations(SPEC)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.label())
def test_random_games_keep_the_invariants(config: Any) -> None:
    """ND-9.1..ND-9.8 after every action, under every preset and single-option change."""
    options = attrs.evolve(PRESETS[config.preset], **config.overrides)
    g = Noddy(options)
    rng = random.Random(hash(config.label()) & 0xFFFF)
    for seed in range(12):
        play_random_game(g, seed, rng)


def test_configurations_cover_presets_and_every_option_value() -> None:
    """Section 7: every preset and every option value is among the checked configurations."""
    labels = {c.label() for c in CONFIGS}
    assert "preset=default" in labels and "preset=historical" in labels
    for name, values in {
        "turnup_jack": ["dealer2"],
        "knave_noddy": ["in_count"],
        "ace_bonus": ["false"],
        "run_values": ["per_card"],
        "twentyfive": ["false"],
        "last_card_at_31": ["true"],
        "target": ["1"],
    }.items():
        for v in values:
            assert f"preset=default {name}={v}" in labels


# ---- the checker can fail ------------------------------------------------------------


def _mid_game() -> tuple[Noddy, NoddyState]:
    g = Noddy()
    s = g.initial_state(2, 4)
    rng = random.Random(0)
    while s.hand < 2 or s.phase is not Phase.PLAY or not s.table.orders[PILE]:
        s = g.apply(s, g.legal_actions(s)[rng.randrange(len(g.legal_actions(s)))])
    return g, s


def test_checker_catches_broken_states() -> None:
    """The invariant checker fails on deliberately broken states (it can fail)."""
    g, s = _mid_game()
    check_invariants(g, None, s)
    t = s.table
    broken: list[tuple[str, NoddyState, NoddyState | None]] = [
        ("ND-9.2", attrs.evolve(s, total=32), None),
        ("ND-9.2", attrs.evolve(s, total=s.total + 1), None),
        ("ND-9.4", s, attrs.evolve(s, scores=(s.scores[0] + 1, s.scores[1]))),
        ("ND-9.4", attrs.evolve(s, scores=(float(s.scores[0]), s.scores[1])), None),  # type: ignore[arg-type]
        ("ND-9.6", attrs.evolve(s, scores=(31, 31)), None),
        ("ND-9.6", attrs.evolve(s, phase=Phase.OVER, current=None), None),
        ("ND-9.8", attrs.evolve(s, dealer=1 - s.dealer), None),
        (
            "ND-9.8",
            attrs.evolve(
                s,
                events=tuple(
                    attrs.evolve(e, dealer=0) if isinstance(e, Deal) else e for e in s.events
                ),
            ),
            None,
        ),
        ("ND-9.5", attrs.evolve(s, events=(*s.events, Shown(0, 21, (), 0))), None),
        ("ND-8.1", attrs.evolve(s, events=(*s.events, LastCard(0, 1, 0))), None),
        (
            "card conservation",
            attrs.evolve(
                s,
                table=CardTable(
                    t.layout, (t.masks[0] & (t.masks[0] - 1), *t.masks[1:]), t.orders, t.known
                ),
            ),
            None,
        ),
    ]
    for label, state, before in broken:
        with pytest.raises(AssertionError, match=label.split()[0]):
            check_invariants(g, before, state)


def test_checker_catches_a_missing_last_card_point() -> None:
    """ND-9.7: a finished hand below 31 without its last-card point is caught."""
    g = Noddy(NoddyOptions(target=121))
    s = g.initial_state(2, 2)
    while s.hand < 3:
        s = g.apply(s, g.legal_actions(s)[0])
    idx = next(i for i, e in enumerate(s.events) if isinstance(e, LastCard))
    e = s.events[idx]
    assert isinstance(e, LastCard)
    events = s.events[:idx] + s.events[idx + 1 :]
    with pytest.raises(AssertionError, match=r"ND-9\.7"):
        check_invariants(g, None, attrs.evolve(s, events=events))


# ---- Hypothesis: whole games as a state machine -------------------------------------


class NoddyGames(RuleBasedStateMachine):
    """Plays whole games with Hypothesis choosing the options, seeds and actions."""

    def __init__(self) -> None:
        super().__init__()
        self.game = Noddy()
        self.state: NoddyState | None = None

    @initialize(
        options=st.builds(
            NoddyOptions,
            target=st.sampled_from([1, 5, 31, 61]),
            turnup_jack=st.sampled_from(["dealer1_nondealer2", "dealer2"]),
            knave_noddy=st.sampled_from(["show_early", "in_count"]),
            ace_bonus=st.booleans(),
            run_values=st.sampled_from(["seed", "per_card"]),
            twentyfive=st.booleans(),
            last_card_at_31=st.booleans(),
        ),
        seed=st.integers(0, 2**32 - 1),
    )
    def start(self, options: NoddyOptions, seed: int) -> None:
        self.game = Noddy(options)
        self.state = self.game.initial_state(2, seed)
        check_invariants(self.game, None, self.state)

    @precondition(lambda self: self.state is not None and self.state.current is not None)
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        assert self.state is not None
        legal = self.game.legal_actions(self.state)
        action = data.draw(st.sampled_from(legal))
        before = self.state
        self.state = self.game.apply(before, action)
        check_invariants(self.game, before, self.state)

    @precondition(lambda self: self.state is not None and self.state.current is None)
    @rule(seed=st.integers(0, 2**32 - 1))
    def next_game(self, seed: int) -> None:
        assert self.state is not None
        assert self.game.outcome(self.state) is not None
        self.state = self.game.initial_state(2, seed)

    @invariant()
    def observations_are_consistent(self) -> None:
        if self.state is None:
            return
        for seat in (0, 1):
            obs = self.game.observe(self.state, seat)
            assert obs.scores == self.state.scores
            assert bool(obs.legal_actions) == (seat == self.state.current)


NoddyGames.TestCase.settings = settings(max_examples=25, stateful_step_count=80, deadline=None)
test_noddy_state_machine = NoddyGames.TestCase
