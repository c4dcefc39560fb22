"""Search bots that work on every game: ISMCTS and PIMC.

Both rely only on the Game protocol. Determinisation comes from the core's card table
(``game.sample_state``), so they play third-party games with no extra code, and they
only ever see observations: the states they search are samples consistent with what
their seat knows, never the real one.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any, final

from cardcore._game import Game

__all__ = ["ISMCTSBot", "PIMCBot"]

Policy = Callable[[Any], Any]
"""A rollout policy: state -> action."""


def _rollout_policy(
    game: Game[Any, Any, Any], rollout: str, rng: random.Random, options: dict[str, Any]
) -> Policy:
    if rollout == "random":

        def pick(state: Any) -> Any:
            legal = game.legal_actions(state)
            return legal[rng.randrange(len(legal))]

        return pick
    from cardcore._host import default_host

    bots: dict[int, Any] = {}

    def by_bot(state: Any) -> Any:
        seat = game.current_player(state)
        assert seat is not None
        bot = bots.get(seat)
        if bot is None:
            bot = default_host().load_bot(rollout, game, seed=rng.randrange(2**31), **options)
            bots[seat] = bot
        return bot.act(game.observe(state, seat))

    # Fail early, with the bot's own error, when the rollout bot does not exist.
    default_host().bot_spec(rollout)
    return by_bot


def _finish(game: Game[Any, Any, Any], state: Any, policy: Policy, horizon: int) -> Any:
    """Play out; return an object with ``reward(seat)``: the outcome, or a cut-off estimate.

    With a positive ``horizon`` and a game that offers ``evaluate(state, seat)`` (a
    0-to-1 estimate of the seat's chance to win), the play-out stops after ``horizon``
    decisions and the estimate stands in for the outcome.
    """
    evaluate = getattr(game, "evaluate", None) if horizon > 0 else None
    steps = 0
    while game.current_player(state) is not None:
        if evaluate is not None and steps >= horizon:
            return _Estimate(evaluate, state)
        state = game.apply(state, policy(state))
        steps += 1
    return game.outcome(state)


@final
class _Estimate:
    __slots__ = ("evaluate", "state")

    def __init__(self, evaluate: Callable[[Any, int], float], state: Any) -> None:
        self.evaluate = evaluate
        self.state = state

    def reward(self, seat: int) -> float:
        return float(self.evaluate(self.state, seat))


@final
class _Node:
    __slots__ = ("avail", "children", "reward", "seat", "visits")

    def __init__(self) -> None:
        self.seat = -1  # who moves here, once known
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0


@final
class ISMCTSBot:
    """Single-observer information-set Monte Carlo tree search.

    Each iteration samples a fresh determinisation of the hidden cards from the
    observation, descends the one shared tree choosing by UCB among the actions that
    exist in that determinisation (counting each child's availability), expands one
    action, plays out with the rollout policy, and backs up every player's reward (its
    team's win share) to the nodes where that player moved.

    Args:
        game: the rules.
        seed: makes every decision reproducible for a fixed iteration budget.
        iterations: iterations per decision.
        time_budget: seconds per decision; when set, search stops at whichever limit
            comes first (results then depend on machine speed).
        exploration: the UCB exploration constant.
        rollout: ``random`` or the name of any installed bot to play out with.
        horizon: stop each play-out after this many decisions and use the game's
            ``evaluate(state, seat)`` estimate, for games that offer one (long,
            many-hand matches); 0 plays to the end.
        opponent_model: inside the tree, let the other seats move as the rollout policy
            would instead of searching their choices too; the tree then branches only on
            this seat's decisions. With a good rollout bot and a small budget this keeps
            the search from counting on opponents' blunders.
        **rollout_options: options for the rollout bot.
    """

    name = "ismcts"

    def __init__(
        self,
        game: Game[Any, Any, Any],
        *,
        seed: int = 0,
        iterations: int = 300,
        time_budget: float | None = None,
        exploration: float = 0.7,
        rollout: str = "random",
        horizon: int = 0,
        opponent_model: bool = False,
        **rollout_options: Any,
    ) -> None:
        if iterations < 1:
            raise ValueError(f"iterations must be >= 1, not {iterations}")
        if horizon < 0:
            raise ValueError(f"horizon must be >= 0, not {horizon}")
        self.game = game
        self.horizon = int(horizon)
        self.opponent_model = bool(opponent_model)
        self.last_tree: Any = None
        """The root of the last search's tree (for inspection and tests)."""
        self.iterations = int(iterations)
        self.time_budget = time_budget
        self.exploration = float(exploration)
        self._rng = random.Random(seed)
        self._policy = _rollout_policy(game, rollout, self._rng, rollout_options)

    def act(self, observation: Any) -> Any:
        """Search from the observation and return the most visited legal action."""
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        game, rng, c = self.game, self._rng, self.exploration
        root = _Node()
        me, model = observation.seat, self.opponent_model
        deadline = None if self.time_budget is None else time.perf_counter() + self.time_budget
        for i in range(self.iterations):
            if deadline is not None and i and time.perf_counter() > deadline:
                break
            state = game.sample_state(observation, rng)
            node = root
            path: list[tuple[_Node, int]] = []
            while True:
                seat = game.current_player(state)
                if seat is None:
                    break
                node.seat = seat
                if model and seat != me:
                    # Other seats move as the play-out policy would: the tree branches
                    # only on this seat's own decisions.
                    a = self._policy(state)
                    child = node.children.get(a)
                    if child is None:
                        child = node.children[a] = _Node()
                    node = child
                    state = game.apply(state, a)
                    continue
                actions = game.legal_actions(state)
                untried = [a for a in actions if a not in node.children]
                for a in actions:
                    ch = node.children.get(a)
                    if ch is not None:
                        ch.avail += 1
                if untried:
                    a = untried[rng.randrange(len(untried))]
                    child = _Node()
                    child.avail = 1
                    node.children[a] = child
                    state = game.apply(state, a)
                    path.append((child, seat))
                    break
                best, best_v = actions[0], -1.0
                for a in actions:
                    ch = node.children[a]
                    v = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if v > best_v:
                        best, best_v = a, v
                node = node.children[best]
                state = game.apply(state, best)
                path.append((node, seat))
            outcome = _finish(game, state, self._policy, self.horizon)
            root.visits += 1
            for n, seat in path:
                n.visits += 1
                n.reward += outcome.reward(seat)
        self.last_tree = root
        return max(legal, key=lambda a: root.children[a].visits if a in root.children else -1)


@final
class PIMCBot:
    """Perfect-information Monte Carlo: flat Monte Carlo over sampled determinisations.

    For each of ``determinizations`` samples of the hidden cards, every legal action is
    played out ``rollouts`` times with the rollout policy; the action with the best mean
    reward (the seat's team win share) over all samples is chosen.

    Args:
        game: the rules.
        seed: makes every decision reproducible.
        determinizations: samples of the hidden cards per decision.
        rollouts: play-outs per action and sample.
        rollout: ``random`` or the name of any installed bot.
        horizon: as for :class:`ISMCTSBot`.
        **rollout_options: options for the rollout bot.
    """

    name = "pimc"

    def __init__(
        self,
        game: Game[Any, Any, Any],
        *,
        seed: int = 0,
        determinizations: int = 20,
        rollouts: int = 2,
        rollout: str = "random",
        horizon: int = 0,
        **rollout_options: Any,
    ) -> None:
        if determinizations < 1 or rollouts < 1:
            raise ValueError("determinizations and rollouts must be >= 1")
        self.game = game
        self.horizon = int(horizon)
        self.determinizations = int(determinizations)
        self.rollouts = int(rollouts)
        self._rng = random.Random(seed)
        self._policy = _rollout_policy(game, rollout, self._rng, rollout_options)

    def act(self, observation: Any) -> Any:
        """Return the legal action with the best mean play-out reward."""
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        game = self.game
        seat = observation.seat
        totals = dict.fromkeys(legal, 0.0)
        for _ in range(self.determinizations):
            state = game.sample_state(observation, self._rng)
            for a in legal:
                after = game.apply(state, a)
                for _ in range(self.rollouts):
                    totals[a] += _finish(game, after, self._policy, self.horizon).reward(seat)
        return max(legal, key=lambda a: totals[a])
