"""Nestors actions as text, observations as JSON, refusals, rendering and registration."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from cardcore import (
    SPECTATOR,
    IllegalActionError,
    OptionError,
    load_bot,
    load_game,
    parse_card,
    parse_cards,
)
from cardcore_nestors import (
    PRESETS,
    Bid,
    Leave,
    Nestors,
    NestorsHeuristic,
    NestorsOptions,
    NestorsState,
    Pass,
    Phase,
    Play,
    Take,
    Trump,
    parse_action,
)

GAME = Nestors()


def states(seed: int, limit: int = 2000) -> list[NestorsState]:
    rng = random.Random(seed)
    state = GAME.initial_state(4, seed)
    out = [state]
    while state.current is not None and len(out) < limit:
        legal = GAME.legal_actions(state)
        state = GAME.apply(state, legal[rng.randrange(len(legal))])
        out.append(state)
    return out


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("bid 120", Bid(120)),
        ("BID 95", Bid(95)),
        ("pass", Pass()),
        (" Pass ", Pass()),
        ("trump J", Trump(parse_card("J♠").rank)),
        ("trump 10", Trump(parse_card("10♠").rank)),
        ("trump t", Trump(parse_card("10♠").rank)),
        ("trump a", Trump(parse_card("A♠").rank)),
        ("take 9♠ K♦", Take((parse_card("9♠"), parse_card("K♦")))),
        ("take Kd+9s", Take((parse_card("9♠"), parse_card("K♦")))),
        ("take 10h, Th♣".replace("Th♣", "Jc"), Take((parse_card("J♣"), parse_card("10♥")))),
        ("play Q♥", Play(parse_card("Q♥"))),
        ("play 10h", Play(parse_card("10♥"))),
        ("play Th", Play(parse_card("10♥"))),
        ("play 10♥", Play(parse_card("10♥"))),
        ("leave 7♣", Leave(parse_card("7♣"))),
        ("leave 7c", Leave(parse_card("7♣"))),
    ],
)
def test_parse_action(text: str, action: object) -> None:
    """Actions read from the words a person types; 10h, Th and 10♥ all work."""
    assert parse_action(text) == action
    assert GAME.parse_action(str(action)) == action


def test_action_text() -> None:
    """``str(action)`` is the text a person would type (the issue's words)."""
    assert str(Bid(120)) == "bid 120"
    assert str(Pass()) == "pass"
    assert str(Trump(parse_card("J♠").rank)) == "trump J"
    assert str(Take((parse_card("K♦"), parse_card("9♠")))) == "take K♦ 9♠"
    assert str(Play(parse_card("Q♥"))) == "play Q♥"
    assert str(Leave(parse_card("7♣"))) == "leave 7♣"


@pytest.mark.parametrize(
    "text", ["", "bid", "bid x", "trump K", "take 9♠", "take 9♠ 9♠", "play", "leave 1x", "hop"]
)
def test_bad_text_is_refused(text: str) -> None:
    """Malformed text raises ValueError naming the input."""
    with pytest.raises(ValueError, match="not a Nestors action") as err:
        parse_action(text)
    assert repr(text) in str(err.value)


def test_every_action_round_trips_through_text() -> None:
    """parse_action(str(a)) == a for every legal action met in random play."""
    seen = set()
    for seed in range(3):
        for state in states(seed, 600):
            for a in GAME.legal_actions(state):
                assert GAME.parse_action(str(a)) == a
                seen.add(type(a))
    assert seen == {Bid, Pass, Trump, Take, Play, Leave}


def test_observations_round_trip_through_json() -> None:
    """observation_from_json(obs.to_json()) == obs for every seat, onlooker included."""
    for i, state in enumerate(states(5, 700)):
        if i % 4:
            continue
        for seat in (0, 1, 2, 3, SPECTATOR):
            obs = GAME.observe(state, seat)
            data = json.loads(json.dumps(obs.to_json(), ensure_ascii=False))
            assert GAME.observation_from_json(data) == obs
    with pytest.raises(ValueError, match="num_players"):
        GAME.observation_from_json({"num_players": 3})


def test_states_compare_hash_and_pickle_by_value() -> None:
    """States are frozen values: equal after a pickle round trip, with equal hashes."""
    for state in states(6, 200):
        twin = pickle.loads(pickle.dumps(state))
        assert twin == state
        assert hash(twin) == hash(state)


def test_illegal_actions_leave_the_state_unchanged() -> None:
    """Illegal actions raise IllegalActionError with a reason; the state is unchanged."""
    rng = random.Random(2)
    kinds = [
        Bid(100),
        Pass(),
        Trump(parse_card("J♠").rank),
        Take((parse_card("6♠"), parse_card("7♠"))),
        Play(parse_card("6♠")),
        Leave(parse_card("6♠")),
        "pass",
        None,
        42,
    ]
    refused = 0
    for state in states(8, 400):
        before = pickle.dumps(state)
        legal = set(GAME.legal_actions(state))
        for bad in rng.sample(kinds, 4):
            if bad in legal:
                continue
            with pytest.raises(IllegalActionError) as err:
                GAME.apply(state, bad)  # type: ignore[arg-type]
            assert err.value.reason
            refused += 1
        assert pickle.dumps(state) == before
    assert refused > 500


def test_wrong_kind_of_action_names_the_phase() -> None:
    """An action of the wrong kind is refused with what is expected instead."""
    state = GAME.initial_state(4, 0)
    with pytest.raises(IllegalActionError) as err:
        GAME.apply(state, Play(parse_card("6♠")))
    assert err.value.reason == "it is the auction: bid or pass"
    assert err.value.legal == GAME.legal_actions(state)


def test_game_over_refuses_everything() -> None:
    """After the end, every action is refused."""
    last = states(1, 100_000)[-1]
    assert last.phase is Phase.OVER
    assert GAME.legal_actions(last) == ()
    with pytest.raises(IllegalActionError, match="the game is over"):
        GAME.apply(last, Pass())


def test_render_shows_own_hand_and_counts() -> None:
    """render(): own hand sorted, hidden hands as counts, scores, whose turn."""
    state = GAME.initial_state(4, 11, dealer=0)
    text = GAME.render(GAME.observe(state, 2))
    mine = " ".join(str(c) for c in sorted(state.table.cards(3 + 2)))
    assert f"seat 2 (you): {mine}" in text
    assert "seat 0: 5 cards" in text
    assert "scores seats 0+2: 0, seats 1+3: 0" in text
    assert "To move: seat 1 (bid or pass)" in text
    assert "Face down: hole card 1, undealt 12" in text
    onlooker = GAME.render(GAME.observe(state, SPECTATOR))
    assert "you: onlooker" in onlooker
    assert "Your options" not in onlooker
    mover = GAME.render(GAME.observe(state, 1))
    assert "Your options: pass" in mover or "Your options: " in mover
    for s in states(4, 3000):
        for seat in (0, 1, 2, 3, SPECTATOR):
            assert GAME.render(GAME.observe(s, seat))


def test_render_shows_the_trick_and_carry() -> None:
    """render() names the trick, who played what, the carry card and every finished trick
    of the deal (NS-8.1: every played card, winner and carry card left)."""
    for state in states(3, 300):
        if state.phase is Phase.PLAY and state.play.trick > 2 and state.table.size(7) == 2:
            text = GAME.render(GAME.observe(state, 0))
            assert f"Trick {state.play.trick} led by seat {state.play.leader}:" in text
            assert f"carry {state.table.cards(2)[0]}" in text
            assert "Tricks this deal:" in text
            for t in state.play.done:
                assert f"  trick {t.number}: " in text
                assert t.number == 1 or f"won by seat {t.winner}, who left {t.left}" in text
            return
    raise AssertionError("no such state met")


def test_registration_and_options() -> None:
    """The plugin registers ``nestors``, its presets, its bot; NS-2.1: partners {0,2}, {1,3}."""
    game = load_game("nestors", preset="pagat")
    assert isinstance(game, Nestors)
    assert game.options == PRESETS["pagat"] == NestorsOptions(next_dealer="bidder")
    assert game.teams(4) == ((0, 2), (1, 3))
    bot = load_bot("nestors-heuristic", game, seed=3)
    assert isinstance(bot, NestorsHeuristic)
    with pytest.raises(OptionError):
        load_game("nestors", min_bid=103)
    with pytest.raises(OptionError):
        load_game("nestors", min_bid=195)
    with pytest.raises(OptionError):
        load_game("nestors", threshold=0)
    with pytest.raises(OptionError):
        load_game("nestors", next_dealer="left")
    assert load_game("nestors", min_bid="5").options.min_bid == 5


def test_take_needs_two_cards() -> None:
    """A take names two different cards."""
    with pytest.raises(ValueError, match="takes 2 card"):
        Take((parse_card("9♠"),))
    with pytest.raises(ValueError, match="appears twice"):
        Take((parse_card("9♠"), parse_card("9♠")))
    assert Take(parse_cards("K♦ 9♠")) == Take(parse_cards("9♠ K♦"))


def test_hooks_module_declares_the_plugin() -> None:
    """The hooks module's Plugin record implements cardcore's hooks (checked by mypy too)."""
    from cardcore import CardcoreHooks, Plugin
    from cardcore_nestors.hooks import plugin

    assert isinstance(plugin, Plugin)
    hooks: CardcoreHooks = plugin
    specs = list(hooks.cardcore_register_games())
    assert [s.name for s in specs] == ["nestors"]
    assert specs[0].min_players == specs[0].max_players == 4
    assert [b.name for b in hooks.cardcore_register_bots()] == ["nestors-heuristic"]
