"""Records and replay: observations survive JSON and a record replays to the same game.

A failing game is written as a record that ``cardcore replay`` opens.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardcore._game import Game, Outcome
from cardcore._match_record import MatchRecord, replay
from cardcore._options import options_to_json
from cardcore._table import SPECTATOR
from cardcore.testing._context import Context, who
from cardcore.testing._errors import CheckFailed, require

__all__ = ["json_checks", "record_failure", "replay_checks"]


def json_checks(ctx: Context, obs: Any, seat: int, data: Any) -> None:
    """The observation's JSON form ``data`` is JSON and reads back as an equal observation."""
    try:
        text = json.dumps(data, ensure_ascii=False)
    except (TypeError, ValueError) as e:
        raise CheckFailed("round-trip", f"observation.to_json() is not JSON: {e}") from None
    back = ctx.game.observation_from_json(json.loads(text))
    require(
        back == obs,
        "round-trip",
        lambda: f"observation of {who(seat)} does not survive JSON: {text[:300]}",
    )


def replay_checks(
    g: Game[Any, Any, Any],
    n: int,
    seed: int,
    actions: list[str],
    states: list[Any],
    observations: list[list[Any]],
    out: Outcome,
) -> None:
    """Replay the record once; every state and every seat's observation must match."""
    rec = MatchRecord(
        game=g.name,
        options=options_to_json(g.options),
        num_players=n,
        seed=seed,
        actions=tuple(actions),
        outcome=out,
    )
    back = MatchRecord.loads(rec.dumps())
    require(back == rec, "replay", "a MatchRecord does not survive JSON")
    replayed = [states[0], *(step.after for step in replay(back, g))]
    require(len(replayed) == len(states), "replay", "the replay has a different length")
    seats = [*range(n), SPECTATOR]
    for i, (a, b) in enumerate(zip(states, replayed, strict=True)):
        require(a == b, "replay", f"replaying the record gives a different state at step {i}")
        for seat, seen in zip(seats, observations[i], strict=True):
            require(
                g.observe(b, seat) == seen,
                "replay",
                f"{who(seat)}'s observation differs at step {i} of the replay",
            )
    require(g.outcome(replayed[-1]) == out, "replay", "the replay ends with another outcome")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text).strip("_") or "game"


def record_failure(
    g: Game[Any, Any, Any],
    n: int,
    seed: int,
    actions: Sequence[str],
    prop: str,
    out_dir: Path,
    label: str,
) -> Path:
    """Write the failing game; the file name is unique (never overwrites another record)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    rec = MatchRecord(
        game=g.name,
        options=options_to_json(g.options),
        num_players=n,
        seed=seed,
        actions=tuple(actions),
        bots=("conformance-kit",) * n,
    )
    stem = f"{_slug(g.name)}-{_slug(label)}-{n}p-{prop}-seed{seed}"
    text = rec.dumps()
    for k in itertools.count(1):
        path = out_dir / (f"{stem}.json" if k == 1 else f"{stem}-{k}.json")
        try:
            with path.open("x", encoding="utf-8") as f:
                f.write(text)
        except FileExistsError:
            if path.read_text(encoding="utf-8") == text:
                return path  # the very same failure found again
            continue
        return path
    raise AssertionError("unreachable")  # pragma: no cover
