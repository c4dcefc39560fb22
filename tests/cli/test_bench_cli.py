"""`cardcore bench`: a table on the terminal, Markdown on request, progress, warm-up."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

import cardcore._bench as bench
from cardcore import load_game
from cardcore.cli import main
from cardcore.cli._bench import Progress


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


QUICK = ("bench", "highcard", "--seconds", "0.05", "--ismcts-iterations", "5")


def test_bench_prints_a_table_not_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --markdown the output is aligned text: headings, a rule, one row per preset."""
    code, out, err = run(capsys, *QUICK)
    assert code == 0
    assert "|" not in out and "# Benchmark" not in out
    lines = out.splitlines()
    head = lines.index("Speed") + 1
    assert lines[head].split()[:4] == ["game", "preset", "players", "decisions/s"]
    assert set(lines[head + 1]) <= {"-", " "}
    rows = [line.split() for line in lines[head + 2 : head + 4]]
    assert [r[:2] for r in rows] == [["highcard", "default"], ["highcard", "quick"]]
    assert max(len(line) for line in lines) <= 80
    assert err == ""  # not a terminal: no progress line


def test_markdown_only_with_a_file_and_no_maintainer_hints(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """--markdown FILE writes the Markdown page; nothing a user sees mentions make targets."""
    md = tmp_path / "r.md"
    code, out, err = run(capsys, *QUICK, "--markdown", str(md))
    assert code == 0
    page = md.read_text(encoding="utf-8")
    assert page.startswith("# Benchmark results")
    assert "| highcard | default | 4 |" in page
    assert "|" not in out.replace(str(md), "")
    for text in (out, err, page):
        assert "make " not in text


def test_bench_json_has_ismcts_rates(capsys: pytest.CaptureFixture[str]) -> None:
    """JSON rows carry ISMCTS iterations/s and the positions searched; forced games say n/a."""
    code, out, _ = run(capsys, *QUICK, "--json")
    assert code == 0
    rows = {r["preset"]: r for r in json.loads(out)["results"]}
    assert 1 <= rows["default"]["ismcts_positions"] <= 4
    assert rows["default"]["ismcts_iterations_per_s"] > 0
    assert rows["default"]["warmup_ms"] > 0
    # highcard's quick preset deals one card: no decision has a choice to search.
    assert rows["quick"]["ismcts_positions"] == 0
    _, table, _ = run(capsys, *QUICK)
    (quick,) = [line for line in table.splitlines() if line.startswith("highcard  quick")][:1]
    assert quick.split()[-1] == "n/a"


def test_bad_bench_input_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown game names the installed ones; a preset no chosen game has is named."""
    code, _, err = run(capsys, "bench", "nope", "--seconds", "0.05")
    assert code == 2 and "installed games" in err and "highcard" in err
    code, _, err = run(capsys, "bench", "highcard", "--preset", "fast", "--seconds", "0.05")
    assert code == 2 and "preset 'fast'" in err
    code, _, err = run(capsys, "bench", "highcard", "--ismcts-iterations", "0")
    assert code == 2 and "--ismcts-iterations" in err


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_count_and_time_left_on_a_terminal_only() -> None:
    """On a terminal: `[k/n] label` and, after the first, the time left; elsewhere nothing."""
    now = [0.0]
    tty = _Tty()
    p = Progress(tty, clock=lambda: now[0])
    p(0, 3, "nyuri preset=default")
    now[0] = 20.0
    p(1, 3, "nyuri preset=pagat")
    now[0] = 130.0
    p(2, 3, "noddy preset=default")
    p.close()
    shown = tty.getvalue().split("\r")
    assert shown[1].strip() == "bench [1/3] nyuri preset=default"
    assert shown[2].strip() == "bench [2/3] nyuri preset=pagat, about 40 s left"
    assert shown[3].strip() == "bench [3/3] noddy preset=default, about 1:05 left"
    assert shown[-1] == ""  # the line is erased at the end
    plain = io.StringIO()
    quiet = Progress(plain)
    quiet(0, 3, "x")
    quiet.close()
    assert plain.getvalue() == ""
    off = _Tty()
    Progress(off, enabled=False)(0, 3, "x")
    assert off.getvalue() == ""


def test_one_time_setup_happens_before_the_timed_playouts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game that builds tables on first use builds them in the warm-up, not the timed run."""
    game = load_game("highcard")
    log: list[Any] = []
    real_initial = game.initial_state

    class Lazy:
        """The game, with a one-time set-up on its first deal."""

        def __getattr__(self, name: str) -> Any:
            return getattr(game, name)

        def initial_state(self, *args: Any, **kwargs: Any) -> Any:
            if "setup" not in log:
                log.append("setup")
            return real_initial(*args, **kwargs)

    real_playouts = bench._playouts

    def spy(g: Any, n: int, seconds: float, seed: int) -> Any:
        log.append(("playouts", seconds))
        return real_playouts(g, n, seconds, seed)

    monkeypatch.setattr(bench, "_playouts", spy)
    result = bench.bench_game(Lazy(), seconds=0.05, ismcts_iterations=5)
    timed = log.index(("playouts", 0.05))
    assert log.index("setup") < timed
    assert log[0] == ("playouts", 0.0)  # the warm-up game comes first
    assert result.warmup_ms > 0
