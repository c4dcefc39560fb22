"""ISMCTS and PIMC: legal, deterministic, budgeted, and usable on any game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardcore import load_bot, load_game, play_match
from cardcore.bots import ISMCTSBot, PIMCBot
from cardcore.testing import ConformanceError, check_bot
from cardcore_highcard import Highcard, HighcardObservation


@pytest.mark.parametrize(
    ("name", "opts"), [("ismcts", {"iterations": 30}), ("pimc", {"determinizations": 4})]
)
def test_search_bots_pass_the_kit_bot_checks(name: str, opts: dict[str, Any]) -> None:
    """Only legal actions, no crash, same play for the same seed, on 2 and 4 seats."""
    check_bot(name, "highcard", options=opts, games=2)
    check_bot(name, "highcard", options=opts, games=2, players=4)


@pytest.mark.parametrize("game_id", ["nyuri", "noddy", "box", "nestors"])
@pytest.mark.parametrize(
    ("name", "opts"), [("ismcts", {"iterations": 4}), ("pimc", {"determinizations": 2})]
)
def test_search_bots_pass_the_kit_bot_checks_in_every_game(
    game_id: str, name: str, opts: dict[str, Any]
) -> None:
    """With the game's hints (heuristic play-outs, values, hand ends) in every game."""
    game = load_game(game_id, threshold=100) if game_id == "nestors" else load_game(game_id)
    check_bot(name, game, options=opts, games=2)


def test_check_bot_catches_an_illegal_bot() -> None:
    """The bot check must be able to fail."""
    import types

    from cardcore import BotSpec, PluginHost, hookimpl

    class Bad:
        def __init__(self, game: Any, seed: int = 0) -> None:
            pass

        def act(self, observation: Any) -> Any:
            return "play 2♣"

    mod = types.ModuleType("badbots")

    @hookimpl
    def cardcore_register_bots() -> Any:
        yield BotSpec(name="bad", factory=Bad)

    mod.cardcore_register_bots = cardcore_register_bots  # type: ignore[attr-defined]
    host = PluginHost()
    host.register(mod)
    with pytest.raises(ConformanceError, match="bot-legal"):
        check_bot("bad", "highcard", host=host, games=2)


class CountingGame(Highcard):  # type: ignore[misc]
    """Counts determinisations, and checks that bots only pass observations in."""

    def __init__(self) -> None:
        super().__init__()
        self.samples = 0

    def sample_state(self, observation: HighcardObservation, rng: random.Random) -> Any:
        assert isinstance(observation, HighcardObservation)
        self.samples += 1
        return super().sample_state(observation, rng)


def test_ismcts_respects_its_iteration_budget() -> None:
    """One decision samples exactly `iterations` determinisations."""
    g = CountingGame()
    bot = ISMCTSBot(g, seed=1, iterations=37)
    state = g.initial_state(3, 5)
    obs = g.observe(state, g.current_player(state) or 0)
    bot.act(obs)
    assert g.samples == 37


def test_pimc_respects_its_budget() -> None:
    """PIMC samples `determinizations` states per decision."""
    g = CountingGame()
    bot = PIMCBot(g, seed=1, determinizations=6, rollouts=1)
    state = g.initial_state(3, 5)
    bot.act(g.observe(state, g.current_player(state) or 0))
    assert g.samples == 6


def test_a_time_budget_stops_the_search() -> None:
    """With a tiny time budget the search stops early, still returning a legal action."""
    g = CountingGame()
    bot = ISMCTSBot(g, seed=1, iterations=10**6, seconds=0.01)
    state = g.initial_state(3, 5)
    obs = g.observe(state, g.current_player(state) or 0)
    assert bot.act(obs) in obs.legal_actions
    assert g.samples < 10**6


def test_the_old_time_budget_option_is_refused_by_name() -> None:
    """``time_budget`` was renamed ``seconds``: the old name is an error that names it."""
    g = load_game("highcard")
    with pytest.raises(ValueError, match="time_budget"):
        load_bot("ismcts", g, time_budget=0.5)
    with pytest.raises(ValueError, match="seconds"):
        ISMCTSBot(g, seconds=0)
    with pytest.raises(ValueError, match="seconds"):
        PIMCBot(g, seconds=-1.0)


def test_rollout_with_an_installed_bot() -> None:
    """Rollouts may be played by any installed bot."""
    g = load_game("highcard")
    bot = load_bot("ismcts", g, seed=2, iterations=20, rollout="random")
    rec = play_match(g, [bot, load_bot("random", g, seed=1)], seed=1)
    assert rec.outcome is not None and rec.outcome.forfeit is None
    with pytest.raises(LookupError, match="unknown bot 'nobody'"):
        load_bot("ismcts", g, rollout="nobody")


def test_bad_budgets_are_refused() -> None:
    """Iterations and samples must be positive."""
    g = load_game("highcard")
    with pytest.raises(ValueError, match="iterations"):
        ISMCTSBot(g, iterations=0)
    with pytest.raises(ValueError, match="determinizations"):
        PIMCBot(g, determinizations=0)


def test_ismcts_finds_the_winning_card() -> None:
    """With one card left each and the ace in hand, ISMCTS plays to win a winnable round."""
    g = load_game("highcard", hand_size=2)
    wins = 0
    for seed in range(20):
        bots = [load_bot("ismcts", g, seed=seed, iterations=60), load_bot("random", g, seed=seed)]
        rec = play_match(g, bots, seed=seed)
        assert rec.outcome is not None
        wins += rec.outcome.placing[0] == 1
    assert wins >= 10


class EvaluatedGame(Highcard):  # type: ignore[misc]
    """Offers a cut-off estimate and counts how often play-outs use it."""

    def __init__(self) -> None:
        super().__init__()
        self.evaluations = 0

    def evaluate(self, state: Any, seat: int) -> float:
        self.evaluations += 1
        return 0.5


def test_horizon_cuts_play_outs_short_with_the_games_estimate() -> None:
    """With horizon=1 every play-out stops early and the game's evaluate() stands in."""
    g = EvaluatedGame()
    bot = ISMCTSBot(g, seed=1, iterations=25, horizon=1)
    state = g.initial_state(4, 5)
    bot.act(g.observe(state, g.current_player(state) or 0))
    assert g.evaluations > 0
    plain = EvaluatedGame()
    ISMCTSBot(plain, seed=1, iterations=25).act(
        plain.observe(state, plain.current_player(state) or 0)
    )
    assert plain.evaluations == 0
    with pytest.raises(ValueError, match="horizon"):
        ISMCTSBot(g, horizon=-1)


def test_horizon_is_ignored_by_games_without_an_estimate() -> None:
    """A game with no evaluate() is played to the end whatever the horizon."""
    g = load_game("highcard")
    bot = load_bot("pimc", g, seed=1, determinizations=3, horizon=1)
    rec = play_match(g, [bot, load_bot("random", g)], seed=4)
    assert rec.outcome is not None and rec.outcome.forfeit is None


def _branching(node: Any, me: int, out: dict[str, int]) -> dict[str, int]:
    kind = "mine" if node.seat == me else "theirs"
    actions = set(node.edges) | {a for a, _ in node.kids}
    if node.seat >= 0 and actions:
        out[kind] = max(out.get(kind, 0), len(actions))
    for child in node.kids.values():
        _branching(child, me, out)
    return out


def test_opponent_model_branches_only_on_own_decisions() -> None:
    """With opponent_model the other seats move by the play-out policy inside the tree.

    The searching seat's own nodes still branch over all its legal actions; the
    opponents' nodes only hold the moves the policy happened to pick.
    """
    g = load_game("highcard", hand_size=6)
    state = g.initial_state(2, 9, dealer=1)
    me = g.current_player(state)
    assert me is not None
    obs = g.observe(state, me)
    modelled = ISMCTSBot(g, seed=3, iterations=200, opponent_model=True, keep_tree=True)
    plain = ISMCTSBot(g, seed=3, iterations=200, keep_tree=True)
    assert modelled.act(obs) in obs.legal_actions
    plain.act(obs)
    with_model = _branching(modelled.last_tree, me, {})
    without = _branching(plain.last_tree, me, {})
    assert with_model["mine"] == without["mine"] == len(obs.legal_actions)
    assert without["theirs"] >= 5
    # Random play-outs choose among the opponent's cards of each sample, so the modelled
    # opponent node still sees several cards, but never more than the plain search.
    assert with_model["theirs"] <= without["theirs"]
    with pytest.raises(ValueError, match="iterations"):
        ISMCTSBot(g, iterations=0, opponent_model=True)
