"""A small JSON codec for frozen attrs values, driven by their type annotations.

Games use it so that observations (and their events) round-trip through JSON without
hand-written code: cards become ``"10♥"``, actions their text form, enums their value,
tuples lists, and attrs instances objects (with a ``"type"`` tag so unions decode).
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Union

import attrs

from cardcore._actions import LazyActions
from cardcore._cards import Card, parse_card
from cardcore._table import Layout, TableView

__all__ = ["JsonCodec"]

_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    h = _HINTS.get(cls)
    if h is None:
        h = typing.get_type_hints(cls)
        _HINTS[cls] = h
    return h


@attrs.frozen
class JsonCodec:
    """Encodes and decodes one game's values.

    Attributes:
        action_types: the game's action classes (encoded as their text).
        parse_action: reads an action's text back.
        layout_for: gives the table layout for a number of seats (to decode views).
    """

    action_types: tuple[type, ...]
    parse_action: Callable[[str], Any]
    layout_for: Callable[[int], Layout]

    def encode(self, value: Any) -> Any:
        """Turn a value into JSON-ready data."""
        if value is None or isinstance(value, bool | int | float | str):
            return value
        if isinstance(value, Card):
            return str(value)
        if isinstance(value, self.action_types):
            return str(value)
        if isinstance(value, TableView):
            return value.to_json()
        if isinstance(value, enum.Enum):
            return value.value
        if isinstance(value, Fraction):
            return str(value)
        if attrs.has(type(value)):
            out: dict[str, Any] = {"type": type(value).__name__}
            for f in attrs.fields(type(value)):
                if f.eq is False and f.name == "layout":
                    continue
                out[f.name] = self.encode(getattr(value, f.name))
            return out
        if isinstance(value, frozenset):
            return sorted((self.encode(v) for v in value), key=repr)
        if isinstance(value, tuple | list | LazyActions):
            return [self.encode(v) for v in value]
        if isinstance(value, Mapping):
            return {str(k): self.encode(v) for k, v in value.items()}
        raise TypeError(f"cannot encode {type(value).__name__} as JSON")

    def decode(self, data: Any, hint: Any, *, num_players: int | None = None) -> Any:
        """Rebuild a value of type ``hint`` from :meth:`encode` data.

        Raises:
            ValueError: naming the first part of the data that does not fit.
        """
        return self._decode(data, hint, "$", num_players)

    def _decode(self, data: Any, hint: Any, path: str, n: int | None) -> Any:
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
            if all(isinstance(a, type) and a in self.action_types for a in members):
                return self._action(data, path)
            if isinstance(data, Mapping) and "type" in data:
                for a in members:
                    if isinstance(a, type) and attrs.has(a) and a.__name__ == data["type"]:
                        return self._decode(data, a, path, n)
            errors = []
            for a in members:
                try:
                    return self._decode(data, a, path, n)
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
                return tuple(
                    self._decode(v, args[0], f"{path}[{i}]", n) for i, v in enumerate(data)
                )
            if len(args) != len(data):
                raise ValueError(f"{path}: expected {len(args)} items")
            return tuple(
                self._decode(v, a, f"{path}[{i}]", n)
                for i, (v, a) in enumerate(zip(data, args, strict=True))
            )
        if origin is frozenset:
            (arg,) = typing.get_args(hint)
            if not isinstance(data, list):
                raise ValueError(f"{path}: expected a list")
            return frozenset(self._decode(v, arg, f"{path}[]", n) for v in data)
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
        if hint in self.action_types:
            return self._action(data, path)
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
            return TableView.from_json(self.layout_for(n), data)
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
                kwargs[f.name] = self._decode(data[f.name], hints[f.name], f"{path}.{f.name}", n)
            return hint(**kwargs)
        raise TypeError(f"{path}: cannot decode type {hint.__name__}")

    def _action(self, data: Any, path: str) -> Any:
        if not isinstance(data, str):
            raise ValueError(f"{path}: expected an action's text")
        try:
            return self.parse_action(data)
        except ValueError as e:
            raise ValueError(f"{path}: {e}") from None
