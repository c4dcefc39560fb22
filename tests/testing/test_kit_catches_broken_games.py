"""The conformance kit must be able to fail: each broken game is caught by the right property."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest

from cardcore import (
    SPECTATOR,
    Card,
    CardTable,
    GameSpec,
    LazyActions,
    MatchRecord,
    Outcome,
    Plugin,
    PluginHost,
    card_ids,
    load_game,
)
from cardcore.testing import (
    Config,
    ConformanceError,
    check_game,
    configurations,
    parametrize_configurations,
    run_checks,
)
from cardcore_highcard import (
    PRESETS,
    Highcard,
    HighcardObservation,
    HighcardOptions,
    HighcardState,
    Play,
)


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


_LAST: dict[str, HighcardState] = {}
"""The last state a broken game below observed (a module-level memo)."""


def _next_hand(seat: int, num_players: int) -> str:
    """The next seat's hand in the remembered state, as text."""
    state = _LAST["state"]
    hand = state.table.masks[1 + (seat + 1) % num_players]
    return " ".join(str(c) for c in card_ids(hand))


class MemoObservation(HighcardObservation):  # type: ignore[misc]
    """An observation whose JSON form adds the next seat's hand from a remembered state."""

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        if self.seat != SPECTATOR:
            data["next_hand"] = _next_hand(self.seat, self.num_players)
        return data


def _as_memo(obs: HighcardObservation) -> MemoObservation:
    return MemoObservation(**attrs.asdict(obs, recurse=False))


class LeaksInJson(Highcard):  # type: ignore[misc]
    """Clean observations; their to_json() adds another seat's hidden hand."""

    def observe(self, state: HighcardState, seat: int) -> HighcardObservation:
        _LAST["state"] = state
        return _as_memo(super().observe(state, seat))

    def observation_from_json(self, data: Any) -> HighcardObservation:
        clean = {k: v for k, v in data.items() if k != "next_hand"}
        return _as_memo(super().observation_from_json(clean))


class LeaksInText(Highcard):  # type: ignore[misc]
    """Clean observations; their text form prints the next seat's hand."""

    def observe(self, state: HighcardState, seat: int) -> HighcardObservation:
        _LAST["state"] = state
        return super().observe(state, seat)

    def render(self, observation: HighcardObservation) -> str:
        text = super().render(observation)
        if observation.seat == SPECTATOR:
            return text
        return text + f"\n  next hand: {_next_hand(observation.seat, observation.num_players)}"


class StateActions(LazyActions[Play]):
    """Legal actions that keep the whole state in a private attribute."""

    def __init__(self, state: HighcardState, plays: tuple[Play, ...]) -> None:
        self._state = state
        self._plays = plays

    def __len__(self) -> int:
        return len(self._plays)

    def _item(self, index: int) -> Play:
        return self._plays[index]


class StateInLegalActions(Highcard):  # type: ignore[misc]
    """Lazy legal actions from which a bot reads every hand (obs.legal_actions._state)."""

    def legal_actions(self, state: HighcardState) -> Any:
        plays = super().legal_actions(state)
        return StateActions(state, plays) if plays else ()


class LazyHand(Highcard):  # type: ignore[misc]
    """Lazy legal actions the safe way: a closure over the mover's hand only."""

    def legal_actions(self, state: HighcardState) -> Any:
        if state.current is None:
            return ()
        hand = tuple(card_ids(state.table.masks[1 + state.current]))
        return LazyActions.of(len(hand), lambda i: Play(Card.of(hand[i])))


class StateInClosure(Highcard):  # type: ignore[misc]
    """Lazy legal actions whose function closes over the whole state."""

    def legal_actions(self, state: HighcardState) -> Any:
        if state.current is None:
            return ()
        seat = state.current
        return LazyActions.of(
            len(tuple(card_ids(state.table.masks[1 + seat]))),
            lambda i: Play(Card.of(tuple(card_ids(state.table.masks[1 + seat]))[i])),
        )


class FewestWinsInQuick(Highcard):  # type: ignore[misc]
    """Most rounds won wins, except in the one-card preset, where the fewest win."""

    def outcome(self, state: HighcardState) -> Outcome | None:
        if state.current is None and self.options.hand_size == 1:
            return Outcome.from_scores(state.wins, higher_is_better=False)
        return super().outcome(state)


TEAMS = ((0, 2), (1, 3))


class OneMemberWins(Highcard):  # type: ignore[misc]
    """Partners at four players, but the team's win goes to one member only."""

    def teams(self, num_players: int) -> Any:
        return TEAMS if num_players == 4 else None

    def outcome(self, state: HighcardState) -> Outcome | None:
        out = super().outcome(state)
        if out is None or len(state.wins) != 4:
            return out
        team = [state.wins[0] + state.wins[2], state.wins[1] + state.wins[3]]
        fair = Outcome.from_scores([team[i % 2] for i in range(4)], teams=TEAMS)
        shares = list(fair.shares)
        for a, b in TEAMS:
            shares[a], shares[b] = shares[a] + shares[b], shares[b] * 0
        return attrs.evolve(fair, shares=tuple(shares))


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
        (LeaksInJson, "no-leaks"),
        (LeaksInText, "no-leaks"),
        (StateInLegalActions, "no-leaks"),
        (StateInClosure, "no-leaks"),
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


def test_each_leak_channel_is_named(tmp_path: Path) -> None:
    """A leak through the JSON form, the text form or the legal actions names its channel."""
    for broken, channel in [
        (LeaksInJson, "to_json"),
        (LeaksInText, "render"),
        (StateInLegalActions, "legal_actions._state"),
    ]:
        with pytest.raises(ConformanceError) as err:
            check_game(broken(), players=[2], games=2, failure_dir=tmp_path, hash_seeds=False)
        assert channel in str(err.value), str(err.value)


_RULES = PluginHost().game_spec("highcard").rules_text


def _host_with(factory: Any, **declared: Any) -> PluginHost:
    host = PluginHost(load_entrypoints=False)
    spec = GameSpec(
        name="highcard",
        title="High card",
        factory=factory,
        options_type=HighcardOptions,
        presets=PRESETS,
        min_players=2,
        max_players=4,
        rules_text=_RULES,  # the real game's rules: these games break something else
        **declared,
    )
    host.register(Plugin(games=[spec]), name="broken")
    return host


ONE_CARD = {("preset=quick", "outcome"), ("preset=default hand_size=1", "outcome")}
"""The configurations of highcard with one card each, where FewestWinsInQuick reverses."""


def test_a_preset_that_reverses_the_scoring_is_caught(tmp_path: Path) -> None:
    """Fewest rounds win in one preset, most in the others: one game, two directions."""
    report = run_checks(
        "highcard",
        host=_host_with(FewestWinsInQuick),
        players=[2],
        games=4,
        failure_dir=tmp_path,
        hash_seeds=False,
    )
    failed = report.failures()
    assert {(label, r.property) for label, _, r in failed} == ONE_CARD, failed
    assert "but higher ones in preset=default" in failed[0][2].message


def test_outcomes_against_the_declared_direction_are_caught(tmp_path: Path) -> None:
    """A game declaring that more points win fails where fewer win, and only there."""
    report = run_checks(
        "highcard",
        host=_host_with(FewestWinsInQuick, higher_is_better=True),
        players=[2],
        games=4,
        failure_dir=tmp_path,
        hash_seeds=False,
    )
    failed = report.failures()
    assert {(label, r.property) for label, _, r in failed} == ONE_CARD, failed
    assert "more points win" in failed[0][2].message


def test_an_honest_game_declaring_its_direction_passes(tmp_path: Path) -> None:
    """Highcard declaring that more rounds won is better still certifies."""
    host = _host_with(Highcard, higher_is_better=True)
    report = run_checks("highcard", host=host, players=[2], games=2, failure_dir=tmp_path)
    assert report.ok, report.failures()


def test_a_team_win_to_one_member_only_is_caught(tmp_path: Path) -> None:
    """Partners share their team's win: a win credited to one member fails 'outcome'."""
    with pytest.raises(ConformanceError) as err:
        check_game(OneMemberWins(), players=[4], games=4, failure_dir=tmp_path, hash_seeds=False)
    assert err.value.property == "outcome", str(err.value)


def test_lazy_actions_over_what_the_mover_knows_pass(tmp_path: Path) -> None:
    """LazyActions.of with a closure over the mover's hand certifies, like plain tuples."""
    report = check_game(LazyHand(), players=[2, 3], games=3, failure_dir=tmp_path)
    assert report.ok
