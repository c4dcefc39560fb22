"""Box actions: table-talk text, parsing, and illegal actions refused in players' words."""

from __future__ import annotations

import pickle
import random

import pytest

from cardcore import DECK_52, CardAction, IllegalActionError, parse_card, parse_cards
from cardcore_box import Box, BoxState, Play, TurnUp
from cardcore_box.state import HAND, TABLE, layout


def test_every_action_round_trips_through_text() -> None:
    """parse_action(str(a)) == a for every action of the game."""
    game = Box()
    for a in [*(Play(c) for c in DECK_52), TurnUp()]:
        assert game.parse_action(str(a)) == a


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("play 10♥", "10♥"),
        ("play 10h", "10♥"),
        ("play Th", "10♥"),
        ("PLAY TH", "10♥"),
        ("10h", "10♥"),
        ("  play   q♠ ", "Q♠"),
        ("play As", "A♠"),
        ("2c", "2♣"),
    ],
)
def test_play_accepts_the_usual_spellings(text: str, card: str) -> None:
    """Cards may be written 10♥, 10h or Th, with or without the word 'play'."""
    assert Box().parse_action(text) == Play(parse_card(card))


@pytest.mark.parametrize("text", ["turn up", "Turn Up", "turn-up", "turnup", "turn"])
def test_turn_up_spellings(text: str) -> None:
    """'turn up' is the text for turning up a box card."""
    assert Box().parse_action(text) == TurnUp()


@pytest.mark.parametrize(
    "text", ["", "pass", "draw", "play", "play 11♥", "play 9♠ 9♥", "turn down", "☃"]
)
def test_bad_text_names_the_input(text: str) -> None:
    """Text that is no Box action raises ValueError quoting it (there is no 'pass')."""
    with pytest.raises(ValueError, match="not a Box action") as info:
        Box().parse_action(text)
    assert repr(text) in str(info.value)


def _state(
    *, current: int, hands: dict[int, str], table: list[tuple[int, str]], seed: int = 0
) -> BoxState:
    """A state with the given hands and table; every seat has one box card."""
    game = Box()
    s = game.initial_state(4, seed)
    lay = layout()
    named = [(parse_card(c).id, HAND + p) for p, text in hands.items() for c in text.split()]
    named += [(parse_card(c).id, TABLE) for _, c in table]
    t = s.table
    # Put every card back in the draw pile, then place the named ones.
    order = [c for c, _ in named]
    rest = [c for c in range(52) if c not in order]
    t = lay.new_table(order + rest, 0)
    for c, z in named:
        t = t.move(c, 0, z)
    for p in range(4):
        _, t = t.draw(0, 5 + p)
    return BoxState(
        table=t,
        rng=1,
        dealer=0,
        round=2,
        leader=table[0][0] if table else current,
        current=current,
        direction=1,
        active=0b1111,
        out=(0, 0, 0, 0),
        played_by=tuple(p for p, _ in table),
        from_box=tuple(False for _ in table),
        rounds=(),
    )


def refused(game: Box, s: BoxState, action: object, reason: str) -> IllegalActionError:
    before = pickle.dumps(s)
    with pytest.raises(IllegalActionError) as info:
        game.apply(s, action)  # type: ignore[arg-type]
    assert reason in info.value.reason, info.value.reason
    assert pickle.dumps(s) == before
    return info.value


def test_follow_too_high_is_refused() -> None:
    """BX-4.4: a card higher than the last one is refused in players' words."""
    game = Box()
    s = _state(current=1, hands={1: "J♠ 4♦"}, table=[(0, "9♥")])
    err = refused(game, s, game.parse_action("play J♠"), "J♠ is higher than the 9♥ on the table")
    assert err.legal == game.legal_actions(s) == (Play(parse_card("4♦")),)
    assert "Legal: play 4♦" in str(err)


def test_card_not_in_hand_is_refused() -> None:
    """A card the player does not hold is refused."""
    game = Box()
    s = _state(current=1, hands={1: "J♠ 4♦", 2: "3♣"}, table=[(0, "9♥")])
    refused(game, s, game.parse_action("play 3♣"), "you do not hold 3♣ in your hand")


def test_lead_below_the_highest_is_refused() -> None:
    """BX-4.3: the leader must lead a card of the highest rank held."""
    game = Box()
    s = _state(current=0, hands={0: "3♣ Q♦ Q♠ 8♥"}, table=[])
    refused(game, s, game.parse_action("play 8♥"), "you must lead your highest rank")


def test_turn_up_when_able_to_follow_is_refused() -> None:
    """BX-4.6: turning up is only for a stuck player."""
    game = Box()
    s = _state(current=1, hands={1: "J♠ 4♦"}, table=[(0, "9♥")])
    refused(game, s, TurnUp(), "you can follow the 9♥ from your hand")
    s = _state(current=0, hands={0: "3♣"}, table=[])
    refused(game, s, TurnUp(), "you must lead your highest card from your hand")


def test_play_when_stuck_is_refused() -> None:
    """BX-4.6: a stuck player may not play a hand card."""
    game = Box()
    s = _state(current=1, hands={1: "J♠ Q♦"}, table=[(0, "9♥")])
    refused(game, s, game.parse_action("play J♠"), "higher than the 9♥")


class _Lay(CardAction, verb="lay"):
    """Another game's card action: the same card, not a Box play."""

    __slots__ = ()


@pytest.mark.parametrize("junk", [None, 42, "play 4♦", object(), ("x",), _Lay(parse_card("4♦"))])
def test_junk_is_refused(junk: object) -> None:
    """Objects that are not Box actions are refused with IllegalActionError."""
    game = Box()
    s = _state(current=1, hands={1: "J♠ 4♦"}, table=[(0, "9♥")])
    refused(game, s, junk, "not a Box action")


def test_a_play_holds_a_card() -> None:
    """A play of something that is not a card cannot even be made."""
    with pytest.raises(TypeError, match="takes cards"):
        Play("4d")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="1 card"):
        Play(parse_cards("4♦ 5♦"))


def test_nothing_is_legal_after_the_game() -> None:
    """A finished game refuses every action."""
    game = Box()
    rng = random.Random(0)
    s = game.initial_state(4, 0)
    while s.current is not None:
        legal = game.legal_actions(s)
        s = game.apply(s, legal[rng.randrange(len(legal))])
    refused(game, s, TurnUp(), "the game is over")
    assert game.legal_actions(s) == ()


@pytest.mark.parametrize("preset", ["default", "pagat"])
def test_legal_plays_are_listed_highest_rank_first_then_by_suit(preset: str) -> None:
    """The legal plays are every hand card that may be led (BX-4.3) or follow (BX-4.4),
    highest rank first and then by suit, at every decision of many seeded games."""
    from cardcore import load_game

    game = load_game("box", preset=preset)
    rng = random.Random(3)
    many = 0
    for seed in range(40):
        state = game.initial_state(4, seed)
        while (seat := game.current_player(state)) is not None:
            legal = game.legal_actions(state)
            hand = state.table.masks[HAND + seat]
            order = state.table.orders[TABLE]
            if order:
                fits = [c for c in range(52) if hand >> c & 1 and c % 13 <= order[-1] % 13]
            else:
                top = max((c % 13 for c in range(52) if hand >> c & 1), default=-1)
                fits = [c for c in range(52) if hand >> c & 1 and c % 13 == top]
            fits.sort(key=lambda c: (-(c % 13), c // 13))
            want: list[object] = [Play(DECK_52[c]) for c in fits] or [TurnUp()]
            assert list(legal) == want
            many += len(fits) >= 3
            state = game.apply(state, legal[rng.randrange(len(legal))])
    assert many > 20  # the listings of three and four cards were met
