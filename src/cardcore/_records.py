"""Fast constructors for frozen attrs records, for games' hot paths."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, ParamSpec, TypeVar

import attrs

__all__ = ["record_builder"]

T = TypeVar("T")
P = ParamSpec("P")


def record_builder(cls: Callable[P, T]) -> Callable[P, T]:
    """A function that builds instances of a slotted attrs class several times faster.

    A frozen attrs ``__init__`` sets every field through ``object.__setattr__``; in a
    game's ``apply`` that can cost more than the rules. The builder takes every field
    positionally, in declaration order, fills the slots of a private subclass that adds no
    slots and allows plain attribute setting, then gives the object its real class.
    The result is an ordinary instance of ``cls``: same class, fields, equality, hash and
    repr, and frozen.

    Only classes whose ``__init__`` does nothing but store its arguments qualify, so the
    builder never skips a check: validators, converters, ``__attrs_post_init__`` and
    ``__attrs_pre_init__`` are refused. Defaults (factories too) are applied as
    ``__init__`` applies them.

    To a type checker the builder has the class's own constructor signature (mypy's attrs
    plugin knows it), so each call is checked like a call of the class and its result is
    an instance of it; no annotation is needed. Its hot-path use is positional, which
    the signature allows for a class declared without ``kw_only=True``; a
    keyword-only class's builder is called with keywords.

    Args:
        cls: an attrs class with ``slots=True`` (the default of ``@attrs.frozen``), usually
            frozen.

    Returns:
        ``build(*fields) -> cls``, its parameters those of ``__init__`` (a private field
        ``_x`` is ``x``), in declaration order, each also taken positionally.

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
    if not isinstance(cls, type):
        raise TypeError(f"record_builder needs an attrs class, not {cls!r}")
    fields = _checked_fields(cls)
    namespace, blank = _filler(cls)
    params, fills = _parameters(cls.__qualname__, fields, namespace)
    lines = [f"def build({', '.join(params)}):", *fills, f"    o = {blank}"]
    lines += [f"    o.{f.name} = {_arg(f)}" for f in fields]
    lines += ["    o.__class__ = cls", "    return o"]
    exec("\n".join(lines), namespace)  # noqa: S102 - the source is built from field names only
    build: Callable[P, T] = namespace["build"]
    build.__name__ = build.__qualname__ = f"build_{cls.__name__}"
    names = ", ".join(_arg(f) for f in fields)
    build.__doc__ = f"``{cls.__name__}({names})`` without running ``__init__``."
    return build


def record_updater(cls: type[T], changed: tuple[str, ...]) -> Callable[..., T]:
    """Like :func:`record_builder`, for a record that changes only the ``changed`` fields.

    ``update(old, *values)`` gives ``attrs.evolve(old, **dict(zip(changed, values)))``
    (``old`` must be an instance of ``cls`` itself): the other fields are copied from
    ``old`` inside the builder, where reading a slot is cheapest (a compiled caller
    reads an attrs field through the generic attribute lookup).

    Raises:
        TypeError: as :func:`record_builder`, or ``changed`` names no field of ``cls``.
    """
    fields = _checked_fields(cls)
    names = {f.name for f in fields}
    unknown = [c for c in changed if c not in names]
    if unknown or len(set(changed)) != len(changed):
        raise TypeError(
            f"record_updater: {changed!r} are not distinct fields of {cls.__qualname__}"
        )
    namespace, blank = _filler(cls)
    args = [f"v_{c}" for c in changed]
    lines = [f"def update(old, {', '.join(args)}):", f"    o = {blank}"]
    lines += [
        f"    o.{f.name} = v_{f.name}" if f.name in changed else f"    o.{f.name} = old.{f.name}"
        for f in fields
    ]
    lines += ["    o.__class__ = cls", "    return o"]
    exec("\n".join(lines), namespace)  # noqa: S102 - the source is built from field names only
    update: Callable[..., T] = namespace["update"]
    update.__name__ = update.__qualname__ = f"update_{cls.__name__}"
    return update


def _filler(cls: type[Any]) -> tuple[dict[str, Any], str]:
    """A builder's namespace, with its filler subclass, and how the builder makes one."""
    body: dict[str, Any] = {
        "__slots__": (),
        "__setattr__": object.__setattr__,
        "__delattr__": object.__delattr__,
    }
    # Calling the filler class makes a blank object more cheaply than ``object.__new__``
    # does (no argument checks), once ``__init__`` is object's: then nothing else runs
    # (for a class of a plain metaclass with object's ``__new__``).
    plain = type(cls) is type and cls.__new__ is object.__new__  # type: ignore[comparison-overlap]
    blank = "filler()" if plain else "new(filler)"
    if plain:
        body["__init__"] = object.__init__
    filler = type(f"_{cls.__name__}Builder", (cls,), body)
    return {"new": object.__new__, "filler": filler, "cls": cls}, blank


_FACTORY: Final[type[Any]] = type(attrs.Factory(list))
"""The class of ``attrs.Factory(...)`` defaults."""
_MISSING: Final = object()
"""A factory default's placeholder in a builder's parameters."""


def _parameters(
    name: str, fields: tuple[attrs.Attribute[Any], ...], namespace: dict[str, Any]
) -> tuple[list[str], list[str]]:
    """The builder's parameters, named and defaulted as ``__init__`` has them.

    Also the lines that call the factories of factory defaults; the defaults themselves
    go in ``namespace``.

    Raises:
        TypeError: a field without a default follows one with a default (possible in a
            keyword-only class), which positional parameters cannot express.
    """
    params: list[str] = []
    fills: list[str] = []
    defaulted = ""
    for i, f in enumerate(fields):
        arg = _arg(f)
        default: Any = f.default
        if default is attrs.NOTHING:
            if defaulted:
                raise TypeError(
                    f"{name}.{arg} has no default but follows {defaulted}, which has one;"
                    " a builder takes the fields positionally"
                )
            params.append(arg)
            continue
        defaulted = arg
        if isinstance(default, _FACTORY):
            if default.takes_self:
                raise TypeError(f"{name}.{arg} has a default made from the instance")
            namespace[f"_factory{i}"] = default.factory
            namespace["_missing"] = _MISSING
            params.append(f"{arg}=_missing")
            fills.append(f"    if {arg} is _missing: {arg} = _factory{i}()")
        else:
            namespace[f"_default{i}"] = default
            params.append(f"{arg}=_default{i}")
    return params, fills


def _arg(field: attrs.Attribute[Any]) -> str:
    """The field's name as an ``__init__`` argument (``_x`` is ``x``)."""
    return field.alias or field.name.lstrip("_")


def _checked_fields(cls: type[Any]) -> tuple[attrs.Attribute[Any], ...]:
    if not attrs.has(cls):
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
