"""The protocols every game, action, observation and bot follows, and their records."""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from fractions import Fraction
from typing import Any, Final, Generic, Protocol, TypeVar, final, runtime_checkable

import attrs

from cardcore._cards import Card
from cardcore._codec import JsonCodec
from cardcore._records import record_builder
from cardcore._table import TableView

__all__ = [
    "Action",
    "Bot",
    "BotSpec",
    "CodecSpec",
    "Game",
    "GameSpec",
    "GameText",
    "IllegalActionError",
    "Observation",
    "Outcome",
    "State",
    "TextForm",
]


@runtime_checkable
class Action(Protocol):
    """A player's move: frozen, hashable, and printed as the text a person would type.

    ``str(action)`` is its canonical text form (``steal 4♠+4♦``, ``bid 120``, ``pass``);
    :meth:`Game.parse_action` reads it back. The JSON form of an action is that text.
    """

    def __hash__(self) -> int: ...

    def __eq__(self, other: object) -> bool: ...


class State(Protocol):
    """A complete game state: a frozen value, compared and hashed by value.

    A state holds everything, hidden cards and its RNG state included, so it must never
    reach a bot; bots receive :class:`Observation` values.
    """

    def __hash__(self) -> int: ...

    def __eq__(self, other: object) -> bool: ...


class Observation(Protocol):
    """What one seat may know: its cards, public cards, counts, public history, scores.

    Games define their own frozen observation classes with at least these members.
    """

    @property
    def seat(self) -> int:
        """The observing seat."""
        ...

    @property
    def current_player(self) -> int | None:
        """Whose decision it is (public), or ``None`` when the game is over."""
        ...

    @property
    def legal_actions(self) -> Sequence[Any]:
        """The observing seat's legal actions when it is to move, else ``()``.

        A tuple, or a :class:`cardcore.LazyActions` when the actions are many.
        """
        ...

    @property
    def table(self) -> TableView:
        """The card part: the table as this seat knows it."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The observation as JSON-ready data."""
        ...


@final
class IllegalActionError(ValueError):
    """An action was refused; the state it was tried on is unchanged.

    Attributes:
        action: what was tried (an action object or the raw input).
        reason: why it is not legal, in the players' words.
        legal: the legal actions at that point, when known.
    """

    def __init__(self, action: object, reason: str, legal: Sequence[object] = ()) -> None:
        self.action = action
        self.reason = reason
        self.legal = tuple(legal)
        shown = ", ".join(str(a) for a in self.legal[:12])
        more = f", ... ({len(self.legal)} in all)" if len(self.legal) > 12 else ""
        tail = f" Legal: {shown}{more}." if self.legal else ""
        super().__init__(f"illegal action {str(action)!r}: {reason}.{tail}")


def _placing(scores: Sequence[float]) -> tuple[int, ...]:
    """Per score, 1 + how many scores are higher (loops: a search scores every play-out)."""
    out = []
    for s in scores:
        place = 1
        for o in scores:
            if o > s:
                place += 1
        out.append(place)
    return tuple(out)


_NO_SHARE: Final = Fraction(0)
_ONE_IN: Final = (_NO_SHARE, *(Fraction(1, k) for k in range(1, 17)))
"""``Fraction(1, k)`` for small ``k`` (a fraction is an immutable value: shared, it saves
building one in every outcome); index 0 holds the zero share."""


@final
@attrs.frozen(kw_only=True)
class Outcome:
    """The result of a finished game.

    Use :meth:`from_scores` to build one: placings and win shares follow from the scores.
    """

    scores: tuple[float, ...]
    """Per seat, the game's score (for teams, each seat carries its team's score)."""
    placing: tuple[int, ...]
    """Per seat, 1 for first; tied seats share a place (1, 1, 3)."""
    shares: tuple[Fraction, ...]
    """Per seat, its share of the win: 1/k for each of k tied winners, 0 otherwise."""
    teams: tuple[tuple[int, ...], ...] | None = None
    """The partnerships, if the game has them."""
    forfeit: int | None = None
    """The seat that forfeited (see :func:`cardcore.play_match`), if any."""
    reason: str = ""
    """Why the game ended, in a few words (e.g. ``"turn limit"``), or the forfeit reason."""

    @classmethod
    def from_scores(
        cls,
        scores: Sequence[float],
        *,
        teams: Sequence[Sequence[int]] | None = None,
        higher_is_better: bool = True,
        reason: str = "",
    ) -> Outcome:
        """Build an outcome from per-seat scores (teams: seats of one team score alike)."""
        s = tuple(scores)
        key = s if higher_is_better else tuple(-x for x in s)
        placing = _placing(key)
        if teams is None:
            k = placing.count(1)
            share = _ONE_IN[k] if k < len(_ONE_IN) else Fraction(1, k)
            shares = tuple([share if p == 1 else _NO_SHARE for p in placing])
            return _new_outcome(scores=s, placing=placing, shares=shares, reason=reason)
        # Teams: the winning teams share the win, each team's share split among its seats.
        team_of = {seat: t for t, members in enumerate(teams) for seat in members}
        win_teams = {team_of[i] for i, p in enumerate(placing) if p == 1}
        k = len(win_teams)
        team_shares = tuple(
            Fraction(1, k * len(teams[team_of[i]])) if team_of[i] in win_teams else _NO_SHARE
            for i in range(len(s))
        )
        return cls(
            scores=s,
            placing=placing,
            shares=team_shares,
            teams=tuple(tuple(t) for t in teams),
            reason=reason,
        )

    @classmethod
    def forfeited(
        cls, num_players: int, seat: int, reason: str, teams: Sequence[Sequence[int]] | None = None
    ) -> Outcome:
        """The outcome when ``seat`` forfeits: it (and its team) places last with score 0.

        Every other seat (team) shares the win and scores 1.
        """
        losers = {seat}
        if teams is not None:
            for t in teams:
                if seat in t:
                    losers = set(t)
        scores = tuple(0.0 if i in losers else 1.0 for i in range(num_players))
        out = cls.from_scores(scores, teams=teams)
        return attrs.evolve(out, forfeit=seat, reason=reason)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats placed first."""
        return tuple(i for i, p in enumerate(self.placing) if p == 1)

    def reward(self, seat: int) -> float:
        """A zero-to-one reward for search and learning: the seat's (team's) win share."""
        if self.teams is not None:
            for t in self.teams:
                if seat in t:
                    return float(sum(self.shares[i] for i in t))
        return float(self.shares[seat])

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (shares as ``"1/2"`` strings)."""
        return {
            "scores": list(self.scores),
            "placing": list(self.placing),
            "shares": [str(x) for x in self.shares],
            "teams": [list(t) for t in self.teams] if self.teams is not None else None,
            "forfeit": self.forfeit,
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        """Rebuild from :meth:`to_json` data."""
        teams = data.get("teams")
        return cls(
            scores=tuple(float(x) for x in data["scores"]),
            placing=tuple(int(x) for x in data["placing"]),
            shares=tuple(Fraction(x) for x in data["shares"]),
            teams=tuple(tuple(int(s) for s in t) for t in teams) if teams is not None else None,
            forfeit=data.get("forfeit"),
            reason=str(data.get("reason", "")),
        )


_new_outcome: Final = record_builder(Outcome)
"""``Outcome(...)`` with every field positionally: a search builds one every play-out."""


S = TypeVar("S", bound=State)
A = TypeVar("A", bound=Action)
O_ = TypeVar("O_", bound=Observation)


class Game(Protocol[S, A, O_]):
    """The rules of one game under fixed options: immutable, holds no per-match data.

    Build games with :func:`cardcore.load_game`. All methods are pure: ``apply`` returns
    a new state and never changes its input.

    Hidden information lives in the state's ``table`` (cards) and ``rng``; every other
    state field is public, so any seat's observation determines it. A game that keeps
    other hidden data (hidden from every seat) names those fields in an optional class
    attribute ``hidden_state_fields: tuple[str, ...]``; the conformance kit then changes
    them and checks that no observation changes.
    """

    @property
    def name(self) -> str:
        """The game id, e.g. ``"nyuri"``."""
        ...

    @property
    def options(self) -> Any:
        """The typed options (an attrs frozen instance)."""
        ...

    @property
    def min_players(self) -> int:
        """Smallest supported number of seats."""
        ...

    @property
    def max_players(self) -> int:
        """Largest supported number of seats."""
        ...

    def teams(self, num_players: int) -> tuple[tuple[int, ...], ...] | None:
        """The partnerships for a player count, or ``None``."""
        ...

    def max_decisions(self, num_players: int) -> int:
        """An upper bound on the decisions of one game (the kit checks it)."""
        ...

    def initial_state(
        self,
        num_players: int,
        seed: int,
        *,
        dealer: int | None = None,
        deck: Sequence[Card] | None = None,
    ) -> S:
        """The state before the first decision.

        Args:
            num_players: number of seats.
            seed: seeds the state's RNG (shuffles, random draws).
            dealer: the dealer seat, or ``None`` to choose it as the rules say.
            deck: a stacked deck, top card first, used instead of the first shuffle.
        """
        ...

    def current_player(self, state: S) -> int | None:
        """The seat to decide, or ``None`` when the game is over."""
        ...

    def legal_actions(self, state: S) -> Sequence[A]:
        """The current player's legal actions in a fixed order (``()`` when over).

        A tuple, or, when listing every action would cost more than the decision, a
        :class:`cardcore.LazyActions` (length, indexing, membership and iteration,
        building an action only when it is read). Either way, read it as a sequence.
        """
        ...

    def apply(self, state: S, action: A) -> S:
        """Play ``action`` for the current player and return the new state.

        Raises:
            IllegalActionError: the action is not legal; ``state`` is untouched.
        """
        ...

    def observe(self, state: S, seat: int) -> O_:
        """What ``seat`` may know of ``state`` (``-1``: an onlooker)."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """The result once the game is over, else ``None``."""
        ...

    def sample_state(self, observation: O_, rng: random.Random) -> S:
        """A full state consistent with everything the observing seat knows."""
        ...

    def parse_action(self, text: str) -> A:
        """Read an action from its text form (the inverse of ``str(action)``).

        Raises:
            ValueError: the text is not an action of this game.
        """
        ...

    def observation_from_json(self, data: Mapping[str, Any]) -> O_:
        """Rebuild an observation from its ``to_json`` data."""
        ...

    def render(self, observation: O_) -> str:
        """The table as text, from the observing seat's point of view."""
        ...


@final
@attrs.frozen(kw_only=True)
class TextForm(Generic[A, O_]):
    """A game's text and JSON forms, stated once: what :class:`GameText` reads."""

    parse: Callable[[str], A]
    """Reads an action from its text form (the inverse of ``str(action)``); raises
    ``ValueError`` naming the text when it is not an action of the game."""
    observation: type[O_]
    """The game's observation class."""
    codec: JsonCodec
    """The codec behind the observation's ``to_json``; it rebuilds the observation."""
    num_players: Collection[int]
    """The seat counts an observation may have (its ``num_players`` field)."""
    render: Callable[[O_], str] | str = attrs.field()
    """The table as text for the observing seat: a pure function of the observation, or
    a ``"module:attribute"`` reference to it, imported on first use (so ``rules.py`` need
    not import ``render.py``, which sits above it)."""

    @render.validator
    def _check_render(self, _attribute: object, value: object) -> None:
        _check_reference(value, "render", "cardcore_mygame.render:render")

    def renderer(self) -> Callable[[O_], str]:
        """The render function, imported first when it is given by reference.

        Raises:
            LookupError: the reference does not resolve (the message names it and why).
        """
        render = self.render
        if not isinstance(render, str):
            return render
        found = _RENDERERS.get(render)
        if found is None:
            found = _RENDERERS[render] = _resolve_reference(render, f"the renderer {render!r}")
        return found


_RENDERERS: dict[str, Callable[[Any], str]] = {}
"""Renderers given by reference, once imported."""


def _check_reference(value: object, what: str, example: str) -> None:
    """Refuse what is neither callable nor a ``"module:attribute"`` string.

    Raises:
        ValueError: a string not in that shape (the message shows ``example``).
        TypeError: neither a string nor callable.
    """
    if isinstance(value, str):
        module, colon, name = value.partition(":")
        if not (colon and module and name):
            raise ValueError(
                f"{what} reference {value!r}: write it as 'module:attribute', e.g. {example!r}"
            )
    elif not callable(value):
        raise TypeError(f"{what} must be callable or a 'module:attribute' string, not {value!r}")


def _resolve_reference(reference: str, named: str) -> Callable[..., Any]:
    """The function a ``"module:attribute"`` reference names (``attribute`` may be dotted).

    Args:
        reference: the reference.
        named: how errors name it (``the renderer 'm:f'``).

    Raises:
        LookupError: the module does not import, has no such attribute, or the attribute
            is not callable (the message says which).
    """
    import importlib

    module_name, _, attribute = reference.partition(":")
    try:
        target: Any = importlib.import_module(module_name)
        for part in attribute.split("."):
            target = getattr(target, part)
    except (ImportError, AttributeError) as e:
        raise LookupError(f"{named} does not resolve: {type(e).__name__}: {e}") from e
    if not callable(target):
        raise LookupError(f"{named} is {target!r}, not a function")
    return target  # type: ignore[no-any-return]


class GameText(Generic[A, O_]):
    """The text methods of :class:`Game`, for a game that states its :class:`TextForm`.

    A game that subclasses it writes its text part as one class attribute and gets
    ``parse`` (on the class too), ``parse_action``, ``observation_from_json`` (the
    codec checks the seat count and the type) and ``render``:

    ```python
    @final
    class Highcard(GameText[Play, HighcardObservation]):
        ...
        text_form = TextForm(
            parse=parse_action,
            observation=HighcardObservation,
            codec=CODEC,
            num_players=(2, 3, 4),
            render=render,
        )
    ```

    A game may write these methods itself instead: :class:`Game` is a protocol.
    """

    __slots__ = ()

    text_form: TextForm[A, O_]
    """The game's text and JSON forms."""

    @classmethod
    def parse(cls, text: str) -> A:
        """Read an action from its text form, without a game object.

        Raises:
            ValueError: the text is not an action of this game.
        """
        return cls.text_form.parse(text)

    def parse_action(self, text: str) -> A:
        """Read an action from its text form (the inverse of ``str(action)``).

        Raises:
            ValueError: the text is not an action of this game.
        """
        return self.text_form.parse(text)

    def observation_from_json(self, data: Mapping[str, Any]) -> O_:
        """Rebuild an observation from its ``to_json`` data.

        Raises:
            ValueError: naming the first part of the data that does not fit, the seat
                count first.
        """
        form = self.text_form
        return form.codec.decode(data, form.observation, players=form.num_players)

    def render(self, observation: O_) -> str:
        """The table as text, from the observing seat's point of view."""
        return self.text_form.renderer()(observation)


class Bot(Protocol):
    """A player: receives an observation, returns one of its legal actions.

    Bots may keep memory across a match in their own attributes. Optional methods the
    engine calls when present: ``start_match(game, seat, num_players)`` and
    ``end_match(outcome)``.
    """

    def act(self, observation: Any) -> Any:
        """Choose an action from ``observation.legal_actions``."""
        ...


@final
@attrs.frozen(kw_only=True)
class GameSpec:
    """A game registered by a plugin (returned by ``cardcore_register_games``)."""

    name: str
    """Game id, lower kebab-case (``nyuri``)."""
    title: str
    """Display name."""
    factory: Callable[[Any], Game[Any, Any, Any]]
    """Builds the game from an options instance."""
    options_type: type
    """The attrs frozen options class."""
    presets: Mapping[str, Any]
    """Preset name to options instance; must contain ``default``."""
    min_players: int
    """Smallest player count."""
    max_players: int
    """Largest player count."""
    description: str = ""
    """One line for listings."""
    rules_version: str = "1"
    """Version of the rules text implemented."""
    higher_is_better: bool | None = None
    """Whether more points win (``True``) or fewer (``False``), in every configuration;
    ``None``: not declared. The conformance kit checks every outcome against it (and,
    undeclared, that every configuration scores the same way)."""
    rules_text: str = ""
    """A player's summary of the rules, in Markdown: the aim, the deal, a turn, scoring,
    the end, the options of each preset and how actions are written. ``cardcore rules``,
    ``rules`` in ``cardcore play``, the MCP server and the ``llm`` bot show it. A plugin
    usually ships it as a file of its package, read by its hooks module with
    :func:`importlib.resources.files`; :func:`cardcore.testing.check_rules` checks it."""
    distribution: str = ""
    """The distribution providing it (filled in by the plugin host)."""
    version: str = ""
    """That distribution's version (filled in by the plugin host)."""

    def __attrs_post_init__(self) -> None:
        if "default" not in self.presets:
            raise ValueError(f"game {self.name!r}: presets must include 'default'")


@final
@attrs.frozen(kw_only=True)
class BotSpec:
    """A bot registered by a plugin (returned by ``cardcore_register_bots``)."""

    name: str
    """Bot id, lower kebab-case (``random``, ``nyuri-heuristic``)."""
    factory: Callable[..., Bot]
    """Returns a fresh bot; called with what its signature takes: the game, ``seed=...``
    and the options, which are its typed keyword parameters (see :func:`cardcore.load_bot`)."""
    description: str = ""
    """One line for listings."""
    games: tuple[str, ...] = ()
    """Game ids the bot plays; empty means every game."""
    distribution: str = ""
    """The distribution providing it (filled in by the plugin host)."""
    version: str = ""
    """That distribution's version (filled in by the plugin host)."""


@final
@attrs.frozen(kw_only=True)
class CodecSpec:
    """An RL codec declared by a plugin (returned by ``cardcore_register_codecs``).

    A codec turns a game's observations into fixed-size vectors and its actions into
    indexes (see :class:`cardcore.adapters.Codec`).

    A plugin names its factory by reference, ``"cardcore_mygame.encoding:mygame_codec"``
    (module, a colon, then the attribute), so that the codec's module, and NumPy with it,
    load only when an RL environment first asks for the codec; code may pass the
    function itself.
    """

    game: str
    """The game id the codec is for (``nyuri``)."""
    factory: Callable[[Any, int], Any] | str = attrs.field()
    """Builds the codec for a game (the plugin's own Game, options set) and a player
    count; or a ``"module:attribute"`` reference to such a function, imported on first
    use (see :meth:`resolve`)."""
    description: str = ""
    """One line: what the encoding holds."""
    source: str = ""
    """Where it came from: the plugin's name, or ``code`` (filled in when registered)."""

    @factory.validator
    def _check_factory(self, _attribute: object, value: object) -> None:
        _check_reference(value, "codec factory", "cardcore_mygame.encoding:mygame_codec")

    def resolve(self) -> Callable[[Any, int], Any]:
        """The factory function, imported first when it is given by reference.

        Raises:
            LookupError: the reference does not resolve (the message names it and why).
        """
        factory = self.factory
        if not isinstance(factory, str):
            return factory
        return _resolve_reference(factory, f"the codec factory {factory!r} of game {self.game!r}")
