"""What the kit checks and what it found: the properties, the configurations, the report."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final, final

import attrs

from cardcore._game import GameSpec
from cardcore._options import option_infos

__all__ = ["MAX_GAMES", "PROPERTIES", "CheckResult", "Config", "Report", "configurations"]

PROPERTIES: Final[Mapping[str, str]] = {
    "progress": "a live state has a current player and a legal action; a finished one has "
    "none; every game ends within the declared bound on decisions",
    "immutability": "apply never changes its input",
    "determinism": "equal inputs give equal outputs; states hash and compare by value",
    "seed": "the seed decides the deal: different seeds give different deals",
    "illegal-input": "illegal actions, garbage objects and malformed text are refused with "
    "IllegalActionError / ValueError, and the state is unchanged",
    "replay": "the same seed and actions reproduce equal states, observations and outcomes; "
    "a MatchRecord round-trips through JSON and replays to the same final state",
    "round-trip": "actions round-trip through text; observations through JSON",
    "observation-legal": "an observation lists exactly the seat's legal actions when it is to "
    "move, and none otherwise",
    "outcome": "one score per seat; placing, win shares and winners follow the scores (higher "
    "or lower scores win, the same way in every game); shares sum to one; teams as declared",
    "public-history": "each seat's observations, joined over its decisions, hold every public "
    "event the game declares (public_events / observed_events), and none before it happens",
    "rules": "the game ships a player's summary of its rules (GameSpec.rules_text) that names "
    "its presets or options",
    "card-conservation": "every card of the deck is in exactly one place at every step",
    "no-leaks": "no seat's whole observation (every field, even those excluded from ==) "
    "changes when the cards it does not know are redealt, the RNG state or a declared hidden "
    "field changes; non-movers see no legal actions; every other state field is public",
    "determinisation": "sampled states are legal states from which play continues to the end",
    "no-crash": "the game raises nothing but IllegalActionError, whatever legal play it meets",
    "hash-seed": "a seeded game is the same in fresh processes with other PYTHONHASHSEED values",
    "time-out": "every check of one game finishes within the time limit",
}


@final
@attrs.frozen
class Config:
    """One configuration to check: a preset plus option overrides."""

    preset: str = "default"
    overrides: Mapping[str, Any] = attrs.field(factory=dict)

    def label(self) -> str:
        """Short text, e.g. ``default capture=hand``."""
        extra = " ".join(f"{k}={_fmt(v)}" for k, v in self.overrides.items())
        return f"preset={self.preset}" + (f" {extra}" if extra else "")


def _fmt(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def configurations(spec: GameSpec) -> list[Config]:
    """Every preset, plus every single-option change from ``default``.

    For integer options the listed bounds are used (not every integer).
    """
    out = [Config(p) for p in spec.presets]
    base = spec.presets["default"]
    for info in option_infos(spec.options_type):
        for v in info.samples():
            if v != getattr(base, info.name):
                out.append(Config("default", {info.name: v}))
    return out


@final
@attrs.frozen
class CheckResult:
    """The outcome of one property over all games of one configuration."""

    property: str
    passed: bool
    message: str = ""
    record_path: Path | None = None


@final
@attrs.define
class Report:
    """Everything the kit found for one game."""

    game: str
    results: list[tuple[str, int, CheckResult]] = attrs.field(factory=list)
    """(configuration label, player count, result) triples."""
    games_played: int = 0
    decisions: int = 0

    @property
    def ok(self) -> bool:
        """Whether every property passed everywhere."""
        return all(r.passed for _, _, r in self.results)

    def failures(self) -> list[tuple[str, int, CheckResult]]:
        """The failed checks."""
        return [x for x in self.results if not x[2].passed]


MAX_GAMES: Final = 100_000
"""The most random games per configuration that ``run_checks`` accepts."""
