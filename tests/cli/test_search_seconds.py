"""``--search-seconds``: one per-decision budget for the search bots in play and arena."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardcore.cli import main
from cardcore.cli._common import CliError, with_search_seconds


def test_the_budget_reaches_only_bots_that_take_seconds() -> None:
    """Search bots get ``seconds=S``; other bots and specs that set their own do not."""
    spec = "ismcts,random,pimc:seconds=0.5,ismcts:iterations=50,nyuri-heuristic"
    assert with_search_seconds(spec, 0.2, None) == (
        "ismcts:seconds=0.2,random,pimc:seconds=0.5,ismcts:iterations=50:seconds=0.2,"
        "nyuri-heuristic"
    )
    assert with_search_seconds(spec, None, None) == spec
    # An unknown name is left for the usual error when the bots are built.
    assert with_search_seconds("no-such-bot", 0.2, None) == "no-such-bot"


@pytest.mark.parametrize(("seconds", "limit"), [(0.0, None), (-1.0, None), (1.0, 1.05)])
def test_a_budget_that_cannot_be_kept_is_refused(seconds: float, limit: float | None) -> None:
    """Not positive, or with no 10% room under the time limit: a clear error."""
    with pytest.raises(CliError, match="--search-seconds"):
        with_search_seconds("ismcts", seconds, limit)


def test_play_and_arena_refuse_a_budget_over_the_time_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The commands turn the refusal into one line and exit code 2."""
    assert main(["play", "highcard", "--bots", "ismcts", "--search-seconds", "2",
                 "--time-limit", "1"]) == 2  # fmt: skip
    assert "leaves no room under --time-limit 1" in capsys.readouterr().err
    assert main(["arena", "highcard", "--bots", "ismcts,random", "--games", "1",
                 "--search-seconds", "6"]) == 2  # fmt: skip
    assert "--time-limit 5" in capsys.readouterr().err


def test_play_gives_the_search_bots_the_budget(capsys: pytest.CaptureFixture[str]) -> None:
    """A match with ``--search-seconds`` is played by time-budgeted search bots."""
    code = main(["play", "highcard", "--bots", "ismcts,pimc", "--search-seconds", "0.01",
                 "--seed", "4", "--json"])  # fmt: skip
    assert code == 0
    assert json.loads(capsys.readouterr().out)["bots"] == ["ismcts", "pimc"]


def test_arena_shows_the_budget_in_the_bot_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The arena's entrants carry the budget, so a run's configuration says it."""
    code = main(["arena", "highcard", "--bots", "ismcts,random", "--games", "1",
                 "--search-seconds", "0.01", "--workers", "0", "--no-progress",
                 "--db", str(tmp_path / "a.sqlite"), "--json"])  # fmt: skip
    assert code == 0
    labels = [b["label"] for b in json.loads(capsys.readouterr().out)["config"]["bots"]]
    assert labels == ["ismcts:seconds=0.01", "random"]
