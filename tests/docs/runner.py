"""Run the code blocks of a documentation page in a fresh venv, as a reader would.

A page runs in a scratch copy of the repository's files, so that nothing an example
writes reaches the checkout. docs/ pages and the top README start at the top of the
copy; a plugin's README starts in that plugin's folder.
Blocks run in page order: python blocks in one namespace (one process per page), console
commands one by one through ``bash`` with the venv activated; ``cd DIR`` on a line of its
own moves the page's shell.

``pip install`` is the one command that is rewritten: a folder whose sources are exactly
those of a wheel built for this session is installed from that wheel (``-e`` dropped),
so the command checks that the folder is a distribution of this repository and that pip
is content, without rebuilding it; a repository distribution named bare
(``pip install cardcore``) is an error, because none of them is on PyPI.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import select
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from tests.docs.blocks import Block, Command, commands, find_blocks, output_matches
from tests.docs.freshenv import ROOT, Venv, normalise, source_digest

DRIVER = Path(__file__).with_name("driver.py")
STANDALONE = re.compile(r"<!--\s*every python block here runs on its own\s*-->")
"""A page with this comment runs each python block alone, in a new process."""
FRAGMENT_LANGS = ("py",)
"""Code that is part of a file the reader writes (a hooks module), shown but not run."""
REFUSED_LANGS = ("bash", "sh", "shell", "shell-session", "pycon", "python3", "py3")
"""Languages the docs do not use: a runnable example is ``python`` or ``console``."""
TIMEOUT = 1500
"""Seconds one command or block may take before it is taken for hung.

A guard against a hang, never a speed check: the slowest block (distributing.md's
compiled wheels) takes about 80 s on an idle 2-core machine and was seen over 300 s
on a busy one.
"""
_SKIP_NAMES = {"site", "build", "dist", "__pycache__"}


def doc_pages() -> list[Path]:
    """Every page whose examples are run: docs/, the README and each plugin's README."""
    pages = sorted(p for p in (ROOT / "docs").rglob("*.md") if "_hooks" not in p.parts)
    pages.append(ROOT / "README.md")
    pages += sorted(ROOT.glob("plugins/*/README.md"))
    pages += sorted(ROOT.glob("examples/*/README.md"))
    return pages


def rel(path: Path) -> str:
    """A path relative to the repository, for messages."""
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


class DocExampleError(AssertionError):
    """An example of the docs failed; the message names the file, line and command."""


def make_checkout(dest: Path) -> Path:
    """A scratch copy of the repository's files in ``dest`` (no dot-folders, no builds).

    Args:
        dest: a folder that does not exist yet.

    Returns:
        ``dest``.
    """

    def ignore(folder: str, names: list[str]) -> set[str]:
        return {n for n in names if n.startswith(".") or n in _SKIP_NAMES}

    shutil.copytree(ROOT, dest, ignore=ignore, symlinks=True)
    return dest


def start_dir(page: Path, checkout: Path) -> Path:
    """Where a page's shell starts: a plugin's folder for its README, else the top."""
    try:
        folder = page.parent.relative_to(ROOT)
    except ValueError:  # a page outside the repository (the runner's own tests)
        return checkout
    if folder.parts[:1] in (("plugins",), ("examples",)):
        return checkout / folder
    return checkout


@dataclass
class Report:
    """What the docs test saw, for the summary at the end of the session."""

    ran: list[str] = field(default_factory=list)
    not_run: list[str] = field(default_factory=list)
    fragments: list[str] = field(default_factory=list)


REPORT = Report()


class PythonSession:
    """A venv Python that runs blocks in one namespace (``driver.py``)."""

    def __init__(self, venv: Venv, cwd: Path, log: Path, home: Path) -> None:
        read, write = os.pipe()
        self._log = log.open("wb")
        self._proc = subprocess.Popen(
            [str(venv.python), "-u", str(DRIVER), str(write)],
            cwd=cwd,
            env=venv.env(home),
            stdin=subprocess.PIPE,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            pass_fds=(write,),
            text=True,
        )
        os.close(write)
        self._replies = os.fdopen(read, encoding="utf-8")

    def run(self, request: dict[str, object]) -> dict[str, str | None]:
        """Send one request and wait for its reply."""
        assert self._proc.stdin is not None
        self._proc.stdin.write(json.dumps(request) + "\n")
        self._proc.stdin.flush()
        ready, _, _ = select.select([self._replies], [], [], TIMEOUT)
        if not ready:
            self.close()
            return {"out": "", "error": f"no answer within {TIMEOUT} s"}
        line = self._replies.readline()
        if not line:
            self._log.flush()
            return {"out": "", "error": "the Python process died"}
        reply: dict[str, str | None] = json.loads(line)
        return reply

    def close(self) -> None:
        """End the process."""
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        try:
            self._proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._replies.close()
        self._log.close()


class PageRunner:
    """Runs one page's blocks in order (see the module docstring)."""

    def __init__(self, page: Path, venv: Venv, scratch: Path) -> None:
        self.page = page
        self.venv = venv
        self.checkout = make_checkout(scratch / "checkout")
        self.cwd = start_dir(page, self.checkout)
        self.log = scratch / "python.log"
        self.home = scratch / "home"  # a reader's home folder: examples may write into ~
        self.home.mkdir(parents=True, exist_ok=True)
        self.blocks = find_blocks(page)
        self.standalone = bool(STANDALONE.search(page.read_text(encoding="utf-8")))
        self._python: PythonSession | None = None
        self.ran = 0
        self.not_run: list[str] = []
        self.in_repo = page.resolve().is_relative_to(ROOT)

    def where(self, line: int) -> str:
        """``file:line`` in messages."""
        return f"{rel(self.page)}:{line}"

    def run(self) -> None:
        """Run every runnable block, raising :class:`DocExampleError` at the first failure."""
        try:
            for block in self.blocks:
                self.run_block(block)
        finally:
            if self._python is not None:
                self._python.close()

    def run_block(self, block: Block) -> None:
        """Run one block, or note why it is not run."""
        if block.lang in REFUSED_LANGS:
            raise DocExampleError(
                f"{self.where(block.line)}: a ```{block.lang} block; runnable examples are "
                "```python or ```console (```py for fragments of a file, not run)"
            )
        if block.lang in FRAGMENT_LANGS:
            if self.in_repo:
                REPORT.fragments.append(f"{self.where(block.line)} (```{block.lang}, a fragment)")
            return
        if block.lang not in ("python", "console"):
            if block.not_run is not None:
                raise DocExampleError(
                    f"{self.where(block.line)}: a not-run marker above a ```{block.lang} "
                    "block, which is never run anyway"
                )
            return
        if block.not_run is not None:
            if not block.not_run:
                raise DocExampleError(f"{self.where(block.line)}: a not-run marker needs a reason")
            self.not_run.append(f"{self.where(block.line)}: {block.not_run}")
            if self.in_repo:
                REPORT.not_run.append(self.not_run[-1])
            return
        if block.file is not None:
            self.save(block)
        if block.lang == "python":
            self.run_python(block)
        else:
            self.run_console(block)
        self.ran += 1
        if self.in_repo:
            REPORT.ran.append(self.where(block.line))

    def save(self, block: Block) -> None:
        """Write a block to the file its ``file`` marker names, as the reader would."""
        name = block.file or ""
        target = Path(os.path.normpath(self.cwd / name))
        if not name or not target.is_relative_to(self.cwd) or target.is_dir():
            raise DocExampleError(
                f"{self.where(block.line)}: a file marker needs a file name in the current "
                f"folder, not {name!r}"
            )
        target.write_text(block.text, encoding="utf-8")

    # python blocks

    def python(self) -> PythonSession:
        """The page's Python process (started on first use)."""
        if self._python is None:
            self._python = PythonSession(self.venv, self.cwd, self.log, self.home)
        return self._python

    def run_python(self, block: Block) -> None:
        """Run a python block in the page's namespace (a new one on a standalone page)."""
        session = self.python()
        if self.standalone:
            session.close()
            self._python = None
            session = self.python()
        reply = session.run({"file": rel(self.page), "line": block.line, "code": block.text})
        if reply["error"]:
            printed = reply["out"] or ""
            raise DocExampleError(
                f"{self.where(block.line)}: the python block raised"
                + (" (run on its own)" if self.standalone else "")
                + f":\n{reply['error']}"
                + (f"\nIt printed:\n{printed}" if printed else "")
            )
        if block.output is not None:
            self.check_output(block.line, "the python block", block.output, reply["out"] or "")

    # console blocks

    def run_console(self, block: Block) -> None:
        """Run a console block's commands in order."""
        printed: list[str] = []
        for cmd in commands(block):
            out = self.run_command(cmd)
            printed.append(out)
        if block.output is not None:
            self.check_output(block.line, "the console block", block.output, "".join(printed))

    def run_command(self, cmd: Command) -> str:
        """Run one command; return what it printed (stdout and stderr, as a terminal shows)."""
        words = shlex.split(cmd.text)
        if len(words) == 2 and words[0] == "cd":
            target = Path(os.path.normpath(self.cwd / os.path.expanduser(words[1])))
            if not target.is_dir():
                raise DocExampleError(f"{self.where(cmd.line)}: `{cmd.text}`: no such folder")
            self.cwd = target
            return ""
        text, note = self.rewrite_pip(cmd, words)
        try:
            done = subprocess.run(
                ["bash", "-c", text],
                cwd=self.cwd,
                env=self.venv.env(self.home),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                timeout=TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired as e:
            raise DocExampleError(
                f"{self.where(cmd.line)}: `{cmd.text}` did not finish within {TIMEOUT} s"
            ) from e
        out = done.stdout
        if note and "Successfully installed" in out:
            self.venv.mark_changed()
        ok_shown = cmd.shown is not None and output_matches(cmd.shown, out)
        if done.returncode and not ok_shown:
            raise DocExampleError(
                f"{self.where(cmd.line)}: `{cmd.text}` exited with status {done.returncode}"
                + (f" (run as `{text}`)" if note else "")
                + f":\n{_tail(out)}"
            )
        if cmd.shown is not None and not ok_shown:
            self.check_output(cmd.line, f"`{cmd.text}`", cmd.shown, out)
        return out

    def rewrite_pip(self, cmd: Command, words: list[str]) -> tuple[str, bool]:
        """A ``pip install`` line with repository folders replaced by their wheels.

        Returns:
            The command to run, and whether it is a rewritten pip install.
        """
        if words[:2] in (["pip", "install"], ["pip3", "install"]):
            start = 2
        elif len(words) > 3 and words[1:4] == ["-m", "pip", "install"]:
            start = 4
        else:
            return cmd.text, False
        has_links = any(w in ("-f", "--find-links") or w.startswith("--find-links=") for w in words)
        out = words[:start]
        takes_value = {"-r", "-c", "-f", "--find-links", "-i", "--index-url", "--extra-index-url"}
        takes_value |= {"-t", "--target", "--prefix", "--root"}
        i = start
        while i < len(words):
            w = words[i]
            if w in ("-e", "--editable"):
                i += 1
                if i == len(words):
                    raise DocExampleError(f"{self.where(cmd.line)}: `{cmd.text}`: -e needs a path")
                out += self._requirement(cmd, words[i], has_links, editable=True)
            elif w in takes_value:
                out += words[i : i + 2]
                i += 1
            elif w.startswith("-"):
                out.append(w)
            else:
                out += self._requirement(cmd, w, has_links, editable=False)
            i += 1
        return shlex.join(out), True

    def _requirement(self, cmd: Command, req: str, has_links: bool, *, editable: bool) -> list[str]:
        m = re.match(r"^(?P<base>[^\[<>=!~;]+)(?P<rest>.*)$", req)
        base, rest = (m["base"], m["rest"]) if m else (req, "")
        looks_like_path = base.startswith((".", "/", "~")) or "/" in base or base.endswith(".whl")
        if looks_like_path:
            folder = Path(os.path.normpath(self.cwd / os.path.expanduser(base)))
            if folder.is_dir():
                wheel = self.venv.wheels.by_source.get(source_digest(folder))
                if wheel is not None:
                    return [f"{wheel}{rest}"]
            return ["-e", req] if editable else [req]
        if normalise(base) in self.venv.wheels.by_name and not has_links:
            raise DocExampleError(
                f"{self.where(cmd.line)}: `{cmd.text}` names {base!r}, which is not on PyPI: "
                "install it from a checkout (`pip install ./plugins/cardcore-<game>`, "
                "`pip install ./` for cardcore) or from built wheels (`--find-links`)"
            )
        return ["-e", req] if editable else [req]

    def check_output(self, line: int, what: str, shown: str, actual: str) -> None:
        """Raise when ``actual`` does not agree with the ``shown`` output."""
        if output_matches(shown, actual):
            return
        diff = "\n".join(
            difflib.unified_diff(
                shown.rstrip().splitlines(),
                actual.rstrip().splitlines(),
                "shown in the docs",
                "printed",
                lineterm="",
            )
        )
        raise DocExampleError(f"{self.where(line)}: {what} printed other output:\n{diff}")


def _tail(text: str, lines: int = 40) -> str:
    parts = text.rstrip().splitlines()
    if len(parts) > lines:
        parts = ["...", *parts[-lines:]]
    return "\n".join(parts)
