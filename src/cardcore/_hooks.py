"""The plugin hook specifications: what a plugin may register.

A plugin is a module named by an entry point in the ``cardcore`` group. It implements
some of these hooks with the :data:`hookimpl` marker; each hook yields typed, frozen
records and never touches the host.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, Protocol, TypeVar, final

import attrs
import pluggy

from cardcore._game import BotSpec, CodecSpec, GameSpec

__all__ = ["CardcoreHooks", "LayoutHints", "Plugin", "SearchHints", "hookimpl", "hookspec"]

hookspec = pluggy.HookspecMarker("cardcore")
"""Marks hook specifications (used by cardcore only)."""
hookimpl = pluggy.HookimplMarker("cardcore")
"""Marks a plugin's hook implementations: ``@hookimpl def cardcore_register_games(): ...``."""


def _non_negative(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if value < 0:
        raise ValueError(f"SearchHints.{attribute.name} must be >= 0, not {value}")


def _positive_or_none(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is not None and value <= 0:
        raise ValueError(f"SearchHints.{attribute.name} must be positive, not {value}")


@final
@attrs.frozen(kw_only=True)
class SearchHints:
    """What a game tells the search bots (``ismcts``, ``pimc``) about playing it well.

    Returned by ``cardcore_register_search_hints``. Every field is optional: a game that
    registers no hints is searched with generic defaults (random play-outs to the end of
    the game, win share as the value). The bots' own options override each hint.

    The functions receive full states: the determinised samples the search plays on,
    never the real state of a match.
    """

    game: str
    """The game id the hints are for (``nestors``)."""
    rollout: str | None = None
    """A bot id (usually the game's heuristic) that plays the play-outs, and the other
    seats inside the tree when :attr:`opponent_model` is on; ``None``: random play-outs."""
    state_policy: Callable[[Any, int], Callable[[Any], Any]] | None = None
    """``state_policy(game, seed)``: :attr:`rollout` as a play-out policy on full states,
    for one seat: a function ``state -> action`` that chooses exactly what the bot built
    with that ``seed`` would choose from the mover's observation, without building the
    observation. The search bots play out with it whenever they play out with
    :attr:`rollout` (``None``: they observe each state and ask the bot). Needs
    :attr:`rollout`."""
    opponent_model: bool = False
    """Whether the other seats should move as :attr:`rollout` would inside the tree."""
    value: Callable[[Any, Any, int], float] | None = None
    """``value(game, state, seat)``: a 0-to-1 estimate of the seat's (its team's) result,
    for finished and unfinished states alike. It scores play-outs cut short, and finished
    games too, so it may be score-aware (a win by more is worth more). A game method
    ``evaluate(self, state, seat)`` fits as it is."""
    segment: Callable[[Any, Any], Hashable] | None = None
    """``segment(game, state)``: which part of the game a state is in (the hand number
    in a many-hand match). Play-outs stop where it changes, where the searching seat's
    information ends, and :attr:`value` scores the state there. Needs :attr:`value`."""
    segment_apply: Callable[[Any], Callable[[Any, Any], Any]] | None = None
    """``segment_apply(game)``: a function ``(state, action) -> state`` that search bots
    apply moves with when their play-outs stop at :attr:`segment`'s end. It returns the
    same state as ``game.apply``, except after a move that ends a segment: there it may
    skip setting up the next one (the shuffle and deal of the next hand, which no
    play-out reads), returning a state that only ``game.current_player``,
    :attr:`segment` and :attr:`value` are asked about. For a game whose ``apply`` it
    does not know (a wrapper, a subclass that changes ``apply``) it should return
    ``game.apply`` itself. Needs :attr:`segment`."""
    horizon: int = attrs.field(default=0, validator=_non_negative)
    """Stop each play-out after this many decisions and score it with :attr:`value`
    (0: no limit). Needs :attr:`value`. It goes with :attr:`rollout`: a bot that plays
    out with another policy (``rollout=random``) plays to the end."""
    iterations: int | None = attrs.field(default=None, validator=_positive_or_none)
    """The ISMCTS iterations per decision when neither ``iterations`` nor ``seconds``
    is given (``None``: the generic default)."""
    exploration: float | None = attrs.field(default=None, validator=_positive_or_none)
    """The ISMCTS UCB exploration constant (``None``: the generic default)."""
    determinizations: int | None = attrs.field(default=None, validator=_positive_or_none)
    """The PIMC samples per decision by default (``None``: the generic default)."""

    def __attrs_post_init__(self) -> None:
        if self.state_policy is not None and self.rollout is None:
            raise ValueError(
                f"search hints for {self.game!r}: state_policy plays as the rollout bot "
                "would, so it needs rollout (the bot id it stands for)"
            )
        if self.segment_apply is not None and self.segment is None:
            raise ValueError(
                f"search hints for {self.game!r}: segment_apply stands in for apply up "
                "to a segment's end, so it needs segment"
            )
        if self.value is None and (self.segment is not None or self.horizon):
            raise ValueError(
                f"search hints for {self.game!r}: segment and horizon cut play-outs "
                "short, so they need a value function to score where they stop"
            )


def _zone_names(value: Iterable[str]) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise TypeError(f"LayoutHints takes a list of zone names, not {value!r}")
    out = tuple(value)
    for name in out:
        if not isinstance(name, str) or not name:
            raise TypeError(f"LayoutHints takes zone names (non-empty text), not {name!r}")
    return out


@final
@attrs.frozen(kw_only=True)
class LayoutHints:
    """How the web table (``cardcore play GAME --web``) may lay out a game's zones.

    Returned by ``cardcore_register_layout_hints``. Every field is optional, and a game
    with no hints is drawn from its layout alone: the other seats' zones above, the
    zones of no seat in the middle, the player's own below. A hint only moves and
    draws zones; it never shows a card the seat may not see.

    A zone is named as its :class:`cardcore.Layout` names it (``trick``), or by the
    name of a family of numbered zones (``won`` for ``won0``, ``won1``...), so that one
    hint fits every player count. A name the table has no zone for is ignored, with a
    warning.
    """

    game: str
    """The game id the hints are for (``nestors``)."""
    centre: tuple[str, ...] = attrs.field(default=(), converter=_zone_names)
    """Zones drawn in the centre of the table, first and with larger cards (the trick)."""
    order: tuple[str, ...] = attrs.field(default=(), converter=_zone_names)
    """Zones drawn first, in this order, among their neighbours (the rest follow in
    the layout's order)."""
    stacked: tuple[str, ...] = attrs.field(default=(), converter=_zone_names)
    """Zones drawn as an overlapping pile, whose cards need not be read one by one
    (tricks won, a stock)."""


class CardcoreHooks(Protocol):
    """The hooks a plugin module may implement (all optional)."""

    @hookspec
    def cardcore_register_games(self) -> Iterable[GameSpec]:
        """Register games.

        Example:
            >>> from cardcore import GameSpec, hookimpl
            >>> @hookimpl
            ... def cardcore_register_games():
            ...     yield GameSpec(name="highcard", ...)  # doctest: +SKIP

        Returns:
            The plugin's games, as :class:`cardcore.GameSpec` records.
        """
        ...

    @hookspec
    def cardcore_register_bots(self) -> Iterable[BotSpec]:
        """Register bots.

        Example:
            >>> from cardcore import BotSpec, hookimpl
            >>> @hookimpl
            ... def cardcore_register_bots():
            ...     yield BotSpec(name="mybot", factory=MyBot)  # doctest: +SKIP

        Returns:
            The plugin's bots, as :class:`cardcore.BotSpec` records.
        """
        ...

    @hookspec
    def cardcore_register_codecs(self) -> Iterable[CodecSpec]:
        """Register RL codecs (observation encoding and action index) for a plugin's games.

        Example:
            >>> from cardcore import CodecSpec, hookimpl
            >>> @hookimpl
            ... def cardcore_register_codecs():
            ...     yield CodecSpec(game="mygame", factory=mygame_codec)  # doctest: +SKIP

        Returns:
            The plugin's codecs, as :class:`cardcore.CodecSpec` records.
        """
        ...

    @hookspec
    def cardcore_register_search_hints(self) -> Iterable[SearchHints]:
        """Register search hints: how ``ismcts`` and ``pimc`` play a plugin's games best.

        Example:
            >>> from cardcore import SearchHints, hookimpl
            >>> @hookimpl
            ... def cardcore_register_search_hints():
            ...     yield SearchHints(game="mygame", rollout="mygame-heuristic")  # doctest: +SKIP

        Returns:
            The plugin's hints, as :class:`cardcore.SearchHints` records, one per game.
        """
        ...

    @hookspec
    def cardcore_register_layout_hints(self) -> Iterable[LayoutHints]:
        """Register layout hints: where the web table draws a plugin's zones (optional).

        Example:
            >>> from cardcore import LayoutHints, hookimpl
            >>> @hookimpl
            ... def cardcore_register_layout_hints():
            ...     yield LayoutHints(game="mygame", centre=["trick"])  # doctest: +SKIP

        Returns:
            The plugin's hints, as :class:`cardcore.LayoutHints` records.
        """
        ...


_T = TypeVar("_T")


def _records(items: Iterable[_T], kind: type[_T], field: str) -> tuple[_T, ...]:
    if isinstance(items, str | bytes) or not isinstance(items, Iterable):
        raise TypeError(f"Plugin({field}=...) takes a list of {kind.__name__} records")
    out = tuple(items)
    for item in out:
        if not isinstance(item, kind):
            raise TypeError(
                f"Plugin({field}=...) takes {kind.__name__} records, not "
                f"{type(item).__name__} ({item!r})"
            )
    return out


def _games(items: Iterable[GameSpec]) -> tuple[GameSpec, ...]:
    return _records(items, GameSpec, "games")


def _bots(items: Iterable[BotSpec]) -> tuple[BotSpec, ...]:
    return _records(items, BotSpec, "bots")


def _codecs(items: Iterable[CodecSpec]) -> tuple[CodecSpec, ...]:
    return _records(items, CodecSpec, "codecs")


def _hints(items: Iterable[SearchHints]) -> tuple[SearchHints, ...]:
    return _records(items, SearchHints, "search_hints")


def _layouts(items: Iterable[LayoutHints]) -> tuple[LayoutHints, ...]:
    return _records(items, LayoutHints, "layout_hints")


@final
@attrs.frozen(kw_only=True, eq=False)
class Plugin:
    """A plugin's registrations as one record: what its entry point names.

    Rather than writing a hook function per kind of record, a plugin's ``hooks.py``
    declares them::

        plugin = Plugin(
            games=[GameSpec(name="highcard", ...)],
            bots=[BotSpec(name="highcard-greedy", ...)],
            codecs=[CodecSpec(game="highcard", factory=...)],
        )

    and its ``pyproject.toml`` names the object, ``highcard = "cardcore_highcard.hooks:plugin"``.
    The record implements the hooks of :class:`CardcoreHooks` for each kind it was given.
    A hooks module of hand-written ``@hookimpl`` functions works as well.

    Raises:
        TypeError: a list holds something other than the records it is for.
    """

    games: tuple[GameSpec, ...] = attrs.field(default=(), converter=_games)
    """The plugin's games."""
    bots: tuple[BotSpec, ...] = attrs.field(default=(), converter=_bots)
    """The plugin's bots."""
    codecs: tuple[CodecSpec, ...] = attrs.field(default=(), converter=_codecs)
    """RL codecs for the plugin's games (their factories are called only when needed)."""
    search_hints: tuple[SearchHints, ...] = attrs.field(default=(), converter=_hints)
    """How ``ismcts`` and ``pimc`` play the plugin's games best, one record per game."""
    layout_hints: tuple[LayoutHints, ...] = attrs.field(default=(), converter=_layouts)
    """Where the web table draws the zones of the plugin's games (optional)."""

    @hookimpl
    def cardcore_register_games(self) -> Iterable[GameSpec]:
        """Yield :attr:`games`."""
        return self.games

    @hookimpl
    def cardcore_register_bots(self) -> Iterable[BotSpec]:
        """Yield :attr:`bots`."""
        return self.bots

    @hookimpl
    def cardcore_register_codecs(self) -> Iterable[CodecSpec]:
        """Yield :attr:`codecs`."""
        return self.codecs

    @hookimpl
    def cardcore_register_search_hints(self) -> Iterable[SearchHints]:
        """Yield :attr:`search_hints`."""
        return self.search_hints

    @hookimpl
    def cardcore_register_layout_hints(self) -> Iterable[LayoutHints]:
        """Yield :attr:`layout_hints`."""
        return self.layout_hints
