"""The plugin's anatomy and its actions: one-way imports, short modules, shared actions."""

from __future__ import annotations

import ast
import copy
import pickle
from pathlib import Path

import pytest

from cardcore import DECK_52, CardAction, load_game, parse_card
from cardcore_box import Play, TurnUp

SRC = Path(__file__).parents[1] / "src" / "cardcore_box"
ORDER = ["hooks", "bots", "encoding", "rules", "rounds", "deal", "render", "state", "actions", "options"]
"""Top to bottom: a module may import only modules after it (bots and encoding are peers)."""
PEERS = {frozenset({"bots", "encoding"})}


def _imports(module: str) -> set[str]:
    tree = ast.parse((SRC / f"{module}.py").read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [n.name for n in node.names]
        else:
            continue
        out |= {n.split(".")[1] for n in names if n.startswith("cardcore_box.")}
    return out


def test_every_module_is_in_the_anatomy() -> None:
    """Each module of the plugin has its place in the order (and game.py is gone)."""
    found = {p.stem for p in SRC.glob("*.py")} - {"__init__"}
    assert found == set(ORDER)


@pytest.mark.parametrize("module", ORDER)
def test_imports_run_one_way(module: str) -> None:
    """No module imports one above it (so none import each other), and render not rules."""
    below = set(ORDER[ORDER.index(module) + 1 :])
    for imported in _imports(module):
        assert imported in below, f"{module} imports {imported}, which is not below it"
        assert frozenset({module, imported}) not in PEERS, f"{module} imports its peer"
    assert "rules" not in _imports("render")


def test_the_checker_catches_an_upward_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A state module importing the rules would be reported."""
    for p in SRC.glob("*.py"):
        (tmp_path / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    with (tmp_path / "state.py").open("a", encoding="utf-8") as f:
        f.write("\nfrom cardcore_box.rules import Box\n")
    monkeypatch.setitem(globals(), "SRC", tmp_path)
    with pytest.raises(AssertionError, match="state imports rules"):
        test_imports_run_one_way("state")


@pytest.mark.parametrize("module", ORDER)
def test_modules_are_short(module: str) -> None:
    """Each module reads in one sitting (about 600 lines at most)."""
    lines = (SRC / f"{module}.py").read_text(encoding="utf-8").count("\n")
    assert lines <= 620, f"{module}.py has {lines} lines"


def test_actions_are_shared_frozen_instances() -> None:
    """However an action is made, it is the one shared object: == is is."""
    game = load_game("box")
    nine = parse_card("9♠")
    assert Play(nine) is Play([nine]) is Play.of(nine.id) is Play.from_mask(1 << nine.id)
    assert isinstance(Play(nine), CardAction) and Play(nine).card == nine
    assert TurnUp() is TurnUp() and str(TurnUp()) == "turn up" and repr(TurnUp()) == "TurnUp()"
    for a in [*(Play(c) for c in DECK_52), TurnUp()]:
        assert pickle.loads(pickle.dumps(a)) is a and copy.deepcopy(a) is a and copy.copy(a) is a
        assert game.parse_action(str(a)) is a and hash(a) == hash(game.parse_action(str(a)))
    with pytest.raises(AttributeError):
        Play(nine).mask = 0
    with pytest.raises(AttributeError):
        TurnUp().card = nine  # type: ignore[attr-defined]
