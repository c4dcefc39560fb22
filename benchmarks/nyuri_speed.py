"""Nyuri's speed in the three figures its speed work is measured by, one per run.

Run it with the interpreter of the build to measure (``.venv/bin/python`` for the pure
modules, ``.venv-compiled/bin/python`` for the compiled ones), and run two builds or two
checkouts in turn to compare them::

    python benchmarks/nyuri_speed.py match            # the README's example, 3 seats
    python benchmarks/nyuri_speed.py match --bots ismcts,ismcts,ismcts
    python benchmarks/nyuri_speed.py ismcts --preset pagat --seconds 5
    python benchmarks/nyuri_speed.py ismcts --preset pagat --players 2
    python benchmarks/nyuri_speed.py raw --preset default --seconds 5

* ``match``: CPU seconds of one seeded pagat match of three seats, by default
  ``nyuri-heuristic``, ``ismcts`` at 50 iterations and ``random`` (``ismcts`` in
  ``--bots`` means 50 iterations); prints the outcome too, which must not change.
* ``ismcts``: ISMCTS iterations per CPU second, searches of 100 iterations with the
  game's hints at positions of seeded random four-seat games (the loop of
  ``compiled.py``; ``--players 2`` for the two seats of ``compare.py``'s search table,
  where ``pagat`` play-outs go round to the turn limit).
* ``raw``: ``legal + apply`` random play, decisions per CPU second, four seats (the loop
  of ``compare.py``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from typing import Any

ISMCTS_ITERATIONS = 100
"""Iterations of each timed search, as in ``compare.py``."""


def _match(bots: str, seed: int) -> str:
    from cardcore import load_bot, load_game, play_match

    game = load_game("nyuri", preset="pagat")
    players = []
    for i, name in enumerate(bots.split(",")):
        if name == "ismcts":
            players.append(load_bot("ismcts", game, seed=i, iterations=50))
        else:
            players.append(load_bot(name, game, seed=i))
    start = time.process_time()
    record = play_match(game, players, seed=seed)
    spent = time.process_time() - start
    o = record.outcome
    assert o is not None
    return f"match {bots} seed {seed}: {spent:.2f} s CPU, {len(record.actions)} decisions, scores {o.scores}"


def _searches(game: Any, seed: int, players: int = 4) -> Iterator[int]:
    """Endless ISMCTS searches at positions of seeded random games; yields iterations."""
    from cardcore import load_bot

    pick = random.Random(seed)
    g = seed
    while True:
        state = game.initial_state(players, g)
        g += 1
        k = 0
        while (player := game.current_player(state)) is not None:
            if k % 7 == 3:  # a few positions per game, from the first turn to the last
                bot = load_bot("ismcts", game, seed=g * 100 + k, iterations=ISMCTS_ITERATIONS)
                bot.act(game.observe(state, player))
                yield ISMCTS_ITERATIONS
            legal = game.legal_actions(state)
            state = game.apply(state, legal[int(pick.random() * len(legal))])
            k += 1


def _random_games(game: Any, seed: int) -> Iterator[int]:
    """Endless random games, ``legal + apply`` only; yields each game's decisions."""
    uniform = random.Random(seed).random
    legal_actions, apply, current = game.legal_actions, game.apply, game.current_player
    g = seed
    while True:
        state = game.initial_state(4, g)
        g += 1
        decisions = 0
        while current(state) is not None:
            legal = legal_actions(state)
            state = apply(state, legal[int(uniform() * len(legal))])
            decisions += 1
        yield decisions


def _rate(stream: Iterator[int], seconds: float) -> tuple[int, float]:
    clock = time.process_time
    start = clock()
    count = 0
    while clock() - start < seconds:
        count += next(stream)
    return count, clock() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("figure", choices=("match", "ismcts", "raw"))
    parser.add_argument("--bots", default="nyuri-heuristic,ismcts,random")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--preset", default="pagat")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--players", type=int, default=4, help="seats of the ismcts games")
    args = parser.parse_args(argv)
    if args.figure == "match":
        print(_match(args.bots, args.seed))
        return 0
    from cardcore import load_game

    game = load_game("nyuri", preset=args.preset)
    if args.figure == "ismcts":
        stream = _searches(game, 1, args.players)
    else:
        stream = _random_games(game, 1)
    count, spent = _rate(stream, args.seconds)
    unit = "iterations" if args.figure == "ismcts" else "decisions"
    print(f"{args.figure} {args.preset}: {count / spent:,.0f} {unit} per CPU second")
    return 0


if __name__ == "__main__":
    sys.exit(main())
