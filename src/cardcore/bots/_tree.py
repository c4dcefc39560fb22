"""The search bots' hot part, compiled in the compiled build: tree, play-outs, ISMCTS loop.

:class:`_Node` and :class:`_Edge` make ISMCTS's tree (and root-parallel search's summed
root); :class:`_Playout` plays positions out and scores them; :func:`_ismcts_search` is
one ISMCTS decision; :func:`_budget` checks a bot's iterations and seconds;
:func:`_collector_paused` holds off the garbage collector for the length of one search.
The bot classes themselves stay in :mod:`cardcore.bots._search`, in Python: their
options are read from their signatures, and tests replace their clock.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import math
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, final

if TYPE_CHECKING:
    from cardcore._game import Game

SeatPolicies = Callable[[int], Callable[[Any], Any]]
"""A rollout policy, per seat: ``policy_for(seat)`` makes the seat's ``state -> action``
(called once per seat, when the seat first moves)."""


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Hold off Python's cyclic garbage collector for the length of one search.

    A search allocates tens of thousands of short-lived objects a second, so the
    collector runs often, and a full collection of a large heap takes 30-100 ms: one
    that starts just before the deadline makes the decision overshoot a 1 s budget by
    10%. The search creates no reference cycles (its trees and play-outs are freed by
    reference counting alone), so pausing the collector loses no memory; it is switched
    back on afterwards, also when the game raises, and left alone if the caller had
    switched it off.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _budget(
    iterations: int | None, seconds: float | None, default: int
) -> tuple[int | None, float | None]:
    """The budget per decision: ``(iterations, seconds)``, checked; neither: ``default``."""
    if iterations is not None and iterations < 1:
        raise ValueError(f"iterations must be >= 1, not {iterations}")
    if seconds is not None and not seconds > 0:
        raise ValueError(f"seconds must be > 0, not {seconds}")
    if iterations is None and seconds is None:
        return default, None
    return iterations, seconds


@final
class _Edge:
    """One action at one node: visits, total reward of the node's mover, availability."""

    __slots__ = ("avail", "n", "w")

    def __init__(self) -> None:
        self.n = 0
        self.w = 0.0
        self.avail = 1


@final
class _Node:
    """A point of the tree where one known seat moves.

    Children are keyed by the action taken *and* the seat that moves next, so that
    where chance decides who moves after an action, each seat gets its own node and
    rewards of different seats are never summed in one place.
    """

    __slots__ = ("edges", "kids", "seat")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.edges: dict[Any, _Edge] = {}
        """The mover's statistics per action."""
        self.kids: dict[tuple[Any, int | None], _Node] = {}
        """The next nodes, by (action, next mover)."""

    def child(self, action: Any, seat: int | None) -> _Node:
        """The node after ``action`` where ``seat`` moves (made on first use)."""
        key = (action, seat)
        node = self.kids.get(key)
        if node is None:
            node = self.kids[key] = _Node(-1 if seat is None else seat)
        return node


@final
class _Playout:
    """How a search plays a position out and what the end of a play-out is worth.

    A play-out stops when the game ends, when the game's ``segment`` (the hand) differs
    from the root's, or after ``horizon`` decisions; a stop short of the end is scored by
    the game's value, a finished game by that value when it is score-aware, else by the
    outcome's win share. In partnership games a seat's reward is its team's.
    """

    __slots__ = (
        "apply",
        "clock",
        "game",
        "guides",
        "horizon",
        "policy_for",
        "rep",
        "score_finished",
        "seat_policies",
        "segment",
        "team",
        "value",
    )

    def __init__(
        self,
        game: Game[Any, Any, Any],
        policy_for: SeatPolicies,
        guides: bool,
        value: Callable[[Any, int], float] | None,
        segment: Callable[[Any], Hashable] | None,
        horizon: int,
        score_finished: bool,
        segment_apply: Callable[[Any, Any], Any] | None = None,
    ) -> None:
        self.game = game
        self.policy_for = policy_for
        self.seat_policies: dict[int, Callable[[Any], Any]] = {}
        """Each seat's policy, made when the seat first moves (its bot's seed is drawn then)."""
        self.guides = guides
        """Whether the policy is a bot worth following (not uniformly random)."""
        self.value = value
        self.segment = segment if value is not None else None
        self.horizon = horizon if value is not None else 0
        self.score_finished = score_finished and value is not None
        self.apply: Callable[[Any, Any], Any] = game.apply
        """How the search applies moves: the hints' ``segment_apply`` when play-outs stop
        at a segment's end (it may leave the next segment unset), else ``game.apply``."""
        if self.segment is not None and segment_apply is not None:
            self.apply = segment_apply
        self.team: dict[int, tuple[int, ...]] = {}
        self.rep: dict[int, int] = {}
        self.clock: Callable[[], float] = time.perf_counter
        """The clock a play-out's deadline is read on: the search bots set theirs."""

    def set_players(self, num_players: int | None) -> None:
        """Learn the partnerships, so that partners share one reward."""
        self.team, self.rep = {}, {}
        if not num_players:
            return
        teams = self.game.teams(num_players)
        for t in teams or ():
            for s in t:
                self.team[s] = tuple(t)
                self.rep[s] = min(t)

    def policy(self, state: Any, seat: int) -> Any:
        """The play-out policy's action for ``seat``, the seat to move in ``state``."""
        f = self.seat_policies.get(seat)
        if f is None:
            f = self.seat_policies[seat] = self.policy_for(seat)
        return f(state)

    def run(
        self, state: Any, root_segment: Hashable, deadline: float | None = None, steps: int = 0
    ) -> Any:
        """Play ``state`` out with the policy; return where the play-out stopped.

        With a ``deadline`` (on :attr:`clock`) the play-out also stops once it has
        passed (checked before every decision), so that one long play-out cannot overrun
        a time budget; the state there is scored like a cut at the horizon.
        """
        segment, apply, policies = self.segment, self.apply, self.seat_policies
        current_player = self.game.current_player
        horizon = self.horizon or -1
        clock = self.clock
        while (seat := current_player(state)) is not None:
            if steps == horizon or (segment is not None and segment(state) != root_segment):
                break
            if deadline is not None and clock() >= deadline:
                break
            f = policies.get(seat)  # the policy method, inlined: once per move
            if f is None:
                f = policies[seat] = self.policy_for(seat)
            state = apply(state, f(state))
            steps += 1
        return state

    def rewards(self, state: Any, seats: Any) -> dict[int, float] | None:
        """Each of ``seats``' reward (its team's) for the play-out's last state.

        ``None`` when the play-out was cut short (by a deadline) in a game that has no
        value to score an unfinished state with: such a play-out counts for nothing.
        """
        out: dict[int, float] = {}
        finished = self.game.current_player(state) is None
        if not finished and self.value is None:
            return None
        outcome = self.game.outcome(state) if finished and not self.score_finished else None
        value, rep, team = self.value, self.rep, self.team
        for seat in seats:
            if seat in out:
                continue
            key = rep.get(seat, seat)
            r = out.get(key)
            if r is None:
                if outcome is not None:
                    r = outcome.reward(seat)
                else:
                    assert value is not None
                    members = team.get(seat)
                    if members is None:
                        r = float(value(state, seat))
                    else:
                        r = sum(float(value(state, m)) for m in members) / len(members)
                out[key] = r
            out[seat] = r
        return out


def _ismcts_search(bot: Any, observation: Any, legal: Any, clock: Callable[[], float]) -> Any:
    """One ISMCTS decision of ``bot``: search, keep the tree, return the most visited action.

    ``bot`` is an :class:`~cardcore.bots.ISMCTSBot`; its deadline is read on ``clock``.
    """
    game, rng, c = bot.game, bot._rng, bot.exploration
    play = bot._play
    play.set_players(getattr(observation, "num_players", None))
    current_player, legal_actions, apply = game.current_player, game.legal_actions, play.apply
    sample, policy, segment = game.sample_state, play.policy, play.segment
    log, sqrt, randrange = math.log, math.sqrt, rng.randrange
    me, model = observation.seat, bot.opponent_model
    guided = bot.policy_first
    root = _Node(me)
    cap = bot.iterations
    play.clock = clock
    deadline = None if bot.seconds is None else clock() + bot.seconds
    root_segment: Hashable = None
    done = 0
    for done in itertools.count() if cap is None else range(cap):
        if deadline is not None and done and clock() >= deadline:
            break
        state = sample(observation, rng)
        if segment is not None and not done:
            root_segment = segment(state)
        node = root
        path: list[tuple[_Edge, int]] = []
        expanded: tuple[_Node, Any] | None = None
        while True:
            seat = current_player(state)
            if seat is None or (segment is not None and segment(state) != root_segment):
                break
            if deadline is not None and path and clock() >= deadline:
                break  # out of time on the way down: score the state reached
            if model and seat != me:
                # The other seats move as the play-out policy would: the tree
                # branches only on this seat's own decisions.
                a = policy(state, seat)
            else:
                actions = legal_actions(state)
                edges = node.edges
                untried = []
                for a in actions:
                    e = edges.get(a)
                    if e is None:
                        untried.append(a)
                    else:
                        e.avail += 1
                if untried:
                    a = untried[randrange(len(untried))] if len(untried) > 1 else untried[0]
                    if guided and len(untried) > 1:
                        # A new node first tries what the policy would play there.
                        choice = policy(state, seat)
                        if choice in untried:
                            a = choice
                    e = edges[a] = _Edge()
                    path.append((e, seat))
                    state = apply(state, a)
                    expanded = node, a
                    break
                best_v = -1.0
                a = actions[0]
                e = edges[a]
                for x in actions:
                    ex = edges[x]
                    v = ex.w / ex.n + c * sqrt(log(ex.avail) / ex.n)
                    if v > best_v:
                        a, e, best_v = x, ex, v
                path.append((e, seat))
            state = apply(state, a)
            node = node.child(a, current_player(state))
        if expanded is not None:
            state = play.run(state, root_segment, deadline)
        rewards = play.rewards(state, [s for _, s in path])
        if rewards is None:
            # Out of time inside a play-out that cannot be scored: forget the
            # action it expanded, so that every edge in the tree has been visited.
            if expanded is not None:
                del expanded[0].edges[expanded[1]]
            break
        for e, seat in path:
            e.n += 1
            e.w += rewards[seat]
    else:
        done = cap if cap is not None else done
    if not bot.keep_tree:
        # Free the tree below the root now, while the collector is paused: kept,
        # its objects would all be walked by the collector's next passes.
        root.kids = {}
    bot.last_tree = root
    bot.last_iterations = done
    return _most_visited(legal, root.edges)


def _most_visited(legal: Sequence[Any], edges: dict[Any, _Edge]) -> Any:
    """The legal action visited most (ties: the better mean, then the first), as ``max``."""
    best, key = legal[0], (-2, 0.0)
    for a in legal:
        e = edges.get(a)
        k = (e.n, e.w / e.n) if e is not None else (-1, 0.0)
        if k > key:
            best, key = a, k
    return best


def _best_mean(totals: Sequence[float], counts: Sequence[int]) -> int:
    """The index of the best mean reward (``-1.0`` where nothing was played; ties: first)."""
    means = [t / k if k else -1.0 for t, k in zip(totals, counts, strict=True)]
    best = 0
    for i in range(1, len(means)):
        if means[i] > means[best]:
            best = i
    return best
