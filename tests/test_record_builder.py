"""record_builder: fast constructors for frozen attrs records, and what they refuse."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import attrs
import pytest

from cardcore import record_builder


@attrs.frozen
class Move:
    seat: int
    cards: tuple[int, ...]
    note: str | None = None


@attrs.frozen
class Scored:
    move: Move
    _points: int


def test_built_records_are_ordinary_instances() -> None:
    """Same class, fields, equality, hash and repr as the attrs constructor; frozen."""
    build = record_builder(Move)
    built, made = build(2, (1, 5), "x"), Move(2, (1, 5), "x")
    assert type(built) is Move
    assert built == made
    assert hash(built) == hash(made)
    assert repr(built) == repr(made)
    assert attrs.asdict(built) == attrs.asdict(made)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        built.seat = 3  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(built)) == made
    assert copy.deepcopy(built) == made
    assert attrs.evolve(built, seat=0) == Move(0, (1, 5), "x")


def test_private_fields_and_names() -> None:
    """Fields are taken positionally in declaration order, private ones by attribute name."""
    build = record_builder(Scored)
    built = build(Move(0, (), None), 7)
    assert built == Scored(Move(0, (), None), 7)
    assert build.__name__ == "build_Scored"
    assert "Scored(move, _points)" in (build.__doc__ or "")


def test_defaults_are_not_applied() -> None:
    """Every field must be passed: the builder runs no ``__init__``."""
    with pytest.raises(TypeError):
        record_builder(Move)(1, ())


@attrs.frozen
class Checked:
    seat: int = attrs.field(validator=attrs.validators.ge(0))


@attrs.frozen
class Converted:
    seat: int = attrs.field(converter=int)


@attrs.frozen
class PostInit:
    seat: int

    def __attrs_post_init__(self) -> None:
        pass


@attrs.frozen(slots=False)
class NoSlots:
    seat: int


@attrs.frozen
class NotInInit:
    seat: int
    later: int = attrs.field(init=False, default=0)


class Plain:
    __slots__ = ("seat",)


@pytest.mark.parametrize(
    ("cls", "message"),
    [
        (Checked, "Checked.seat has a validator or converter"),
        (Converted, "Converted.seat has a validator or converter"),
        (PostInit, "defines __attrs_post_init__"),
        (NoSlots, "needs a slotted class"),
        (NotInInit, "NotInInit.later is not an __init__ argument"),
        (Plain, "needs an attrs class"),
    ],
)
def test_refuses_classes_whose_init_does_more(cls: type[Any], message: str) -> None:
    """A builder would skip checks or hooks, so such classes are refused by name."""
    with pytest.raises(TypeError, match=message):
        record_builder(cls)
