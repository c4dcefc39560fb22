"""Fingerprints of seeded games, computed in a fresh process (``python -m ...``).

The kit runs this module under two different ``PYTHONHASHSEED`` values and compares what
it prints with the fingerprints computed in the checking process: a deal, a list of
legal actions or an observation that depends on hash order shows up as a difference.

Input (stdin, JSON): ``{"jobs": [{"key": ..., "game": {...}, "players": n}], "seeds":
[...], "timeout": seconds, "path": [...]}``; output (stdout, JSON): key to a list of
step digests, or to ``{"error": text}``.
"""

from __future__ import annotations

import base64
import hashlib
import importlib
import importlib.util
import json
import pickle
import random
import signal
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from cardcore._table import SPECTATOR
from cardcore.testing._values import canonical

__all__ = ["fingerprint", "game_payload", "main"]

T = TypeVar("T")


class ChildTimeoutError(Exception):
    """A fingerprint ran over its time limit."""


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def fingerprint(game: Any, n: int, seed: int, timeout: float) -> list[str]:
    """Play one seeded random game and digest every step.

    Each step's digest covers the card table, the RNG state, the player to move and the
    legal actions' texts; the first and last steps also cover the whole state and every
    seat's observation (as JSON, keys sorted); the end covers the outcome.

    Raises:
        ChildTimeoutError: the game ran over ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    chooser = random.Random(seed)
    s = game.initial_state(n, seed)
    out: list[str] = []
    bound = game.max_decisions(n)
    step = 0
    while True:
        if time.monotonic() > deadline:
            raise ChildTimeoutError(f"step {step}: ran over {timeout:g} s")
        cur = game.current_player(s)
        legal = game.legal_actions(s)
        parts = [
            canonical(getattr(s, "table", None)),
            canonical(getattr(s, "rng", None)),
            repr(cur),
            json.dumps([str(a) for a in legal], ensure_ascii=False),
        ]
        if step == 0 or cur is None:
            parts.append(canonical(s))
            for seat in [*range(n), SPECTATOR]:
                parts.append(json.dumps(game.observe(s, seat).to_json(), sort_keys=True))
        out.append(_digest("\n".join(parts)))
        if cur is None or not legal or step > bound:
            break
        s = game.apply(s, legal[chooser.randrange(len(legal))])
        step += 1
    outcome = game.outcome(s)
    out.append(_digest(json.dumps(outcome.to_json() if outcome else None, sort_keys=True)))
    return out


def game_payload(game: Any, ident: Mapping[str, Any] | None) -> dict[str, Any]:
    """How a fresh process rebuilds ``game``: by id and options, or from its pickle.

    Raises:
        TypeError: the game cannot be pickled (and has no id to rebuild it from).
    """
    if ident is not None:
        return {"id": dict(ident)}
    data = pickle.dumps(game)
    files: dict[str, str] = {}
    for cls in (*type(game).__mro__, type(getattr(game, "options", None))):
        mod = sys.modules.get(cls.__module__)
        f = getattr(mod, "__file__", None)
        if mod is not None and isinstance(f, str):
            files[cls.__module__] = f
    return {"pickle": base64.b64encode(data).decode("ascii"), "files": files}


class _Unpickler(pickle.Unpickler):
    def __init__(self, data: bytes, files: Mapping[str, str]) -> None:
        import io

        super().__init__(io.BytesIO(data))
        self.files = files

    def find_class(self, module: str, name: str) -> Any:
        if module not in sys.modules:
            try:
                importlib.import_module(module)
            except ImportError:
                spec = importlib.util.spec_from_file_location(module, self.files[module])
                if spec is None or spec.loader is None:
                    raise
                mod = importlib.util.module_from_spec(spec)
                sys.modules[module] = mod
                spec.loader.exec_module(mod)
        return super().find_class(module, name)


def _build(payload: Mapping[str, Any]) -> Any:
    if "id" in payload:
        from cardcore._host import default_host
        from cardcore._options import build_options

        ident = payload["id"]
        spec = default_host().game_spec(ident["game"])
        opts = build_options(spec.options_type, spec.presets, ident["preset"], ident["overrides"])
        return spec.factory(opts)
    data = base64.b64decode(payload["pickle"])
    return _Unpickler(data, payload.get("files", {})).load()


def _within(seconds: float, f: Callable[..., T], *args: Any) -> T:
    """``f(*args)``, interrupted when it runs over ``seconds`` (a call that never returns).

    The fingerprint looks at its deadline between steps; the alarm (POSIX) ends a step
    that never does, so that the checking process gets an answer instead of waiting.

    Raises:
        ChildTimeoutError: the call ran over ``seconds`` (plus a second).
    """
    if not hasattr(signal, "setitimer"):
        return f(*args)

    def ring(signum: int, frame: object) -> None:
        raise ChildTimeoutError(f"a call ran over {seconds:g} s and did not return")

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds + 1.0)
    try:
        return f(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def main() -> None:
    """Read jobs from stdin, print fingerprints to stdout."""
    request = json.load(sys.stdin)
    for p in request.get("path", []):
        if p not in sys.path:
            sys.path.append(p)
    results: dict[str, Any] = {}
    timeout = float(request["timeout"])
    for job in request["jobs"]:
        try:
            game = _build(job["game"])
            results[job["key"]] = [
                _within(timeout, fingerprint, game, job["players"], seed, timeout)
                for seed in request["seeds"]
            ]
        except Exception as e:  # noqa: BLE001 - reported to the checking process
            results[job["key"]] = {"error": f"{type(e).__name__}: {e}"}
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
