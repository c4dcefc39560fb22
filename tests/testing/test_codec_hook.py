"""check_codec_hook: a plugin's RL codec is declared through its hooks, by reference."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from cardcore import PluginHost
from cardcore.testing import ConformanceError, check_codec_hook, codec_hook_problems

GOOD_HOOKS = """\
from cardcore import CodecSpec, Plugin

plugin = Plugin(codecs=[CodecSpec(game="toy", factory="{pkg}.encoding:toy_codec")])
"""

ENCODING = """\
import {pkg}_heavy

def toy_codec(game, num_players):
    raise NotImplementedError
"""


def _host(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pkg: str, hooks: str = GOOD_HOOKS
) -> PluginHost:
    """A host with one toy plugin ``pkg`` whose encoding imports the module ``pkg_heavy``."""
    src = tmp_path / pkg
    src.mkdir()
    (src / "__init__.py").write_text("", encoding="utf-8")
    (src / "hooks.py").write_text(hooks.format(pkg=pkg), encoding="utf-8")
    (src / "encoding.py").write_text(ENCODING.format(pkg=pkg), encoding="utf-8")
    (tmp_path / f"{pkg}_heavy.py").write_text("", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    host = PluginHost(load_entrypoints=False, builtins=False)
    host.register(importlib.import_module(f"{pkg}.hooks"))
    return host


def test_a_codec_declared_by_reference_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """By reference, resolving, and loaded by nothing the hooks do: no problem."""
    host = _host(tmp_path, monkeypatch, "cardcore_codec_good")
    heavy = ("cardcore_codec_good_heavy",)
    assert codec_hook_problems("toy", host=host, heavy=heavy) == []
    check_codec_hook("toy", host=host, heavy=heavy)


def test_a_game_without_a_codec_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game id no plugin declares a codec for is refused, saying where to add one."""
    host = _host(tmp_path, monkeypatch, "cardcore_codec_other")
    with pytest.raises(ConformanceError, match="no plugin declares a codec for 'mygame'") as err:
        check_codec_hook("mygame", host=host)
    assert err.value.property == "codec-hook"


def test_a_codec_declared_by_its_function_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A factory given as the function itself makes the hooks import the encoding."""
    hooks = """\
from cardcore import CodecSpec, Plugin
from {pkg}.encoding import toy_codec

plugin = Plugin(codecs=[CodecSpec(game="toy", factory=toy_codec)])
"""
    host = _host(tmp_path, monkeypatch, "cardcore_codec_eager", hooks)
    (problem,) = codec_hook_problems("toy", host=host)
    assert "declared by its function" in problem and "by reference" in problem


def test_hooks_that_import_the_encoding_anyway_are_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reference is not enough when the hooks module imports the codec's module too."""
    hooks = "import {pkg}.encoding  # for a type, say\n" + GOOD_HOOKS
    host = _host(tmp_path, monkeypatch, "cardcore_codec_leaky", hooks)
    heavy = ("cardcore_codec_leaky_heavy",)
    (problem,) = codec_hook_problems("toy", host=host, heavy=heavy)
    assert "imports cardcore_codec_leaky.encoding, cardcore_codec_leaky_heavy" in problem


def test_a_reference_that_does_not_resolve_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A misspelt factory name is found before an RL environment asks for the codec."""
    hooks = GOOD_HOOKS.replace("toy_codec", "toy_codek")
    host = _host(tmp_path, monkeypatch, "cardcore_codec_typo", hooks)
    (problem,) = codec_hook_problems("toy", host=host)
    assert "'cardcore_codec_typo.encoding:toy_codek' of game 'toy' does not resolve" in problem


def test_hooks_that_fail_in_a_fresh_interpreter_are_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hooks that import only where the test runs (here: once) are reported, not passed."""
    hooks = (
        "import os\n"
        "if os.environ.get('CARDCORE_CODEC_ONCE') == '1':\n"
        "    raise RuntimeError('second import')\n"
        "os.environ['CARDCORE_CODEC_ONCE'] = '1'\n" + GOOD_HOOKS
    )
    monkeypatch.delenv("CARDCORE_CODEC_ONCE", raising=False)
    host = _host(tmp_path, monkeypatch, "cardcore_codec_once", hooks)
    (problem,) = codec_hook_problems("toy", host=host)
    assert "in a fresh interpreter failed: RuntimeError: second import" in problem
