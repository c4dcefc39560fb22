"""GameText and TextForm: a game states its text forms once and gets the text methods.

The codec's ``players`` option checks an observation's seat count and its type.
"""

from __future__ import annotations

import json
from typing import Any, assert_type

import attrs
import pytest

from cardcore import (
    DECK_52,
    SPECTATOR,
    CardAction,
    Game,
    GameText,
    JsonCodec,
    Layout,
    TableView,
    TextForm,
    Visibility,
    Zone,
    load_game,
)
from cardcore_highcard.actions import Play, parse_action
from cardcore_highcard.render import render
from cardcore_highcard.rules import Highcard
from cardcore_highcard.state import CODEC, HighcardObservation, HighcardState


def test_a_game_gets_the_text_methods_from_its_form() -> None:
    """parse (on the class too), parse_action, observation_from_json and render."""
    game = Highcard()
    typed: Game[HighcardState, Play, HighcardObservation] = game  # mypy checks the protocol
    assert isinstance(typed, GameText) and isinstance(Highcard.text_form, TextForm)
    assert Highcard.parse("play 10h") == game.parse_action("10♥") == parse_action("play Th")
    assert_type(game.parse_action("10♥"), Play)
    state = game.initial_state(3, 4)
    for seat in (0, 1, 2, SPECTATOR):
        obs = game.observe(state, seat)
        back = game.observation_from_json(json.loads(json.dumps(obs.to_json())))
        assert_type(back, HighcardObservation)
        assert back == obs and game.render(obs) == render(obs)
    loaded: Game[Any, Any, Any] = load_game("highcard")
    assert loaded.parse_action("play 2c") == parse_action("play 2♣")


def test_the_seat_count_is_checked_by_the_codec() -> None:
    """A count outside the form's counts, a missing one or a non-integer is named."""
    game = Highcard()
    data = game.observe(game.initial_state(2, 0), 0).to_json()
    for bad in (5, 1, "2", True, None):
        with pytest.raises(
            ValueError,
            match=rf"^\$\.num_players: HighcardObservation takes 2, 3 or 4 players, not {bad!r}$",
        ):
            game.observation_from_json({**data, "num_players": bad})
    del data["num_players"]
    with pytest.raises(ValueError, match=r"^\$: HighcardObservation is missing 'num_players'$"):
        game.observation_from_json(data)
    with pytest.raises(ValueError, match="expected an object for HighcardObservation"):
        game.observation_from_json([])  # type: ignore[arg-type]


class Say(CardAction, verb="say"):
    """Say one card."""


class Tap(CardAction, verb="tap"):
    """Tap one card."""


LAYOUT = Layout((Zone("stock", Visibility.HIDDEN),), 2, (1 << 52) - 1)


@attrs.frozen
class Seen:
    num_players: int
    table: TableView
    last: Say | None


def _codec() -> JsonCodec:
    def parse(text: str) -> Say | Tap:
        return Tap.parse(text) if text.startswith("tap") else Say.parse(text)

    return JsonCodec((Say, Tap), parse, lambda n: LAYOUT)


def test_decode_with_players_reads_the_count_from_the_data() -> None:
    """``players`` gives the seat count of the data's table views; one class comes back."""
    codec = _codec()
    table = LAYOUT.new_table([c.id for c in DECK_52], 0)
    seen = Seen(2, table.view(0), Say.parse("say 7h"))
    back = codec.decode(codec.encode(seen), Seen, players=(2,))
    assert_type(back, Seen)
    assert back == seen
    assert codec.decode(codec.encode(seen), Seen, num_players=2) == seen
    with pytest.raises(ValueError, match=r"^\$\.num_players: Seen takes 3 or 4 players, not 2$"):
        codec.decode(codec.encode(seen), Seen, players=(4, 3))
    with pytest.raises(TypeError, match="num_players or players, not both"):
        codec.decode(codec.encode(seen), Seen, num_players=2, players=(2,))


def test_decode_returns_the_class_it_is_asked_for() -> None:
    """An action of another class than the hint is refused by name, not returned."""
    codec = _codec()
    assert codec.decode("say 7h", Say) is Say.parse("say 7h")
    with pytest.raises(ValueError, match=r"^\$: expected a Say, not a Tap$"):
        codec.decode("tap 7h", Say)
    assert codec.decode(3, int | None) == 3 and codec.decode(2, float) == 2.0


class OwnText:
    """A game's text part written by hand, as a third-party game may: no GameText."""

    def parse_action(self, text: str) -> Play:
        return parse_action(text)

    def observation_from_json(self, data: Any) -> HighcardObservation:
        return CODEC.decode(data, HighcardObservation, players=(2, 3, 4))

    def render(self, observation: HighcardObservation) -> str:
        return render(observation)


def test_hand_written_text_methods_agree() -> None:
    """The Game protocol still takes hand-written methods; they agree with GameText's."""
    game, own = Highcard(), OwnText()
    obs = game.observe(game.initial_state(4, 9), 2)
    assert own.observation_from_json(obs.to_json()) == game.observation_from_json(obs.to_json())
    assert own.render(obs) == game.render(obs) and own.parse_action("2c") == game.parse("2c")


def test_the_renderer_is_named_by_reference_and_imported_on_first_use() -> None:
    """``render="module:attribute"`` keeps rules.py from importing render.py (which sits
    above it); a reference in the wrong shape is refused at once, one that does not
    resolve is named when the game first renders."""
    assert Highcard.text_form.render == "cardcore_highcard.render:render"
    assert Highcard.text_form.renderer() is render
    game = Highcard()
    state = game.initial_state(2, 1)
    assert game.render(game.observe(state, 0)) == render(game.observe(state, 0))

    def form(reference: Any) -> TextForm[Play, HighcardObservation]:
        return TextForm(
            parse=parse_action,
            observation=HighcardObservation,
            codec=CODEC,
            num_players=(2,),
            render=reference,
        )

    with pytest.raises(ValueError, match="write it as 'module:attribute'"):
        form("cardcore_highcard.render.render")
    with pytest.raises(TypeError, match="render must be callable"):
        form(42)
    with pytest.raises(LookupError, match=r"'cardcore_highcard\.render:nothing' does not resolve"):
        form("cardcore_highcard.render:nothing").renderer()
    with pytest.raises(LookupError, match="not a function"):
        form("cardcore_highcard.render:__name__").renderer()
