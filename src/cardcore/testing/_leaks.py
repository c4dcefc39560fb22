"""Leaks and non-interference: what a seat sees must not change with what it may not know.

Each check changes something a seat does not know (the cards it cannot see, the RNG
state, a declared hidden field) and requires every part of its observation, compared
field by field, to stay the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import attrs

from cardcore._table import sample_table
from cardcore.testing._context import Context, who
from cardcore.testing._errors import CheckFailed, require
from cardcore.testing._values import difference, perturb

__all__ = [
    "Forms",
    "forms",
    "hidden_checks",
    "leak_text",
    "legal_rule",
    "public_fields",
    "redeal_checks",
]

Forms = tuple[Any, str | None]
"""An observation's JSON form (``to_json()``) and text form (the game's ``render``)."""

_MASK64: Final = (1 << 64) - 1


def leak_text(seat: int, how: str, path: str, equal: bool) -> str:
    """Name the cause of a leak from the first field where the observations differ."""
    name = who(seat)
    if path.startswith("legal_actions"):
        text = f"{name}'s legal actions change when {how} (a legal-action leak)"
        if "._" in path:
            text += (
                f"; they keep it in a private attribute ({path}), which a bot can read: "
                "legal actions must hold only what the seat may know"
            )
    elif path.startswith("table"):
        text = f"{name} sees cards it does not know: its table view ({path}) changes when {how}"
    else:
        text = f"{name}'s observation changes when {how}: field {path} differs"
    if equal:
        text += " (the two observations compare equal with ==: the field is excluded from equality)"
    return text


def legal_rule(ctx: Context, obs: Any, seat: int, cur: int | None, legal: Sequence[Any]) -> None:
    require(obs.seat == seat, "observation-legal", "observation.seat is wrong")
    require(obs.current_player == cur, "observation-legal", "observation.current_player is wrong")
    if seat == cur:
        require(
            tuple(obs.legal_actions) == legal,
            "observation-legal",
            lambda: f"seat {seat} observes legal actions {obs.legal_actions}, state says {legal}",
        )
    else:
        require(
            tuple(obs.legal_actions) == (),
            "no-leaks",
            lambda: (
                f"a legal-action leak: {who(seat)} sees legal actions "
                f"{tuple(obs.legal_actions)[:6]} although "
                f"{'nobody' if cur is None else f'seat {cur}'} is to move"
            ),
        )


def hidden_checks(ctx: Context, s: Any, obs_all: list[Any]) -> None:
    """The RNG and the declared hidden fields: changing them changes no observation."""
    g = ctx.game
    if not attrs.has(type(s)) or "rng" not in attrs.fields_dict(type(s)):
        raise CheckFailed(
            "no-leaks", "the state has no 'rng' field (the kit needs it by that name)"
        )
    fields = attrs.fields_dict(type(s))
    missing = [f for f in ctx.hidden if f not in fields]
    require(
        not missing,
        "no-leaks",
        f"hidden_state_fields names {missing}, which the state does not have",
    )
    rng_value = s.rng
    if isinstance(rng_value, int) and not isinstance(rng_value, bool):
        # Every bit flips on even steps; a random half of them on odd steps.
        flip = _MASK64 if ctx.clock.step % 2 == 0 else ctx.rng.getrandbits(64) | 1
        other_rng: Any = rng_value ^ flip
    else:
        other_rng = perturb(rng_value, ctx.rng)
    changes = {"rng": other_rng, **{f: perturb(getattr(s, f), ctx.rng) for f in ctx.hidden}}
    other = attrs.evolve(s, **changes)
    for seat, obs in zip(ctx.seats, obs_all, strict=True):
        try:
            seen = g.observe(other, seat)
        except Exception as e:  # noqa: BLE001 - observe read a hidden value
            seen = e
        where = difference(obs, seen)
        if where is None:
            continue
        # Name the field that leaks: try each change alone.
        culprit = "rng"
        for name, value in changes.items():
            try:
                alone = g.observe(attrs.evolve(s, **{name: value}), seat)
            except Exception as e:  # noqa: BLE001
                alone = e
            if difference(obs, alone) is not None:
                culprit = name
                break
        how = (
            "only the RNG state changes (a seat could predict the RNG)"
            if culprit == "rng"
            else f"only the hidden state field {culprit!r} changes"
        )
        if isinstance(seen, Exception):
            raise CheckFailed(
                "no-leaks",
                f"{who(seat)}'s observation reads hidden data: observe raised "
                f"{type(seen).__name__}: {seen} when {how}",
            )
        raise CheckFailed("no-leaks", leak_text(seat, how, where, obs == seen))


def forms(ctx: Context, obs: Any) -> Forms:
    """The forms in which an observation leaves the library: JSON and text."""
    render = getattr(ctx.game, "render", None)
    return obs.to_json(), (render(obs) if callable(render) else None)


def redeal_checks(
    ctx: Context,
    s: Any,
    seat: int,
    cur: int | None,
    legal: Sequence[Any],
    obs: Any,
    shown: Forms | None = None,
) -> None:
    """The same state with the cards this seat does not know dealt differently.

    With ``shown`` (the observation's forms, made right after it), the forms of the
    redealt observation must be the same too: they follow from the observation alone.
    """
    g = ctx.game
    redealt = attrs.evolve(s, table=sample_table(s.table.view(seat), ctx.rng))
    obs_r = g.observe(redealt, seat)
    shown_r = forms(ctx, obs_r) if shown is not None else None
    where = difference(obs, obs_r)
    if where is not None:
        raise CheckFailed(
            "no-leaks",
            leak_text(seat, "the cards it does not know are redealt", where, obs == obs_r)
            + f":\n  original: {obs}\n  redealt:  {obs_r}",
        )
    if seat == cur:
        require(
            g.legal_actions(redealt) == legal,
            "no-leaks",
            f"seat {seat}'s legal actions depend on cards it does not know",
        )
    if shown is not None and shown_r is not None:
        _forms_checks(seat, shown, shown_r)


def _forms_checks(seat: int, shown: Forms, shown_r: Forms) -> None:
    """The JSON and text forms of two equal observations must be equal."""
    how = (
        "changes when the cards it does not know are redealt, though the observation itself "
        "does not: it must follow from the observation alone (not from a remembered state "
        "or anything else)"
    )
    where = None if shown[0] == shown_r[0] else difference(shown[0], shown_r[0]) or "a value"
    if where is not None:
        raise CheckFailed(
            "no-leaks",
            f"{who(seat)}'s observation in JSON (to_json) {how}; it differs at {where}",
        )
    if shown[1] != shown_r[1]:
        a, b = (shown[1] or "").splitlines(), (shown_r[1] or "").splitlines()
        i = next(
            (k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
        )
        line = a[i] if i < len(a) else "(no line)"
        other = b[i] if i < len(b) else "(no line)"
        raise CheckFailed(
            "no-leaks",
            f"{who(seat)}'s observation as text (the game's render) {how}; line {i + 1} "
            f"reads {line!r}, then {other!r}",
        )


def public_fields(ctx: Context, s: Any) -> tuple[str, ...]:
    key = type(s)
    cache: dict[type, tuple[str, ...]] = ctx.shared.setdefault("public", {})
    if key not in cache:
        skip = {"table", "rng", *ctx.hidden}
        cache[key] = tuple(f.name for f in attrs.fields(key) if f.name not in skip)
    return cache[key]
