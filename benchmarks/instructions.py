"""Count CPU instructions per random-play decision under valgrind, for one game and preset.

Wall-clock rates on a shared machine move by a third from run to run; instruction counts
do not. To judge a change of a few percent, compare counts before and after::

    .venv/bin/python benchmarks/instructions.py nyuri --preset pagat --games 100

The script runs itself twice under ``valgrind --tool=callgrind`` (valgrind must be
installed): once playing no game (imports and a warm-up only) and once playing
``--games`` seeded random games, and prints the difference divided by the decisions
played. Both runs warm the game's caches with the same few games first, and the garbage
collector is off while counting. A decision is one ``legal_actions`` plus one ``apply``,
as in ``cardcore bench``; the random pick and the deals are included. With
``--observe`` it also builds the observation of the player to move (``observe``), as the
``+ observe`` loop of ``benchmarks/compare.py`` does.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import tempfile

from cardcore import load_game


def play(game_id: str, preset: str, first: int, count: int, observe: bool = False) -> int:
    """Play ``count`` random games from seed ``first``; return the decisions made.

    With ``observe``, each decision also builds the observation of the player to move
    (the ``+ observe`` loop of ``benchmarks/compare.py``).
    """
    game = load_game(game_id, preset=preset)
    n = game.max_players
    uniform = random.Random(0).random
    decisions = 0
    for seed in range(first, first + count):
        state = game.initial_state(n, seed)
        while (player := game.current_player(state)) is not None:
            if observe:
                game.observe(state, player)
            legal = game.legal_actions(state)
            state = game.apply(state, legal[int(uniform() * len(legal))])
            decisions += 1
    return decisions


def _count(args: argparse.Namespace, games: int) -> tuple[int, int]:
    """Run this script under callgrind; return (instructions, decisions)."""
    from _valgrind import run

    with tempfile.TemporaryDirectory() as tmp:
        counts, decisions = run(
            ["--tool=callgrind", f"--callgrind-out-file={os.path.join(tmp, 'out')}"],
            __file__,
            [
                args.game,
                "--preset",
                args.preset,
                "--games",
                str(games),
                "--inner",
                *(["--observe"] if args.observe else []),
            ],
            {"instructions": r"Collected : (\d+)"},
        )
    return counts["instructions"], decisions


def main() -> None:
    """Print instructions per decision (or, with ``--inner``, play and print decisions)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", help="an installed game id")
    ap.add_argument("--preset", default="default")
    ap.add_argument("--games", type=int, default=100, help="seeded games to count (default 100)")
    ap.add_argument(
        "--observe", action="store_true", help="also observe for the player to move, every step"
    )
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.inner:  # the run under valgrind
        play(args.game, args.preset, 1_000_000, 5, args.observe)  # warm-up, in both runs
        # A full collection landing in one run's window and not the other's would move
        # the count by thousands of instructions per decision: none runs while counting.
        gc.collect()
        gc.disable()
        print(play(args.game, args.preset, 0, args.games, args.observe))
        return
    from _valgrind import require_valgrind

    require_valgrind()
    base, _ = _count(args, 0)
    total, decisions = _count(args, args.games)
    per = (total - base) / max(1, decisions)
    loop = " with observe" if args.observe else ""
    print(f"{args.game} {args.preset}{loop}: {decisions} decisions, {per:,.0f} instructions each")


if __name__ == "__main__":
    main()
