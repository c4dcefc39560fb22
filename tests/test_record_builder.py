"""record_builder: fast constructors for frozen attrs records, and what they refuse."""

from __future__ import annotations

import copy
import pickle
from typing import Any, assert_type

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
    """Fields are taken in declaration order and named as ``__init__`` names them."""
    build = record_builder(Scored)
    built = build(Move(0, (), None), 7)
    assert built == Scored(Move(0, (), None), 7) == build(move=Move(0, ()), points=7)
    assert build.__name__ == "build_Scored"
    assert "Scored(move, points)" in (build.__doc__ or "")


@attrs.frozen
class Stack:
    seat: int
    note: str = "-"
    cards: list[int] = attrs.Factory(list)


def test_defaults_are_applied_as_init_applies_them() -> None:
    """A field left out takes its default; a factory default is made afresh each time."""
    build = record_builder(Stack)
    assert build(1) == Stack(1) and build(1, "x") == Stack(1, "x")
    assert build(1).cards is not build(1).cards
    assert record_builder(Move)(1, ()) == Move(1, ())
    with pytest.raises(TypeError):
        build()  # type: ignore[call-arg]


@attrs.frozen(kw_only=True)
class Mixed:
    seat: int = 0
    cards: tuple[int, ...]


@attrs.frozen
class FromSelf:
    seat: int
    twice: int = attrs.Factory(lambda self: 2 * self.seat, takes_self=True)


@attrs.frozen(kw_only=True)
class Named:
    seat: int
    cards: tuple[int, ...]


def test_the_builder_has_the_constructor_signature() -> None:
    """To a type checker a builder takes what the class takes and returns the class.

    mypy checks this test in ``make typecheck``: each ``type: ignore`` below must be
    needed (``warn_unused_ignores``), so a builder typed loosely again fails there.
    """
    build = record_builder(Move)
    assert_type(build(1, (2,)), Move)
    named = record_builder(Named)
    assert named(seat=1, cards=()) == Named(seat=1, cards=())
    assert named(1, ()) == Named(seat=1, cards=())  # type: ignore[call-arg]
    wrong = build("one", (2,))  # type: ignore[arg-type]
    assert attrs.asdict(wrong)["seat"] == "one", (
        "nothing is checked at run time: the type checker checks"
    )


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
        (Mixed, "Mixed.cards has no default but follows seat"),
        (FromSelf, "FromSelf.twice has a default made from the instance"),
    ],
)
def test_refuses_classes_whose_init_does_more(cls: type[Any], message: str) -> None:
    """A builder would skip checks or hooks, so such classes are refused by name."""
    with pytest.raises(TypeError, match=message):
        record_builder(cls)


def test_updater_changes_the_named_fields_and_copies_the_others() -> None:
    """``update(old, *values)`` equals ``attrs.evolve`` with those fields, and is frozen."""
    from cardcore._records import record_updater

    @attrs.frozen
    class Three:
        a: int
        b: tuple[int, ...]
        c: str

    update = record_updater(Three, ("c", "a"))
    old = Three(1, (2,), "x")
    new = update(old, "y", 5)
    assert new == attrs.evolve(old, c="y", a=5)
    assert type(new) is Three
    assert new.b is old.b
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        new.a = 3  # type: ignore[misc]
    with pytest.raises(TypeError, match="not distinct fields"):
        record_updater(Three, ("a", "d"))
