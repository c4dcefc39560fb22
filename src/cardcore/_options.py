"""Typed game options: declared once, validated at the boundary, listed for tools.

A game declares its options as an attrs frozen class whose fields are made with
:func:`option`; presets are instances of it. :func:`build_options` applies a preset plus
overrides (typed values or the strings a command line gives) and names the option and
its allowed values on any error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, final

import attrs

__all__ = ["OptionError", "OptionInfo", "build_options", "option", "option_infos"]


@final
class OptionError(ValueError):
    """An unknown option, a value outside its range, or an unknown preset."""


@final
@attrs.frozen(kw_only=True)
class OptionInfo:
    """What tools need to know about one option."""

    name: str
    """Option name (``snake_case``)."""
    kind: type
    """``str`` (a choice), ``bool`` or ``int``."""
    default: Any
    """Default value of the field (presets may differ)."""
    choices: tuple[Any, ...] | None = None
    """Allowed values of a choice (and ``(False, True)`` for a flag)."""
    minimum: int | None = None
    """Smallest allowed integer."""
    maximum: int | None = None
    """Largest allowed integer."""
    step: int | None = None
    """Integers must be a multiple of this (counted from ``minimum``, or from 0)."""
    doc: str = ""
    """One line saying what it changes."""

    def allowed(self) -> str:
        """The allowed values, in words."""
        if self.choices is not None:
            return ", ".join(_fmt(c) for c in self.choices)
        lo = "" if self.minimum is None else f">= {self.minimum}"
        hi = "" if self.maximum is None else f"<= {self.maximum}"
        bounds = " and ".join(x for x in (lo, hi) if x)
        text = f"an integer {bounds}" if bounds else "an integer"
        return text + (f", a multiple of {self.step}" if self.step else "")

    def samples(self) -> tuple[Any, ...]:
        """A few representative values (every choice; for integers the bounds and default)."""
        if self.choices is not None:
            return self.choices
        vals = {self.default}
        if self.minimum is not None:
            vals.add(self.minimum)
        if self.maximum is not None:
            vals.add(self.maximum)
        return tuple(sorted(vals))

    def parse(self, value: Any) -> Any:
        """Check (and for strings convert) one value.

        Raises:
            OptionError: naming the option and its allowed values.
        """
        v = value
        if isinstance(value, str) and self.kind is not str:
            low = value.strip().lower()
            if self.kind is bool:
                v = {
                    "true": True,
                    "false": False,
                    "yes": True,
                    "no": False,
                    "1": True,
                    "0": False,
                }.get(low, value)
            elif self.kind is int:
                try:
                    v = int(low)
                except ValueError:
                    v = value
        ok = isinstance(v, self.kind) and not (self.kind is int and isinstance(v, bool))
        if ok and self.choices is not None:
            ok = v in self.choices
        if ok and self.kind is int:
            ok = (
                (self.minimum is None or v >= self.minimum)
                and (self.maximum is None or v <= self.maximum)
                and (not self.step or (v - (self.minimum or 0)) % self.step == 0)
            )
        if not ok:
            raise OptionError(f"option {self.name}={value!r} is not allowed; use {self.allowed()}")
        return v


def _fmt(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def option(
    default: Any,
    *,
    choices: tuple[Any, ...] | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
    step: int | None = None,
    doc: str = "",
) -> Any:
    """Declare one option field of an options class (kind taken from the default).

    Example:
        ``capture: str = option("pile", choices=("pile", "hand"), doc="where steals go")``
    """
    kind = type(default)
    if kind is bool:
        choices = (False, True)
    info = OptionInfo(
        name="",
        kind=kind,
        default=default,
        choices=choices,
        minimum=minimum,
        maximum=maximum,
        step=step,
        doc=doc,
    )

    def _validate(inst: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        attrs.evolve(info, name=attribute.name).parse(value)

    return attrs.field(default=default, validator=_validate, metadata={"cardcore": info})


def option_infos(options_type: type) -> tuple[OptionInfo, ...]:
    """The options of an options class, in declaration order."""
    out = []
    for f in attrs.fields(options_type):
        info = f.metadata.get("cardcore")
        if info is None:
            raise TypeError(f"{options_type.__name__}.{f.name} is not declared with option()")
        out.append(attrs.evolve(info, name=f.name))
    return tuple(out)


def build_options(
    options_type: type,
    presets: Mapping[str, Any],
    preset: str = "default",
    overrides: Mapping[str, Any] | None = None,
) -> Any:
    """Apply ``overrides`` (typed values or strings) on top of a preset.

    Raises:
        OptionError: an unknown preset or option, or a value outside its range.
    """
    if preset not in presets:
        raise OptionError(f"unknown preset {preset!r}; presets are {', '.join(presets)}")
    infos = {i.name: i for i in option_infos(options_type)}
    changes = {}
    for k, v in (overrides or {}).items():
        info = infos.get(k)
        if info is None:
            raise OptionError(f"unknown option {k!r}; options are {', '.join(infos)}")
        changes[k] = info.parse(v)
    return attrs.evolve(presets[preset], **changes)


def options_to_json(options: Any) -> dict[str, Any]:
    """An options instance as a flat JSON object."""
    return {f.name: getattr(options, f.name) for f in attrs.fields(type(options))}
