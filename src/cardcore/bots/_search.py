"""Search bots that work on every game: ISMCTS and PIMC.

Both rely only on the Game protocol. Determinisation comes from the core's card table
(``game.sample_state``), so they play third-party games with no extra code, and they
only ever see observations: the states they search are samples consistent with what
their seat knows, never the real one.

A game may register :class:`cardcore.SearchHints` (its heuristic bot for play-outs and
as the model of the other seats, a score-aware value, where its hands end); the bots
then use them by default, and every hint can be overridden by an option.
"""

from __future__ import annotations

import functools
import itertools
import random
import time
import weakref
from collections.abc import Callable, Sequence
from typing import Any, Self, final

from cardcore._game import Game
from cardcore._hooks import SearchHints
from cardcore.bots._parallel import RootPool, check_workers, split
from cardcore.bots._tree import (
    SeatPolicies,
    _best_mean,
    _budget,
    _collector_paused,
    _Edge,
    _ismcts_search,
    _most_visited,
    _Node,
    _Playout,
)

__all__ = ["ISMCTSBot", "PIMCBot"]

DEFAULT_ITERATIONS = 300
"""ISMCTS iterations per decision when neither the options nor the game's hints say."""
DEFAULT_EXPLORATION = 0.7
"""The UCB exploration constant when neither the options nor the game's hints say."""
DEFAULT_DETERMINIZATIONS = 20
"""PIMC samples per decision when neither the options nor the game's hints say."""

_clock: Callable[[], float] = time.perf_counter
"""The clock that time budgets are measured on (tests replace it with a counter)."""


def game_hints(game: Game[Any, Any, Any]) -> SearchHints:
    """The search hints the installed plugins register for ``game`` (empty if none)."""
    from cardcore._host import default_host

    return default_host().search_hints().get(game.name) or SearchHints(game=game.name)


def _rollout_policy(
    game: Game[Any, Any, Any], rollout: str, rng: random.Random, hints: SearchHints
) -> tuple[SeatPolicies, bool]:
    """The play-out policy, and whether it is a bot (worth following) rather than random.

    A bot plays each seat's moves with its own instance (seeded from ``rng`` when the
    seat first moves), from the seat's observation; where the hints give a
    ``state_policy`` for that bot, it stands in for the bot and reads the state itself.
    """
    if rollout == "random":
        legal_actions, uniform = game.legal_actions, rng.random

        def pick(state: Any) -> Any:
            legal = legal_actions(state)
            return legal[int(uniform() * len(legal))]

        return (lambda seat: pick), False
    from cardcore._host import default_host

    host = default_host()
    # Fail early, with the host's own error, when the rollout bot does not exist.
    host.bot_spec(rollout)
    make = hints.state_policy if rollout == hints.rollout else None
    if make is not None:
        return (lambda seat: make(game, rng.randrange(2**31))), True
    observe = game.observe

    def by_bot(seat: int) -> Callable[[Any], Any]:
        act = host.load_bot(rollout, game, seed=rng.randrange(2**31)).act
        return lambda state: act(observe(state, seat))

    return by_bot, True


def _resolve(
    game: Game[Any, Any, Any],
    hints: SearchHints | None,
    rollout: str | None,
    horizon: int | None,
    hand_end: bool,
    score_value: bool,
    rng: random.Random,
) -> tuple[SearchHints, _Playout]:
    if horizon is not None and horizon < 0:
        raise ValueError(f"horizon must be >= 0, not {horizon}")
    h = hints if hints is not None else game_hints(game)
    chosen = rollout if rollout is not None else h.rollout or "random"
    policy, guides = _rollout_policy(game, chosen, rng, h)
    if horizon is None:  # the game's horizon goes with its own play-out policy
        horizon = h.horizon if chosen == (h.rollout or "random") else 0
    value: Callable[[Any, int], float] | None = getattr(game, "evaluate", None)
    if h.value is not None:
        value = functools.partial(h.value, game)
    segment = functools.partial(h.segment, game) if hand_end and h.segment is not None else None
    play = _Playout(
        game,
        policy,
        guides,
        value,
        segment,
        horizon,
        score_value and h.value is not None,
        h.segment_apply(game) if segment is not None and h.segment_apply is not None else None,
    )
    return h, play


class _SearchProcesses:
    """What a search bot with ``workers=N`` does with its process pool between decisions."""

    _pool: RootPool | None

    def close(self) -> None:
        """Stop the search processes, if any run (the next decision starts them again)."""
        if self._pool is not None:
            self._pool.close()

    def start_match(self, game: Any, seat: int, num_players: int) -> None:
        """A match begins: start the search processes now, not in the first decision."""
        if self._pool is not None:
            self._pool.warm()

    def end_match(self, outcome: Any) -> None:
        """The match is over: stop the search processes."""
        self.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@final
class ISMCTSBot(_SearchProcesses):
    """Single-observer information-set Monte Carlo tree search (Cowling et al., 2012).

    Each iteration samples a fresh determinisation of the hidden cards from the
    observation, descends the one shared tree choosing by UCB among the actions that
    exist in that determinisation (counting each action's availability), expands one
    action, plays out with the rollout policy, and backs up every mover's reward (its
    team's) to the actions it chose. Nodes are keyed by the seat to move, so rewards of
    different seats never mix.

    Defaults come from the game's :class:`cardcore.SearchHints` when it registers them
    (its heuristic as rollout policy and opponent model, its value, where hands end),
    else generic ones; each option overrides its hint.

    Args:
        game: the rules.
        seed: makes every decision reproducible for an iteration budget.
        iterations: iterations per decision. Alone, the search is deterministic for a
            seed; with ``seconds`` the search stops at whichever limit comes first.
            Neither: the game's hint, else 300.
        seconds: seconds per decision; alone, the search runs until they are used
            (its play then depends on machine speed).
        exploration: the UCB exploration constant (default: the hint, else 0.7).
        rollout: ``random`` or the id of any installed bot to play out with (default:
            the hint, else ``random``).
        horizon: stop each play-out after this many decisions and score it with the
            game's value, for games that have one; 0 plays on (default: the hint, else 0).
        opponent_model: inside the tree, let the other seats move as the rollout policy
            would instead of searching their choices too; the tree then branches only
            on this seat's decisions (default: the hint, else false).
        hand_end: stop play-outs where the game's hints say the hand ends (the
            searching seat's information ends there) and score them with its value.
        score_value: score finished play-outs with the game's score-aware value where
            its hints give one (a win by more is worth more); false: by win share.
        policy_first: when a node is new, expand first the action the rollout bot would
            play there (with a bot as rollout policy; random expansion otherwise), so a
            line's first estimate is of sensible play rather than of a random move.
        hints: the search hints to use instead of the ones the game's plugin registers.
        keep_tree: keep the whole tree of the last search in :attr:`last_tree`, for
            inspection. By default only the root and its edges are kept: a kept tree
            holds one object per node and edge until the next decision, and Python's
            collector then walks all of them, which after a long search costs tens of
            milliseconds, at times more than a tenth of a 1 s budget.
        workers: root-parallel search in this many processes: each searches a tree of
            its own, over determinisations of its own, with its share of
            ``iterations`` (or the whole of ``seconds``), and the visits and rewards at
            their roots are summed. Deterministic for a seed, ``workers`` and
            ``iterations`` whatever the machine's load; 1 (the default) searches in
            this process. The processes start when a match begins (``start_match``)
            or at the first decision, and stop when the bot is closed (:meth:`close`, or its match ends). With more than one,
            :attr:`last_tree` holds only the summed root.
    """

    name = "ismcts"

    def __init__(
        self,
        game: Game[Any, Any, Any],
        *,
        seed: int = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float | None = None,
        rollout: str | None = None,
        horizon: int | None = None,
        opponent_model: bool | None = None,
        hand_end: bool = True,
        score_value: bool = True,
        policy_first: bool = True,
        hints: SearchHints | None = None,
        keep_tree: bool = False,
        workers: int = 1,
    ) -> None:
        self.workers = check_workers(workers)
        self.game = game
        self._rng = random.Random(seed)
        self.keep_tree = bool(keep_tree)
        h, self._play = _resolve(game, hints, rollout, horizon, hand_end, score_value, self._rng)
        self.hints = h
        """The hints in use (the game's, or the ones given)."""
        self.iterations, self.seconds = _budget(
            iterations, seconds, h.iterations or DEFAULT_ITERATIONS
        )
        self.exploration = float(
            exploration if exploration is not None else h.exploration or DEFAULT_EXPLORATION
        )
        self.opponent_model = bool(h.opponent_model if opponent_model is None else opponent_model)
        self.policy_first = bool(policy_first) and self._play.guides
        self.last_tree: _Node | None = None
        """The root of the last search's tree (for inspection and tests): the whole tree
        with ``keep_tree``, else the root and its edges (its ``kids`` are dropped)."""
        self.last_iterations = 0
        """How many iterations the last search ran (over every worker)."""
        self._pool: RootPool | None = None
        if self.workers > 1:
            make = functools.partial(
                ISMCTSBot,
                game,
                iterations=iterations,
                seconds=seconds,
                exploration=exploration,
                rollout=rollout,
                horizon=horizon,
                opponent_model=opponent_model,
                hand_end=hand_end,
                score_value=score_value,
                policy_first=policy_first,
                hints=hints,
            )
            self._pool = RootPool(self.workers, make, make)
            weakref.finalize(self, self._pool.close)

    def act(self, observation: Any) -> Any:
        """Search from the observation and return the most visited legal action."""
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        if self._pool is not None:
            return self._root_parallel(self._pool, observation, legal)
        with _collector_paused():
            return _ismcts_search(self, observation, legal, _clock)

    def share(
        self, seed: int, iterations: int | None, seconds: float | None, observation: Any
    ) -> tuple[list[tuple[int, float, int] | None], int]:
        """Search one worker's share of a root-parallel decision, from ``seed`` alone.

        Returns:
            Per legal action of the observation (in its order), the root's visits,
            total reward and availability, or ``None`` where the search never tried
            it; and the number of iterations run.
        """
        self._rng.seed(seed)
        self._play.seat_policies = {}
        self.iterations, self.seconds = iterations, seconds
        legal = observation.legal_actions
        with _collector_paused():
            _ismcts_search(self, observation, legal, _clock)
        assert self.last_tree is not None
        edges = self.last_tree.edges
        stats = [(e.n, e.w, e.avail) if (e := edges.get(a)) is not None else None for a in legal]
        return stats, self.last_iterations

    def _root_parallel(self, pool: RootPool, observation: Any, legal: Sequence[Any]) -> Any:
        """Search in the pool's processes and choose from their summed root statistics."""
        clock = _clock
        start = clock()
        n = self.workers
        seeds = [self._rng.randrange(2**63) for _ in range(n)]
        budgets: list[int | None] = (
            [None] * n if self.iterations is None else list(split(self.iterations, n))
        )
        pool.open()
        seconds = None
        if self.seconds is not None:
            # Opening the pool counts against the deadline (its processes, if not
            # started by ``start_match``, start on the first task and share the due time).
            seconds = max(self.seconds - (clock() - start), 1e-3)
        tasks = [
            (s, b, seconds, observation)
            for s, b in zip(seeds, budgets, strict=True)
            if b is None or b > 0
        ]
        root = _Node(observation.seat)
        done = 0
        for stats, count in pool.run(tasks):
            done += count
            for a, st in zip(legal, stats, strict=True):
                if st is None:
                    continue
                e = root.edges.get(a)
                if e is None:
                    e = root.edges[a] = _Edge()
                    e.avail = 0
                e.n += st[0]
                e.w += st[1]
                e.avail += st[2]
        self.last_tree = root
        self.last_iterations = done
        return _most_visited(legal, root.edges)


@final
class PIMCBot(_SearchProcesses):
    """Perfect-information Monte Carlo: flat Monte Carlo over sampled determinisations.

    For each sample of the hidden cards, every legal action is played out ``rollouts``
    times with the rollout policy (the game's heuristic where its hints name one); the
    action with the best mean reward (the seat's team's) over all samples is chosen.
    Play-outs stop and are scored as for :class:`ISMCTSBot`.

    Args:
        game: the rules.
        seed: makes every decision reproducible for a sample budget.
        determinizations: samples of the hidden cards per decision. Alone, the play is
            deterministic for a seed; with ``seconds`` whichever limit comes first.
            Neither: the game's hint, else 20.
        seconds: seconds per decision; alone, samples are drawn until they are used.
        rollouts: play-outs per action and sample.
        rollout: ``random`` or the id of any installed bot (default: the hint).
        horizon: as for :class:`ISMCTSBot`.
        hand_end: as for :class:`ISMCTSBot`.
        score_value: as for :class:`ISMCTSBot`.
        hints: as for :class:`ISMCTSBot`.
        workers: as for :class:`ISMCTSBot`: this many processes each draw their share
            of ``determinizations`` (or samples for the whole of ``seconds``), and the
            rewards and play-out counts per action are summed.
    """

    name = "pimc"

    def __init__(
        self,
        game: Game[Any, Any, Any],
        *,
        seed: int = 0,
        determinizations: int | None = None,
        seconds: float | None = None,
        rollouts: int = 1,
        rollout: str | None = None,
        horizon: int | None = None,
        hand_end: bool = True,
        score_value: bool = True,
        hints: SearchHints | None = None,
        workers: int = 1,
    ) -> None:
        self.workers = check_workers(workers)
        if determinizations is not None and determinizations < 1:
            raise ValueError(f"determinizations must be >= 1, not {determinizations}")
        if rollouts < 1:
            raise ValueError(f"rollouts must be >= 1, not {rollouts}")
        self.game = game
        self._rng = random.Random(seed)
        h, self._play = _resolve(game, hints, rollout, horizon, hand_end, score_value, self._rng)
        self.hints = h
        """The hints in use (the game's, or the ones given)."""
        self.determinizations, self.seconds = _budget(
            determinizations, seconds, h.determinizations or DEFAULT_DETERMINIZATIONS
        )
        self.rollouts = int(rollouts)
        self.last_samples = 0
        """How many determinisations the last decision used (over every worker)."""
        self._pool: RootPool | None = None
        if self.workers > 1:
            make = functools.partial(
                PIMCBot,
                game,
                determinizations=determinizations,
                seconds=seconds,
                rollouts=rollouts,
                rollout=rollout,
                horizon=horizon,
                hand_end=hand_end,
                score_value=score_value,
                hints=hints,
            )
            self._pool = RootPool(self.workers, make, make)
            weakref.finalize(self, self._pool.close)

    def act(self, observation: Any) -> Any:
        """Return the legal action with the best mean play-out reward."""
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        if self._pool is not None:
            return self._root_parallel(self._pool, observation, legal)
        with _collector_paused():
            totals, counts = self._evaluate(observation, legal)
        return legal[_best_mean([totals[a] for a in legal], [counts[a] for a in legal])]

    def share(
        self, seed: int, determinizations: int | None, seconds: float | None, observation: Any
    ) -> tuple[list[tuple[float, int]], int]:
        """Evaluate one worker's share of a root-parallel decision, from ``seed`` alone.

        Returns:
            Per legal action of the observation (in its order), the total reward and
            the number of play-outs; and the number of determinisations used.
        """
        self._rng.seed(seed)
        self._play.seat_policies = {}
        self.determinizations, self.seconds = determinizations, seconds
        legal = observation.legal_actions
        with _collector_paused():
            totals, counts = self._evaluate(observation, legal)
        return [(totals[a], counts[a]) for a in legal], self.last_samples

    def _root_parallel(self, pool: RootPool, observation: Any, legal: Sequence[Any]) -> Any:
        """Evaluate in the pool's processes and choose from the summed rewards."""
        clock = _clock
        start = clock()
        n = self.workers
        seeds = [self._rng.randrange(2**63) for _ in range(n)]
        cap = self.determinizations
        budgets: list[int | None] = [None] * n if cap is None else list(split(cap, n))
        pool.open()
        seconds = None
        if self.seconds is not None:
            seconds = max(self.seconds - (clock() - start), 1e-3)
        tasks = [
            (s, b, seconds, observation)
            for s, b in zip(seeds, budgets, strict=True)
            if b is None or b > 0
        ]
        totals = [0.0] * len(legal)
        counts = [0] * len(legal)
        done = 0
        for stats, samples in pool.run(tasks):
            done += samples
            for i, (t, k) in enumerate(stats):
                totals[i] += t
                counts[i] += k
        self.last_samples = done
        return legal[_best_mean(totals, counts)]

    def _evaluate(self, observation: Any, legal: Any) -> tuple[dict[Any, float], dict[Any, int]]:
        """Each legal action's total reward and play-out count over the samples."""
        game, play = self.game, self._play
        play.set_players(getattr(observation, "num_players", None))
        play.clock = _clock
        seat = observation.seat
        seats = (seat,)
        totals = dict.fromkeys(legal, 0.0)
        counts = dict.fromkeys(legal, 0)
        cap = self.determinizations
        clock = _clock
        deadline = None if self.seconds is None else clock() + self.seconds
        segment = play.segment
        done = 0
        for done in itertools.count() if cap is None else range(cap):
            if deadline is not None and done and clock() >= deadline:
                break
            state = game.sample_state(observation, self._rng)
            root_segment = segment(state) if segment is not None else None
            late = False
            for a in legal:
                if deadline is not None and done and clock() >= deadline:
                    late = True  # out of time part-way: compare means over what was played
                    break
                after = play.apply(state, a)
                for _ in range(self.rollouts):
                    rewards = play.rewards(play.run(after, root_segment, deadline), seats)
                    if rewards is None:  # cut by the deadline, and nothing to score it with
                        late = True
                        break
                    totals[a] += rewards[seat]
                    counts[a] += 1
                if late:
                    break
            if late:
                break
        else:
            done = cap if cap is not None else done
        self.last_samples = done
        return totals, counts
