"""Bots that try to learn the deal, or outlive or outgrow their match, and say how it went.

Each attack prints one line to standard error, ``attack <name>: <verdict>``, where the
verdict starts with ``failed`` or says what the bot got (``KNOWS THE DEAL``,
``LEFTOVER RUNNING``, ``READ ...``). The tests read those lines. The bots play highcard
(their hand is the zone ``hand<seat>``); they are named by import path
``tests.arena.attack_bots:Name`` (the repository root must be on ``sys.path``).
"""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from typing import Any

MODULE = "tests.arena.attack_bots"


def report(attack: str, verdict: str) -> None:
    """Print the verdict of one attack where the test can read it."""
    print(f"attack {attack}: {verdict}", file=sys.stderr, flush=True)


def _hand(observation: Any, seat: int) -> set[str]:
    return {c for c in observation.to_json()["table"]["zones"][f"hand{seat}"] if c is not None}


TELLING_HAND = 10
"""The fewest cards a hand must hold for a match of it to name a deal.

Three cards (highcard's default hand) come out of one seed in 22,100, and a thief tries
dozens of seeds: by chance alone one of them fits now and then. Ten cards fit one seed
in 15 billion. The tests that look for a thief's success deal 13.
"""


def _matches(game: Any, observation: Any, seed: int) -> bool:
    """Whether the deal of ``seed`` gives this seat the hand it holds."""
    seat = observation.seat
    state = game.initial_state(observation.num_players, seed)
    return _hand(observation, seat) <= _hand(game.observe(state, seat), seat)


def _too_small(attack: str, observation: Any) -> bool:
    """Say the attack cannot tell (and return True) when the hand is too small to name a deal."""
    held = len(_hand(observation, observation.seat))
    if held >= TELLING_HAND:
        return False
    report(attack, f"INCONCLUSIVE (a hand of {held} cards fits many deals: deal {TELLING_HAND}+)")
    return True


def _cmdline(pid: int | str) -> list[str]:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return [a.decode("utf-8", "replace") for a in f.read().split(b"\0") if a]
    except OSError:
        return []


def _ancestors() -> list[int]:
    out: list[int] = []
    pid = os.getppid()
    while pid > 1 and len(out) < 32:
        out.append(pid)
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as f:
                pid = int(f.read().rpartition(")")[2].split()[1])
        except (OSError, ValueError):
            break
    return out


class _Base:
    def __init__(self, game: Any = None, *, seed: int = 0) -> None:
        self.game = game
        self.tried = False

    def act(self, observation: Any) -> Any:
        if not self.tried:
            self.tried = True
            self.attack(observation)
        return observation.legal_actions[0]

    def attack(self, observation: Any) -> None:
        """Try once, at the first decision of a match."""


class SeedThief(_Base):
    """Reads ``--seed N`` off any command line it can see and rebuilds the deals from it.

    It tries the arena's derivation (``deal_seed(N, d)`` for the first deals) and
    ``play``'s (``N`` itself).
    """

    def attack(self, observation: Any) -> None:
        from cardcore.arena import deal_seed

        pids: list[int | str] = [*_ancestors(), *(p for p in os.listdir("/proc") if p.isdigit())]
        seeds = set()
        for pid in pids:
            line = _cmdline(pid)
            for i, arg in enumerate(line[:-1]):
                if arg == "--seed" and re.fullmatch(r"-?\d+", line[i + 1]):
                    seeds.add(int(line[i + 1]))
        if not seeds:
            report("seed", "failed (no --seed on any command line in view)")
            return
        if _too_small("seed", observation):
            return
        for n in seeds:
            for candidate in [n, *(deal_seed(n, d) for d in range(64))]:
                if _matches(self.game, observation, candidate):
                    report("seed", f"KNOWS THE DEAL (from --seed {n})")
                    return
        report("seed", f"failed (--seed {sorted(seeds)} seen, no deal rebuilt from it)")


class RecordThief(_Base):
    """Opens the arena's database and looks for a stored game of the deal it is playing."""

    def __init__(self, game: Any = None, *, seed: int = 0, db: str = "") -> None:
        super().__init__(game, seed=seed)
        self.db = db

    def attack(self, observation: Any) -> None:
        try:
            con = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=1)
            seeds = [s for (s,) in con.execute("SELECT seed FROM games")]
            con.close()
        except sqlite3.Error as e:
            report("records", f"failed (cannot read the database: {e})")
            return
        for s in seeds:
            if _matches(self.game, observation, s):
                report("records", "KNOWS THE DEAL (a stored game of this deal)")
                return
        report("records", f"failed ({len(seeds)} stored games, none of this deal)")


class SaveThief(_Base):
    """Reads a saved match (a ``play --resume`` file) and looks whether it is this deal."""

    def __init__(self, game: Any = None, *, seed: int = 0, path: str = "") -> None:
        super().__init__(game, seed=seed)
        self.path = path

    def attack(self, observation: Any) -> None:
        import json

        try:
            with open(self.path, encoding="utf-8") as f:
                seed = int(json.load(f)["seed"])
        except (OSError, ValueError, KeyError) as e:
            report("saves", f"failed (cannot read the save: {type(e).__name__})")
            return
        if _matches(self.game, observation, seed):
            report("saves", "KNOWS THE DEAL (the saved match)")
        else:
            report("saves", "failed (the save is of another deal)")


STARTED: list[subprocess.Popen[bytes]] = []
"""The processes this bot started, kept across matches in its process."""


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


class Spawner(_Base):
    """Starts ``sleep`` in every match; in the next, looks whether the last one still runs."""

    def __init__(self, game: Any = None, *, seed: int = 0, marker: str = "3601") -> None:
        super().__init__(game, seed=seed)
        self.marker = marker

    def start_match(self, game: Any, seat: int, num_players: int) -> None:
        if STARTED:
            alive = sum(_running(p.pid) for p in STARTED)
            verdict = "LEFTOVER RUNNING" if alive else "failed (the last match's process is gone)"
            report("leftover", f"{verdict} ({alive} of {len(STARTED)})")
        STARTED.append(subprocess.Popen(["sleep", self.marker]))


def _marked(marker: str) -> int:
    """How many running processes (in view) have ``marker`` on their command line."""
    return sum(
        1 for p in os.listdir("/proc") if p.isdigit() and marker in _cmdline(p) and _running(int(p))
    )


DETACH = (
    "import subprocess, sys; "
    "subprocess.Popen(['sleep', sys.argv[1]], start_new_session=True, close_fds=True)"
)
"""A child that starts ``sleep`` in a session of its own and exits at once: a double fork."""


class Detacher(_Base):
    """Leaves ``sleep`` behind detached (double fork and ``setsid``) in every match.

    The grandchild belongs to neither the bot's process group nor its session, and its
    parent is gone: only a reaper above the bot, or a pid namespace, can still end it.
    In the next match it looks whether the last one's is still running.
    """

    def __init__(self, game: Any = None, *, seed: int = 0, marker: str = "3602") -> None:
        super().__init__(game, seed=seed)
        self.marker = marker

    def start_match(self, game: Any, seat: int, num_players: int) -> None:
        if STARTED:
            alive = _marked(self.marker)
            verdict = "LEFTOVER RUNNING" if alive else "failed (the last match's process is gone)"
            report("detached", f"{verdict} ({alive} running)")
        child = subprocess.Popen([sys.executable, "-c", DETACH, self.marker])
        child.wait()
        STARTED.append(child)


class MemoryHog(_Base):
    """Asks for far more memory than a bot may have at its first decision."""

    def attack(self, observation: Any) -> None:
        from cardcore._sandbox import MEMORY_LIMIT

        report("memory", "asking for twice the limit")
        hoard = bytearray(2 * MEMORY_LIMIT)
        report("memory", f"GOT {len(hoard)} bytes")


class Snooper(_Base):
    """Tries the database, its parents' ``/proc``, the home folder and the network."""

    def __init__(
        self, game: Any = None, *, seed: int = 0, db: str = "", home: str = "", port: int = 0
    ) -> None:
        super().__init__(game, seed=seed)
        self.db, self.home, self.port = db, home, port

    def attack(self, observation: Any) -> None:
        tries: dict[str, Callable[[], object]] = {
            "database": lambda: open(self.db, "rb").read(16),  # noqa: SIM115
            "home": lambda: open(os.path.join(self.home, "secret.txt"), "rb").read(),  # noqa: SIM115
            "parents": lambda: [_cmdline(p) or 1 / 0 for p in _ancestors()] or 1 / 0,
            "network": lambda: socket.create_connection(("127.0.0.1", self.port), 2).close(),
        }
        for name, attempt in tries.items():
            try:
                attempt()
            except (OSError, ZeroDivisionError) as e:
                report(name, f"failed ({type(e).__name__})")
            else:
                report(name, "READ IT")
