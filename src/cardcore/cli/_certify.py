"""``cardcore certify GAME``: the conformance kit on an installed game, from the shell."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

from cardcore.cli import _common
from cardcore.cli._common import CliError

__all__ = ["cmd_certify"]


def cmd_certify(args: argparse.Namespace) -> int:
    """Run the conformance kit on an installed game."""
    from cardcore.testing import MAX_GAMES, PROPERTIES, Config, configurations, run_checks

    if not 1 <= args.games <= MAX_GAMES:
        raise CliError(f"--games must be between 1 and {MAX_GAMES}, not {args.games}")
    if not -(2**63) <= args.seed < 2**63:
        raise CliError(f"--seed must fit in 64 bits, not {args.seed}")
    if not 0 < args.timeout <= 86_400:
        raise CliError(f"--timeout must be between 0 and 86400 seconds, not {args.timeout:g}")
    cpus = os.cpu_count() or 1
    jobs = args.jobs if args.jobs is not None else cpus
    if not 1 <= jobs <= 256:
        raise CliError(f"--jobs must be between 1 and 256, not {jobs}")
    host = _common._host()
    spec = host.game_spec(args.game)
    if args.preset:
        if args.preset not in spec.presets:
            raise CliError(f"unknown preset {args.preset!r}; presets are {', '.join(spec.presets)}")
        configs = [Config(args.preset)]
    else:
        configs = configurations(spec)
    if args.players is not None and not spec.min_players <= args.players <= spec.max_players:
        raise CliError(
            f"--players: {args.game} plays {spec.min_players}-{spec.max_players} players, "
            f"not {args.players}"
        )
    players = [args.players] if args.players is not None else None
    counts = 1 if players else spec.max_players - spec.min_players + 1
    total = len(configs) * counts * args.games
    start = time.monotonic()
    show = not args.quiet and sys.stderr.isatty()
    done = [0]

    def clock(seconds: float) -> str:
        m, sec = divmod(int(seconds + 0.5), 60)
        return f"{m}m{sec:02d}s" if m else f"{sec}s"

    def tick() -> None:
        done[0] += 1
        elapsed = time.monotonic() - start
        eta = elapsed / done[0] * (total - done[0])
        sys.stderr.write(
            f"\r  {args.game}: {done[0]}/{total} games, {clock(elapsed)} elapsed, "
            f"about {clock(eta)} left \x1b[K"
        )
        sys.stderr.flush()

    # Hypothesis keeps caches in ./.hypothesis unless told otherwise: the kit's go to a
    # temporary folder (shared with the worker processes), not to the user's folder.
    store = "HYPOTHESIS_STORAGE_DIRECTORY"
    scratch = None if os.environ.get(store) else tempfile.TemporaryDirectory(prefix="cardcore-")
    if scratch is not None:
        os.environ[store] = scratch.name
    try:
        report = run_checks(
            args.game,
            configs=configs,
            players=players,
            games=args.games,
            seed=args.seed,
            failure_dir=args.failure_dir,
            timeout=args.timeout,
            tick=tick if show else None,
            jobs=jobs,
        )
    finally:
        if scratch is not None:
            del os.environ[store]
            scratch.cleanup()
        if show:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
    seconds = time.monotonic() - start
    failed = {r.property for _, _, r in report.failures()}
    if args.json:
        data = {
            "game": args.game,
            "certified": report.ok,
            "configurations": [c.label() for c in configs],
            "games": report.games_played,
            "decisions": report.decisions,
            "seconds": round(seconds, 3),
            "properties": {p: ("failed" if p in failed else "passed") for p in PROPERTIES},
            "failures": [
                {
                    "property": r.property,
                    "configuration": label,
                    "players": n,
                    "message": r.message,
                    "record": str(r.record_path) if r.record_path else None,
                }
                for label, n, r in report.failures()
            ],
        }
        print(json.dumps(data, indent=1, ensure_ascii=False))
        return 0 if report.ok else 1
    print(
        f"cardcore certify {args.game}: {len(configs)} configuration(s), "
        f"{report.games_played} games, {report.decisions} decisions, {clock(seconds)}"
    )
    for prop, text in PROPERTIES.items():
        mark = "FAILED" if prop in failed else "passed"
        print(f"  {mark:<7}{prop:<19} {text}")
    for label, n, r in report.failures():
        print(f"\nFAILED {r.property} ({label}, {n} players): {r.message}")
        if r.record_path:
            print(f"  minimal replay: {r.record_path} (open with: cardcore replay {r.record_path})")
    print("\ncertified" if report.ok else "\nNOT certified")
    return 0 if report.ok else 1
