"""A game's state policy stands in for its rollout bot: same play, no observations."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from cardcore import SearchHints, load_game
from cardcore.bots import ISMCTSBot, PIMCBot, _search
from cardcore_nestors.bots import heuristic_policy


def _positions(game: Any, count: int) -> list[Any]:
    """Observations with a choice from one heuristic self-play match, spread over it."""
    from cardcore_nestors import NestorsHeuristic

    bots = [NestorsHeuristic(game, seed=i) for i in range(4)]
    state = game.initial_state(4, 2)
    out = []
    while (seat := game.current_player(state)) is not None:
        o = game.observe(state, seat)
        if len(o.legal_actions) > 1:
            out.append(o)
        state = game.apply(state, bots[seat].act(o))
    return [out[i * len(out) // count] for i in range(count)]


def _edges(bot: ISMCTSBot) -> dict[Any, tuple[int, float, int]]:
    assert bot.last_tree is not None
    return {a: (e.n, e.w, e.avail) for a, e in bot.last_tree.edges.items()}


def _search_alike(game: Any, fast: SearchHints, plain: SearchHints) -> None:
    """ISMCTS and PIMC choose, and ISMCTS counts its tree, exactly alike with either hints."""
    for i, o in enumerate(_positions(game, 6)):
        a = ISMCTSBot(game, seed=i, iterations=40, hints=fast)
        b = ISMCTSBot(game, seed=i, iterations=40, hints=plain)
        assert a.act(o) == b.act(o)
        assert _edges(a) == _edges(b)
        assert PIMCBot(game, seed=i, determinizations=3, hints=fast).act(o) == PIMCBot(
            game, seed=i, determinizations=3, hints=plain
        ).act(o)


def _counting(calls: list[int]) -> Any:
    def make(game: Any, seed: int) -> Any:
        policy = heuristic_policy(game, seed)

        def act(state: Any) -> Any:
            calls.append(1)
            return policy(state)

        return act

    return make


def test_a_state_policy_searches_the_same_trees_as_its_bot() -> None:
    """ISMCTS and PIMC with the state policy choose and count exactly as with the bot."""
    game = load_game("nestors", threshold=300)
    calls: list[int] = []
    with_policy = attrs.evolve(_search.game_hints(game), state_policy=_counting(calls))
    _search_alike(game, with_policy, attrs.evolve(with_policy, state_policy=None))
    assert calls, "the state policy was never asked"


def test_a_state_policy_is_only_used_for_its_own_bot() -> None:
    """An option naming another rollout bot (or random play-outs) leaves the policy out."""
    game = load_game("nestors", threshold=300)
    calls: list[int] = []
    hints = attrs.evolve(_search.game_hints(game), state_policy=_counting(calls))
    o = _positions(game, 3)[1]
    ISMCTSBot(game, seed=1, iterations=20, hints=hints, rollout="random").act(o)
    assert not calls
    ISMCTSBot(game, seed=1, iterations=20, hints=hints, rollout="nestors-heuristic").act(o)
    assert calls
    calls.clear()
    other = attrs.evolve(hints, rollout="random", opponent_model=False)
    ISMCTSBot(game, seed=1, iterations=20, hints=other, rollout="nestors-heuristic").act(o)
    assert not calls


def test_a_state_policy_needs_the_bot_it_stands_for() -> None:
    """Hints with a state policy but no rollout bot are refused, naming the field."""
    with pytest.raises(ValueError, match="needs rollout"):
        SearchHints(game="x", state_policy=heuristic_policy)


# ---- segment_apply: play-outs that stop at a hand's end do not deal the next ----------


def _counting_apply(calls: list[int]) -> Any:
    from cardcore_nestors.bots import hand_apply

    def make(game: Any) -> Any:
        step = hand_apply(game)

        def counted(state: Any, action: Any) -> Any:
            calls.append(1)
            return step(state, action)

        return counted

    return make


def test_segment_apply_searches_the_same_trees_as_apply() -> None:
    """ISMCTS and PIMC with the game's segment_apply choose and count exactly as with apply.

    Nestors' segment_apply leaves the next hand undealt; the search never reads it.
    """
    game = load_game("nestors", threshold=300)
    calls: list[int] = []
    fast_hints = attrs.evolve(_search.game_hints(game), segment_apply=_counting_apply(calls))
    _search_alike(game, fast_hints, attrs.evolve(fast_hints, segment_apply=None))
    assert calls, "segment_apply was never asked"


def test_segment_apply_is_only_used_when_play_outs_stop_at_the_segment() -> None:
    """With ``hand_end=False`` play-outs cross hands, so they apply with ``game.apply``."""
    game = load_game("nestors", threshold=300)
    calls: list[int] = []
    hints = attrs.evolve(_search.game_hints(game), segment_apply=_counting_apply(calls))
    o = _positions(game, 3)[1]
    ISMCTSBot(game, seed=1, iterations=5, hints=hints, hand_end=False).act(o)
    PIMCBot(game, seed=1, determinizations=1, hints=hints, hand_end=False).act(o)
    assert not calls
    ISMCTSBot(game, seed=1, iterations=5, hints=hints).act(o)
    assert calls


def test_segment_apply_needs_a_segment() -> None:
    """Hints with a segment_apply but no segment are refused, naming the field."""
    from cardcore_nestors.bots import hand_apply

    with pytest.raises(ValueError, match="needs segment"):
        SearchHints(game="x", segment_apply=hand_apply)
