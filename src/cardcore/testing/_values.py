"""Compare values completely: every attrs field, even those excluded from ``==``.

The kit judges non-interference on whole observations. An observation field declared
with ``eq=False`` (or any attribute kept outside the attrs fields) is invisible to ``==``
but not to a bot, so two observations are "the same" only if every part of them is.
"""

from __future__ import annotations

import enum
import operator
import random
import types
from fractions import Fraction
from typing import Any, Final

import attrs

from cardcore._lazy import LazyActions

__all__ = ["canonical", "difference", "perturb"]

_ATOMS: Final = (
    type(None),
    bool,
    int,
    float,
    str,
    bytes,
    complex,
    Fraction,
    enum.Enum,
    types.CodeType,
)
_ATOM_TYPES: Final = frozenset({type(None), bool, int, float, str, bytes})
_MAX_DEPTH: Final = 80


def difference(a: Any, b: Any) -> str | None:
    """Where ``a`` and ``b`` differ (a field path such as ``table.known``), or ``None``.

    Every attribute is compared, ``eq=False`` fields included; parts that are the very
    same object are skipped, so comparing two observations that share most of their
    history costs little.
    """
    return _diff(a, b, "", 0)


_LAYOUT: dict[type, tuple[tuple[str, ...], tuple[str, ...], bool]] = {}
_KIND: dict[type, int] = {}
"""Per class: 1 for legal actions (every attribute counts), 2 for functions, else 0."""
_BY_REDUCE: dict[type, bool] = {}


def _reduces(cls: type) -> bool:
    """Whether a class that is not attrs says what its value is through ``__reduce__``.

    Such a class (a lazy card-table view, say) may keep its value in private caches;
    the arguments it pickles with are its value.
    """
    known = _BY_REDUCE.get(cls)
    if known is None:
        known = not attrs.has(cls) and getattr(cls, "__reduce__", None) is not object.__reduce__
        _BY_REDUCE[cls] = known
    return known


def _layout(cls: type) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
    """(attrs field names, other public slot names, whether instances have a __dict__)."""
    known = _LAYOUT.get(cls)
    if known is None:
        fields = tuple(f.name for f in attrs.fields(cls)) if attrs.has(cls) else ()
        slots: list[str] = []
        for c in cls.__mro__:
            for name in getattr(c, "__slots__", ()):
                if name not in fields and not name.startswith("_") and name not in slots:
                    slots.append(name)
        known = (fields, tuple(slots), "__dict__" in dir(cls))
        _LAYOUT[cls] = known
    return known


def _stored(x: Any) -> dict[str, Any]:
    """Every attribute ``x`` stores, private ones included (slots, then ``__dict__``)."""
    out: dict[str, Any] = {}
    for c in type(x).__mro__:
        slots = getattr(c, "__slots__", ())
        # A class compiled with mypyc lists its attributes in ``__mypyc_attrs__``.
        compiled = vars(c).get("__mypyc_attrs__", ())
        for name in (slots,) if isinstance(slots, str) else (*slots, *compiled):
            if name not in out and name not in ("__dict__", "__weakref__") and hasattr(x, name):
                out[name] = getattr(x, name)
    d = getattr(x, "__dict__", None)
    if isinstance(d, dict):
        for k, v in d.items():
            out.setdefault(k, v)
    return out


def _closure(f: types.FunctionType) -> dict[str, Any]:
    """What a function's result can depend on besides its arguments and module globals."""
    cells = []
    for cell in f.__closure__ or ():
        try:
            cells.append(cell.cell_contents)
        except ValueError:  # an empty cell
            cells.append(None)
    return {
        "__code__": f.__code__,
        "__defaults__": f.__defaults__,
        "__kwdefaults__": f.__kwdefaults__,
        "__closure__": tuple(cells),
    }


def _attributes(x: Any) -> dict[str, Any]:
    """Every stored attribute: attrs fields (even ``eq=False`` ones), then public extras.

    Attributes outside the attrs fields whose names start with ``_`` are caches (a
    cached hash, say) and are left out, except in legal actions: a
    :class:`cardcore.LazyActions` hands a bot every attribute it keeps (a private one
    holding the state would give away every hand), so all of them count, and so does
    whatever the functions it keeps close over.
    """
    cls = type(x)
    kind = _KIND.get(cls)
    if kind is None:
        kind = _KIND[cls] = (
            1 if issubclass(cls, LazyActions) else 2 if cls is types.FunctionType else 0
        )
    if kind == 1:
        return _stored(x)
    if kind == 2:
        return _closure(x)
    if _reduces(type(x)):
        reduced = x.__reduce__()
        if isinstance(reduced, tuple) and len(reduced) >= 2 and isinstance(reduced[1], tuple):
            return {f"[{i}]": v for i, v in enumerate(reduced[1])}
    fields, slots, has_dict = _layout(type(x))
    out = {name: getattr(x, name, None) for name in fields}
    for name in slots:
        if hasattr(x, name):
            out[name] = getattr(x, name)
    if has_dict:
        d = getattr(x, "__dict__", None)
        if isinstance(d, dict):
            for k, v in d.items():
                if not k.startswith("_"):
                    out.setdefault(k, v)
    return out


def _diff(a: Any, b: Any, path: str, depth: int) -> str | None:
    where = path or "the whole value"
    if a is b:
        return None
    ta, tb = type(a), type(b)
    if ta is not tb:
        return f"{where} (a {ta.__name__} against a {tb.__name__})"
    if depth > _MAX_DEPTH or isinstance(a, _ATOMS):
        return None if a == b else where
    if isinstance(a, tuple | list):
        if len(a) != len(b):
            return f"{where} (length {len(a)} against {len(b)})"
        if all(map(operator.is_, a, b)):
            return None
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x is y or (type(x) is type(y) and type(x) in _ATOM_TYPES and x == y):
                continue
            d = _diff(x, y, f"{path}[{i}]", depth + 1)
            if d is not None:
                return d
        return None
    if isinstance(a, set | frozenset):
        return None if a == b else where
    if isinstance(a, dict):
        if set(a) != set(b):
            return f"{where} (keys)"
        for k in a:
            d = _diff(a[k], b[k], f"{path}[{k!r}]", depth + 1)
            if d is not None:
                return d
        return None
    fa, fb = _attributes(a), _attributes(b)
    if not fa and not fb:
        return None if a == b else where
    if set(fa) != set(fb):
        return f"{where} (attributes {sorted(set(fa) ^ set(fb))})"
    for k, x in fa.items():
        y = fb[k]
        if x is y:
            continue
        d = _diff(x, y, f"{path}.{k}" if path else k, depth + 1)
        if d is not None:
            return d
    return None


def canonical(value: Any, depth: int = 0) -> str:
    """A text form that depends only on the value (never on hash order or identity)."""
    if depth > _MAX_DEPTH:
        return "..."
    if isinstance(value, enum.Enum):
        return f"{type(value).__qualname__}.{value.name}"
    if isinstance(value, _ATOMS):
        return f"{type(value).__name__}:{value!r}"
    if isinstance(value, tuple | list):
        inner = ",".join(canonical(v, depth + 1) for v in value)
        return f"{type(value).__name__}({inner})"
    if isinstance(value, set | frozenset):
        return "set(" + ",".join(sorted(canonical(v, depth + 1) for v in value)) + ")"
    if isinstance(value, dict):
        items = sorted(
            f"{canonical(k, depth + 1)}:{canonical(v, depth + 1)}" for k, v in value.items()
        )
        return "dict(" + ",".join(items) + ")"
    fields = _attributes(value)
    if not fields:
        return f"{type(value).__qualname__}:{value!r}"
    inner = ",".join(f"{k}={canonical(v, depth + 1)}" for k, v in fields.items())
    return f"{type(value).__qualname__}({inner})"


def perturb(value: Any, rng: random.Random) -> Any:
    """A different value of the same shape (ints flipped, tuples element-wise, attrs by field).

    Returns the value itself when it has no part to change (``None``, an empty tuple).
    """
    if value is None:
        return None
    if isinstance(value, bool):
        return not value
    if isinstance(value, enum.Enum):
        members = [m for m in type(value) if m is not value]
        return rng.choice(members) if members else value
    if isinstance(value, int):
        return type(value)(value ^ (rng.getrandbits(63) | 1)) if type(value) is int else value
    if isinstance(value, float):
        return value + 1.0 + rng.random()
    if isinstance(value, str):
        return value + "\u2022"
    if isinstance(value, tuple) and type(value) is tuple:
        return tuple(perturb(v, rng) for v in value)
    if isinstance(value, frozenset):
        return frozenset(perturb(v, rng) for v in value)
    if attrs.has(type(value)):
        changes = {
            f.name: perturb(getattr(value, f.name), rng)
            for f in attrs.fields(type(value))
            if f.init and not f.name.startswith("_")
        }
        try:
            return attrs.evolve(value, **changes)
        except Exception:  # noqa: BLE001 - a validator refused: keep the value
            return value
    return value
