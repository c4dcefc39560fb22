"""A small JSON codec for frozen attrs values, driven by their type annotations.

Games use it so that observations (and their events) round-trip through JSON without
hand-written code: cards become ``"10♥"``, actions their text form, enums their value,
tuples lists, and attrs instances objects (with a ``"type"`` tag so unions decode).
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Callable, Collection, Mapping, Sequence
from fractions import Fraction
from typing import Any, Final, TypeVar, Union

import attrs

from cardcore._cards import Card, parse_card
from cardcore._lazy import LazyActions
from cardcore._table import CARD_TEXT, Layout, TableView

__all__ = ["JsonCodec", "action_text"]

T = TypeVar("T")

_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    h = _HINTS.get(cls)
    if h is None:
        h = typing.get_type_hints(cls)
        _HINTS[cls] = h
    return h


TEXTS: dict[int, tuple[object, str]] = {}
"""The text of the game's own action objects met before, by id; each entry keeps its
object, so no other object can take that id while the entry lives. Games hand out the
same (frozen) action objects again and again, and their text is the record's."""

TEXTS_LIMIT: Final = 1 << 15


def action_text(action: object) -> str:
    """The text of one of a game's own (frozen) action objects, remembered by identity."""
    hit = TEXTS.get(id(action))
    if hit is not None and hit[0] is action:
        return hit[1]
    text = str(action)
    if len(TEXTS) >= TEXTS_LIMIT:
        TEXTS.clear()
    TEXTS[id(action)] = (action, text)
    return text


Encoder = Callable[[Any], Any]
Decoder = Callable[[Any, "int | None"], Any]
_DECODE_ERRORS: Final = (ValueError, TypeError, KeyError)
"""What a union's alternative may raise to mean "not this one" (as in the slow path)."""
_ACTION_CACHE_LIMIT: Final = 1 << 15


class _Mismatch(ValueError):
    """The fast decoder's "does not fit": the slow path is run again for the message."""


def _same(value: Any) -> Any:
    return value


def _same_n(data: Any, n: int | None) -> Any:
    return data


def _card_text(card: Card) -> str:
    return CARD_TEXT[card.id]


def _view_json(value: Any) -> Any:
    return value.to_json()


def _enum_value(value: Any) -> Any:
    return value.value


def _none(data: Any, n: int | None) -> Any:
    if data is not None:
        raise _Mismatch
    return None


def _bool(data: Any, n: int | None) -> Any:
    if not isinstance(data, bool):
        raise _Mismatch
    return data


def _int(data: Any, n: int | None) -> Any:
    if not isinstance(data, int) or isinstance(data, bool):
        raise _Mismatch
    return data


def _float(data: Any, n: int | None) -> Any:
    if not isinstance(data, int | float) or isinstance(data, bool):
        raise _Mismatch
    return float(data)


def _str(data: Any, n: int | None) -> Any:
    if not isinstance(data, str):
        raise _Mismatch
    return data


def _fraction(data: Any, n: int | None) -> Any:
    return Fraction(str(data))


def _card(data: Any, n: int | None) -> Any:
    if not isinstance(data, str):
        raise _Mismatch
    return parse_card(data)


@attrs.frozen
class JsonCodec:
    """Encodes and decodes one game's values.

    Each type is looked at once: the first value of a type (and the first decode of a
    hint) builds a small function for it, kept by the codec, so that later values run
    only that function. Data that does not fit is decoded again by the plain walk of
    the hints, whose error names the part that does not fit.

    Attributes:
        action_types: the game's action classes (encoded as their text).
        parse_action: reads an action's text back.
        layout_for: gives the table layout for a number of seats (to decode views).
    """

    action_types: tuple[type, ...]
    parse_action: Callable[[str], Any]
    layout_for: Callable[[int], Layout]
    _encoders: dict[type, Encoder] = attrs.field(
        factory=dict, init=False, eq=False, repr=False, hash=False
    )
    _decoders: dict[Any, Decoder] = attrs.field(
        factory=dict, init=False, eq=False, repr=False, hash=False
    )
    _actions: dict[str, Any] = attrs.field(
        factory=dict, init=False, eq=False, repr=False, hash=False
    )

    def encode(self, value: Any) -> Any:
        """Turn a value into JSON-ready data."""
        f = self._encoders.get(type(value))
        if f is None:
            f = self._encoder(type(value))
        return f(value)

    def _encoder(self, tp: type) -> Encoder:
        """The function that encodes values of exactly the type ``tp`` (built once)."""
        f = _encoder_for(self, tp)
        self._encoders[tp] = f
        return f

    @typing.overload
    def decode(
        self,
        data: Any,
        hint: type[T],
        *,
        num_players: int | None = None,
        players: Collection[int] | None = None,
    ) -> T: ...

    @typing.overload
    def decode(
        self,
        data: Any,
        hint: Any,
        *,
        num_players: int | None = None,
        players: Collection[int] | None = None,
    ) -> Any: ...

    def decode(
        self,
        data: Any,
        hint: Any,
        *,
        num_players: int | None = None,
        players: Collection[int] | None = None,
    ) -> Any:
        """Rebuild a value of type ``hint`` from :meth:`encode` data.

        A class as ``hint`` gives an instance of it (anything else, such as another
        action than the one named, is refused).

        Args:
            data: what :meth:`encode` made (after a trip through JSON).
            hint: the type to rebuild, a class or a type expression (``int | None``).
            num_players: the number of seats, for the table views in the data.
            players: instead of ``num_players``, the seat counts the data may have: the
                count is read from the data's ``num_players`` field, as an
                observation's ``to_json`` writes it.

        Raises:
            ValueError: naming the first part of the data that does not fit (a seat
                count not in ``players`` is named with the counts allowed).
            TypeError: both ``num_players`` and ``players`` are given.
        """
        if players is not None:
            if num_players is not None:
                raise TypeError("decode takes num_players or players, not both")
            num_players = _seat_count(data, hint, players)
        try:
            value = self._decoder(hint)(data, num_players)
        except Exception:  # noqa: BLE001 - the plain walk says what does not fit
            value = _walk(self, data, hint, "$", num_players)
        if isinstance(hint, type) and not isinstance(value, hint):
            raise ValueError(f"$: expected {_a(hint.__name__)}, not {_a(type(value).__name__)}")
        return value

    def _decoder(self, hint: Any) -> Decoder:
        """The function that decodes data of type ``hint`` (built once per hint).

        It accepts exactly the data :func:`_walk` accepts and builds the same value,
        without keeping the path of each part; where the data does not fit it raises
        (a bare :class:`_Mismatch`, or what a constructor raised), and :meth:`decode`
        runs the plain walk for the message.
        """
        f = self._decoders.get(hint)
        if f is None:
            cell: list[Decoder] = []

            def later(data: Any, n: int | None) -> Any:
                return cell[0](data, n)

            # A placeholder first, for a hint that contains itself (a recursive record).
            self._decoders[hint] = later
            try:
                f = _decoder_for(self, hint)
            except Exception:
                del self._decoders[hint]
                raise
            cell.append(f)
            self._decoders[hint] = f
        return f

    def _decode(self, data: Any, hint: Any, path: str, n: int | None) -> Any:
        """The plain walk of the hints (:func:`_walk`), whose error names the path."""
        return _walk(self, data, hint, path, n)

    def _action_list(self, data: Any, n: int | None) -> Any:
        """A tuple of actions from their texts (each text seen before: looked up in C)."""
        if not isinstance(data, list):
            raise _Mismatch
        try:
            return tuple(map(self._actions.__getitem__, data))
        except (KeyError, TypeError):
            return tuple([self._action_decoder(v, n) for v in data])

    def _action_decoder(self, data: Any, n: int | None) -> Any:
        """An action from its text; each text is read once (actions are frozen values)."""
        hit = self._actions.get(data) if type(data) is str else None
        if hit is not None:
            return hit
        if not isinstance(data, str):
            raise _Mismatch
        action = self.parse_action(data)
        if type(data) is str:
            if len(self._actions) >= _ACTION_CACHE_LIMIT:
                self._actions.clear()
            self._actions[data] = action
        return action


def _encoder_for(codec: JsonCodec, tp: type) -> Encoder:
    """The function that encodes values of exactly the type ``tp``, for ``codec``."""
    encode = codec.encode
    if tp is type(None) or issubclass(tp, bool | int | float | str):
        return _same
    if tp is Card:
        return _card_text
    if issubclass(tp, Card):
        return str
    if issubclass(tp, codec.action_types):
        return action_text
    if issubclass(tp, TableView):
        return _view_json
    if issubclass(tp, enum.Enum):
        return _enum_value
    if issubclass(tp, Fraction):
        return str
    if attrs.has(tp):
        name = tp.__name__
        fields = tuple(
            f.name for f in attrs.fields(tp) if not (f.eq is False and f.name == "layout")
        )

        def record(value: Any) -> Any:
            out: dict[str, Any] = {"type": name}
            for f in fields:
                out[f] = encode(getattr(value, f))
            return out

        return record
    if issubclass(tp, frozenset):
        return lambda value: sorted(map(encode, value), key=repr)
    if issubclass(tp, tuple | list | LazyActions):
        return lambda value: list(map(encode, value))
    if issubclass(tp, Mapping):
        return lambda value: {str(k): encode(v) for k, v in value.items()}

    def refuse(value: Any) -> Any:
        raise TypeError(f"cannot encode {type(value).__name__} as JSON")

    return refuse


def _decoder_for(codec: JsonCodec, hint: Any) -> Decoder:
    """The function that decodes data of type ``hint`` (see :meth:`JsonCodec._decoder`)."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return _same_n
    if hint is type(None):
        return _none
    if origin in (Union, types.UnionType):
        return _union_decoder(codec, hint)
    if origin is Sequence:  # e.g. legal actions (a tuple or a lazy sequence): a tuple
        hint, origin = tuple[(*typing.get_args(hint), Ellipsis)], tuple  # type: ignore[misc]
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            item = codec._decoder(args[0])
            if item == codec._action_decoder:
                return codec._action_list

            def many(data: Any, n: int | None) -> Any:
                if not isinstance(data, list):
                    raise _Mismatch
                return tuple([item(v, n) for v in data])

            return many
        items = tuple(codec._decoder(a) for a in args)

        def fixed(data: Any, n: int | None) -> Any:
            if not isinstance(data, list) or len(data) != len(items):
                raise _Mismatch
            return tuple([f(v, n) for f, v in zip(items, data, strict=True)])

        return fixed
    if origin is frozenset:
        (arg,) = typing.get_args(hint)
        member = codec._decoder(arg)

        def members(data: Any, n: int | None) -> Any:
            if not isinstance(data, list):
                raise _Mismatch
            return frozenset([member(v, n) for v in data])

        return members
    if origin is typing.Literal:
        allowed = typing.get_args(hint)

        def literal(data: Any, n: int | None) -> Any:
            if data not in allowed:
                raise _Mismatch
            return data

        return literal
    if not isinstance(hint, type):
        raise TypeError(f"cannot decode type {hint!r}")
    simple = _SIMPLE.get(hint)
    if simple is not None:
        return simple
    if hint in codec.action_types:
        return codec._action_decoder
    if issubclass(hint, enum.Enum):
        by_value = hint

        def member_of(data: Any, n: int | None) -> Any:
            return by_value(data)

        return member_of
    if hint is TableView:
        layout_for = codec.layout_for

        def view(data: Any, n: int | None) -> Any:
            if not isinstance(data, Mapping) or n is None:
                raise _Mismatch
            return TableView.from_json(layout_for(n), data)

        return view
    if attrs.has(hint):
        return _record_decoder(codec, hint)
    raise TypeError(f"cannot decode type {hint.__name__}")


def _union_decoder(codec: JsonCodec, hint: Any) -> Decoder:
    """The decoder of a union: by the ``type`` tag of a record, else each member in turn."""
    args = typing.get_args(hint)
    optional = type(None) in args
    members = [a for a in args if a is not type(None)]
    if all(isinstance(a, type) and a in codec.action_types for a in members):
        action = codec._action_decoder
        if not optional:
            return action

        def action_or_none(data: Any, n: int | None) -> Any:
            if data is None and optional:
                return None
            return action(data, n)

        return action_or_none
    tagged = {a.__name__: a for a in reversed(members) if isinstance(a, type) and attrs.has(a)}
    decoders = [codec._decoder(a) for a in members]
    by_tag = {name: codec._decoder(a) for name, a in tagged.items()}

    def union(data: Any, n: int | None) -> Any:
        if data is None and optional:
            return None
        if (type(data) is dict or isinstance(data, Mapping)) and "type" in data:
            tag = data["type"]
            f = by_tag.get(tag) if isinstance(tag, str) else None
            if f is not None:
                return f(data, n)
        for f in decoders:
            try:
                return f(data, n)
            except _DECODE_ERRORS:
                continue
        raise _Mismatch

    return union


def _record_decoder(codec: JsonCodec, hint: type) -> Decoder:
    """The decoder of an attrs record class: its ``init`` fields by name."""
    hints = _hints(hint)
    fields = [
        (f.name, f.default is not attrs.NOTHING, codec._decoder(hints[f.name]))
        for f in attrs.fields(hint)
        if f.init
    ]

    def record(data: Any, n: int | None) -> Any:
        if type(data) is not dict and not isinstance(data, Mapping):
            raise _Mismatch
        kwargs: dict[str, Any] = {}
        for name, optional, f in fields:
            if name in data:
                kwargs[name] = f(data[name], n)
            elif not optional:
                raise _Mismatch
        return hint(**kwargs)

    return record


def _walk(codec: JsonCodec, data: Any, hint: Any, path: str, n: int | None) -> Any:
    """The plain walk of the hints: slower, and its error names the path that does not fit."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return data
    if hint is type(None):
        if data is not None:
            raise ValueError(f"{path}: expected null")
        return None
    if origin in (Union, types.UnionType):
        args = typing.get_args(hint)
        if data is None and type(None) in args:
            return None
        members = [a for a in args if a is not type(None)]
        if all(isinstance(a, type) and a in codec.action_types for a in members):
            return _walked_action(codec, data, path)
        if isinstance(data, Mapping) and "type" in data:
            for a in members:
                if isinstance(a, type) and attrs.has(a) and a.__name__ == data["type"]:
                    return _walk(codec, data, a, path, n)
        errors = []
        for a in members:
            try:
                return _walk(codec, data, a, path, n)
            except (ValueError, TypeError, KeyError) as e:
                errors.append(str(e))
        raise ValueError(f"{path}: matches no alternative ({'; '.join(errors)})")
    if origin is Sequence:  # e.g. legal actions (a tuple or a lazy sequence): a tuple
        hint, origin = tuple[(*typing.get_args(hint), Ellipsis)], tuple  # type: ignore[misc]
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(data, list):
            raise ValueError(f"{path}: expected a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_walk(codec, v, args[0], f"{path}[{i}]", n) for i, v in enumerate(data))
        if len(args) != len(data):
            raise ValueError(f"{path}: expected {len(args)} items")
        return tuple(
            _walk(codec, v, a, f"{path}[{i}]", n)
            for i, (v, a) in enumerate(zip(data, args, strict=True))
        )
    if origin is frozenset:
        (arg,) = typing.get_args(hint)
        if not isinstance(data, list):
            raise ValueError(f"{path}: expected a list")
        return frozenset(_walk(codec, v, arg, f"{path}[]", n) for v in data)
    if origin is typing.Literal:
        if data not in typing.get_args(hint):
            raise ValueError(f"{path}: {data!r} is not one of {typing.get_args(hint)}")
        return data
    if not isinstance(hint, type):
        raise TypeError(f"{path}: cannot decode type {hint!r}")
    if hint is bool:
        if not isinstance(data, bool):
            raise ValueError(f"{path}: expected true or false")
        return data
    if hint is int:
        if not isinstance(data, int) or isinstance(data, bool):
            raise ValueError(f"{path}: expected an integer")
        return data
    if hint is float:
        if not isinstance(data, int | float) or isinstance(data, bool):
            raise ValueError(f"{path}: expected a number")
        return float(data)
    if hint is str:
        if not isinstance(data, str):
            raise ValueError(f"{path}: expected a string")
        return data
    if hint is Fraction:
        return Fraction(str(data))
    if hint is Card:
        if not isinstance(data, str):
            raise ValueError(f"{path}: expected a card like '10♥'")
        return parse_card(data)
    if hint in codec.action_types:
        return _walked_action(codec, data, path)
    if issubclass(hint, enum.Enum):
        try:
            return hint(data)
        except ValueError:
            raise ValueError(f"{path}: {data!r} is not a {hint.__name__}") from None
    if hint is TableView:
        if not isinstance(data, Mapping):
            raise ValueError(f"{path}: expected a table view object")
        if n is None:
            raise ValueError(f"{path}: the number of seats is unknown")
        return TableView.from_json(codec.layout_for(n), data)
    if attrs.has(hint):
        if not isinstance(data, Mapping):
            raise ValueError(f"{path}: expected an object for {hint.__name__}")
        hints = _hints(hint)
        kwargs: dict[str, Any] = {}
        for f in attrs.fields(hint):
            if not f.init:
                continue
            if f.name not in data:
                if f.default is not attrs.NOTHING:
                    continue
                raise ValueError(f"{path}: {hint.__name__} is missing {f.name!r}")
            kwargs[f.name] = _walk(codec, data[f.name], hints[f.name], f"{path}.{f.name}", n)
        return hint(**kwargs)
    raise TypeError(f"{path}: cannot decode type {hint.__name__}")


def _walked_action(codec: JsonCodec, data: Any, path: str) -> Any:
    """An action from its text, for :func:`_walk`: an error names ``path``."""
    if not isinstance(data, str):
        raise ValueError(f"{path}: expected an action's text")
    try:
        return codec.parse_action(data)
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None


def _a(name: str) -> str:
    return f"an {name}" if name[:1] in "AEIOU" else f"a {name}"


def _seat_count(data: Any, hint: Any, players: Collection[int]) -> int | None:
    """The data's ``num_players`` when it is one of ``players``, else a ValueError.

    Data that is not an object gives ``None``: the decode then names what it is.
    """
    if not isinstance(data, Mapping):
        return None
    name = getattr(hint, "__name__", "the data")
    if "num_players" not in data:
        raise ValueError(f"$: {name} is missing 'num_players'")
    n = data["num_players"]
    if type(n) is not int or n not in players:
        shown = [str(k) for k in sorted(players)]
        text = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"
        raise ValueError(f"$.num_players: {name} takes {text} players, not {n!r}")
    return n


_SIMPLE: Final[dict[type, Decoder]] = {
    bool: _bool,
    int: _int,
    float: _float,
    str: _str,
    Fraction: _fraction,
    Card: _card,
}
