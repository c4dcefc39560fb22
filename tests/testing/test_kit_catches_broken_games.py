"""The conformance kit must be able to fail: each broken game is caught by the right property."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest

from cardcore import CardTable, MatchRecord, load_game
from cardcore.testing import (
    Config,
    ConformanceError,
    check_game,
    configurations,
    parametrize_configurations,
    run_checks,
)
from cardcore_highcard import Highcard, HighcardObservation, HighcardState, Play


class ShowsOpponentCards(Highcard):  # type: ignore[misc]
    def observe(self, state: HighcardState, seat: int) -> HighcardObservation:
        obs = super().observe(state, seat)
        hands = 0
        for i in range(len(state.wins)):
            hands |= state.table.masks[1 + i]
        peek = state.table.reveal(hands, state.table.layout.all_seats).view(seat)
        return attrs.evolve(obs, table=peek)


class CarriesRng(Highcard):  # type: ignore[misc]
    def observe(self, state: HighcardState, seat: int) -> HighcardObservation:
        return attrs.evolve(super().observe(state, seat), dealer=state.rng % 1000)


class MutatesInput(Highcard):  # type: ignore[misc]
    def apply(self, state: HighcardState, action: Play) -> HighcardState:
        after = super().apply(state, action)
        object.__setattr__(state, "wins", tuple(w + 1 for w in state.wins))
        return after


class IgnoresSeed(Highcard):  # type: ignore[misc]
    def initial_state(self, num_players: int, seed: int, **kw: Any) -> HighcardState:
        return super().initial_state(num_players, 0, **kw)


class DeadEnd(Highcard):  # type: ignore[misc]
    def legal_actions(self, state: HighcardState) -> tuple[Play, ...]:
        if sum(state.wins) >= 1:
            return ()
        return super().legal_actions(state)


class CardVanishes(Highcard):  # type: ignore[misc]
    def apply(self, state: HighcardState, action: Play) -> HighcardState:
        after = super().apply(state, action)
        t = after.table
        masks = list(t.masks)
        done = len(masks) - 1
        if masks[done]:
            masks[done] &= masks[done] - 1
        return attrs.evolve(after, table=CardTable(t.layout, tuple(masks), t.orders, t.known))


class ShowsOthersLegalActions(Highcard):  # type: ignore[misc]
    def observe(self, state: HighcardState, seat: int) -> HighcardObservation:
        return attrs.evolve(super().observe(state, seat), legal_actions=self.legal_actions(state))


class AcceptsAnything(Highcard):  # type: ignore[misc]
    def apply(self, state: HighcardState, action: Play) -> HighcardState:
        if not isinstance(action, Play):
            return state  # type: ignore[unreachable]
        return super().apply(state, action)


class BadActionText(Highcard):  # type: ignore[misc]
    def parse_action(self, text: str) -> Play:
        play = super().parse_action(text)
        return Play(play.card) if play.card.rank != 14 else Play(type(play.card).of(0))


class LiesAboutLength(Highcard):  # type: ignore[misc]
    def max_decisions(self, num_players: int) -> int:
        return 2


@pytest.mark.parametrize(
    ("broken", "prop"),
    [
        (ShowsOpponentCards, "no-leaks"),
        (CarriesRng, "no-leaks"),
        (MutatesInput, "immutability"),
        (IgnoresSeed, "seed"),
        (DeadEnd, "progress"),
        (CardVanishes, "card-conservation"),
        (ShowsOthersLegalActions, "no-leaks"),
        (AcceptsAnything, "illegal-input"),
        (BadActionText, "round-trip"),
        (LiesAboutLength, "progress"),
    ],
)
def test_each_broken_game_is_caught_by_the_right_property(
    broken: type[Highcard], prop: str, tmp_path: Path
) -> None:
    """A deliberately broken game fails check_game, naming the property."""
    with pytest.raises(ConformanceError) as err:
        check_game(broken(), players=[2], games=8, failure_dir=tmp_path)
    assert err.value.property == prop, str(err.value)


def test_a_failure_is_written_as_a_replayable_record(tmp_path: Path) -> None:
    """The shrunk failing game is saved as a MatchRecord that loads and replays."""
    with pytest.raises(ConformanceError) as err:
        check_game(MutatesInput(), players=[2], games=8, failure_dir=tmp_path)
    path = err.value.record_path
    assert path is not None and path.exists()
    assert str(path) in str(err.value)
    rec = MatchRecord.load(path)
    assert rec.game == "highcard"
    assert len(rec.actions) <= 2, "Hypothesis shrinks to the first bad apply"


def test_a_correct_game_passes_every_configuration(tmp_path: Path) -> None:
    """The example game passes under every preset and single-option change."""
    report = check_game("highcard", games=4, failure_dir=tmp_path)
    assert report.ok
    labels = {label for label, _, _ in report.results}
    assert labels == {c.label() for c in configurations(load_game_spec())}
    assert report.games_played == 4 * len(labels) * 3


def load_game_spec() -> Any:
    from cardcore._host import default_host

    return default_host().game_spec("highcard")


def test_run_checks_reports_instead_of_raising(tmp_path: Path) -> None:
    """run_checks returns a report with the failed property."""
    report = run_checks(IgnoresSeed(), players=[2], games=2, failure_dir=tmp_path)
    assert not report.ok
    assert report.failures()[0][2].property == "seed"


def test_check_game_with_presets_and_options(tmp_path: Path) -> None:
    """Only the asked presets and options are checked."""
    report = check_game(
        "highcard",
        presets=["quick"],
        options={"ace": "low"},
        players=[2],
        games=2,
        failure_dir=tmp_path,
    )
    assert [label for label, _, _ in report.results] == ["preset=quick ace=low"]
    assert load_game("highcard", preset="quick", ace="low").options.ace == "low"


@parametrize_configurations("highcard")
def test_parametrized_configurations(config: Config, tmp_path: Path) -> None:
    """The pytest helper yields every configuration, each checkable on its own."""
    report = check_game(
        "highcard",
        presets=[config.preset],
        options=config.overrides,
        players=[2],
        games=1,
        failure_dir=tmp_path,
    )
    assert report.ok


def test_the_cardcore_host_fixture(cardcore_host: Any) -> None:
    """The pytest plugin's fixture is a fresh host with the installed games."""
    assert "highcard" in cardcore_host.games()
