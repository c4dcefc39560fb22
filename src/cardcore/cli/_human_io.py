"""The terminal side of human play: reading lines, and writing text in colour or plain.

Colour comes from rich, imported only when it is used: when standard output is a
terminal, ``NO_COLOR`` is unset (or empty) and ``TERM`` is not ``dumb``. Otherwise every
line is plain text, so that a pipe, a log file or a test sees exactly what was written.
At a terminal, long lines are wrapped at word boundaries to its width (a continued line
is indented under its start), and a bot's thinking shows on a line of its own that goes
away when it has decided.

Input is read one line at a time. At a terminal the line is edited with prompt_toolkit
(imported only then): arrow keys, history, and Tab to complete the texts of the legal
actions and commands; without it, with the readline module. When standard input is not a
terminal (a script, a pipe, a test), each line read is echoed after its prompt, so that a
transcript reads like the session a person would have seen. The end of the input reads
as ``None``; Ctrl-C raises :class:`KeyboardInterrupt` for the caller to handle.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import sys
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any, Final, TextIO, final

__all__ = [
    "Terminal",
    "ascii_cards",
    "changed_lines",
    "columns",
    "matches",
    "wants_color",
    "wrap_text",
]

_CARD_RED: Final = re.compile(r"(?<!\w)(?:10|[2-9AJQKT])[♥♦]")
_CARD_BLACK: Final = re.compile(r"(?<!\w)(?:10|[2-9AJQKT])[♠♣]")
_UNKNOWN: Final = re.compile(r"(?<![\w?])\?(?![\w?])")
_SUIT_LETTER: Final = str.maketrans({"♣": "c", "♦": "d", "♥": "h", "♠": "s"})


def ascii_cards(text: str) -> str:
    """``steal 9♥+3♣`` -> ``steal 9h+3c``: the spelling a keyboard types."""
    return text.translate(_SUIT_LETTER)


def matches(typed: str, choices: Sequence[str]) -> list[str]:
    """The choices that start with what was typed, in their order.

    Case does not matter, and suits may be typed as letters (``steal 9h`` finds
    ``steal 9♥+3♣``); a choice is listed once.

    Args:
        typed: the text before the cursor.
        choices: the texts that may be completed (actions, commands).

    Returns:
        The matching choices.
    """
    low = typed.lower()
    out: list[str] = []
    for c in choices:
        if c in out:
            continue
        if c.lower().startswith(low) or ascii_cards(c).lower().startswith(low):
            out.append(c)
    return out


def _isatty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except ValueError:  # a closed stream
        return False


def wants_color(stream: object, environ: Mapping[str, str]) -> bool:
    """Whether to write colour to ``stream``.

    Args:
        stream: where the text goes.
        environ: the environment (``NO_COLOR``, ``TERM``).

    Returns:
        True only for a terminal, with ``NO_COLOR`` unset or empty and a capable ``TERM``.
    """
    if environ.get("NO_COLOR"):
        return False
    if environ.get("TERM", "").strip().lower() == "dumb":
        return False
    return _isatty(stream)


def columns(items: Sequence[str], width: int = 80) -> list[str]:
    """Lay out short items in as many columns as fit ``width``, filled column by column.

    Args:
        items: the texts, already numbered if wanted.
        width: the line width.

    Returns:
        The lines.
    """
    if not items:
        return []
    cell = max(len(s) for s in items) + 3
    ncols = max(1, min(len(items), width // cell))
    nrows = -(-len(items) // ncols)
    lines = []
    for r in range(nrows):
        row = [items[c * nrows + r] for c in range(ncols) if c * nrows + r < len(items)]
        lines.append("".join(s.ljust(cell) for s in row).rstrip())
    return lines


_HANG: Final = re.compile(r"^(\s*\S.*?\S\s{2,})\S")
"""A line laid out in two columns (``  save [FILE]   save the match``): continued lines
go under its second column."""


def wrap_text(text: str, width: int) -> str:
    """Wrap every line longer than ``width`` at word boundaries.

    A continued line is indented two more spaces than the line it continues, or under
    the second column of a two-column line (a help text); a word longer than a whole
    line is the only thing ever broken.

    Args:
        text: one or more lines.
        width: the terminal's width in columns.

    Returns:
        The text with no line longer than ``width`` (unless ``width`` is tiny).
    """
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        hang = indent + "  "
        m = _HANG.match(line)
        if m is not None and len(m.group(1)) <= width // 2:
            hang = " " * len(m.group(1))
        if len(hang) > width // 2:
            hang = ""
        wrapper = textwrap.TextWrapper(
            width=max(width, 10),
            initial_indent=indent,
            subsequent_indent=hang,
            break_on_hyphens=False,
        )
        out.extend(wrapper.wrap(line[len(indent) :]) or [line])
    return "\n".join(out)


def changed_lines(before: str, after: str) -> list[str]:
    """The lines of ``after`` that are new or changed compared with ``before``.

    Args:
        before: a rendered view.
        after: the same seat's view one decision later.

    Returns:
        The new and replaced lines of ``after``, in order.
    """
    old, new = before.splitlines(), after.splitlines()
    out: list[str] = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            out.extend(new[j1:j2])
    return out


@final
class Terminal:
    """Where human play reads its lines and writes its text.

    Args:
        stdin: the input stream (default: ``sys.stdin`` at construction).
        stdout: the output stream (default: ``sys.stdout`` at construction).
        color: force colour on or off; ``None`` decides with :func:`wants_color`.
        environ: the environment to decide from (default: ``os.environ``).
    """

    def __init__(
        self,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        *,
        color: bool | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.stdin: TextIO = stdin if stdin is not None else sys.stdin
        self.stdout: TextIO = stdout if stdout is not None else sys.stdout
        env = os.environ if environ is None else environ
        self.color = wants_color(self.stdout, env) if color is None else color
        self.interactive = _isatty(self.stdin)
        """A person types at a terminal (so the terminal echoes the input itself)."""
        self.live = _isatty(self.stdout)
        """A person reads at a terminal: lines are wrapped, thinking is shown."""
        self._status = False
        self._console: Any = None
        self._editor: _Editor | bool | None = None
        """The line editor: ``None`` until first asked, ``False`` when there is none."""
        if self.color:
            from rich.console import Console

            self._console = Console(
                file=self.stdout,
                force_terminal=True,
                highlight=False,
                markup=False,
                emoji=False,
                soft_wrap=True,
            )

    @property
    def width(self) -> int:
        """The line width to lay text out in (80 unless a terminal says otherwise)."""
        if self._console is not None:
            return int(self._console.width)
        if self.live:
            return shutil.get_terminal_size((80, 24)).columns
        return 80

    def _fit(self, text: str) -> str:
        """``text`` wrapped to the terminal's width; as it is when no person reads it."""
        return wrap_text(text, self.width) if self.live else text

    def status(self, text: str | None) -> None:
        """Show a passing line (``seat 2 is thinking...``) at a terminal; ``None`` clears it.

        Nothing is written when standard output is not a terminal.
        """
        if not self.live:
            return
        if self._status:
            self.stdout.write("\r\x1b[K")
            self._status = False
        if text:
            self.stdout.write(text[: max(self.width - 1, 1)])
            self._status = True
        self.stdout.flush()

    def say(self, text: str = "", style: str | None = None) -> None:
        """Write one or more lines, in ``style`` (a rich style) when colour is on."""
        text = self._fit(text)
        if self._console is not None:
            self._console.print(text, style=style)
        else:
            self.stdout.write(text + "\n")
            self.stdout.flush()

    def error(self, text: str) -> None:
        """Write a one-line complaint about the input."""
        self.say(text, "red")

    def view(self, text: str, indent: str = "    ") -> None:
        """Write a rendered table, indented; with colour, red suits are red."""
        body = self._fit(indent + text.replace("\n", "\n" + indent))
        if self._console is None:
            self.stdout.write(body + "\n")
            self.stdout.flush()
            return
        from rich.text import Text

        t = Text(body)
        t.highlight_regex(_CARD_RED, "bold red")
        t.highlight_regex(_CARD_BLACK, "bold")
        t.highlight_regex(_UNKNOWN, "dim")
        self._console.print(t)

    def clear(self) -> None:
        """Clear the screen, when a person is at a colour terminal."""
        if self._console is not None and self.interactive:
            self._console.clear()

    def ask(self, prompt: str, choices: Sequence[str] = ()) -> str | None:
        """Show ``prompt`` and read one line.

        Args:
            prompt: the text before the cursor.
            choices: what Tab completes at a terminal (legal actions, commands).

        Returns:
            The line without surrounding blanks, or ``None`` at the end of the input.

        Raises:
            KeyboardInterrupt: Ctrl-C was pressed.
        """
        if self.interactive and self.stdin is sys.stdin:
            editor = self._line_editor()
            if editor is not None:
                try:
                    return str(editor.read(prompt, choices)).strip()
                except EOFError:
                    return None
                except Exception:  # noqa: BLE001 - a terminal the editor cannot drive
                    self._editor = False  # read plainly from now on
        if self._console is not None:
            self._console.print(prompt, style="bold cyan", end="")
        else:
            self.stdout.write(prompt)
        self.stdout.flush()
        if self.interactive and self.stdin is sys.stdin:
            _readline_choices(choices)
            try:
                line = input()
            except EOFError:
                self.stdout.write("\n")
                return None
            return line.strip()
        raw = self.stdin.readline()
        if not raw:
            self.stdout.write("\n")
            self.stdout.flush()
            return None
        line = raw.strip()
        if not self.interactive:
            self.stdout.write(line + "\n")
            self.stdout.flush()
        return line

    def _line_editor(self) -> _Editor | None:
        """The prompt_toolkit editor, made on first use; ``None`` where it cannot run."""
        if self._editor is None:
            self._editor = False
            if _isatty(self.stdout) and os.environ.get("TERM", "").lower() != "dumb":
                try:
                    self._editor = _Editor(color=self.color)
                except Exception:  # noqa: BLE001 - no prompt_toolkit here: readline instead
                    self._editor = False
        return self._editor if isinstance(self._editor, _Editor) else None


_READLINE: list[Sequence[str]] = []
"""The choices the readline completer offers (set before each prompt)."""


def _readline_choices(choices: Sequence[str]) -> None:
    """Let readline (when there is one) edit the line and complete ``choices`` on Tab."""
    try:
        import readline
    except ImportError:  # pragma: no cover - Windows without pyreadline
        return
    if not _READLINE:
        _READLINE.append(())

        def complete(text: str, state: int) -> str | None:
            found = matches(readline.get_line_buffer()[: readline.get_endidx()], _READLINE[0])
            return found[state] if state < len(found) else None

        readline.set_completer_delims("")
        readline.set_completer(complete)
        readline.parse_and_bind("tab: complete")
    _READLINE[0] = tuple(choices)


@final
class _Editor:
    """A prompt_toolkit line editor: history, arrow keys, Tab completion of the choices.

    Args:
        color: whether the prompt and the menu may be in colour.
    """

    def __init__(self, *, color: bool) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.completion import Completer, Completion
        from prompt_toolkit.history import InMemoryHistory
        from prompt_toolkit.output import ColorDepth
        from prompt_toolkit.shortcuts import CompleteStyle
        from prompt_toolkit.styles import Style

        self.choices: Sequence[str] = ()
        editor = self

        class _Choices(Completer):
            def get_completions(self, document: Any, complete_event: Any) -> Any:
                typed = document.text_before_cursor
                for text in matches(typed, editor.choices):
                    yield Completion(text, start_position=-len(typed))

        self._session: Any = PromptSession(
            history=InMemoryHistory(),
            completer=_Choices(),
            complete_while_typing=False,
            complete_style=CompleteStyle.MULTI_COLUMN,
            style=Style.from_dict({"prompt": "bold ansicyan" if color else ""}),
            color_depth=None if color else ColorDepth.MONOCHROME,
        )

    def read(self, prompt: str, choices: Sequence[str]) -> str:
        """Read one line after ``prompt`` (EOFError at Ctrl-D, KeyboardInterrupt at Ctrl-C)."""
        self.choices = tuple(choices)
        return str(self._session.prompt([("class:prompt", prompt)]))
