"""What confines a bot's process: its environment, its memory, its process tree, its sandbox.

Every bot process (see :mod:`cardcore._isolation`) starts in a session of its own with
an environment scrubbed to what Python needs, and caps its own address space before it
builds its bot. When its match ends, every process it started is killed
(:func:`end_strays`). With a :class:`Sandbox` it runs under bubblewrap (``bwrap``): its
own pid, network, IPC and user namespaces, no capabilities, a read-only file system that
holds only what Python and the installed packages need, and it dies with its parent.
Nothing here is a sandbox of its own making: without bubblewrap a bot runs as the user.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import signal
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Final, final

import attrs

__all__ = [
    "INSTALL_HINT",
    "MEMORY_LIMIT",
    "Sandbox",
    "bot_environment",
    "end_new_processes",
    "end_strays",
    "end_strays_of",
    "limit_memory",
    "memory_capped",
    "process_tree",
    "reap_children",
    "sandbox_problem",
    "subreaper",
]

MEMORY_LIMIT: Final = 4 << 30
"""Bytes of address space a bot process may map (``RLIMIT_AS``); past it, allocations fail."""

INSTALL_HINT: Final = (
    "the sandbox needs bubblewrap (bwrap): install it with 'sudo apt-get install bubblewrap' "
    "(Debian, Ubuntu) or 'sudo dnf install bubblewrap' (Fedora), or pass --no-sandbox"
)
"""The one line shown when ``bwrap`` is missing or cannot create namespaces."""

KEPT: Final = frozenset(
    {"PATH", "LANG", "LANGUAGE", "TZ", "PYTHONHASHSEED", "PYTHONUTF8", "PYTHONIOENCODING"}
)
"""Environment variables a bot process keeps (with ``LC_*`` and ``CARDCORE_BOT_*``)."""

BOT_PREFIX: Final = "CARDCORE_BOT_"
"""Variables named so reach bot processes: the way to hand a bot a key or a setting."""


def bot_environment(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a bot process: ``environ`` less everything a bot does not need.

    Kept: :data:`KEPT`, ``LC_*`` and ``CARDCORE_BOT_*``. Gone: the home directory, the
    user name, the shell's and the desktop's variables, tokens and keys, and the rest.
    """
    env = os.environ if environ is None else environ
    return {
        k: v
        for k, v in env.items()
        if k in KEPT or k.startswith(("LC_", BOT_PREFIX)) or (os.name == "nt" and k == "SYSTEMROOT")
    }


# ---- a process tree ---------------------------------------------------------------------


def _children(pid: int) -> list[int]:
    """The children of ``pid`` (Linux ``/proc``; none where it cannot be read)."""
    out: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as f:
                out.extend(int(p) for p in f.read().split())
        except (OSError, ValueError):
            continue
    return out


def process_tree(root: int) -> set[int]:
    """``root`` and every process descended from it (Linux; just ``{root}`` elsewhere)."""
    seen = {root}
    todo = [root]
    while todo:
        for child in _children(todo.pop()):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


def end_strays(root: int, keep: Iterable[int], *, group: bool = False) -> set[int]:
    """Kill every process under ``root`` except those in ``keep``; the ones killed.

    Children are killed before they can be orphaned (a few passes catch a process that
    forks while its parent dies). With ``group``, the process group ``root`` leads is
    killed too (a bot process leads its own session), ``root`` included.
    """
    keep = set(keep)
    killed: set[int] = set()
    for _ in range(8):
        strays = process_tree(root) - keep - killed
        if not strays:
            break
        for pid in strays:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        killed |= strays
    if group and hasattr(os, "killpg"):
        with contextlib.suppress(OSError):
            os.killpg(root, signal.SIGKILL)
    _await_end(killed)
    return killed


def _ended(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            return f.read().rpartition(")")[2].split()[0] in ("Z", "X")
    except (OSError, IndexError):
        return True


def _await_end(pids: Iterable[int], seconds: float = 5.0) -> None:
    """Wait (a bounded time) until killed processes have really ended."""
    import time

    left = [p for p in pids if os.path.isdir(f"/proc/{p}")]
    deadline = time.monotonic() + seconds
    while left and time.monotonic() < deadline:
        left = [p for p in left if not _ended(p)]
        if left:
            time.sleep(0.001)


def limit_memory(memory: object) -> None:
    """Cap this process's address space (soft and hard, so the bot cannot raise it)."""
    try:
        import resource
    except ImportError:  # not on every platform
        return
    if type(memory) is int and memory > 0:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = memory if hard == resource.RLIM_INFINITY else min(memory, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


@contextlib.contextmanager
def memory_capped(memory: int = MEMORY_LIMIT) -> Iterator[None]:
    """Let this process map at most ``memory`` more bytes while the block runs (soft limit).

    For bots that play in the calling process (``--isolation none``): an allocation past
    the cap fails with ``MemoryError`` and the bot forfeits, instead of the machine
    running out of memory. The cap is what the process maps already plus ``memory``, so
    a caller that maps much (a test runner) keeps working. Only the soft limit is
    lowered, so it is put back afterwards; a bot in the same process could raise it
    again (it is a guard, not a boundary).
    """
    try:
        import resource
    except ImportError:  # not on every platform
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = memory + _mapped()
    cap = cap if hard == resource.RLIM_INFINITY else min(cap, hard)
    lowered = soft == resource.RLIM_INFINITY or soft > cap
    if lowered:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        if lowered:
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _mapped() -> int:
    """Bytes of address space this process maps now (0 where ``/proc`` does not say)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


_PR_SET_CHILD_SUBREAPER: Final = 36
"""``prctl`` option (Linux 3.4+): orphaned descendants are re-parented to this process."""


def _set_subreaper(on: bool) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


@contextlib.contextmanager
def subreaper() -> Iterator[bool]:
    """Make this process its descendants' reaper while the block runs; whether it could.

    A bot's process that starts a child which forks again and leaves its session
    (``setsid``) orphans the grandchild: without a reaper that grandchild is handed to
    the system's init and escapes every kill of the bot's process tree. With this
    process a *child subreaper* (Linux ``prctl(PR_SET_CHILD_SUBREAPER)``), such orphans
    become its own children, so :func:`end_strays` from this process finds them. The
    attribute is turned off again at the end (orphans adopted by then stay children).
    """
    on = _set_subreaper(True)
    try:
        yield on
    finally:
        if on:
            _set_subreaper(False)


def end_new_processes(before: Iterable[int], keep: Iterable[int] = ()) -> set[int]:
    """Kill this process's descendants that are not in ``before`` or ``keep``; the killed.

    The way to end, after a match, what its bots started (an orphan a
    :func:`subreaper` adopted included); each one killed that is a child of this
    process is collected.
    """
    me = os.getpid()
    killed = end_strays(me, {me, *before, *keep})
    for pid in killed:
        with contextlib.suppress(OSError):  # a child of ours (adopted or not): collect it
            os.waitpid(pid, os.WNOHANG)
    return killed


def reap_children() -> None:
    """Collect the exit status of this process's ended children (killed at a match's end)."""
    with contextlib.suppress(ChildProcessError, OSError, AttributeError):
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass


def end_strays_of(pids: Iterable[int]) -> None:
    """Kill the processes ``pids`` (a tree read before its root was killed)."""
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


# ---- bubblewrap -----------------------------------------------------------------------


def sandbox_problem() -> str | None:
    """Why the sandbox cannot run here (one line), or ``None`` when it can."""
    if not sys.platform.startswith("linux"):
        return f"the sandbox needs Linux and bubblewrap; this is {sys.platform}"
    if shutil.which("bwrap") is None:
        return INSTALL_HINT
    return _probe()


_PROBED: dict[str, str | None] = {}


def _probe() -> str | None:
    """Run ``true`` under the sandbox's namespaces once per process: can bwrap make them?"""
    if "done" in _PROBED:
        return _PROBED["done"]
    import subprocess

    argv = [*_base(), "--", "/bin/true" if os.path.exists("/bin/true") else "true"]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)  # noqa: S603
        why = None if done.returncode == 0 else done.stderr.strip().splitlines()[-1:]
        problem = (
            None if why is None else f"bwrap cannot run here ({' '.join(why)}); {INSTALL_HINT}"
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        problem = f"bwrap cannot run here ({e}); {INSTALL_HINT}"
    _PROBED["done"] = problem
    return problem


def _base() -> list[str]:
    """The namespaces and system folders every sandboxed process gets."""
    argv = [
        "bwrap",
        "--unshare-all",  # pid, network, IPC, UTS, cgroup and (where allowed) user
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--ro-bind",
        "/usr",
        "/usr",
    ]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            argv += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            argv += ["--ro-bind", top, top]
    for f in ("/etc/ld.so.cache", "/etc/localtime", "/etc/alternatives"):
        argv += ["--ro-bind-try", f, f]
    return [*argv, "--proc", "/proc", "--dev", "/dev"]


@final
@attrs.frozen(kw_only=True)
class Sandbox:
    """A bubblewrap sandbox for bot processes.

    The file system holds ``/usr`` and the system's library folders, Python's own
    folders and the folders on ``sys.path``, all read-only; nothing else. A ``sys.path``
    folder that holds the working directory, the home directory or a ``hidden`` path is
    not bound whole: only the top-level packages of ``modules`` found in it are. Each
    ``hidden`` file that would still be visible is covered by an empty one.
    """

    hidden: tuple[str, ...] = ()
    """Paths a bot must not read (the arena's database and its journal files)."""
    modules: tuple[str, ...] = ()
    """Modules the bots are imported from by path (``mybots.greedy``)."""

    def command(self, python: Sequence[str], path: Sequence[str]) -> list[str]:
        """The ``bwrap`` command line that runs ``python`` (argv) inside the sandbox."""
        binds = self.binds(path)
        argv = _base()
        for b in binds:
            argv += ["--ro-bind", b, b]
        for h in self._still_visible(binds):
            argv += ["--ro-bind", "/dev/null", h]
        return [*argv, "--remount-ro", "/", "--chdir", "/", "--", *python]

    def binds(self, path: Sequence[str]) -> list[str]:
        """The folders and files bound read-only, from ``sys.path`` and Python's prefixes."""
        guarded = [_real(p) for p in (os.getcwd(), str(Path.home()), *self.hidden)]
        out: list[str] = []
        for p in {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}:
            out.append(_real(p))
        out.append(_real(sys.executable))
        for entry in path:
            real = _real(entry or os.getcwd())
            if not os.path.exists(real):
                continue
            if any(_inside(g, real) for g in guarded):
                out.extend(self._packages_in(real))
            else:
                out.append(real)
        out = sorted({p for p in out if not p.startswith("/usr/")})
        return [p for p in out if not any(q != p and _inside(p, q) for q in out)]

    def _packages_in(self, folder: str) -> list[str]:
        found = []
        for module in self.modules:
            top = module.split(".")[0]
            spec = importlib.util.find_spec(top)
            places = list(spec.submodule_search_locations or ()) if spec is not None else []
            if spec is not None and spec.has_location and spec.origin and not places:
                places = [spec.origin]  # a module from a file (not frozen, not built in)
            found += [_real(p) for p in places if os.path.exists(p) and _inside(_real(p), folder)]
        return found

    def _still_visible(self, binds: Sequence[str]) -> list[str]:
        return [
            h
            for h in (_real(h) for h in self.hidden)
            if os.path.isfile(h) and any(_inside(h, b) for b in binds)
        ]


def _real(p: str) -> str:
    return os.path.realpath(os.path.abspath(p))


def _inside(p: str, folder: str) -> bool:
    """Whether ``p`` is ``folder`` or lies under it."""
    return p == folder or p.startswith(folder.rstrip("/") + "/")
