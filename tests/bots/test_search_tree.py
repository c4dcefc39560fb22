"""The search tree, budgets and leaf values of ISMCTS and PIMC, on small made-up games."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

from cardcore import Outcome, PluginHost, SearchHints, hookimpl, load_bot, load_game
from cardcore.bots import ISMCTSBot, PIMCBot, _search


@attrs.frozen
class ToyState:
    """Who moves, the hidden coin, and the choices made so far."""

    current: int | None
    coin: int
    choices: tuple[str, ...] = ()


@attrs.frozen
class ToyObservation:
    """Seat 0 sees neither the coin nor (before it moves) anything else."""

    seat: int
    current_player: int | None
    legal_actions: tuple[str, ...]
    num_players: int = 3


class WhoNext:
    """Seat 0 chooses ``a`` or ``b``; then a hidden coin decides whether seat 1 or seat 2
    moves. Seat 1 scores by choosing ``x``, seat 2 by choosing ``y``: the same action is
    worth the opposite to the two seats that may move after seat 0's choice.
    """

    name = "who-next"

    def teams(self, num_players: int) -> None:
        return None

    def initial_state(self, coin: int) -> ToyState:
        return ToyState(current=0, coin=coin)

    def current_player(self, state: ToyState) -> int | None:
        return state.current

    def legal_actions(self, state: ToyState) -> tuple[str, ...]:
        if state.current is None:
            return ()
        return ("a", "b") if state.current == 0 else ("x", "y")

    def apply(self, state: ToyState, action: str) -> ToyState:
        assert action in self.legal_actions(state)
        if state.current == 0:
            return attrs.evolve(state, current=1 + state.coin, choices=(action,))
        return attrs.evolve(state, current=None, choices=(*state.choices, action))

    def outcome(self, state: ToyState) -> Outcome | None:
        if state.current is not None:
            return None
        last = state.choices[-1]
        scores = [0.0, 0.0, 0.0]
        scores[1] = 1.0 if last == "x" else 0.0
        scores[2] = 1.0 if last == "y" else 0.0
        return Outcome.from_scores(scores)

    def observe(self, state: ToyState, seat: int) -> ToyObservation:
        legal = self.legal_actions(state) if seat == state.current else ()
        return ToyObservation(seat=seat, current_player=state.current, legal_actions=legal)

    def sample_state(self, observation: ToyObservation, rng: random.Random) -> ToyState:
        return ToyState(current=0, coin=rng.randrange(2))


def _mean(edge: Any) -> float:
    return float(edge.w / edge.n)


def test_a_seat_chosen_by_chance_gets_its_own_node() -> None:
    """After the same action, seat 1's and seat 2's statistics are kept apart.

    Keyed by the action alone, both seats' choices would share one node, and ``x``
    (worth 1 to seat 1, 0 to seat 2) would average about 0.5 there.
    """
    g: Any = WhoNext()  # only the parts of the Game protocol the search uses
    bot = ISMCTSBot(g, seed=3, iterations=400, hints=SearchHints(game="who-next"), keep_tree=True)
    obs = g.observe(g.initial_state(0), 0)
    assert bot.act(obs) in ("a", "b")
    root = bot.last_tree
    assert root is not None and root.seat == 0
    assert set(root.kids) == {("a", 1), ("a", 2), ("b", 1), ("b", 2)}
    for action in ("a", "b"):
        one, two = root.kids[(action, 1)], root.kids[(action, 2)]
        assert (one.seat, two.seat) == (1, 2)
        # Each seat learns its own best choice: its statistics hold only its rewards.
        assert _mean(one.edges["x"]) == 1.0 and _mean(one.edges["y"]) == 0.0
        assert _mean(two.edges["y"]) == 1.0 and _mean(two.edges["x"]) == 0.0
        assert one.edges["x"].n > one.edges["y"].n
        assert two.edges["y"].n > two.edges["x"].n
    # Seat 0's own statistics are its rewards only: it never wins, whatever happens.
    assert all(_mean(e) == 0.0 for e in root.edges.values())


class _Clock:
    """A fake clock: every reading is ``step`` seconds after the previous one."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


class CountingWhoNext(WhoNext):
    """Counts determinisations."""

    def __init__(self) -> None:
        self.samples = 0

    def sample_state(self, observation: ToyObservation, rng: random.Random) -> ToyState:
        self.samples += 1
        return super().sample_state(observation, rng)


HINTS = SearchHints(game="who-next")


def test_seconds_alone_are_not_capped_by_the_iteration_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A time budget given alone searches until the time is used, past the default."""
    monkeypatch.setattr(_search, "_clock", _Clock(0.001))
    g: Any = CountingWhoNext()
    bot = ISMCTSBot(g, seed=1, seconds=10.0, hints=HINTS)
    bot.act(g.observe(g.initial_state(0), 0))
    # 10 s of fake time at a few clock readings per iteration (between iterations, on
    # the way down, in the play-out): thousands of iterations.
    assert g.samples > 5 * _search.DEFAULT_ITERATIONS
    # The last sample may be cut at the deadline with nothing to score it: not counted.
    assert g.samples - 1 <= bot.last_iterations <= g.samples
    pimc_game: Any = CountingWhoNext()
    pimc = PIMCBot(pimc_game, seed=1, seconds=1.0, hints=HINTS)
    pimc.act(pimc_game.observe(pimc_game.initial_state(0), 0))
    assert pimc_game.samples > 5 * _search.DEFAULT_DETERMINIZATIONS


def test_with_both_budgets_the_first_limit_stops_the_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``iterations`` and ``seconds`` together: whichever comes first."""
    monkeypatch.setattr(_search, "_clock", _Clock(0.001))
    g: Any = CountingWhoNext()
    ISMCTSBot(g, seed=1, iterations=7, seconds=100.0, hints=HINTS).act(
        g.observe(g.initial_state(0), 0)
    )
    assert g.samples == 7
    g = CountingWhoNext()
    ISMCTSBot(g, seed=1, iterations=10**6, seconds=0.05, hints=HINTS).act(
        g.observe(g.initial_state(0), 0)
    )
    assert 10 <= g.samples <= 60  # a few clock readings per iteration


def test_neither_budget_uses_the_hint_then_the_default() -> None:
    """No budget option: the game's hinted iterations, else the generic default."""
    g: Any = CountingWhoNext()
    ISMCTSBot(g, seed=1, hints=HINTS).act(g.observe(g.initial_state(0), 0))
    assert g.samples == _search.DEFAULT_ITERATIONS
    g = CountingWhoNext()
    hinted = SearchHints(game="who-next", iterations=23, determinizations=4)
    ISMCTSBot(g, seed=1, hints=hinted).act(g.observe(g.initial_state(0), 0))
    assert g.samples == 23
    g = CountingWhoNext()
    PIMCBot(g, seed=1, hints=hinted).act(g.observe(g.initial_state(0), 0))
    assert g.samples == 4


def _stats(node: Any) -> Any:
    return (
        node.seat,
        sorted((str(a), e.n, e.w, e.avail) for a, e in node.edges.items()),
        sorted((str(k), _stats(v)) for k, v in node.kids.items()),
    )


def test_an_iteration_budget_is_deterministic_for_a_seed() -> None:
    """Same seed and iterations: the same action from the same tree, decision by decision."""
    g = load_game("highcard", hand_size=4)
    state = g.initial_state(3, 8)
    seat = g.current_player(state)
    assert seat is not None
    obs = g.observe(state, seat)
    trees = []
    for _ in range(2):
        bot = ISMCTSBot(g, seed=5, iterations=80, keep_tree=True)
        bot.act(obs)
        trees.append(_stats(bot.last_tree))
    assert trees[0] == trees[1]


# ---- score-aware values ------------------------------------------------------------


@attrs.frozen
class MarginState:
    current: int | None
    margin: int = 0


class Margin:
    """Seat 0 wins whatever it plays, by 1 point (``narrow``) or by 30 (``wide``)."""

    name = "margin"

    def teams(self, num_players: int) -> None:
        return None

    def current_player(self, state: MarginState) -> int | None:
        return state.current

    def legal_actions(self, state: MarginState) -> tuple[str, ...]:
        return ("narrow", "wide") if state.current == 0 else ()

    def apply(self, state: MarginState, action: str) -> MarginState:
        return MarginState(current=None, margin=1 if action == "narrow" else 30)

    def outcome(self, state: MarginState) -> Outcome | None:
        if state.current is not None:
            return None
        return Outcome.from_scores([float(state.margin), 0.0])

    def observe(self, state: MarginState, seat: int) -> ToyObservation:
        legal = self.legal_actions(state) if seat == state.current else ()
        return ToyObservation(seat, state.current, legal, 2)

    def sample_state(self, observation: ToyObservation, rng: random.Random) -> MarginState:
        return MarginState(current=0)


def margin_value(game: Margin, state: MarginState, seat: int) -> float:
    """Win share, plus a little for the margin."""
    outcome = game.outcome(state)
    assert outcome is not None
    lead = state.margin if seat == 0 else -state.margin
    return 0.8 * outcome.reward(seat) + 0.2 * (0.5 + lead / 60)


MARGIN_HINTS = SearchHints(game="margin", value=margin_value)


@pytest.mark.parametrize("bot_type", [ISMCTSBot, PIMCBot])
def test_the_games_score_aware_value_is_used_by_default(bot_type: Any) -> None:
    """With the game's value the bigger win is preferred; with win share alone it ties."""
    g: Any = Margin()
    obs = g.observe(MarginState(current=0), 0)
    budget = {"iterations": 20} if bot_type is ISMCTSBot else {"determinizations": 3}
    assert bot_type(g, seed=1, hints=MARGIN_HINTS, **budget).act(obs) == "wide"
    plain = ISMCTSBot(g, seed=1, iterations=20, hints=MARGIN_HINTS, score_value=False)
    plain.act(obs)
    assert plain.last_tree is not None
    assert {_mean(e) for e in plain.last_tree.edges.values()} == {1.0}
    scored = ISMCTSBot(g, seed=1, iterations=20, hints=MARGIN_HINTS)
    scored.act(obs)
    assert scored.last_tree is not None
    means = {a: _mean(e) for a, e in scored.last_tree.edges.items()}
    assert means["wide"] > means["narrow"] > 0.8


def test_hints_that_cut_play_outs_need_a_value() -> None:
    """A segment or horizon without a value to score the cut is refused at once."""
    with pytest.raises(ValueError, match="need a value"):
        SearchHints(game="x", segment=lambda game, state: 0)
    with pytest.raises(ValueError, match="need a value"):
        SearchHints(game="x", horizon=10)
    with pytest.raises(ValueError, match="horizon"):
        SearchHints(game="x", horizon=-1)
    with pytest.raises(ValueError, match="iterations"):
        SearchHints(game="x", iterations=0)


# ---- partnerships ------------------------------------------------------------------


def test_partners_share_one_reward() -> None:
    """In a partnership game a seat's reward is its team's, even from a lopsided value."""
    g = load_game("nestors", threshold=100)
    state = g.initial_state(4, 3)
    seat = g.current_player(state)
    assert seat is not None

    def lopsided(game: Any, st: Any, s: int) -> float:
        return 1.0 if s == seat else 0.0

    hints = SearchHints(game="nestors", value=lopsided, horizon=2)
    bot = ISMCTSBot(g, seed=1, iterations=12, hints=hints)
    bot.act(g.observe(state, seat))
    assert bot.last_tree is not None
    # The seat's value is 1 and its partner's 0: the team's, for both, is 0.5.
    assert {_mean(e) for e in bot.last_tree.edges.values()} == {0.5}


@pytest.mark.parametrize("rollout", [None, "random"])
def test_the_games_horizon_goes_with_its_own_play_out_policy(rollout: str | None) -> None:
    """A hint's horizon cuts the hint's play-outs; ``rollout=random`` plays to the end."""
    g = load_game("nyuri")
    state = g.initial_state(2, 5)
    seat = g.current_player(state)
    assert seat is not None
    scored: list[bool] = []

    def value(game: Any, st: Any, s: int) -> float:
        scored.append(game.current_player(st) is None)
        return 0.5

    from cardcore_nyuri.bots import heuristic_policy

    hints = SearchHints(
        game="nyuri", rollout="nyuri-heuristic", state_policy=heuristic_policy, value=value,
        horizon=2,
    )  # fmt: skip
    ISMCTSBot(g, seed=1, iterations=20, hints=hints, rollout=rollout).act(g.observe(state, seat))
    assert scored
    assert all(scored) is (rollout == "random"), scored


# ---- play-outs end with the hand --------------------------------------------------


def test_play_outs_stop_at_the_end_of_the_hand() -> None:
    """Nestors' hints end every play-out with the hand: no state of a later hand is played."""
    g = load_game("nestors")
    state = g.initial_state(4, 7)
    seat = g.current_player(state)
    assert seat is not None
    hand = state.deal.number
    played: set[int] = set()
    scored: set[int] = set()
    hints = ISMCTSBot(g).hints
    assert hints.segment is not None and hints.value is not None

    def value(game: Any, st: Any, s: int) -> float:
        scored.add(st.deal.number)
        assert hints.value is not None
        return float(hints.value(game, st, s))

    class Watched(type(g)):  # type: ignore[misc]
        def apply(self, st: Any, action: Any) -> Any:
            played.add(st.deal.number)
            return super().apply(st, action)

    watched = Watched(g.options)
    bot = ISMCTSBot(watched, seed=2, iterations=15, hints=attrs.evolve(hints, value=value))
    bot.act(watched.observe(state, seat))
    assert played == {hand}
    assert scored == {hand + 1}


# ---- hints from plugins ------------------------------------------------------------


def test_the_installed_games_declare_hints_that_the_defaults_use() -> None:
    """``ismcts`` and ``pimc`` with no options take each game's hints; others get generic ones."""
    nestors = load_game("nestors")
    bot = ISMCTSBot(nestors)
    assert bot.hints.rollout == "nestors-heuristic" and bot.opponent_model
    assert bot.hints.segment is not None
    assert PIMCBot(nestors).hints.segment is not None
    for game in ("nyuri", "noddy", "box"):
        assert ISMCTSBot(load_game(game)).hints.value is not None
    generic = ISMCTSBot(load_game("highcard"))
    assert generic.hints == SearchHints(game="highcard")
    assert generic.iterations == _search.DEFAULT_ITERATIONS and not generic.opponent_model


def _hints_module(*records: Any) -> Any:
    import types

    mod = types.ModuleType("hintsplugin")

    @hookimpl
    def cardcore_register_search_hints() -> Iterator[Any]:
        yield from records

    mod.cardcore_register_search_hints = cardcore_register_search_hints  # type: ignore[attr-defined]
    return mod


def test_the_host_collects_and_checks_search_hints() -> None:
    """Hints are collected by game id; a wrong record is a reported problem, two a conflict."""
    host = PluginHost(load_entrypoints=False)
    host.register(_hints_module(SearchHints(game="toy", rollout="random")), name="one")
    assert host.search_hints()["toy"].rollout == "random"
    bad = PluginHost(load_entrypoints=False)
    bad.register(_hints_module("not hints"), name="bad")
    assert bad.search_hints() == {}
    assert any("SearchHints" in p.error for p in bad.problems)
    twice = PluginHost(load_entrypoints=False)
    twice.register(_hints_module(SearchHints(game="toy")), name="one")
    twice.register(_hints_module(SearchHints(game="toy")), name="two")
    assert twice.search_hints() == {}
    assert [(c.kind, c.name) for c in twice.conflicts] == [("search hints", "toy")]


def test_a_new_node_first_tries_what_the_rollout_bot_would_play() -> None:
    """With a bot as rollout policy, expansion starts from that bot's choice."""
    g = load_game("nestors")
    state = g.initial_state(4, 11)
    seat = g.current_player(state)
    assert seat is not None
    obs = g.observe(state, seat)
    assert len(obs.legal_actions) > 2
    heuristic = load_bot("nestors-heuristic", g).act(obs)
    firsts = set()
    for seed in range(4):
        bot = ISMCTSBot(g, seed=seed, iterations=1)
        bot.act(obs)
        assert bot.last_tree is not None
        firsts.add(tuple(bot.last_tree.edges))
    assert firsts == {(heuristic,)}
    unguided = set()
    for seed in range(8):
        bot = ISMCTSBot(g, seed=seed, iterations=1, policy_first=False)
        bot.act(obs)
        assert bot.last_tree is not None
        unguided.add(tuple(bot.last_tree.edges))
    assert len(unguided) > 1


@pytest.mark.parametrize("name", ["nyuri", "noddy", "box", "nestors"])
def test_each_games_value_is_a_reward_that_ranks_the_winner_first(name: str) -> None:
    """Hinted values lie in [0, 1], partners share one, and a finished game's winner gets most."""
    options: dict[str, Any] = {"threshold": 100} if name == "nestors" else {}
    g = load_game(name, **options)
    hints = ISMCTSBot(g).hints
    assert hints.value is not None
    n = g.min_players if g.min_players > 2 else 2
    bots = [load_bot("random", g, seed=s) for s in range(n)]
    state = g.initial_state(n, 4)
    teams = g.teams(n) or tuple((s,) for s in range(n))
    while True:
        values = [hints.value(g, state, s) for s in range(n)]
        assert all(0.0 <= v <= 1.0 for v in values), values
        for team in teams:
            assert len({values[s] for s in team}) == 1
        seat = g.current_player(state)
        if seat is None:
            break
        state = g.apply(state, bots[seat].act(g.observe(state, seat)))
    outcome = g.outcome(state)
    assert outcome is not None
    best = max(values)
    assert {s for s in range(n) if values[s] == best} == set(outcome.winners)
