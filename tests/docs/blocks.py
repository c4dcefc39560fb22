"""Find the code blocks of Markdown pages, and the commands and output of console blocks.

Conventions the documentation follows (and the docs test enforces):

- A ``python`` block is code to run; a ``console`` block holds shell commands, one a line,
  with an optional ``# comment`` after a command.
- In a console block, lines that start with ``$ `` are commands and the lines after one
  (up to the next ``$ `` line) are its output; a block without ``$ `` lines holds only
  commands. A ``text`` block right after a ``python`` or ``console`` block (nothing but
  blank lines between) is the output of that block.
- In shown output, ``...`` stands for any text within a line, and a line of only ``...``
  for any number of lines.
- An HTML comment ``<!-- not-run: REASON -->`` just above a block (blank lines allowed
  between) marks a block that the test does not run, and says why.
- ``<!-- file: NAME -->`` just above a block says that the reader saves the block as the
  file ``NAME`` (in the current folder): the test writes it there, then runs the block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

RUN_LANGS = ("python", "console")
"""The languages of the blocks that are run."""
NOT_RUN = re.compile(r"^\s*<!--\s*not-run:\s*(?P<reason>.*?)\s*-->\s*$")
FILE = re.compile(r"^\s*<!--\s*file:\s*(?P<name>\S*)\s*-->\s*$")
COMMENT = re.compile(r"^\s*<!--.*-->\s*$")
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`]*?)\s*$")


@dataclass(frozen=True)
class Block:
    """One fenced code block of a page."""

    path: Path
    line: int
    """The line of the opening fence (1-based)."""
    lang: str
    text: str
    not_run: str | None = None
    """The reason given by a ``not-run`` marker above the block, if any."""
    output: str | None = None
    """The text of a ``text`` block right after this one: its expected output."""
    file: str | None = None
    """The file name given by a ``file`` marker above the block, if any."""

    def where(self, root: Path) -> str:
        """``file:line`` of the block, relative to ``root`` when it is inside it."""
        try:
            name = self.path.relative_to(root)
        except ValueError:
            name = self.path
        return f"{name}:{self.line}"


@dataclass(frozen=True)
class Command:
    """One command of a console block, and the output shown for it (if any)."""

    line: int
    """The line of the command in its page (1-based)."""
    text: str
    shown: str | None = None
    """The output shown after a ``$ `` command (``None`` for a block without prompts)."""


def find_blocks(path: Path) -> list[Block]:
    """Every fenced block of a Markdown file, in order.

    Args:
        path: the Markdown file.

    Returns:
        The blocks, each with its opening line, language, text (common indent removed), a
        ``not-run`` reason when one is marked just above, and the following ``text`` block
        as its output when the block is python or console.

    Raises:
        ValueError: a fence that is never closed.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    raw: list[tuple[int, int, str, str]] = []  # (start, end, info, text)
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m["indent"], m["fence"], m["info"]
        body: list[str] = []
        j = i + 1
        while j < len(lines):
            close = lines[j].strip()
            if close.startswith(fence) and set(close) <= set(fence[0]):
                break
            body.append(lines[j][len(indent) :] if lines[j].startswith(indent) else lines[j])
            j += 1
        else:
            raise ValueError(f"{path}:{i + 1}: code block is never closed")
        text = "\n".join(body) + ("\n" if body else "")
        raw.append((i, j, info.split()[0] if info else "", text))
        i = j + 1
    blocks: list[Block] = []
    for k, (start, end, lang, text) in enumerate(raw):
        output = None
        if lang in RUN_LANGS and k + 1 < len(raw):
            nstart, _, nlang, ntext = raw[k + 1]
            if nlang == "text" and all(not s.strip() for s in lines[end + 1 : nstart]):
                output = ntext
        not_run, file = _markers(lines, start)
        blocks.append(Block(path, start + 1, lang, text, not_run, output, file))
    return blocks


def _markers(lines: list[str], start: int) -> tuple[str | None, str | None]:
    """The ``not-run`` reason and ``file`` name marked just above line ``start``.

    The markers are the HTML comments right above the block (blank lines allowed).
    """
    reason = file = None
    k = start - 1
    while k >= 0 and (not lines[k].strip() or COMMENT.match(lines[k])):
        if m := NOT_RUN.match(lines[k]):
            reason = m["reason"]
        elif m := FILE.match(lines[k]):
            file = m["name"]
        k -= 1
    return reason, file


def split_comment(line: str) -> str:
    """A shell line without its trailing ``# comment`` (quotes respected)."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line.rstrip()


def commands(block: Block) -> list[Command]:
    """The commands of a console block, each with its page line and shown output.

    Args:
        block: a console block.

    Returns:
        One entry per command (blank lines and whole-line comments left out). In a block
        with ``$ `` prompts, each command carries the output lines shown after it.
    """
    lines = block.text.splitlines()
    prompted = any(s.startswith("$ ") for s in lines)
    out: list[Command] = []
    if not prompted:
        for n, s in enumerate(lines):
            cmd = split_comment(s).strip()
            if cmd:
                out.append(Command(block.line + 1 + n, cmd))
        return out
    current: tuple[int, str] | None = None
    shown: list[str] = []
    for n, s in enumerate(lines):
        if s.startswith("$ "):
            if current:
                out.append(Command(current[0], current[1], _joined(shown)))
            current, shown = (block.line + 1 + n, split_comment(s[2:]).strip()), []
        elif current is None:
            if s.strip():
                raise ValueError(
                    f"{block.path}:{block.line + 1 + n}: output before the first '$ ' command"
                )
        else:
            shown.append(s)
    if current:
        out.append(Command(current[0], current[1], _joined(shown)))
    return out


def _joined(shown: list[str]) -> str:
    while shown and not shown[-1].strip():
        shown.pop()
    return "\n".join(shown)


def output_matches(shown: str, actual: str) -> bool:
    """Whether ``actual`` output agrees with the ``shown`` output of the docs.

    Trailing spaces and blank lines at the end are ignored; ``...`` in a shown line stands
    for any text within the line, and a line of only ``...`` for any number of lines.

    Args:
        shown: the output written in the docs.
        actual: what the command or block printed.

    Returns:
        True when they agree.
    """
    want = [s.rstrip() for s in shown.rstrip().splitlines()]
    got = [s.rstrip() for s in actual.rstrip().splitlines()]
    return _match(want, got)


def _match(want: list[str], got: list[str]) -> bool:
    if not want:
        return not got
    head = want[0]
    if head.strip() == "...":
        return any(_match(want[1:], got[k:]) for k in range(len(got) + 1))
    if not got:
        return False
    pattern = ".*?".join(re.escape(part) for part in head.split("..."))
    return re.fullmatch(pattern, got[0]) is not None and _match(want[1:], got[1:])
