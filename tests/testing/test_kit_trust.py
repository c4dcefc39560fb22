"""Each class of broken game that used to be certified is now caught, with the right cause.

Every game here is highcard with one deliberate defect. The kit runs with small game
counts; each defect shows at (almost) every step, so a few games always meet it.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import attrs
import pytest

from cardcore import MatchRecord, Outcome
from cardcore.testing import ConformanceError, check_game, run_checks
from cardcore_highcard import (
    Highcard,
    HighcardObservation,
    HighcardOptions,
    HighcardState,
    Play,
)


def _caught(game: Any, tmp_path: Path, **kw: Any) -> ConformanceError:
    kw.setdefault("players", [2])
    kw.setdefault("games", 4)
    kw.setdefault("hash_seeds", False)
    with pytest.raises(ConformanceError) as err:
        check_game(game, failure_dir=tmp_path, **kw)
    return err.value


def _played(state: HighcardState) -> int:
    """Cards played so far (trick and done piles)."""
    n = len(state.wins)
    return len(state.table.orders[1 + n]) + len(state.table.orders[2 + n])


# ---- leaks to seats not on move, at some steps only ------------------------------------


class LeaksToWaitingSeats(Highcard):  # type: ignore[misc]
    """Seats *not* on move see every hand, at steps a one-in-three sample skips."""

    def observe(self, state: HighcardState, seat: int) -> HighcardObservation:
        obs = super().observe(state, seat)
        if seat == state.current or _played(state) % 3 != 1:
            return obs
        hands = 0
        for i in range(len(state.wins)):
            hands |= state.table.masks[1 + i]
        peek = state.table.reveal(hands, state.table.layout.all_seats).view(seat)
        return attrs.evolve(obs, table=peek)


def test_a_leak_to_waiting_seats_at_some_steps_is_caught(tmp_path: Path) -> None:
    err = _caught(LeaksToWaitingSeats(), tmp_path)
    assert err.property == "no-leaks"
    assert "sees cards it does not know" in str(err)


class PredictsRngAtSomeSteps(Highcard):  # type: ignore[misc]
    """Seats not on move see a few bits of the RNG, at steps a one-in-two sample skips."""

    def observe(self, state: HighcardState, seat: int) -> HighcardObservation:
        obs = super().observe(state, seat)
        if seat != state.current and _played(state) % 6 == 0:
            return attrs.evolve(obs, dealer=state.rng % 7)
        return obs


def test_an_rng_leak_at_some_steps_is_caught(tmp_path: Path) -> None:
    err = _caught(PredictsRngAtSomeSteps(), tmp_path)
    assert err.property == "no-leaks"
    assert "RNG" in str(err)


class RngHighBitLeak(Highcard):  # type: ignore[misc]
    """A single high bit of the RNG state, at every step."""

    def observe(self, state: HighcardState, seat: int) -> HighcardObservation:
        return attrs.evolve(super().observe(state, seat), dealer=(state.rng >> 63) & 1)


def test_a_single_rng_bit_is_caught(tmp_path: Path) -> None:
    err = _caught(RngHighBitLeak(), tmp_path)
    assert err.property == "no-leaks"
    assert "RNG" in str(err)


# ---- hidden data outside the table ------------------------------------------------------


@attrs.frozen(kw_only=True)
class SecretState(HighcardState):  # type: ignore[misc]
    """Highcard's state plus a copy of seat 1's hand, outside the card table."""

    secret: int = 0


@attrs.frozen(kw_only=True)
class HintObservation(HighcardObservation):  # type: ignore[misc]
    hint: int = 0


class KeepsHiddenFieldUndeclared(Highcard):  # type: ignore[misc]
    """Hidden data in an undeclared state field (no observation shows it)."""

    def initial_state(self, num_players: int, seed: int, **kw: Any) -> SecretState:
        s = super().initial_state(num_players, seed, **kw)
        return SecretState(**attrs.asdict(s, recurse=False), secret=s.table.masks[2])


def test_undeclared_hidden_state_field_is_caught(tmp_path: Path) -> None:
    """A field that is not declared hidden must be public: some seat cannot know it."""
    err = _caught(KeepsHiddenFieldUndeclared(), tmp_path)
    assert err.property == "no-leaks"
    assert "hidden data outside the card table" in str(err)
    assert "'secret'" in str(err)


class LeaksDeclaredHiddenField(KeepsHiddenFieldUndeclared):  # type: ignore[misc]
    """Declares the field hidden, then shows it to seat 0 in an extra observation field."""

    hidden_state_fields = ("secret",)

    def observe(self, state: HighcardState, seat: int) -> HighcardObservation:
        obs = super().observe(state, seat)
        hint = getattr(state, "secret", 0) if seat == 0 else 0
        return HintObservation(**attrs.asdict(obs, recurse=False), hint=hint)


def test_a_leaked_declared_hidden_field_is_caught(tmp_path: Path) -> None:
    err = _caught(LeaksDeclaredHiddenField(), tmp_path)
    assert err.property == "no-leaks"
    assert "hidden state field 'secret'" in str(err)
    assert "hint" in str(err)


class HonestDeclaredHiddenField(KeepsHiddenFieldUndeclared):  # type: ignore[misc]
    """The same hidden field, declared and shown to nobody: certified."""

    hidden_state_fields = ("secret",)


def test_a_declared_hidden_field_that_stays_hidden_passes(tmp_path: Path) -> None:
    report = run_checks(
        HonestDeclaredHiddenField(), players=[2], games=3, failure_dir=tmp_path, hash_seeds=False
    )
    assert report.ok, report.failures()


# ---- a full state in a field excluded from equality -------------------------------------


@attrs.frozen(kw_only=True)
class DebugObservation(HighcardObservation):  # type: ignore[misc]
    debug: Any = attrs.field(default=None, eq=False)


class CarriesStateOutsideEquality(Highcard):  # type: ignore[misc]
    """Every observation carries the full state in a field that == ignores."""

    def observe(self, state: HighcardState, seat: int) -> HighcardObservation:
        obs = super().observe(state, seat)
        return DebugObservation(**attrs.asdict(obs, recurse=False), debug=state)


def test_a_state_in_a_field_excluded_from_equality_is_caught(tmp_path: Path) -> None:
    err = _caught(CarriesStateOutsideEquality(), tmp_path)
    assert err.property == "no-leaks"
    assert "excluded from equality" in str(err)
    assert "debug" in str(err)


# ---- outcomes that do not follow the scores ---------------------------------------------


class WinToTheLast(Highcard):  # type: ignore[misc]
    """Placing follows the scores, but the win share goes to the last-placed seat."""

    def outcome(self, state: HighcardState) -> Outcome | None:
        out = super().outcome(state)
        if out is None or len(set(out.placing)) == 1:
            return out
        last = max(out.placing)
        losers = [i for i, p in enumerate(out.placing) if p == last]
        shares = tuple(
            out.shares[0] * 0 + (1 if i == losers[0] else 0) for i in range(len(out.scores))
        )
        return attrs.evolve(out, shares=shares)


def test_a_win_to_the_last_placed_seat_is_caught(tmp_path: Path) -> None:
    err = _caught(WinToTheLast(HighcardOptions(hand_size=5)), tmp_path, games=8)
    assert err.property == "outcome"
    assert "do not go to the seats placed first" in str(err)


class PlacingAgainstScores(Highcard):  # type: ignore[misc]
    """Placing and shares ignore the scores (seat order decides)."""

    def outcome(self, state: HighcardState) -> Outcome | None:
        out = super().outcome(state)
        if out is None:
            return None
        fake = Outcome.from_scores([-i for i in range(len(out.scores))])
        return attrs.evolve(out, placing=fake.placing, shares=fake.shares)


def test_a_placing_that_ignores_the_scores_is_caught(tmp_path: Path) -> None:
    err = _caught(PlacingAgainstScores(HighcardOptions(hand_size=5)), tmp_path, games=8)
    assert err.property == "outcome"


# ---- a deal that depends on PYTHONHASHSEED ----------------------------------------------


class DealsByHash(Highcard):  # type: ignore[misc]
    """The deal mixes in the hash of a string: the same in one process, not across them."""

    def initial_state(self, num_players: int, seed: int, **kw: Any) -> HighcardState:
        return super().initial_state(num_players, seed ^ (hash("deal") & 0xFFFF), **kw)


def test_a_deal_that_depends_on_the_hash_seed_is_caught(tmp_path: Path) -> None:
    """Seeded games are compared with fresh processes under other PYTHONHASHSEED values."""
    report = run_checks(DealsByHash(), players=[2], games=2, failure_dir=tmp_path)
    failed = [r for _, _, r in report.failures()]
    assert [r.property for r in failed] == ["hash-seed"], failed
    assert "PYTHONHASHSEED" in failed[0].message
    assert "the deal" in failed[0].message


def test_an_honest_game_matches_across_hash_seeds(tmp_path: Path) -> None:
    report = run_checks(Highcard(), players=[3], games=1, failure_dir=tmp_path)
    assert report.ok, report.failures()


# ---- games that never end, calls that never return --------------------------------------


class NeverEnds(Highcard):  # type: ignore[misc]
    """Deals again whenever the hands run out, and claims an enormous bound."""

    def max_decisions(self, num_players: int) -> int:
        return 10**12

    def apply(self, state: HighcardState, action: Play) -> HighcardState:
        after = super().apply(state, action)
        if after.current is None:
            fresh = super().initial_state(len(state.wins), after.rng & 0xFFFF)
            return attrs.evolve(fresh, wins=after.wins)
        return after


def test_a_game_that_never_ends_times_out_with_a_clear_message(tmp_path: Path) -> None:
    start = time.monotonic()
    err = _caught(NeverEnds(), tmp_path, timeout=1.0, games=3)
    assert err.property == "time-out"
    text = str(err)
    assert "time limit of 1 s" in text
    assert "highcard (given options, 2 players)" in text
    assert "the check '" in text
    assert err.record_path is not None and err.record_path.exists()
    # Not a timing assertion: only that the kit stopped instead of playing on for ever.
    assert time.monotonic() - start < 600


class HangsInObserve(Highcard):  # type: ignore[misc]
    """One call that never returns (after the first card is played)."""

    def observe(self, state: HighcardState, seat: int) -> HighcardObservation:
        if _played(state) == 1 and seat == 1:
            while True:
                time.sleep(0.05)
        return super().observe(state, seat)


def test_a_call_that_never_returns_times_out(tmp_path: Path) -> None:
    err = _caught(HangsInObserve(), tmp_path, timeout=1.0, games=2)
    assert err.property == "time-out"
    assert "never returns" in str(err)


class HangsInApply(Highcard):  # type: ignore[misc]
    """A call that never returns, at the second card of every game."""

    def apply(self, state: HighcardState, action: Play) -> HighcardState:
        if _played(state) == 1:
            while True:
                time.sleep(0.05)
        return super().apply(state, action)


def test_the_hash_seed_check_has_a_time_limit_too() -> None:
    """The hash-seed check ends a game that never ends, and a call that never returns."""
    from cardcore.testing._determinism import hash_seed_checks

    for broken in (NeverEnds(), HangsInApply()):
        found = hash_seed_checks([("given options", 2, broken, None)], 0, 1.0)
        result = found[("given options", 2)]
        assert result.property == "time-out", result
        assert "ran over the time limit of 1 s" in result.message, result.message


def test_a_game_that_times_out_is_not_played_again(tmp_path: Path) -> None:
    """Once its random games ran over the limit, a game is not replayed in fresh processes."""
    for broken in (NeverEnds(), HangsInApply()):
        report = run_checks(broken, players=[2], games=1, failure_dir=tmp_path, timeout=1.0)
        failures = report.failures()
        assert [r.property for _, _, r in failures] == ["time-out"], failures
        assert "hash-seed" not in failures[0][2].message


# ---- failure records ---------------------------------------------------------------------


class MutatesInput(Highcard):  # type: ignore[misc]
    def apply(self, state: HighcardState, action: Play) -> HighcardState:
        after = super().apply(state, action)
        object.__setattr__(state, "wins", tuple(w + 1 for w in state.wins))
        return after


def test_failure_records_never_overwrite_each_other(tmp_path: Path) -> None:
    """Every failing configuration gets its own record, and each points at its own game."""
    paths: list[tuple[Path, int, int]] = []
    for hand in (1, 2):
        report = run_checks(
            MutatesInput(HighcardOptions(hand_size=hand)),
            players=[2, 3, 4],
            games=2,
            failure_dir=tmp_path,
            hash_seeds=False,
        )
        for _, n, r in report.failures():
            assert r.record_path is not None
            paths.append((r.record_path, n, hand))
    assert len(paths) == 6
    assert len({p for p, _, _ in paths}) == 6, [p.name for p, _, _ in paths]
    assert len(list(tmp_path.glob("*.json"))) == 6
    for path, n, hand in paths:
        rec = MatchRecord.load(path)
        assert rec.num_players == n
        assert rec.options["hand_size"] == hand


def test_records_name_the_configuration(tmp_path: Path) -> None:
    report = run_checks(
        "highcard",
        players=[2],
        games=1,
        failure_dir=tmp_path,
        hash_seeds=False,
    )
    assert report.ok
    # A failing game id run: every configuration's record carries its own options.
    from cardcore.testing._records import record_failure

    a = record_failure(Highcard(), 2, 5, ["play 2♣"], "no-leaks", tmp_path, "preset=quick")
    b = record_failure(
        Highcard(HighcardOptions(ace="low")),
        2,
        5,
        ["play 2♣"],
        "no-leaks",
        tmp_path,
        "preset=quick",
    )
    assert a != b and "preset=quick" in a.name
    assert json.loads(b.read_text())["options"]["ace"] == "low"


# ---- messages name the cause ------------------------------------------------------------


class ShowsOthersLegalActions(Highcard):  # type: ignore[misc]
    def observe(self, state: HighcardState, seat: int) -> HighcardObservation:
        return attrs.evolve(super().observe(state, seat), legal_actions=self.legal_actions(state))


def test_a_legal_action_leak_is_named_as_such(tmp_path: Path) -> None:
    err = _caught(ShowsOthersLegalActions(), tmp_path)
    assert err.property == "no-leaks"
    assert "legal-action leak" in str(err)
    assert "sees cards it does not know" not in str(err)


class MoverLegalActionsShowHiddenCards(Highcard):  # type: ignore[misc]
    """The mover's listed legal actions include the opponent's cards."""

    def observe(self, state: HighcardState, seat: int) -> HighcardObservation:
        obs = super().observe(state, seat)
        if seat != state.current or seat == -1:
            return obs
        other = (seat + 1) % len(state.wins)
        extra = tuple(
            Play(type(a.card).of(c))
            for a in obs.legal_actions[:1]
            for c in range(52)
            if (state.table.masks[1 + other] >> c) & 1
        )
        return attrs.evolve(obs, legal_actions=obs.legal_actions + extra)

    def legal_actions(self, state: HighcardState) -> tuple[Play, ...]:
        return super().legal_actions(state)


def test_observation_legal_actions_that_differ_are_not_called_card_leaks(tmp_path: Path) -> None:
    err = _caught(MoverLegalActionsShowHiddenCards(), tmp_path)
    assert err.property == "observation-legal"
