"""The public-history property: what a seat saw at its decisions holds every public event.

A bot sees the game only through the observations it receives, one at each of its
decisions (and a last one when the match ends). Whatever public happened between two of
them (other seats' plays, a trick's winner, a round's outcome) must still be in the
next one, or the bot never learns it. A game states what is public as *events*, two ways
that the kit compares:

* ``public_events(before, action, after)``: the events one move makes public, read by
  the referee from the full states (it may look at every card);
* ``observed_events(observation)``: the events an observation holds, read from the
  observation alone;
* optionally ``initial_events(state)``: the events public before the first decision (a
  cut for the first dealer, a turn-up), made by the setup rather than by a move.

:func:`check_public_history` plays random games and checks, for every seat, that the
events observed at its decisions and at the end, joined, hold every event the moves
made; and that no observation holds an event the match has not made by then. Events are
any hashable values (tuples read best) that the two methods build alike; each must be
distinct within a match, so an event names where it happened (a deal, a trick).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol, final, runtime_checkable

import attrs

from cardcore.testing._errors import ConformanceError

if TYPE_CHECKING:
    from cardcore._game import Game
    from cardcore._host import PluginHost

__all__ = [
    "PublicEventsGame",
    "PublicHistoryReport",
    "check_public_history",
    "declares_public_events",
    "public_history_problems",
]

PROPERTY: Final = "public-history"
"""The property's name in a :class:`~cardcore.testing.ConformanceError`."""

Policy = Callable[[Sequence[Any], random.Random], Any]
"""Chooses an action from the legal ones, with the check's random generator."""

_SHOWN: Final = 5
"""How many missing events a failure message lists."""


@runtime_checkable
class PublicEventsGame(Protocol):
    """The two methods by which a game declares its public events (both are needed).

    A declaration may also have ``initial_events(state)``: the events the setup made
    public before the first decision.
    """

    def public_events(self, before: Any, action: Any, after: Any) -> Iterable[Hashable]:
        """The public events that ``action``, played on ``before``, made (``after``)."""
        ...

    def observed_events(self, observation: Any) -> Iterable[Hashable]:
        """The public events that ``observation`` holds, read from it alone."""
        ...


def declares_public_events(game: object) -> bool:
    """Whether ``game`` declares its public events (has both methods of the protocol)."""
    return callable(getattr(game, "public_events", None)) and callable(
        getattr(game, "observed_events", None)
    )


@final
@attrs.frozen(kw_only=True)
class PublicHistoryReport:
    """What :func:`check_public_history` played and compared."""

    game: str
    """The game's name."""
    games_played: int
    """Random games played, over every preset and player count."""
    decisions: int
    """Decisions in those games."""
    events: int
    """Public events the moves made, over all games."""


def _events(values: Iterable[Hashable], where: str) -> list[Hashable]:
    out = list(values)
    for e in out:
        try:
            hash(e)
        except TypeError:
            raise TypeError(f"{where} returned an unhashable event {e!r}") from None
    return out


def public_history_problems(
    game: Game[Any, Any, Any],
    num_players: int,
    seed: int,
    *,
    events: PublicEventsGame | None = None,
    policy: Policy | None = None,
) -> tuple[list[str], int, int]:
    """Play one random game and list how its observations miss or invent public events.

    Args:
        game: the game (it plays, and observes every seat).
        num_players: the number of seats.
        seed: the game's seed; it also seeds the random choice of actions.
        events: where the two methods are, when not on ``game`` itself.
        policy: chooses each action from the legal ones (default: uniformly at random).

    Returns:
        The problems (one sentence each, empty when none), the decisions played and the
        number of public events made.

    Raises:
        TypeError: neither ``game`` nor ``events`` declares the public events, or an
            event is not hashable.
    """
    decl: Any = events if events is not None else game
    if not declares_public_events(decl):
        raise TypeError(
            f"{getattr(game, 'name', game)!r} declares no public events: give it the methods "
            "public_events(before, action, after) and observed_events(observation)"
        )
    rng = random.Random(seed ^ 0x51DE)
    state = game.initial_state(num_players, seed)
    made: dict[Hashable, int] = {}  # event -> the decision that made it (-1: the setup)
    setup = getattr(decl, "initial_events", None)
    if setup is not None:
        made.update((e, -1) for e in _events(setup(state), "initial_events"))
    seen: list[set[Hashable]] = [set() for _ in range(num_players)]
    problems: list[str] = []
    step = 0

    def look(seat: int, when: str) -> None:
        obs = game.observe(state, seat)
        shown = _events(decl.observed_events(obs), "observed_events")
        for e in shown:
            if e not in made and len(problems) < _SHOWN:
                problems.append(
                    f"seat {seat}'s observation {when} holds {e!r}, which no move has made "
                    "(public_events and observed_events must build the same events)"
                )
        seen[seat].update(shown)

    while True:
        cur = game.current_player(state)
        if cur is None:
            break
        look(cur, f"at decision {step}")
        legal = game.legal_actions(state)
        action = policy(legal, rng) if policy is not None else legal[rng.randrange(len(legal))]
        after = game.apply(state, action)
        for e in _events(decl.public_events(state, action, after), "public_events"):
            if e in made:
                raise TypeError(
                    f"public_events made {e!r} twice (decisions {made[e]} and {step}): "
                    "events must be distinct within a match; add what tells them apart "
                    "(a deal or trick number)"
                )
            made[e] = step
        state = after
        step += 1
    for seat in range(num_players):
        look(seat, "at the end")
    for seat in range(num_players):
        missing = [e for e in made if e not in seen[seat]]
        if missing:
            listed = "; ".join(f"{e!r} (decision {made[e]})" for e in missing[:_SHOWN])
            more = f"; ... ({len(missing)} in all)" if len(missing) > _SHOWN else ""
            problems.append(
                f"seat {seat} never observes {len(missing)} of the {len(made)} public events, "
                f"at its decisions or at the end: {listed}{more}"
            )
    return problems, step, len(made)


def check_public_history(
    game: str | Game[Any, Any, Any],
    *,
    presets: Iterable[str] | None = None,
    options: Mapping[str, Any] | None = None,
    players: Sequence[int] | None = None,
    games: int = 10,
    seed: int = 0,
    host: PluginHost | None = None,
    events: PublicEventsGame | None = None,
    policy: Policy | None = None,
) -> PublicHistoryReport:
    """Check that each seat's observations, joined over its decisions, hold every public event.

    Random games of every preset (for a game id) and player count are played with random
    legal actions; for each seat, the events its observations hold at its decisions and
    at the end must include every event the moves made (``public_events``), and no
    observation may hold an event not yet made.

    Args:
        game: a game id (every preset is checked, or ``presets``) or a built game.
        presets: with a game id, only these presets.
        options: with a game id, overrides applied on top of each preset.
        players: player counts (default: every supported count).
        games: random games per preset and player count.
        seed: makes the run reproducible.
        host: the plugin host (for a game id).
        events: the two methods, when they are not the game's own.
        policy: chooses each action from the legal ones (default: uniformly at random);
            a policy that favours rare moves (passing, say) reaches rare situations.

    Returns:
        What was played.

    Raises:
        ConformanceError: property ``public-history``, naming the game, preset, player
            count, seed and the first problems.
        TypeError: the game declares no public events, or declares one twice.
    """
    built: list[tuple[str, Game[Any, Any, Any]]]
    if isinstance(game, str):
        from cardcore._host import default_host

        h = host or default_host()
        spec = h.game_spec(game)
        names = list(presets) if presets is not None else list(spec.presets)
        built = [(p, h.load_game(game, preset=p, **dict(options or {}))) for p in names]
    else:
        built = [("given options", game)]
    played = decisions = made = 0
    name = ""
    for label, g in built:
        name = g.name
        counts = (
            list(players) if players is not None else [*range(g.min_players, g.max_players + 1)]
        )
        for n in counts:
            for k in range(games):
                game_seed = seed * 100_003 + k
                problems, steps, count = public_history_problems(
                    g, n, game_seed, events=events, policy=policy
                )
                if problems:
                    raise ConformanceError(
                        PROPERTY,
                        f"{g.name} ({label}, {n} players, seed {game_seed}): "
                        + "\n  ".join(problems),
                    )
                played += 1
                decisions += steps
                made += count
    return PublicHistoryReport(game=name, games_played=played, decisions=decisions, events=made)
