"""The docs test's own machinery: it finds blocks, and it fails where an example fails."""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

import pytest

from tests.docs.blocks import commands, find_blocks, output_matches
from tests.docs.freshenv import Venv
from tests.docs.runner import DocExampleError, PageRunner


def page(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "page.md"
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def test_blocks_markers_and_output(tmp_path: Path) -> None:
    """Blocks keep their line, a not-run marker its reason, a following text block is output."""
    p = page(
        tmp_path,
        """
        # Title

        ```python
        print("hi")
        ```

        ```text
        hi
        ```

        <!-- not-run: interactive, waits for keyboard input -->

        ```console
        cardcore play noddy --human 0   # you play
        ```

        - a list item:

          ```console
          $ echo one
          one
          $ echo two # said twice
          two
          ```
        """,
    )
    blocks = find_blocks(p)
    assert [(b.line, b.lang) for b in blocks] == [
        (3, "python"),
        (7, "text"),
        (13, "console"),
        (19, "console"),
    ]
    assert blocks[0].output == "hi\n"
    assert blocks[0].not_run is None
    assert blocks[2].not_run == "interactive, waits for keyboard input"
    assert [(c.line, c.text, c.shown) for c in commands(blocks[2])] == [
        (14, "cardcore play noddy --human 0", None)
    ]
    assert [(c.line, c.text, c.shown) for c in commands(blocks[3])] == [
        (20, "echo one", "one"),
        (22, "echo two", "two"),
    ]


def test_an_unclosed_block_is_an_error(tmp_path: Path) -> None:
    """A fence that never closes is reported with its line."""
    with pytest.raises(ValueError, match=r"page.md:2: code block is never closed"):
        find_blocks(page(tmp_path, "text\n```python\nprint(1)\n"))


@pytest.mark.parametrize(
    ("shown", "actual", "ok"),
    [
        ("a\nb", "a\nb\n", True),
        ("a  \nb\n\n", "a\nb", True),
        ("a\nb", "a\nc", False),
        ("a\nb", "a", False),
        ("in ... s.", "in 12.5 s.", True),
        ("in ... s.", "in 12.5 min.", False),
        ("first\n...\nlast", "first\nx\ny\nlast", True),
        ("first\n...\nlast", "first\nlast", True),
        ("first\n...\nlast", "first\nx", False),
    ],
)
def test_output_matching(shown: str, actual: str, ok: bool) -> None:
    """Shown output must match exactly, but for trailing space and ``...`` wildcards."""
    assert output_matches(shown, actual) is ok


def run_page(tmp_path: Path, venv: Venv, text: str) -> PageRunner:
    runner = PageRunner(page(tmp_path, text), venv, tmp_path / "scratch")
    runner.run()
    return runner


def test_a_failing_command_names_file_line_and_command(docs_venv: Venv, tmp_path: Path) -> None:
    """A command that exits non-zero fails the page, naming where and what."""
    with pytest.raises(
        DocExampleError, match=r"page.md:3: `cardcore play nogame` exited with status 2"
    ):
        run_page(
            tmp_path,
            docs_venv,
            """
            ```console
            cardcore list
            cardcore play nogame
            ```
            """,
        )


def test_other_output_than_shown_fails(docs_venv: Venv, tmp_path: Path) -> None:
    """A command's output is compared with the output shown after its ``$`` line."""
    with pytest.raises(DocExampleError, match=r"page.md:2: `echo 41` printed other output") as info:
        run_page(tmp_path, docs_venv, "```console\n$ echo 41\n42\n```\n")
    assert "-42" in str(info.value) and "+41" in str(info.value)


def test_a_python_block_runs_in_the_fresh_venv(docs_venv: Venv, tmp_path: Path) -> None:
    """Python blocks run with the venv's interpreter, share one namespace, and show output."""
    runner = run_page(
        tmp_path,
        docs_venv,
        f"""
        ```python
        import sys
        where = sys.prefix
        ```

        ```python
        print(where == {str(docs_venv.path)!r})
        ```

        ```text
        True
        ```
        """,
    )
    assert runner.ran == 2


def test_a_failing_python_block_shows_the_page_line(docs_venv: Venv, tmp_path: Path) -> None:
    """The traceback of a failing block names the page and the line in it."""
    with pytest.raises(DocExampleError, match=r"page.md:1: the python block raised") as info:
        run_page(tmp_path, docs_venv, "```python\nx = 1\nraise ValueError(x)\n```\n")
    assert 'page.md", line 3' in str(info.value)
    assert "ValueError: 1" in str(info.value)


def test_standalone_pages_run_each_block_alone(docs_venv: Venv, tmp_path: Path) -> None:
    """On a page marked so, a block that leans on an earlier one fails."""
    text = """
        <!-- every python block here runs on its own -->

        ```python
        x = 1
        ```

        ```python
        print(x)
        ```
        """
    with pytest.raises(
        DocExampleError, match=r"page.md:7: the python block raised \(run on its own\)"
    ) as info:
        run_page(tmp_path, docs_venv, text)
    assert "NameError" in str(info.value)


def test_installing_by_a_bare_name_fails(docs_venv: Venv, tmp_path: Path) -> None:
    """`pip install cardcore` is refused: the distributions are not on PyPI."""
    with pytest.raises(
        DocExampleError, match=r"page.md:2: .*'cardcore-noddy', which is not on PyPI"
    ):
        run_page(tmp_path, docs_venv, "```console\npip install cardcore-noddy\n```\n")


def test_installing_from_the_checkout_uses_the_wheels(docs_venv: Venv, tmp_path: Path) -> None:
    """`pip install ./ ./plugins/...` from the top of the checkout works and changes nothing.

    What is installed is compared before and after (an earlier page may have installed a
    plugin of its own into the shared venv, which this test does not judge).
    """
    before = _installed(docs_venv)
    runner = run_page(
        tmp_path,
        docs_venv,
        """
        ```console
        pip install "./[rl]" ./plugins/cardcore-noddy
        pip install -e ./examples/cardcore-highcard
        ```
        """,
    )
    assert runner.ran == 1
    assert _installed(docs_venv) == before  # nothing new was installed


def _installed(venv: Venv) -> str:
    """``pip freeze`` of the venv: every distribution, and where it came from unless editable.

    An editable install's line is its folder, which is each test's own scratch checkout,
    so only the comment line that names the distribution and version is kept.
    """
    done = subprocess.run(
        [str(venv.python), "-m", "pip", "freeze", "--all"],
        env=venv.env(),
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return "".join(
        line for line in done.stdout.splitlines(keepends=True) if not line.startswith("-e ")
    )


def test_a_marked_block_is_not_run_and_is_listed(docs_venv: Venv, tmp_path: Path) -> None:
    """A block under a not-run marker is listed with its reason, and not run."""
    runner = run_page(
        tmp_path,
        docs_venv,
        """
        <!-- not-run: interactive, waits for keyboard input -->
        ```console
        false
        ```
        """,
    )
    assert runner.ran == 0
    assert runner.not_run == [f"{tmp_path / 'page.md'}:2: interactive, waits for keyboard input"]


def test_a_marker_needs_a_reason(docs_venv: Venv, tmp_path: Path) -> None:
    """An empty not-run marker is an error."""
    with pytest.raises(DocExampleError, match="needs a reason"):
        run_page(tmp_path, docs_venv, "<!-- not-run: -->\n```console\nfalse\n```\n")


def test_a_file_marker_saves_the_block(docs_venv: Venv, tmp_path: Path) -> None:
    """A block under a file marker is written to that file, so later commands can use it."""
    runner = run_page(
        tmp_path,
        docs_venv,
        """
        <!-- file: greet.py -->
        ```python
        print("hello from a file")
        ```

        ```console
        $ python greet.py
        hello from a file
        ```
        """,
    )
    assert runner.ran == 2
    blocks = find_blocks(tmp_path / "page.md")
    assert blocks[0].file == "greet.py"
    assert blocks[1].file is None
