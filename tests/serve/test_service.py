"""The match service behind ``cardcore serve``: answers from the agent's seats only."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from cardcore import BotSpec, MatchRecord, PluginHost, hookimpl, load_game, verify
from cardcore._host import default_host
from cardcore._service import MatchService, ServiceError
from tests.serve.decks import GAMES, swap_hidden


class _Sleeper:
    def act(self, observation: Any) -> Any:
        time.sleep(3)
        return observation.legal_actions[0]


class _EqualsAll:
    """Returns an object that claims to equal every action; its methods must never run."""

    def act(self, observation: Any) -> Any:
        class Liar:
            def __eq__(self, other: object) -> bool:
                raise AssertionError("the service called the bot's __eq__")

            def __hash__(self) -> int:
                raise AssertionError("the service called the bot's __hash__")

            def __str__(self) -> str:
                raise AssertionError("the service called the bot's __str__")

        return Liar()


class _Crasher:
    def act(self, observation: Any) -> Any:
        raise RuntimeError("boom")


class _Texter:
    """Answers with the text of its first legal action (allowed)."""

    def act(self, observation: Any) -> Any:
        return str(observation.legal_actions[0])


class _TestBots:
    @hookimpl
    def cardcore_register_bots(self) -> Iterator[BotSpec]:
        yield BotSpec(name="t-sleeper", factory=lambda game, seed=0: _Sleeper())
        yield BotSpec(name="t-equals-all", factory=lambda game, seed=0: _EqualsAll())
        yield BotSpec(name="t-crasher", factory=lambda game, seed=0: _Crasher())
        yield BotSpec(name="t-texter", factory=lambda game, seed=0: _Texter())


def _host() -> PluginHost:
    host = PluginHost()
    host.register(_TestBots(), name="test-bots")
    return host


def _play_out(svc: MatchService, view: dict[str, Any]) -> dict[str, Any]:
    """Play the agent's first legal action until the match is over."""
    match = view["match"]
    for _ in range(5000):
        if view["over"]:
            return svc.result(match)
        assert view["your_turn"], view
        view = svc.play(match, view["legal_actions"][0])
        assert view["ok"], view
    raise AssertionError("the match did not end")


def test_list_games_names_players_presets_options_and_bots() -> None:
    """Every installed game is listed with what an agent needs to start a match."""
    games = {g["game"]: g for g in MatchService().list_games()}
    assert set(GAMES) <= set(games)
    noddy = games["noddy"]
    assert noddy["players"] == [2, 2]
    assert "historical" in noddy["presets"]
    assert any(o["name"] == "target" for o in noddy["options"])
    assert "noddy-heuristic" in noddy["bots"]
    assert "random" in noddy["bots"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_match_is_played_and_its_record_verifies(game: str) -> None:
    """The agent plays a full match against the game's heuristic; the record replays."""
    svc = MatchService()
    view = svc.start_match(
        game, players=GAMES[game], bots=[f"{game}-heuristic"], seed=5, preset="default"
    )
    assert view["match"] == "m1"
    done = _play_out(svc, view)
    assert done["over"] is True
    record = MatchRecord.from_json(done["record"])
    assert record.bots[0] == "agent"
    assert record.outcome is not None
    assert record.outcome.forfeit is None
    final = verify(record)  # raises when the actions do not replay to the outcome
    assert load_game(game).outcome(final) == record.outcome


def test_an_illegal_or_unreadable_action_changes_nothing() -> None:
    """A refused action answers with the reason and the legal actions; the match is as it was."""
    svc = MatchService()
    view = svc.start_match("noddy", bots=["noddy-heuristic"], seed=2)
    before = svc.observation(view["match"])
    bad = svc.play(view["match"], "bid 7")
    assert bad["ok"] is False
    assert "cannot read" in bad["error"]
    assert bad["legal_actions"] == before["legal_actions"]
    hand = before["observation"]["table"]["zones"]["hand0"]
    not_mine = next(str(c) for c in ("A♠", "K♠", "Q♠", "2♦", "3♦") if c not in hand)
    bad = svc.play(view["match"], f"play {not_mine}")
    assert bad["ok"] is False
    assert bad["legal_actions"] == before["legal_actions"]
    assert svc.observation(view["match"]) == before


def test_seats_that_are_not_the_agents_are_refused() -> None:
    """The agent cannot ask for, or play, another seat's view."""
    svc = MatchService()
    view = svc.start_match("noddy", bots=["random"], seed=1)
    with pytest.raises(ServiceError, match="seat 1 is not yours"):
        svc.observation(view["match"], seat=1)
    with pytest.raises(ServiceError, match="not yours"):
        svc.play(view["match"], "pass", seat=1)
    with pytest.raises(ServiceError, match="no match 'm7'"):
        svc.observation("m7")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "no-such-game"}, "no-such-game"),
        ({"game": "noddy", "options": {"target": "x"}}, "target"),
        ({"game": "noddy", "players": 3}, "for 2-2 players"),
        ({"game": "noddy", "seats": [5]}, "seats must be among 0-1"),
        ({"game": "noddy", "bots": ["no-such-bot"]}, "no-such-bot"),
        ({"game": "noddy", "deck": ["X♣"]}, "deck"),
    ],
)
def test_bad_start_requests_name_the_problem(kwargs: dict[str, Any], message: str) -> None:
    """A wrong game, option, player count, seat, bot or deck is a clear error."""
    svc = MatchService()
    with pytest.raises(ServiceError, match=message):
        svc.start_match(**kwargs)
    assert svc.matches() == []


def test_several_matches_run_at_once_and_idle_ones_are_dropped() -> None:
    """Matches have their own ids; one nobody asks about is cleaned up."""
    now = [0.0]
    svc = MatchService(idle_seconds=60, max_matches=2, clock=lambda: now[0])
    a = svc.start_match("noddy", bots=["random"], seed=1)["match"]
    b = svc.start_match("nyuri", players=2, bots=["random"], seed=1)["match"]
    assert svc.matches() == [a, b]
    with pytest.raises(ServiceError, match="at most 2"):
        svc.start_match("noddy", bots=["random"])
    now[0] = 50.0
    svc.observation(a)
    now[0] = 100.0
    assert svc.matches() == [a]
    with pytest.raises(ServiceError, match="no match"):
        svc.observation(b)
    svc.close(a)
    assert svc.matches() == []


@pytest.mark.parametrize(
    ("bot", "reason"),
    [
        ("t-sleeper", "took more than 0.3 s"),
        ("t-equals-all", "returned an illegal action"),
        ("t-crasher", "raised RuntimeError: boom"),
    ],
)
def test_a_misbehaving_bot_forfeits(bot: str, reason: str) -> None:
    """A hung, lying or crashing bot on another seat forfeits; the agent wins."""
    svc = MatchService(host=_host(), bot_seconds=0.3)
    started = time.monotonic()
    view = svc.start_match("highcard", seats=[1], bots=[bot], seed=1)
    if not view["over"]:  # the agent moves first: the bot's turn comes after one move
        view = svc.play(view["match"], view["legal_actions"][0])
    assert time.monotonic() - started < 3  # the sleeper was not waited for
    assert view["over"] is True
    outcome = view["outcome"]
    assert reason in outcome["reason"]
    assert outcome["placing"][1] == 1
    assert outcome["placing"][0] == 2


def test_a_bot_may_answer_with_an_action_text() -> None:
    """A plain string that parses to a legal action is accepted."""
    svc = MatchService(host=_host())
    view = svc.start_match("highcard", seats=[1], bots=["t-texter"], seed=1)
    done = _play_out(svc, view)
    assert done["outcome"]["forfeit"] is None


@pytest.mark.parametrize("game", sorted(GAMES))
def test_answers_do_not_depend_on_what_the_agent_cannot_know(game: str) -> None:
    """Two matches that differ only in cards hidden from the agent give identical answers."""
    deck_a, deck_b, seat = swap_hidden(game, GAMES[game], seed=3)
    assert deck_a != deck_b
    answers = []
    for deck in (deck_a, deck_b):
        svc = MatchService()
        view = svc.start_match(
            game, players=GAMES[game], seats=[seat], bots=["random"], seed=3, deck=deck
        )
        m = view["match"]
        answers.append(
            (view, svc.observation(m), svc.legal_actions(m), svc.result(m), svc.play(m, "zz"))
        )
    assert answers[0] == answers[1]


def test_the_leak_check_catches_a_service_that_leaks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same check fails when an answer carries something of the hidden state."""
    real = MatchService._view

    def leaky(self: MatchService, m: Any, seat: int | None) -> dict[str, Any]:
        out = real(self, m, seat)
        out["debug"] = repr(m.state)
        return out

    monkeypatch.setattr(MatchService, "_view", leaky)
    with pytest.raises(AssertionError):
        test_answers_do_not_depend_on_what_the_agent_cannot_know("noddy")


@pytest.mark.parametrize(
    ("game", "kwargs", "players", "bots"),
    [
        (
            "nyuri",
            {"bots": ["random", "nyuri-heuristic"]},
            3,
            ["agent", "random", "nyuri-heuristic"],
        ),
        ("nyuri", {"bots": ["random"]}, 2, ["agent", "random"]),
        ("nyuri", {"bots": ["random"], "players": 4}, 4, ["agent"] + ["random"] * 3),
        ("nyuri", {"bots": ["random"], "seats": [0, 2]}, 3, ["agent", "random", "agent"]),
        ("box", {"bots": ["box-heuristic"]}, 4, ["agent"] + ["box-heuristic"] * 3),
        (
            "nestors",
            {"bots": ["random", "nestors-heuristic", "random"], "seats": [1]},
            4,
            ["random", "agent", "nestors-heuristic", "random"],
        ),
    ],
)
def test_seats_are_filled_from_the_bots_given(
    game: str, kwargs: dict[str, Any], players: int, bots: list[str]
) -> None:
    """Several bots give one per other seat (and the player count); one bot fills them all."""
    svc = MatchService()
    svc.start_match(game, **kwargs)
    [match] = svc.matches()
    record = svc._matches[match].record
    assert record.num_players == players
    assert list(record.bots) == bots


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "nyuri", "bots": ["random"] * 4}, "4 bots make 5; name one bot"),
        ({"game": "nyuri", "players": 4, "bots": ["random"] * 2}, "2 bots for 3 other seat"),
        ({"game": "noddy", "bots": ["random"] * 2}, "noddy is for 2-2 players"),
        ({"game": "nyuri", "seats": [0, 0]}, "different seats"),
        ({"game": "nyuri", "seed": -1}, "seed must be a whole number"),
    ],
)
def test_bots_that_do_not_fit_the_table_are_refused(kwargs: dict[str, Any], message: str) -> None:
    """A bot list that does not fill the other seats exactly is refused, never cut short."""
    svc = MatchService()
    with pytest.raises(ServiceError, match=message):
        svc.start_match(**kwargs)
    assert svc.matches() == []


def _dealt(svc: MatchService) -> list[tuple[int, list[str]]]:
    """The seed and the agent's hand of two Nyuri matches started without a seed."""
    out = []
    for _ in range(2):
        view = svc.start_match("nyuri", bots=["random"])
        hand = view["observation"]["table"]["zones"]["hand0"]
        out.append((svc._matches[view["match"]].record.seed, hand))
        assert str(out[-1][0]) not in repr(view)
    return out


def test_the_service_draws_the_seeds_unless_the_operator_fixes_them() -> None:
    """Unseeded matches deal differently; MatchService(seed=S) deals S, S + 1, ... again."""
    a, b = _dealt(MatchService())
    assert a[0] != b[0] and a[1] != b[1]
    fixed = _dealt(MatchService(seed=40))
    assert [s for s, _ in fixed] == [40, 41]
    assert _dealt(MatchService(seed=40)) == fixed
    with pytest.raises(ValueError, match="seed must be"):
        MatchService(seed=-3)


def test_rules_are_given_as_the_plugin_ships_them() -> None:
    """rules() answers with the game's packaged text; unknown or rule-less games are refused."""
    svc = MatchService()
    nyuri = svc.rules("nyuri")
    assert nyuri["rules"] == default_host().game_spec("nyuri").rules_text
    assert nyuri["players"] == [2, 4] and nyuri["presets"] == ["default", "pagat"]
    assert all(g["has_rules"] for g in svc.list_games() if g["game"] in GAMES)
    with pytest.raises(ServiceError, match="chess"):
        svc.rules("chess")
