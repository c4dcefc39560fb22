"""The kit's rules check: a game must ship a player's summary naming its presets and options."""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest

from cardcore import GameSpec
from cardcore._host import default_host
from cardcore.testing import ConformanceError, check_rules, rules_problems

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("highcard", "nyuri", "noddy", "box", "nestors")


def _highcard(*, rules_text: str) -> GameSpec:
    return attrs.evolve(default_host().game_spec("highcard"), rules_text=rules_text)


@pytest.mark.parametrize("game", GAMES)
def test_every_shipped_game_has_its_rules(game: str) -> None:
    """The four games and the example ship rules that name every preset and option."""
    assert rules_problems(game) == []
    check_rules(game)


def test_a_game_without_rules_is_reported() -> None:
    """An empty rules text fails the check, with a message that says how to give one."""
    with pytest.raises(
        ConformanceError, match=r"has no rules text: give its GameSpec a rules_text"
    ):
        check_rules(_highcard(rules_text=""))
    assert len(rules_problems(_highcard(rules_text="  \n"))) == 1


def test_a_preset_or_option_the_rules_never_name_is_reported() -> None:
    """Leaving out the 'quick' preset and the 'ace' option names both."""
    text = default_host().game_spec("highcard").rules_text
    cut = re.sub(r"`?quick`?", "short", re.sub(r"`?ace=\w+`?|`ace`", "the A", text))
    problems = rules_problems(_highcard(rules_text=cut))
    assert any("preset(s) quick" in p for p in problems), problems
    assert any("option(s) ace" in p for p in problems), problems


def test_a_one_line_summary_is_too_short() -> None:
    """A text naming every preset and option but nothing else is too short to play from."""
    problems = rules_problems(_highcard(rules_text="default quick hand_size ace"))
    assert problems and "needs at least" in problems[0]


@pytest.mark.parametrize("game", ["nyuri", "noddy", "box", "nestors"])
def test_the_docs_page_shows_the_shipped_text(game: str) -> None:
    """docs/games/GAME.md includes the packaged rules file, so the two have one source."""
    page = (ROOT / "docs" / "games" / f"{game}.md").read_text(encoding="utf-8")
    shipped = f"plugins/cardcore-{game}/src/cardcore_{game}/rules.md"
    assert f'--8<-- "{shipped}"' in page
    assert (ROOT / shipped).read_text(encoding="utf-8") == default_host().game_spec(game).rules_text


def test_the_kit_reports_a_game_without_rules() -> None:
    """run_checks on a game id (what certify runs) fails property 'rules' when the text is empty."""
    from cardcore import PluginHost, hookimpl
    from cardcore.testing import run_checks

    spec = attrs.evolve(_highcard(rules_text=""), distribution="", version="")

    class Bare:
        @hookimpl
        def cardcore_register_games(self) -> list[GameSpec]:
            return [spec]

    host = PluginHost(load_entrypoints=False)
    host.register(Bare(), name="bare-plugin")
    report = run_checks("highcard", players=[2], games=1, host=host, hash_seeds=False)
    assert [r.property for _, _, r in report.failures()] == ["rules"]
    assert "has no rules text" in report.failures()[0][2].message
