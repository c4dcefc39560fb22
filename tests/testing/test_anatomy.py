"""check_plugin_anatomy: one-way imports, a place for every module, short modules."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardcore.testing import AnatomyError, anatomy_problems, check_plugin_anatomy

MODULES = {
    "hooks": "from cardcore_toy.bots import Bot\nfrom cardcore_toy.rules import Toy\n",
    "bots": "from cardcore_toy.rules import Toy\n",
    "encoding": "from cardcore_toy.state import State\n",
    "rules": "from cardcore_toy.deal import deal\n",
    "deal": "from cardcore_toy.state import State\n",
    "render": "from .state import State\nfrom . import actions\n",
    "state": "from cardcore_toy.actions import Play\nimport cardcore_toy.options\n",
    "actions": "from cardcore_toy.options import Options\n",
    "options": "import attrs\n",
}


def _package(tmp_path: Path, **changes: str) -> Path:
    src = tmp_path / "cardcore_toy"
    src.mkdir()
    (src / "__init__.py").write_text("from cardcore_toy.rules import Toy\n", encoding="utf-8")
    for name, text in {**MODULES, **changes}.items():
        if text:
            (src / f"{name}.py").write_text(text, encoding="utf-8")
    return src


def _problems(tmp_path: Path, **changes: str) -> list[str]:
    return anatomy_problems("cardcore_toy", ("deal",), path=_package(tmp_path, **changes))


def test_a_plugin_in_the_anatomy_passes(tmp_path: Path) -> None:
    assert _problems(tmp_path) == []
    check_plugin_anatomy("cardcore_toy", ("deal",), path=tmp_path / "cardcore_toy")


@pytest.mark.parametrize(
    ("module", "line", "expected"),
    [
        (
            "state",
            "from cardcore_toy.rules import Toy\n",
            "state imports rules, which is not below it",
        ),
        ("rules", "from .render import show\n", "rules imports render, which is not below it"),
        ("render", "from cardcore_toy.bots import Bot\n", "render imports its peer bots"),
        ("bots", "from cardcore_toy.encoding import E\n", "bots imports its peer encoding"),
        ("deal", "def f():\n    from cardcore_toy import rules\n", "deal imports rules"),
        ("actions", "import cardcore_toy.hooks\n", "actions imports hooks"),
        ("options", "from cardcore_toy import Toy\n", "options imports the package cardcore_toy"),
        ("state", "from . import Toy\n", "state imports the package cardcore_toy"),
    ],
)
def test_an_import_against_the_order_is_named(
    tmp_path: Path, module: str, line: str, expected: str
) -> None:
    problems = _problems(tmp_path, **{module: MODULES[module] + line})
    assert len(problems) == 1 and problems[0].startswith(expected), problems


def test_every_module_needs_a_place_and_the_core_ones_must_be_there(tmp_path: Path) -> None:
    problems = _problems(tmp_path, game="x = 1\n", actions="", bots="", render="import attrs\n")
    assert problems == [
        "game.py has no place in the anatomy (modules: hooks, bots, encoding, render, rules,"
        " deal, state, actions, options; name a game's own rule module in rule_modules)",
        "actions.py is missing",
    ], "bots is optional, actions is not"


def test_a_long_module_is_named(tmp_path: Path) -> None:
    problems = _problems(tmp_path, options="x = 1\n" * 601)
    assert problems == ["options.py has 601 lines (at most 600)"]
    assert (
        anatomy_problems("cardcore_toy", ("deal",), path=tmp_path / "cardcore_toy", max_lines=700)
        == []
    )


def test_the_error_lists_every_problem(tmp_path: Path) -> None:
    src = _package(tmp_path, state=MODULES["state"] + "from cardcore_toy.rules import Toy\n")
    with pytest.raises(AnatomyError) as caught:
        check_plugin_anatomy("cardcore_toy", path=src)
    message = str(caught.value)
    assert message.startswith("cardcore_toy breaks the plugin anatomy:")
    assert "deal.py has no place" in message and "state imports rules" in message
    assert isinstance(caught.value, AssertionError), "pytest shows it as a failed check"


def test_an_unknown_package_is_named() -> None:
    with pytest.raises(AnatomyError, match="'cardcore_no_such_game' is not an importable"):
        check_plugin_anatomy("cardcore_no_such_game")


def test_the_example_plugin_keeps_the_anatomy() -> None:
    check_plugin_anatomy("cardcore_highcard")


@pytest.mark.parametrize(
    "init",
    [
        "from cardcore_toy.render import show\n",
        "from .render import show\n",
        "import cardcore_toy.render\n",
        "from cardcore_toy import render\n",
    ],
)
def test_a_package_that_loads_its_renderer_is_named(tmp_path: Path, init: str) -> None:
    """Loading the plugin must not load render: the rules name it by reference."""
    src = _package(tmp_path)
    (src / "__init__.py").write_text("from cardcore_toy.rules import Toy\n" + init, "utf-8")
    problems = anatomy_problems("cardcore_toy", ("deal",), path=src)
    assert len(problems) == 1 and problems[0].startswith("__init__ imports render"), problems


def test_a_lazy_or_typing_only_render_import_is_fine(tmp_path: Path) -> None:
    src = _package(tmp_path)
    (src / "__init__.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from cardcore_toy.render import show\n"
        "def __getattr__(name):\n    from cardcore_toy.render import show\n    return show\n",
        "utf-8",
    )
    assert anatomy_problems("cardcore_toy", ("deal",), path=src) == []
