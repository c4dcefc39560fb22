"""Count CPU instructions per ISMCTS iteration under valgrind, for each game.

``cardcore bench`` reports ISMCTS iterations per second, which on a shared machine move
by a third from run to run. This script counts instructions instead, so a change to the
search or to a game's heuristic can be judged exactly::

    .venv/bin/python benchmarks/search_instructions.py nestors box --positions 6 --iterations 100

For each game (default preset) it plays seeded heuristic self-play games, keeps a few
positions with a choice spread over them, and searches each with the default ``ismcts``
(the game's search hints) for a fixed number of iterations. It runs itself twice under
``valgrind --tool=callgrind``: once building the positions and warming the search up
only, once also searching; the difference over the iterations searched is printed.
With an iteration budget the search plays the same for a seed, so old and new code
search exactly the same trees.
"""

from __future__ import annotations

import argparse
import gc
import os
import tempfile
from typing import Any

from cardcore import load_game
from cardcore._host import default_host
from cardcore.bots import ISMCTSBot


def positions(game: Any, count: int, seed: int = 0) -> list[Any]:
    """``count`` observations with a choice, from heuristic self-play games from ``seed``."""
    host = default_host()
    bot_id = f"{game.name}-heuristic"
    if bot_id not in host.bots():
        bot_id = "random"
    pool: list[Any] = []
    g = seed
    while len(pool) < 4 * count:
        bots = [host.load_bot(bot_id, game, seed=g * 10 + i) for i in range(game.max_players)]
        state = game.initial_state(game.max_players, g)
        k = 0
        while game.current_player(state) is not None and k < 600:
            seat = game.current_player(state)
            o = game.observe(state, seat)
            if len(o.legal_actions) > 1 and k % 5 == 2:
                pool.append(o)
            state = game.apply(state, bots[seat].act(o))
            k += 1
        g += 1
    return [pool[i * len(pool) // count] for i in range(count)]


def search(game_id: str, count: int, iterations: int, run: bool) -> int:
    """Build the positions, warm up, and (with ``run``) search them; return the iterations."""
    game = load_game(game_id)
    obs = positions(game, count)
    ISMCTSBot(game, seed=99, iterations=5).act(obs[-1])  # warm-up, in both runs
    gc.collect()
    gc.disable()
    done = 0
    if run:
        for i, o in enumerate(obs):
            bot = ISMCTSBot(game, seed=i, iterations=iterations)
            bot.act(o)
            done += bot.last_iterations
    return done


def _count(args: argparse.Namespace, game: str, run: bool) -> tuple[int, int]:
    from _valgrind import run as run_valgrind

    with tempfile.TemporaryDirectory() as tmp:
        inner = [game, "--positions", str(args.positions), "--iterations", str(args.iterations)]
        counts, done = run_valgrind(
            ["--tool=callgrind", f"--callgrind-out-file={os.path.join(tmp, 'out')}"],
            __file__,
            [*inner, "--inner" if run else "--inner-base"],
            {"instructions": r"Collected : (\d+)"},
        )
    return counts["instructions"], done


def main() -> None:
    """Print instructions per ISMCTS iteration for each game."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", help="game ids (default: nyuri noddy box nestors)")
    ap.add_argument("--positions", type=int, default=6, help="positions per game (default 6)")
    ap.add_argument("--iterations", type=int, default=100, help="iterations a search (100)")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--inner-base", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.inner or args.inner_base:  # the run under valgrind
        print(search(args.games[0], args.positions, args.iterations, args.inner))
        return
    from _valgrind import require_valgrind

    require_valgrind()
    for game in args.games or ["nyuri", "noddy", "box", "nestors"]:
        base, _ = _count(args, game, False)
        total, done = _count(args, game, True)
        per = (total - base) / max(1, done)
        print(f"{game}: {done} iterations, {per:,.0f} instructions each", flush=True)


if __name__ == "__main__":
    main()
