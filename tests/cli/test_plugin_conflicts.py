"""One bad plugin never takes the others down, in every command that loads plugins.

A fake distribution ``cardcore-evil`` registers a second ``nyuri`` game and a second
``nyuri-heuristic`` bot through an entry point, next to the real installed plugins; two
more register through hooks that raise or return garbage.
"""

from __future__ import annotations

import json
import types
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import attrs
import pytest

from cardcore import BotSpec, GameSpec, PluginHost, hookimpl, load_game
from cardcore._host import default_host
from cardcore.cli import main


@attrs.frozen
class _Dist:
    name: str
    version: str


@attrs.frozen
class _EntryPoint:
    """Quacks like an ``importlib.metadata.EntryPoint`` for the host's discovery."""

    name: str
    module: types.ModuleType
    dist: _Dist

    def load(self) -> types.ModuleType:
        return self.module


def _evil_module() -> types.ModuleType:
    real = PluginHost(prefer={})
    nyuri = real.game_spec("nyuri")
    heuristic = real.bot_spec("nyuri-heuristic")
    mod = types.ModuleType("cardcore_evil.hooks")

    @hookimpl
    def cardcore_register_games() -> Iterator[GameSpec]:
        yield attrs.evolve(nyuri, distribution="", version="", title="Evil Nyuri")

    @hookimpl
    def cardcore_register_bots() -> Iterator[BotSpec]:
        yield attrs.evolve(heuristic, distribution="", version="")

    mod.cardcore_register_games = cardcore_register_games  # type: ignore[attr-defined]
    mod.cardcore_register_bots = cardcore_register_bots  # type: ignore[attr-defined]
    return mod


def _raising_module() -> types.ModuleType:
    mod = types.ModuleType("cardcore_raises.hooks")

    @hookimpl
    def cardcore_register_games() -> Iterator[GameSpec]:
        raise RuntimeError("the raising plugin is broken")

    mod.cardcore_register_games = cardcore_register_games  # type: ignore[attr-defined]
    return mod


def _garbage_module() -> types.ModuleType:
    mod = types.ModuleType("cardcore_garbage.hooks")

    @hookimpl
    def cardcore_register_bots() -> object:
        return 42

    mod.cardcore_register_bots = cardcore_register_bots  # type: ignore[attr-defined]
    return mod


@pytest.fixture
def bad_plugins(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Install the three bad plugins next to the real ones, for the default host."""
    monkeypatch.delenv("CARDCORE_PREFER", raising=False)
    extra = [
        _EntryPoint("evil", _evil_module(), _Dist("cardcore-evil", "6.6.6")),
        _EntryPoint("raises", _raising_module(), _Dist("cardcore-raises", "1.0")),
        _EntryPoint("garbage", _garbage_module(), _Dist("cardcore-garbage", "1.0")),
    ]
    real = metadata.entry_points

    def fake(**kw: Any) -> Any:
        if kw.get("group") == "cardcore":
            return [*real(group="cardcore"), *extra]
        return real(**kw)

    monkeypatch.setattr(metadata, "entry_points", fake)
    default_host.cache_clear()
    yield
    default_host.cache_clear()


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.usefixtures("bad_plugins")
def test_doctor_names_both_distributions_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    """`doctor` reports the contested ids naming both distributions, and exits 1."""
    code, out, _ = run(capsys, "doctor")
    assert code == 1
    both = "cardcore-evil (plugin 'evil') and cardcore-nyuri (plugin 'nyuri')"
    assert f"REFUSED game id 'nyuri' is registered by {both}" in out
    assert f"REFUSED bot id 'nyuri-heuristic' is registered by {both}" in out
    assert "BROKEN raises           cardcore-raises : register: RuntimeError: the raising" in out
    assert "BROKEN garbage          cardcore-garbage : register: TypeError" in out
    assert "ok     raises" not in out
    code, out, _ = run(capsys, "doctor", "--json")
    data = json.loads(out)
    assert code == 1 and data["ok"] is False
    conflicts = {(c["kind"], c["id"]): c for c in data["conflicts"]}
    nyuri = conflicts["game", "nyuri"]
    assert nyuri["chosen"] is None
    assert any("cardcore-nyuri" in p for p in nyuri["providers"])
    assert any("cardcore-evil" in p for p in nyuri["providers"])
    assert {p["name"] for p in data["problems"]} == {"raises", "garbage"}
    assert "details" not in data["problems"][0]


@pytest.mark.usefixtures("bad_plugins")
def test_list_keeps_every_other_game(capsys: pytest.CaptureFixture[str]) -> None:
    """`list` shows every other game and says which ids are refused."""
    code, out, _ = run(capsys, "list")
    assert code == 0
    assert "highcard" in out and "nestors" in out and "box" in out and "noddy" in out
    assert "refused: game 'nyuri'" in out
    code, out, _ = run(capsys, "list", "--json")
    data = json.loads(out)
    assert "nyuri" not in {g["id"] for g in data["games"]}
    assert {"highcard", "nestors", "box", "noddy"} <= {g["id"] for g in data["games"]}


@pytest.mark.usefixtures("bad_plugins")
def test_play_arena_certify_and_load_game_work_for_other_games(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Every command that loads a game still works for an uncontested one."""
    assert run(capsys, "play", "highcard", "--bots", "random,random")[0] == 0
    db = str(tmp_path / "a.sqlite")
    code, _, err = run(
        capsys, "arena", "highcard", "--bots", "random,random", "--games", "2",
        "--workers", "0", "--db", db, "--no-progress",
    )  # fmt: skip
    assert code == 0, err
    code, _, err = run(
        capsys, "certify", "highcard", "--preset", "quick", "--players", "2", "--games", "1",
        "--failure-dir", str(tmp_path / "f"), "-q",
    )  # fmt: skip
    assert code == 0, err
    assert load_game("noddy").name == "noddy"


@pytest.mark.usefixtures("bad_plugins")
def test_the_contested_id_alone_is_refused_with_both_names(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`play nyuri` and `load_game("nyuri")` fail with one line naming both providers."""
    code, _, err = run(capsys, "play", "nyuri", "--bots", "random,random")
    assert code == 2
    assert "cardcore-nyuri" in err and "cardcore-evil" in err and "CARDCORE_PREFER" in err
    with pytest.raises(LookupError, match="cardcore-evil"):
        load_game("nyuri")


def test_cardcore_prefer_chooses_a_distribution(
    bad_plugins: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """CARDCORE_PREFER=nyuri=cardcore-evil plays the chosen one; doctor shows the choice."""
    monkeypatch.setenv("CARDCORE_PREFER", "nyuri=cardcore-evil,nyuri-heuristic=cardcore-nyuri")
    default_host.cache_clear()
    assert default_host().game_spec("nyuri").title == "Evil Nyuri"
    assert default_host().bot_spec("nyuri-heuristic").distribution == "cardcore-nyuri"
    code, out, _ = run(capsys, "doctor")
    assert "chosen game id 'nyuri'" in out and "using cardcore-evil (plugin 'evil')" in out
    assert code == 1  # the raising and garbage plugins are still broken
    code, _, _ = run(capsys, "play", "nyuri", "--bots", "nyuri-heuristic,random")
    assert code == 0


def test_two_distributions_with_one_entry_point_name_are_both_seen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A second distribution using the entry-point name ``nyuri`` is not silently skipped."""
    evil = _EntryPoint("nyuri", _evil_module(), _Dist("cardcore-evil", "6.6.6"))
    real = metadata.entry_points
    monkeypatch.setattr(
        metadata,
        "entry_points",
        lambda **kw: [*real(**kw), evil] if kw.get("group") == "cardcore" else real(**kw),
    )
    host = PluginHost(prefer={})
    assert "cardcore-evil:nyuri" in {p.name for p in host.plugins}
    assert ("game", "nyuri") in {(c.kind, c.name) for c in host.conflicts}
