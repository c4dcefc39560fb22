"""Count what an RL environment step costs over the raw API, under valgrind, for one game.

``cardcore bench`` times the adapter's overhead in CPU time, which moves by a third from
run to run on a shared machine. This script counts it instead, so that a change of a few
percent can be judged::

    .venv/bin/python benchmarks/rl_overhead.py box --games 20

It runs itself three times under ``valgrind --tool=cachegrind --cache-sim=yes``
(valgrind must be installed): playing no game (imports and warm-up only), playing
``--games`` seeded random games through the raw API (``observe`` and ``apply``), and
playing as many through the PettingZoo environment (``last`` and ``step``), and prints
per decision the instructions, the first-level cache misses (instructions and data), and
a rough cycle estimate: instructions / 3 + 12 per first-level miss + 50 per last-level
data miss. The adapter's extra code and data push the game's own out of the small
first-level caches, so its steps run at fewer instructions per cycle than the raw ones;
the estimate, unlike the instruction count alone, follows the CPU-time ratio that
``cardcore bench`` reports.

Every run first plays ``--warm-up`` games on both paths, so that tables a game fills as
it meets new hands are not counted against either side. Both loops pick a random legal
action (the adapter's from the mask's bytes, which costs little even for large masks),
and the picks are counted on both sides. The garbage collector is off while counting,
so that a collection landing in one run and not the other does not decide the
comparison.
"""

from __future__ import annotations

import argparse
import gc
import random
from typing import Any

MODES = ("none", "raw", "adapter")


def raw(game: Any, players: int, first: int, count: int) -> int:
    """Random games through the raw API; returns the decisions made."""
    uniform = random.Random(0).random
    decisions = 0
    for seed in range(first, first + count):
        state = game.initial_state(players, seed)
        while (seat := game.current_player(state)) is not None:
            legal = game.observe(state, seat).legal_actions
            state = game.apply(state, legal[int(uniform() * len(legal))])
            decisions += 1
    return decisions


def adapter(env: Any, first: int, count: int) -> int:
    """Random games through the AEC environment; returns the decisions made."""
    import numpy as np

    uniform = random.Random(0).random
    decisions = 0
    env.reset(seed=first)
    for _ in range(count):
        env.reset()
        while env.agents:
            obs, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            env.step(pick(obs["action_mask"], uniform(), np.count_nonzero))
            decisions += 1
    return decisions


def pick(mask: Any, uniform: float, count_nonzero: Any) -> int:
    """The k-th legal index of a mask, found in its bytes, as ``cardcore bench`` picks.

    A copy of the bench's pick rather than an import of it, so that this script also
    counts older checkouts. ``np.flatnonzero`` over Nyuri's 23,845-entry mask would cost
    more than the step it picks for; small masks are counted without numpy.
    """
    data: bytes = mask.tobytes()
    legal = data.count(1) if len(data) <= 4096 else count_nonzero(mask)
    index = data.find(1)
    for _ in range(int(uniform * legal)):
        index = data.find(1, index + 1)
    return index


def inner(args: argparse.Namespace) -> None:
    """The run under valgrind: warm both paths, then play in one mode."""
    from cardcore import load_game
    from cardcore.adapters.pettingzoo import CardcoreAECEnv

    env = CardcoreAECEnv(args.game, args.players, preset=args.preset)
    game = load_game(args.game, preset=args.preset)
    raw(game, env.num_players, 1_000_000, args.warm_up)
    adapter(env, 1_000_000, args.warm_up)
    gc.collect()
    gc.disable()
    if args.inner == "raw":
        print(raw(game, env.num_players, 0, args.games))
    elif args.inner == "adapter":
        print(adapter(env, 0, args.games))
    else:
        print(1)


_COUNTS = {
    "ir": r"I\s+refs:\s+([\d,]+)",
    "i1": r"I1\s+misses:\s+([\d,]+)",
    "d1": r"D1\s+misses:\s+([\d,]+)",
    "lld": r"LLd\s+misses:\s+([\d,]+)",
}


def count(args: argparse.Namespace, mode: str) -> tuple[dict[str, int], int]:
    """Run this script under cachegrind in one mode: (event counts, decisions)."""
    from _valgrind import run

    script_args = [args.game, "--preset", args.preset, "--games", str(args.games)]
    if args.players is not None:
        script_args += ["--players", str(args.players)]
    script_args += ["--warm-up", str(args.warm_up), "--inner", mode]
    tool = ["--tool=cachegrind", "--cache-sim=yes", "--cachegrind-out-file=/dev/null"]
    return run(tool, __file__, script_args, _COUNTS)


def cycles(per: dict[str, float]) -> float:
    """The rough cycle estimate of the module docstring."""
    return per["ir"] / 3 + 12 * (per["i1"] + per["d1"]) + 50 * per["lld"]


def main() -> None:
    """Print per-decision counts of the raw and adapted loops, and their ratios."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", help="an installed game id with an RL codec")
    ap.add_argument("--preset", default="default")
    ap.add_argument("--players", type=int, default=None, help="seats (default: the fewest)")
    ap.add_argument("--games", type=int, default=20, help="seeded games per loop (default 20)")
    ap.add_argument(
        "--warm-up",
        type=int,
        default=3,
        help="games played on each path before counting (default 3; games that fill "
        "tables as they meet new hands, like Nyuri, need a few hundred)",
    )
    ap.add_argument("--inner", choices=MODES, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.inner:
        inner(args)
        return
    from _valgrind import require_valgrind

    require_valgrind()
    base, _ = count(args, "none")
    result = {}
    for mode in ("raw", "adapter"):
        counts, decisions = count(args, mode)
        per = {k: (counts[k] - base[k]) / max(1, decisions) for k in counts}
        result[mode] = per
        print(
            f"{args.game} {args.preset} {mode:7s}: {decisions} decisions; per decision "
            f"{per['ir']:,.0f} instructions, {per['i1'] + per['d1']:,.0f} L1 misses, "
            f"about {cycles(per):,.0f} cycles"
        )
    ir = result["adapter"]["ir"] / result["raw"]["ir"]
    est = cycles(result["adapter"]) / cycles(result["raw"])
    print(f"adapter / raw: x{ir:.2f} in instructions, about x{est:.2f} in cycles")


if __name__ == "__main__":
    main()
