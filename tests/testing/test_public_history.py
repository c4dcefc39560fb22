"""The public-history check: it passes a game that keeps its history and catches one that drops it."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

import attrs
import pytest

from cardcore.testing import ConformanceError, check_public_history, declares_public_events
from cardcore.testing._public_history import public_history_problems


@attrs.frozen
class CallState:
    """Seats call numbers in turn; every call is public."""

    n: int
    turn: int
    calls: tuple[tuple[int, int, int], ...]  # (turn, seat, number)


@attrs.frozen
class CallObservation:
    seat: int
    current_player: int | None
    calls: tuple[tuple[int, int, int], ...]


class Calls:
    """A toy game: 9 turns, each seat in turn says 0, 1 or 2; observations keep every call."""

    name = "calls"
    min_players = 2
    max_players = 3

    def initial_state(self, num_players: int, seed: int) -> CallState:
        return CallState(num_players, 0, ())

    def current_player(self, state: CallState) -> int | None:
        return state.turn % state.n if state.turn < 9 else None

    def legal_actions(self, state: CallState) -> tuple[int, ...]:
        return (0, 1, 2)

    def apply(self, state: CallState, action: int) -> CallState:
        seat = state.turn % state.n
        return CallState(state.n, state.turn + 1, (*state.calls, (state.turn, seat, action)))

    def observe(self, state: CallState, seat: int) -> CallObservation:
        return CallObservation(seat, self.current_player(state), self.shown(state.calls))

    def shown(self, calls: tuple[tuple[int, int, int], ...]) -> tuple[tuple[int, int, int], ...]:
        return calls

    def public_events(self, before: CallState, action: int, after: CallState) -> Iterable[Hashable]:
        return [("call", *after.calls[-1])]

    def observed_events(self, observation: CallObservation) -> Iterable[Hashable]:
        return [("call", *c) for c in observation.calls]


class LatestCallOnly(Calls):
    """Broken: an observation keeps only the latest call, so a seat misses the others'."""

    def shown(self, calls: tuple[tuple[int, int, int], ...]) -> tuple[tuple[int, int, int], ...]:
        return calls[-1:]


class ShowsTheFuture(Calls):
    """Broken: observations hold a call nobody has made yet."""

    def observed_events(self, observation: CallObservation) -> Iterable[Hashable]:
        return [*super().observed_events(observation), ("call", 99, 0, 0)]


class SameEventTwice(Calls):
    """A declaration that cannot tell two calls apart (no turn number)."""

    def public_events(self, before: CallState, action: int, after: CallState) -> Iterable[Hashable]:
        return [("call", after.calls[-1][1], action)]


def _any(game: object) -> Any:
    """A toy game as the kit's functions take it (it has only the methods they call)."""
    return game


class Undeclared:
    name = "undeclared"
    min_players = max_players = 2


def test_a_game_that_keeps_its_history_passes() -> None:
    """Every seat's observations, joined, hold every call; the report counts them."""
    report = check_public_history(_any(Calls()), games=4)
    assert (report.game, report.games_played, report.decisions) == ("calls", 8, 72)
    assert report.events == 72
    assert declares_public_events(Calls())


def test_a_game_that_drops_events_is_caught() -> None:
    """Observations keeping only the latest call: each seat misses others' calls, named."""
    with pytest.raises(ConformanceError) as err:
        check_public_history(_any(LatestCallOnly()), players=[3], games=2)
    text = str(err.value)
    assert err.value.property == "public-history"
    assert "calls (given options, 3 players, seed 0)" in text
    assert "seat 0 never observes" in text and "('call', 1, 1," in text


def test_an_event_no_move_made_is_caught() -> None:
    """An observation holding an event the moves have not made is a problem too."""
    problems, steps, made = public_history_problems(_any(ShowsTheFuture()), 2, 5)
    assert steps == made == 9
    assert problems and "holds ('call', 99, 0, 0), which no move has made" in problems[0]


def test_events_that_cannot_be_told_apart_are_refused() -> None:
    """Two moves making equal events: the declaration must name where each happened."""
    with pytest.raises(TypeError, match=r"made .* twice .* events must be distinct"):
        public_history_problems(_any(SameEventTwice()), 2, 0, policy=lambda legal, rng: legal[0])


def test_a_game_without_the_declaration_is_refused() -> None:
    """A game with neither method gets a clear error naming both."""
    game: Any = Undeclared()
    assert not declares_public_events(game)
    with pytest.raises(TypeError, match=r"'undeclared' declares no public events.*observed_events"):
        check_public_history(game)


def test_every_preset_of_an_installed_game_is_played() -> None:
    """With a game id, each preset is loaded and played (here Box's two presets)."""
    report = check_public_history("box", games=2, seed=3)
    assert (report.game, report.games_played) == ("box", 4)


class NoddyEvents:
    """Noddy's public events, as its state logs them (ND-8.1): every event, numbered."""

    def initial_events(self, state: Any) -> Iterable[Hashable]:
        return list(enumerate(state.events))

    def public_events(self, before: Any, action: Any, after: Any) -> Iterable[Hashable]:
        return [(i, e) for i, e in enumerate(after.events) if i >= len(before.events)]

    def observed_events(self, observation: Any) -> Iterable[Hashable]:
        return list(enumerate(observation.events))


class NyuriEvents:
    """Nyuri's public events per resolved turn (NY-8.1): the turn's record, then how the
    layer took the target back when nobody offered."""

    def public_events(self, before: Any, action: Any, after: Any) -> Iterable[Hashable]:
        b, a = before.last, after.last
        if a is None or a == b:
            return []
        if b is not None and a.turn == b.turn:  # the same turn: the layer's return
            return [("returned", a.turn, a.returned)]
        out: list[Hashable] = [("turn", *attrs.astuple(a, recurse=False)[:-1])]
        if a.returned:
            out.append(("returned", a.turn, a.returned))
        return out

    def observed_events(self, observation: Any) -> Iterable[Hashable]:
        a = observation.last
        if a is None:
            return []
        out: list[Hashable] = [("turn", *attrs.astuple(a, recurse=False)[:-1])]
        if a.returned:
            out.append(("returned", a.turn, a.returned))
        return out


@pytest.mark.parametrize(("game", "events"), [("noddy", NoddyEvents()), ("nyuri", NyuriEvents())])
def test_noddy_and_nyuri_keep_their_public_history(game: str, events: Any) -> None:
    """The games that already carried their history pass, declared from outside."""
    report = check_public_history(game, games=3, seed=4, events=events)
    assert report.events > 0


def test_the_kit_runs_the_check_for_a_game_that_declares_its_events(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """run_checks (what certify runs) fails Box when its observations keep only the latest event."""
    from cardcore import load_game
    from cardcore.testing import run_checks
    from cardcore_box import Box

    game = load_game("box")
    assert run_checks(game, players=[4], games=1, hash_seeds=False).ok
    keeps = Box.observed_events

    def latest_only(self: Box, observation: Any) -> tuple[Hashable, ...]:
        return tuple(keeps(self, observation))[-1:]

    monkeypatch.setattr(Box, "observed_events", latest_only)
    broken = run_checks(game, players=[4], games=1, hash_seeds=False)
    assert [r.property for _, _, r in broken.failures()] == ["public-history"]
    assert "never observes" in broken.failures()[0][2].message
