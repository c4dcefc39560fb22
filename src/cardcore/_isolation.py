"""Bots in their own processes, fed only serialised observations.

In-process Python cannot keep a determined bot away from the game state (it can walk
the caller's stack frames or the garbage collector). An isolated bot runs in a child
process started afresh (a new interpreter, so it inherits none of this process's
memory, and it does not run the caller's main module, unlike ``multiprocessing``): the
child builds the game from its id and options and the bot from its registered id or
import path, and receives each observation as ``observation.to_json()`` data, rebuilt
there with ``game.observation_from_json``. The state never exists in the child.

The child answers with the index of the legal action its bot chose (or the action's
text); the parent reads only bounded JSON bytes from it (never pickles), and a child
that does not answer in time is killed. The parent may ask for what the bot logged of its
decisions (its ``match_transcript()``, see :func:`transcript_json`): the whole log, or only
the entries after those it holds already (see :func:`transcript_since`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, final

from cardcore._botmaking import exception_text, host_for, make_bot, preference_key
from cardcore._game import Outcome
from cardcore._options import options_to_json
from cardcore._sandbox import (
    MEMORY_LIMIT,
    Sandbox,
    bot_environment,
    end_strays,
    limit_memory,
    process_tree,
    reap_children,
)

__all__ = [
    "BotProcess",
    "IsolatedBot",
    "entry_digest",
    "isolated_bot",
    "transcript_json",
    "transcript_since",
]

MAX_REPLY: Final = 1 << 20
"""The largest answer (bytes of JSON) read from a bot's process."""

MAX_TRANSCRIPT: Final = 32 << 20
"""The largest transcript (bytes of JSON) read from a bot's process at a match's end."""

START_SECONDS: Final = 60.0
"""How long a bot's process may take to start and build its bot when no limit is set."""

TIME_MARGIN: Final = 0.25
"""Seconds past ``time_limit`` after which a bot that has not answered is stopped."""


class Refused(str):
    """Why an isolated bot's answer was refused (the engine turns it into a forfeit)."""

    __slots__ = ()


@final
class BotProcess:
    """A child process that hosts one bot at a time; started on first use, restartable.

    Several :class:`IsolatedBot` s in a row may share one (the arena reuses a process per
    seat for the games of a worker); each rebuilds its own bot in it.
    """

    def __init__(
        self, *, sandbox: Sandbox | None = None, memory: int | None = MEMORY_LIMIT
    ) -> None:
        self._proc: Any = None
        self._conn: Any = None
        self._send: Any = None
        self._keep: set[int] = set()
        self.sandbox = sandbox
        """Run under bubblewrap with this configuration (``None``: as the user)."""
        self.memory = memory
        """The address space the process may map, in bytes (``None``: no limit)."""
        self.owner: object = None
        """The :class:`IsolatedBot` whose bot the process holds now."""
        self.exitcode: int | None = None

    @property
    def alive(self) -> bool:
        """Whether the process is running."""
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        """The process id of the bot's process (of ``bwrap`` in a sandbox), if running."""
        return None if self._proc is None else int(self._proc.pid)

    def ensure(self) -> None:
        """Start the process if it is not running, and wait until it is ready.

        It runs in a session of its own, with :func:`~cardcore._sandbox.bot_environment`,
        and, with :attr:`sandbox`, under ``bwrap``. Its arguments are only its pipes: the
        rest (``sys.path``, its memory limit) comes over the pipe.
        """
        if self.alive:
            return
        self.stop()
        import subprocess
        from multiprocessing.connection import Connection

        down_r, down_w = os.pipe()  # parent -> child
        up_r, up_w = os.pipe()  # child -> parent
        path = [p or os.getcwd() for p in sys.path]
        # In a sandbox the parent cannot be watched (another pid namespace): bwrap's
        # --die-with-parent ends it instead.
        watched = 0 if self.sandbox is not None else os.getpid()
        argv = [sys.executable, "-c", _CHILD, str(down_r), str(up_w), str(watched)]
        if self.sandbox is not None:
            argv = self.sandbox.command(argv, path)
        try:
            proc = _launch(
                lambda: subprocess.Popen(  # noqa: S603 - this interpreter, a fixed module
                    argv,
                    pass_fds=(down_r, up_w),
                    stdin=subprocess.DEVNULL,
                    close_fds=True,
                    env=bot_environment(),
                    start_new_session=True,
                )
            )
        finally:
            os.close(down_r)
            os.close(up_w)
        self._proc = proc
        self._send = Connection(down_w, readable=False)
        self._conn = Connection(up_r, writable=False)
        self.owner = None
        hello = {"op": "path", "path": path, "memory": self.memory}
        self._send.send_bytes(json.dumps(hello).encode("utf-8"))
        # Ready before any bot code has run: what runs now is the process that stays.
        if self._conn.poll(START_SECONDS):
            with contextlib.suppress(EOFError, OSError):
                self._conn.recv_bytes(MAX_REPLY)
        self._keep = process_tree(proc.pid)

    def end_match(self) -> int:
        """Kill every process the bot started (its process stays); how many there were."""
        if not self.alive:
            return 0
        return len(end_strays(self._proc.pid, self._keep))

    def call(
        self, message: Mapping[str, Any], timeout: float | None, size: int = MAX_REPLY
    ) -> dict[str, Any] | Refused:
        """Send one request and wait up to ``timeout`` seconds for its answer.

        ``size`` is the most bytes of JSON the answer may have.

        Returns:
            The answer (a JSON object), or why there is none (the process is then stopped).
        """
        try:
            self.ensure()
            self._send.send_bytes(json.dumps(message, ensure_ascii=False).encode("utf-8"))
        except (OSError, ValueError) as e:
            self.stop()
            return Refused(f"could not reach its process ({type(e).__name__}: {e})")
        if not self._conn.poll(timeout):
            self.stop()
            return Refused(
                f"did not answer within {timeout:g} s; its process was stopped"
                if timeout is not None
                else "did not answer; its process was stopped"
            )
        try:
            data = self._conn.recv_bytes(size)
        except EOFError:
            self.stop()
            return Refused(f"ended its process (exit code {self.exitcode})")
        except OSError as e:
            self.stop()
            return Refused(f"sent an answer that could not be read ({e})")
        try:
            reply = json.loads(data.decode("utf-8"))
        except Exception:  # noqa: BLE001 - whatever the child sent, it is refused
            reply = None
        if type(reply) is not dict:
            self.stop()
            return Refused("sent an answer that is not a JSON object; its process was stopped")
        return reply

    def stop(self) -> None:
        """Stop the process (at once) if it runs."""
        proc, conn, send = self._proc, self._conn, self._send
        self._proc = self._conn = self._send = None
        self.owner = None
        if send is not None:
            with contextlib.suppress(OSError, ValueError):
                send.send_bytes(b'{"op": "quit"}')
            send.close()
        if conn is not None:
            conn.close()
        if proc is not None:
            tree = process_tree(proc.pid)
            try:
                proc.wait(0.05)
            except Exception:  # noqa: BLE001 - still running: kill it (and its group)
                end_strays(proc.pid, (), group=True)
                proc.wait()
            for pid in tree - {proc.pid}:  # what it started goes with it
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            self.exitcode = proc.returncode

    def close(self) -> None:
        """Stop the process; same as :meth:`stop`."""
        self.stop()


@final
class IsolatedBot:
    """A bot that runs in its own process; give it to :func:`cardcore.play_match`.

    Build it with :func:`isolated_bot`. It behaves like the bot it names (one object, one
    bot: it keeps its memory from match to match) but sees only what the serialised
    observations carry. Close it (or use it as a context manager) to stop its process.
    """

    def __init__(
        self,
        bot: str,
        game: Any,
        *,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        process: BotProcess | None = None,
        name: str | None = None,
        prefer: Mapping[str, str] | None = None,
        sandbox: Sandbox | None = None,
    ) -> None:
        self.bot = bot
        self.options = dict(options or {})
        self.seed = seed
        self.name = name or bot
        self.own_name: str | None = None
        """The ``name`` the bot gave itself in its process (known once it is built)."""
        self._game = game
        self._spec = {
            "op": "new",
            "game": game.name,
            "options": options_to_json(game.options),
            "bot": bot,
            "bot_options": self.options,
            "seed": seed,
            "prefer": None if prefer is None else dict(sorted(prefer.items())),
        }
        self._logs = False
        """Whether the bot has a ``match_transcript`` method (its process says, once built)."""
        self._own = process is None
        self.process = process if process is not None else BotProcess(sandbox=sandbox)
        if self._own:
            weakref.finalize(self, self.process.stop)

    def __enter__(self) -> IsolatedBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the bot's process (if this bot owns it)."""
        if self._own:
            self.process.stop()

    def _ready(self, timeout: float | None) -> Refused | None:
        if self.process.alive and self.process.owner is self:
            return None
        reply = self.process.call(self._spec, START_SECONDS if timeout is None else timeout)
        if type(reply) is Refused:
            return Refused(f"could not start: {reply}")
        assert isinstance(reply, dict)
        if reply.get("ok") is not True:
            kind, text = _text(reply.get("error")), _text(reply.get("message"))
            return Refused(f"could not start: {kind}: {text}")
        named = reply.get("name")
        if type(named) is str:
            self.own_name = named
        self._logs = reply.get("logs") is True
        self.process.owner = self
        return None

    # ---- the engine's side (never raises) ----------------------------------------------

    def build(self, timeout: float | None) -> str | None:
        """Start the process and build the bot there; why it failed, or ``None``."""
        return self._ready(timeout)

    def start(self, seat: int, num_players: int, timeout: float | None) -> str | None:
        """Build the bot in its process and call its ``start_match``; a failure's reason."""
        failure = self._ready(timeout)
        if failure is not None:
            return failure
        reply = self.process.call(
            {"op": "start", "seat": seat, "players": num_players},
            START_SECONDS if timeout is None else timeout,
        )
        if type(reply) is Refused:
            return Refused(f"in start_match: {reply}")
        assert isinstance(reply, dict)
        if reply.get("ok") is not True:
            kind, text = _text(reply.get("error")), _text(reply.get("message"))
            return Refused(f"raised {kind} in start_match: {text}")
        return None

    def decide(self, observation: Any, legal: Sequence[Any], limit: float | None) -> Any:
        """The bot's answer to ``observation``: one of ``legal``, a text, or a Refused."""
        failure = self._ready(None if limit is None else max(limit, START_SECONDS))
        if failure is not None:
            return failure
        t0 = time.perf_counter()
        reply = self.process.call(
            {"op": "act", "observation": observation.to_json()},
            None if limit is None else limit + TIME_MARGIN,
        )
        took = time.perf_counter() - t0
        if type(reply) is Refused:
            return reply
        assert isinstance(reply, dict)
        if limit is not None and took > limit:
            return Refused(f"took {took:.2f} s (limit {limit:g} s)")
        if "error" in reply:
            return Refused(f"raised {_text(reply['error'])}: {_text(reply.get('message'))}")
        index = reply.get("index")
        if type(index) is int and 0 <= index < len(legal):
            return legal[index]
        text = reply.get("text")
        made = reply.get("type")
        if type(text) is str and type(made) is str:  # an object, sent as its text
            try:
                return self._game.parse_action(text)
            except Exception:  # noqa: BLE001 - not the text of an action of this game
                return Refused(
                    f"returned an illegal action: a {made[:100]}, which is not an action "
                    f"of {self._game.name} (its text is {text[:100]!r})"
                )
        if type(text) is str:
            return text
        return Refused("sent an answer with neither a legal index nor an action text")

    def end(self, outcome: Any, timeout: float | None) -> None:
        """Tell the bot the result (its answer and failures do not matter any more)."""
        if self.process.alive and self.process.owner is self:
            self.process.call(
                {"op": "end", "outcome": outcome.to_json()},
                START_SECONDS if timeout is None else timeout,
            )
        self.process.end_match()  # a seat's processes end with its match

    def transcript(self, timeout: float | None) -> list[dict[str, Any]]:
        """What the bot logged of this match: its ``match_transcript()``, asked for in its process.

        ``[]`` for a bot without the method. A bot whose method raises or gives no list of
        JSON objects gives one ``{"error": ...}`` entry saying so (as in-process, see
        :func:`transcript_json`); so does a process that has ended or does not answer
        within ``timeout`` seconds (it is then stopped). Never raises.
        """
        return self.transcript_since(timeout)[1]

    def transcript_since(
        self, timeout: float | None, since: int = 0, last: str = ""
    ) -> tuple[int, list[dict[str, Any]]]:
        """:func:`transcript_since`, asked in the bot's process: only new entries cross the pipe.

        Failures are as :meth:`transcript`'s, at ``(0, [error])``.
        """
        if not self._logs:
            return 0, []
        if not (self.process.alive and self.process.owner is self):
            code = self.process.exitcode
            return 0, [{"error": f"match_transcript: its process has ended (exit code {code})"}]
        reply = self.process.call(
            {"op": "transcript", "since": since, "last": last},
            START_SECONDS if timeout is None else timeout,
            MAX_TRANSCRIPT,
        )
        if type(reply) is Refused:
            return 0, [{"error": f"match_transcript: {reply}"}]
        return _entries_of(reply, since)

    # ---- the bot protocol, for code that calls bots directly ---------------------------

    def start_match(self, game: Any, seat: int, num_players: int) -> None:
        """Start a match (raises ``RuntimeError`` if the bot fails)."""
        failure = self.start(seat, num_players, None)
        if failure is not None:
            raise RuntimeError(failure)

    def act(self, observation: Any) -> Any:
        """The bot's action for ``observation`` (raises ``RuntimeError`` if it fails)."""
        legal = observation.legal_actions
        answer = self.decide(observation, legal, None)
        if type(answer) is Refused:
            raise RuntimeError(answer)
        return answer

    def end_match(self, outcome: Any) -> None:
        """End a match."""
        self.end(outcome, None)

    def match_transcript(self) -> list[dict[str, Any]]:
        """What the bot logged of this match (see :meth:`transcript`)."""
        return self.transcript(None)


def isolated_bot(
    bot: str, game: Any, *, seed: int = 0, name: str | None = None, **options: Any
) -> IsolatedBot:
    """A bot that runs in its own process and receives only serialised observations.

    Example:
        ``with isolated_bot("mybots:Greedy", game, seed=1) as b: play_match(game, [b, r])``

    Args:
        bot: a registered bot id or an import path ``package.module:Factory``, built in
            the child as ``factory(game, seed=seed, **options)``.
        game: the game (it must be installed, so that the child can load it by id).
        seed: the bot's seed.
        name: the name it is recorded under (default: ``bot``).
        **options: the bot's options (JSON values).

    Returns:
        The bot; its process starts at its first match. Close it when done.
    """
    return IsolatedBot(bot, game, seed=seed, options=options, name=name)


_LAUNCHER: list[Any] = []
_LAUNCH_LOCK = threading.Lock()


def _launch(start: Callable[[], Any]) -> Any:
    """Call ``start`` (which starts a process) from a thread that lives as long as this one.

    ``bwrap --die-with-parent`` ends the sandbox when the *thread* that started it ends,
    and a match may run in a helper thread that ends with the match; so processes are
    started from the main thread or from one long-lived launcher thread.
    """
    if threading.current_thread() is threading.main_thread():
        return start()
    with _LAUNCH_LOCK:
        if not _LAUNCHER:
            from concurrent.futures import ThreadPoolExecutor

            _LAUNCHER.append(ThreadPoolExecutor(1, thread_name_prefix="cardcore-bot-launcher"))
        launcher = _LAUNCHER[0]
    return launcher.submit(start).result()


def _entries_of(reply: object, since: int) -> tuple[int, list[dict[str, Any]]]:
    """A bot process's answer to ``{"op": "transcript", "since": since}``, checked."""
    assert isinstance(reply, dict)
    entries = reply.get("transcript")
    start = reply.get("since", 0)
    if type(entries) is not list or not all(type(e) is dict for e in entries):
        return 0, [{"error": _NOT_JSON}]
    if type(start) is not int or start not in (0, since):  # entries that fit no place
        return 0, [{"error": f"match_transcript: its process sent entries from {start!r}"}]
    return start, entries


def _text(value: object) -> str:
    return value[:500] if type(value) is str else "an unreadable error"


_NOT_JSON: Final = "match_transcript gave something other than a list of JSON objects"


def transcript_json(bot: object) -> list[dict[str, Any]]:
    """A JSON copy of what the bot's ``match_transcript()`` returns (``[]``: no method).

    Whatever goes wrong (it raises, gives no list of JSON objects) becomes one entry
    saying so: a log never changes the result. Used in-process by the engine and, for a
    bot in its own process, there.
    """
    return transcript_since(bot)[1]


def transcript_since(
    bot: object, since: int = 0, last: str = ""
) -> tuple[int, list[dict[str, Any]]]:
    """A JSON copy of the entries of the bot's log after the ``since`` the caller holds.

    The caller holds the log's first ``since`` entries, the last of which has the
    :func:`entry_digest` ``last``. When the log still has them (at least ``since``
    entries, its entry ``since - 1`` unchanged), the answer is ``(since, the later
    entries)``: only those are copied. A log that shrank or whose entry ``since - 1``
    changed (the bot started it anew, or rewrote it) is copied whole: ``(0, the log)``,
    to replace what the caller holds. An entry the caller holds is otherwise never read
    again: a record keeps each entry as it was when first read.

    Whatever goes wrong is ``(0, [one entry saying so])``, as :func:`transcript_json`.
    """
    try:
        get = getattr(bot, "match_transcript", None)
        if get is None:
            return 0, []
        log = list(get())
        start = (
            since if 0 < since <= len(log) and entry_digest(_copy(log[since - 1])) == last else 0
        )
        data = _copy(log[start:])
    except (Exception, SystemExit) as e:  # noqa: BLE001 - a bot's log must not stop the match
        kind, text = exception_text(e)
        return 0, [{"error": f"match_transcript raised {kind}: {text}"}]
    if type(data) is not list or not all(type(e) is dict for e in data):
        return 0, [{"error": _NOT_JSON}]
    return start, data


def entry_digest(entry: object) -> str:
    """A short fingerprint of a JSON log entry (the same for equal entries, in any key order)."""
    text = json.dumps(entry, ensure_ascii=False, allow_nan=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _copy(data: object) -> Any:
    """A JSON copy of ``data`` (raises for anything that is not JSON)."""
    return json.loads(json.dumps(data, ensure_ascii=False, allow_nan=False))


def _logs(bot: object) -> bool:
    """Whether a bot has a ``match_transcript`` method (a property that raises: no)."""
    try:
        return callable(getattr(bot, "match_transcript", None))
    except (Exception, SystemExit):  # noqa: BLE001 - the bot's own business
        return False


# ---- the child --------------------------------------------------------------------------


def _orphan_guard(parent: int) -> None:
    """Exit when the parent process is gone, with whatever the bot started, not linger.

    ``parent`` 0: not watched (a sandbox ends with its parent by itself).
    """
    while parent:
        time.sleep(0.5)
        if os.getppid() != parent:
            with contextlib.suppress(OSError, AttributeError):  # killpg: POSIX only
                end_strays(os.getpid(), {os.getpid()})
                os.killpg(os.getpid(), signal.SIGKILL)  # it leads its session
            os._exit(0)


_CHILD: Final = "import sys; from cardcore._isolation import child_entry; child_entry(sys.argv[1:])"
"""What a bot's process runs: a fresh interpreter that imports only this module."""


def child_entry(argv: Sequence[str]) -> None:
    """The start of a bot's process: ``argv`` holds its two pipe ends and the parent.

    The first message sets ``sys.path`` and the memory limit; the process says it is
    ready before it runs any bot code.
    """
    from multiprocessing.connection import Connection

    down, up, parent = (int(a) for a in argv)
    recv = Connection(down, writable=False)
    send = Connection(up, readable=False)
    first = json.loads(recv.recv_bytes().decode("utf-8"))
    if first.get("op") == "path":
        sys.path[:] = [str(p) for p in first["path"]]
        limit_memory(first.get("memory"))
    send.send_bytes(b'{"ready": true}')
    child_main(_Duplex(recv, send), parent)


@final
class _Duplex:
    """Two one-way connections as one (what :func:`child_main` reads and writes)."""

    def __init__(self, recv: Any, send: Any) -> None:
        self._recv = recv
        self._send = send

    def recv_bytes(self) -> bytes:
        data: bytes = self._recv.recv_bytes()
        return data

    def send_bytes(self, data: bytes) -> None:
        self._send.send_bytes(data)


def child_main(conn: Any, parent: int) -> None:
    """The loop of a bot's process: build, start, act, transcript, end, until told to quit."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    threading.Thread(target=_orphan_guard, args=(parent,), daemon=True).start()
    games: dict[str, Any] = {}
    game: Any = None
    bot: Any = None
    while True:
        try:
            message = json.loads(conn.recv_bytes().decode("utf-8"))
        except (EOFError, OSError):
            return
        op = message.get("op")
        if op == "quit":
            return
        try:
            reply: dict[str, Any] = {"ok": True}
            if op in ("new", "start"):
                reap_children()
            if op == "new":
                prefer = message.get("prefer")
                host = host_for(preference_key(prefer))
                key = json.dumps([message["game"], message["options"], prefer], sort_keys=True)
                if key not in games:
                    games[key] = host.load_game(message["game"], **message["options"])
                game = games[key]
                bot = make_bot(
                    message["bot"], message["bot_options"], game, seed=message["seed"], host=host
                )
                named = getattr(bot, "name", None)
                if type(named) is str:  # how it calls itself, for the record (bounded)
                    reply["name"] = named[:100]
                reply["logs"] = _logs(bot)
            elif op == "start":
                hook = getattr(bot, "start_match", None)
                if hook is not None:
                    hook(game, message["seat"], message["players"])
            elif op == "act":
                observation = game.observation_from_json(message["observation"])
                legal = observation.legal_actions  # before the bot can touch it
                action = bot.act(observation)
                for i, a in enumerate(legal):
                    if a is action:
                        reply = {"index": i}
                        break
                else:
                    if isinstance(action, str):
                        reply = {"text": action}
                    else:
                        made = type(action)
                        reply = {"text": str(action), "type": f"{made.__module__}.{made.__name__}"}
            elif op == "transcript":
                since, last = message.get("since", 0), message.get("last", "")
                if type(since) is not int or since < 0 or type(last) is not str:
                    since, last = 0, ""
                start, entries = transcript_since(bot, since, last)
                reply = {"transcript": entries, "since": start}
            elif op == "end":
                hook = getattr(bot, "end_match", None)
                if hook is not None:
                    hook(Outcome.from_json(message["outcome"]))
            else:
                reply = {"error": f"unknown request {op!r}"}
        except (Exception, SystemExit) as e:  # noqa: BLE001 - reported as the bot's failure
            kind, text = exception_text(e)
            reply = {"error": kind, "message": text}
        try:
            conn.send_bytes(json.dumps(reply, ensure_ascii=False).encode("utf-8"))
        except (OSError, ValueError):
            return
