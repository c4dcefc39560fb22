"""Fast constructors for frozen attrs records, for games' hot paths."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

__all__ = ["record_builder"]

T = TypeVar("T")


def record_builder(cls: type[T]) -> Callable[..., T]:
    """A function that builds instances of a slotted attrs class several times faster.

    A frozen attrs ``__init__`` sets every field through ``object.__setattr__``; in a
    game's ``apply`` that can cost more than the rules. The builder takes every field
    positionally, in declaration order, fills the slots of a private subclass that adds no
    slots and allows plain attribute setting, then gives the object its real class.
    The result is an ordinary instance of ``cls``: same class, fields, equality, hash and
    repr, and frozen.

    Only classes whose ``__init__`` does nothing but store its arguments qualify, so the
    builder never skips a check: validators, converters, ``__attrs_post_init__`` and
    ``__attrs_pre_init__`` are refused. Defaults are not applied; pass every field.

    Args:
        cls: an attrs class with ``slots=True`` (the default of ``@attrs.frozen``), usually
            frozen.

    Returns:
        ``build(*fields) -> cls``, its parameters named after the fields.

    Raises:
        TypeError: ``cls`` is not such a class, or its ``__init__`` does more than store.

    Example:
        >>> import attrs
        >>> from cardcore import record_builder
        >>> @attrs.frozen
        ... class Score:
        ...     seat: int
        ...     points: int
        >>> build = record_builder(Score)
        >>> build(1, 12) == Score(1, 12), type(build(1, 12)) is Score
        (True, True)
    """
    fields = _checked_fields(cls)
    body: dict[str, Any] = {
        "__slots__": (),
        "__setattr__": object.__setattr__,
        "__delattr__": object.__delattr__,
    }
    filler = type(f"_{cls.__name__}Builder", (cls,), body)
    names = [f.name for f in fields]
    lines = [f"def build({', '.join(names)}):", "    o = new(filler)"]
    lines += [f"    o.{n} = {n}" for n in names]
    lines += ["    o.__class__ = cls", "    return o"]
    namespace: dict[str, Any] = {"new": object.__new__, "filler": filler, "cls": cls}
    exec("\n".join(lines), namespace)  # noqa: S102 - the source is built from field names only
    build: Callable[..., T] = namespace["build"]
    build.__name__ = build.__qualname__ = f"build_{cls.__name__}"
    build.__doc__ = f"``{cls.__name__}({', '.join(names)})`` without running ``__init__``."
    return build


def _checked_fields(cls: type[Any]) -> tuple[attrs.Attribute[Any], ...]:
    if not isinstance(cls, type) or not attrs.has(cls):
        raise TypeError(f"record_builder needs an attrs class, not {cls!r}")
    name = cls.__qualname__
    if "__slots__" not in cls.__dict__:
        raise TypeError(f"record_builder needs a slotted class; {name} has no __slots__")
    for hook in ("__attrs_pre_init__", "__attrs_post_init__"):
        if hasattr(cls, hook):
            raise TypeError(f"{name} defines {hook}, which a builder would skip")
    fields: tuple[attrs.Attribute[Any], ...] = attrs.fields(cls)
    for f in fields:
        if f.validator is not None or f.converter is not None:
            raise TypeError(
                f"{name}.{f.name} has a validator or converter, which a builder would skip"
            )
        if not f.init:
            raise TypeError(f"{name}.{f.name} is not an __init__ argument")
    return fields
