"""Random play in cardcore's games and in two other libraries, side by side in one run.

Every speed claim about cardcore against other libraries is made from this script. It
plays random games through each library's public API and reports decisions per second
of CPU time (a *decision* is one player's move; chance moves are played but not
counted):

* cardcore, every installed game and preset, in four loops: ``legal + apply``
  (``legal_actions`` and ``apply``), ``+ observe`` (also ``observe`` for the player to
  move, every step), ``play_match`` (the match engine with random bots, built once) and
  ``RL step`` (the PettingZoo environment of ``cardcore.adapters``: ``last`` for the
  encoded observation and action mask, then ``step`` with a random legal index read
  from the mask as ``cardcore bench`` reads it), with two more ratios per game: the time per decision of
  ``play_match`` and of ``RL step`` over that of the same game's ``+ observe`` loop
  (what the engine and the adapter add to a user's loop);
* OpenSpiel (C++ games through ``pyspiel``): hearts, euchre and spades, ``legal + apply``,
  ``+ observe`` (the observation string, or the information-state string where the
  game has no observation string) and ``RL step``, its own RL loop
  (``open_spiel.python.rl_environment``: ``step`` with a random legal action, which
  builds the next time step's tensors);
* RLCard: uno, bridge and leduc hold'em, ``legal + apply`` (``game.step``, which builds
  the next player's state), ``+ observe`` and ``RL step`` (both ``env.step``, which also
  encodes the state: RLCard's own RL loop);
* ISMCTS iterations per CPU second, in a table of their own: cardcore's ``ismcts`` with
  no options (each game's search hints) on positions of random games, and OpenSpiel's
  C++ ISMCTS (``pyspiel.ISMCTSBot``, one random rollout per iteration) on hearts
  positions of the trick-taking phase (a search from the passing phase crashes
  ``pyspiel`` 2.0.2).

The loops run interleaved: each round runs every loop once for ``--seconds`` of CPU time,
in the same order, and the table reports the median of the rounds, so that a slow
moment of a shared machine touches every loop alike. Ratios are against OpenSpiel hearts
in the same loop, and the RL step also against RLCard's uno. The RL step needs the ``rl`` extra (numpy, gymnasium, pettingzoo);
without it that column is reported as not measured. Run it from the repository root in
its own environment (see ``docs/benchmarks.md``)::

    python benchmarks/compare.py --rounds 3 --seconds 2 --out benchmarks/compare.md

An anchor library that cannot be imported is reported in the output with its error.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

Runner = Callable[[float], tuple[int, float]]
"""Play for about ``seconds`` of CPU time; return (decisions, CPU seconds used)."""

RAW = "legal + apply"
OBSERVE = "+ observe"
MATCH = "play_match"
RL = "RL step"
MODES = (RAW, OBSERVE, MATCH, RL)
SEARCH = "ISMCTS it/s"
"""Not a column of the main table: ISMCTS iterations per CPU second, a table of its own."""
UNO = "RLCard uno"
HEARTS = "OpenSpiel hearts"
ISMCTS_ITERATIONS = 100
"""Iterations of each timed search (cardcore and OpenSpiel alike)."""


def _timed(games: Iterator[int]) -> Runner:
    """A runner over an endless stream of games, each yielding its decision count."""

    def run(seconds: float) -> tuple[int, float]:
        clock = time.process_time
        start = clock()
        deadline = start + seconds
        decisions = 0
        while True:
            decisions += next(games)
            now = clock()
            if now >= deadline:
                return decisions, now - start

    return run


# ---- cardcore ------------------------------------------------------------------------


def _cardcore_games(game: Any, observe: bool, seed: int) -> Iterator[int]:
    uniform = random.Random(seed).random
    n = game.max_players
    legal_actions, apply, current = game.legal_actions, game.apply, game.current_player
    obs = game.observe
    g = seed
    while True:
        state = game.initial_state(n, g)
        g += 1
        decisions = 0
        player = current(state)
        while player is not None:
            if observe:
                obs(state, player)
            legal = legal_actions(state)
            state = apply(state, legal[int(uniform() * len(legal))])
            decisions += 1
            player = current(state)
        yield decisions


def _cardcore_matches(game: Any, game_id: str, seed: int) -> Iterator[int]:
    from cardcore import load_bot, play_match

    n = game.max_players
    g = seed
    # The bots are built once and play every match (a bot keeps no state between
    # random picks), so that the loop counts the engine, not the plugin host.
    bots = [load_bot("random", game, seed=seed * 10 + i) for i in range(n)]
    while True:
        record = play_match(game, bots, seed=g)
        g += 1
        yield len(record.actions)


def _mask_pick(mask: Any, uniform: float, count_nonzero: Callable[[Any], int]) -> int:
    """The index of the k-th legal entry of an action mask, k drawn from ``uniform``.

    The pick of ``cardcore bench`` (and ``benchmarks/rl_overhead.py``): ``bytes.find``
    scans in C; a small mask is counted by ``bytes.count``, a large one (Nyuri's 23,845
    entries) by ``np.count_nonzero``, which a user would call there, while
    ``bytes.count`` over it costs more than the environment step (and
    ``np.flatnonzero`` more still).
    """
    data: bytes = mask.tobytes()
    legal = data.count(1) if len(data) <= _SMALL_MASK else count_nonzero(mask)
    index = data.find(1)
    for _ in range(int(uniform * legal)):
        index = data.find(1, index + 1)
    return index


_SMALL_MASK = 4096
"""Masks up to this many entries are counted without numpy."""


def _rl_games(pettingzoo: Any, game_id: str, preset: str, n: int, seed: int) -> Iterator[int]:
    env = pettingzoo.env(game_id, n, preset=preset)
    env.reset(seed=seed)
    uniform = random.Random(seed).random
    last, step = env.last, env.step
    from numpy import count_nonzero

    while True:
        env.reset()
        decisions = 0
        while env.agents:
            obs, _, terminated, _, _ = last()
            if terminated:
                step(None)
                continue
            step(_mask_pick(obs["action_mask"], uniform(), count_nonzero))
            decisions += 1
        yield decisions


def _positions(game: Any, n: int, count: int, seed: int) -> list[Any]:
    """Observations with a choice, from seeded random games, spread over whole games."""
    rng = random.Random(seed)
    out: list[Any] = []
    g = seed
    while len(out) < count:
        state = game.initial_state(n, g)
        g += 1
        while (player := game.current_player(state)) is not None and len(out) < count:
            legal = game.legal_actions(state)
            if len(legal) > 1 and rng.random() < 0.2:
                out.append(game.observe(state, player))
            state = game.apply(state, legal[rng.randrange(len(legal))])
    return out


def _cardcore_search(game: Any, seed: int) -> Iterator[int]:
    """ISMCTS searches of :data:`ISMCTS_ITERATIONS` from a cycle of positions."""
    from cardcore.bots import ISMCTSBot

    positions = _positions(game, game.min_players, 8, seed)
    k = 0
    while True:
        bot = ISMCTSBot(game, seed=seed + k, iterations=ISMCTS_ITERATIONS)
        bot.act(positions[k % len(positions)])
        k += 1
        yield ISMCTS_ITERATIONS


def cardcore_loops(only: str, problems: list[str]) -> dict[tuple[str, str], Runner]:
    """The cardcore loops, per (label, mode), for every installed game and preset."""
    from cardcore import PluginHost, load_game

    try:
        from cardcore.adapters import pettingzoo
    except Exception as e:  # noqa: BLE001 - the RL column is reported as not measured
        pettingzoo = None
        problems.append(f"RL step: {type(e).__name__}: {e}")
    host = PluginHost()
    out: dict[tuple[str, str], Runner] = {}
    for spec in sorted(host.games().values(), key=lambda s: s.name):
        for preset in spec.presets:
            label = spec.name if preset == "default" else f"{spec.name} {preset}"
            if only and only not in label:
                continue
            game = load_game(spec.name, preset=preset)
            out[(label, RAW)] = _timed(_cardcore_games(game, False, 1))
            out[(label, OBSERVE)] = _timed(_cardcore_games(game, True, 1))
            out[(label, MATCH)] = _timed(_cardcore_matches(game, spec.name, 1))
            if pettingzoo is not None:
                out[(label, RL)] = _timed(
                    _rl_games(pettingzoo, spec.name, preset, game.max_players, 1)
                )
            out[(label, SEARCH)] = _timed(_cardcore_search(game, 1))
    return out


# ---- OpenSpiel -----------------------------------------------------------------------


def _chance_pick(outcomes: list[tuple[int, float]], x: float) -> int:
    """The chance outcome that ``x`` (uniform in [0, 1)) falls on."""
    for action, p in outcomes:
        x -= p
        if x < 0:
            return action
    return outcomes[-1][0]


def _spiel_games(pyspiel: Any, name: str, observe: bool, seed: int) -> Iterator[int]:
    game = pyspiel.load_game(name)
    kind = game.get_type()
    rng = random.Random(seed)
    uniform = rng.random
    if kind.provides_observation_string:
        see = "observation_string"
    else:
        see = "information_state_string"
    while True:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_chance_pick(state.chance_outcomes(), uniform()))
                continue
            if observe:
                getattr(state, see)(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[int(uniform() * len(legal))])
            decisions += 1
        yield decisions


def _spiel_rl_games(rl_environment: Any, name: str, seed: int) -> Iterator[int]:
    """OpenSpiel's own RL loop: ``rl_environment.Environment.step``, random legal actions."""
    sampler = rl_environment.ChanceEventSampler(seed=seed)
    env = rl_environment.Environment(name, chance_event_sampler=sampler)
    uniform = random.Random(seed).random
    while True:
        step = env.reset()
        decisions = 0
        while not step.last():
            player = step.observations["current_player"]
            legal = step.observations["legal_actions"][player]
            step = env.step([legal[int(uniform() * len(legal))]])
            decisions += 1
        yield decisions


def _spiel_search(pyspiel: Any, name: str, seed: int) -> Iterator[int]:
    """OpenSpiel's C++ ISMCTS, :data:`ISMCTS_ITERATIONS` a search, on play-phase positions.

    Hearts' first 12 decisions pass cards; a search from there crashes ``pyspiel`` 2.0.2,
    so positions are taken after them.
    """
    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    positions: list[Any] = []
    while len(positions) < 8:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal() and len(positions) < 8:
            if state.is_chance_node():
                state.apply_action(_chance_pick(state.chance_outcomes(), rng.random()))
                continue
            legal = state.legal_actions()
            if decisions >= 16 and len(legal) > 1 and rng.random() < 0.2:
                positions.append(state.clone())
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    k = 0
    while True:
        bot = pyspiel.ISMCTSBot(
            seed + k,
            evaluator,
            2.0,
            ISMCTS_ITERATIONS,
            -1,
            pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT,
            False,
            True,
        )
        bot.step(positions[k % len(positions)])
        k += 1
        yield ISMCTS_ITERATIONS


def spiel_loops(only: str) -> tuple[dict[tuple[str, str], Runner], str]:
    """The OpenSpiel loops, or none and the import error."""
    try:
        import pyspiel
    except Exception as e:  # noqa: BLE001 - any import failure is reported, not raised
        return {}, f"open_spiel: {type(e).__name__}: {e}"
    try:
        from open_spiel.python import rl_environment
    except ImportError:  # pyspiel without its Python part: no RL loop to time
        rl_environment = None
    out: dict[tuple[str, str], Runner] = {}
    for name in ("hearts", "euchre", "spades"):
        label = f"OpenSpiel {name}"
        if only and only not in label and name != "hearts":
            continue
        out[(label, RAW)] = _timed(_spiel_games(pyspiel, name, False, 1))
        out[(label, OBSERVE)] = _timed(_spiel_games(pyspiel, name, True, 1))
        if rl_environment is not None:
            out[(label, RL)] = _timed(_spiel_rl_games(rl_environment, name, 1))
    out[(HEARTS, SEARCH)] = _timed(_spiel_search(pyspiel, "hearts", 1))
    return out, ""


# ---- RLCard --------------------------------------------------------------------------


def _rlcard_games(rlcard: Any, name: str, observe: bool, seed: int) -> Iterator[int]:
    env = rlcard.make(name, config={"seed": seed})
    uniform = random.Random(seed).random
    if observe:
        while True:
            state, _ = env.reset()
            decisions = 0
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _ = env.step(legal[int(uniform() * len(legal))])
                decisions += 1
            yield decisions
    game = env.game
    judger = getattr(game, "judger", None)
    if hasattr(game, "get_legal_actions"):
        legal_of = game.get_legal_actions
    else:
        assert judger is not None
        legal_of = judger.get_legal_actions
    while True:
        game.init_game()
        decisions = 0
        while not game.is_over():
            legal = legal_of()
            game.step(legal[int(uniform() * len(legal))])
            decisions += 1
        yield decisions


def rlcard_loops(only: str) -> tuple[dict[tuple[str, str], Runner], str]:
    """The RLCard loops, or none and the import error."""
    try:
        import rlcard
    except Exception as e:  # noqa: BLE001 - any import failure is reported, not raised
        return {}, f"rlcard: {type(e).__name__}: {e}"
    out: dict[tuple[str, str], Runner] = {}
    for name in ("uno", "bridge", "leduc-holdem"):
        label = f"RLCard {name}"
        if only and only not in label and name != "uno":
            continue
        out[(label, RAW)] = _timed(_rlcard_games(rlcard, name, False, 1))
        out[(label, OBSERVE)] = _timed(_rlcard_games(rlcard, name, True, 1))
        out[(label, RL)] = _timed(_rlcard_games(rlcard, name, True, 1))
    return out, ""


# ---- running and reporting -----------------------------------------------------------


def measure(
    loops: dict[tuple[str, str], Runner], rounds: int, seconds: float, warmup: float
) -> dict[tuple[str, str], list[float]]:
    """Decisions per CPU second of each loop, one figure per round, interleaved."""
    for run in loops.values():  # caches, lazy tables, first deals: outside the timing
        run(warmup)
    rates: dict[tuple[str, str], list[float]] = {key: [] for key in loops}
    for r in range(rounds):
        for key, run in loops.items():
            decisions, cpu = run(seconds)
            rates[key].append(decisions / cpu)
        print(f"round {r + 1}/{rounds} done", file=sys.stderr)
    return rates


def _k(x: float) -> str:
    if x < 1000:
        return f"{x:.0f}"
    return f"{x / 1000:.0f}k" if x >= 10_000 else f"{x / 1000:.1f}k"


def report(
    rates: dict[tuple[str, str], list[float]],
    problems: list[str],
    rounds: int,
    seconds: float,
    versions: dict[str, str],
) -> str:
    """The markdown report: a table of medians and ratios, and the ISMCTS table."""
    labels: list[str] = []
    for label, mode in rates:
        if label not in labels and mode != SEARCH:
            labels.append(label)
    med = {key: statistics.median(v) for key, v in rates.items()}
    anchor = {m: med.get((HEARTS, m)) for m in MODES}
    uno = med.get((UNO, RL))
    slow = [f"{m} / observe" for m in (MATCH, RL)]
    lines = [
        "# Random play, side by side",
        "",
        "Written by `benchmarks/compare.py` (see `docs/benchmarks.md`); every figure below",
        "comes from one run in which all loops were interleaved. Decisions per second of CPU",
        f"time, median of {rounds} rounds of {seconds:g} s per loop (range in brackets);",
        "the ratio in bold is against OpenSpiel hearts in the same loop (`play_match`",
        "against its `legal + apply`). `+ observe` builds the observation of the",
        "player to move every step: cardcore's `observe`, OpenSpiel's observation string",
        "(information-state string for hearts, which has none), RLCard's `env.step`.",
        "`RL step` is each library's own RL loop with random legal actions: cardcore's",
        "PettingZoo environment (`last`, then `step` with a random legal index from the",
        "action mask, found as `cardcore bench` finds it: counted with `np.count_nonzero`",
        "for a large mask), OpenSpiel's `rl_environment` (`step`, which builds the next",
        "time step's information-state tensors) and RLCard's `env.step`; `RL / uno` is the",
        "RL step against RLCard uno's. The last two columns are the time per decision",
        "of `play_match` and of `RL step` over that of the game's own `+ observe` loop",
        "(the targets are at most 1.3x and 1.5x).",
        "",
        "| game | " + " | ".join([*MODES, "RL / uno", *slow]) + " |",
        "|---|" + "---|" * (len(MODES) + 1 + len(slow)),
    ]
    for label in labels:
        cells = []
        for m in MODES:
            v = rates.get((label, m))
            if not v:
                cells.append("")
                continue
            ref = anchor[RAW] if m == MATCH else anchor[m]
            ratio = f" **{med[(label, m)] / ref:.2f}x**" if ref else ""
            cells.append(f"{_k(med[(label, m)])} ({_k(min(v))}-{_k(max(v))}){ratio}")
        rl = med.get((label, RL))
        cells.append(f"{rl / uno:.2f}x" if rl and uno else "")
        base = med.get((label, OBSERVE))
        for m in (MATCH, RL):
            rate = med.get((label, m))
            cells.append(
                f"{base / rate:.2f}x" if base and rate and label[:3] not in ("Ope", "RLC") else ""
            )
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += _search_table(rates, med)
    lines += ["", "Where the run took place:", ""]
    lines += [f"- {k}: {v}" for k, v in versions.items()]
    if problems:
        lines += ["", "Not measured:", ""]
        lines += [f"- {p}" for p in problems]
    return "\n".join(lines) + "\n"


def _search_table(
    rates: dict[tuple[str, str], list[float]], med: dict[tuple[str, str], float]
) -> list[str]:
    """The ISMCTS iterations per CPU second, against OpenSpiel's C++ ISMCTS on hearts."""
    rows = [label for label, mode in rates if mode == SEARCH]
    if not rows:
        return []
    ref = med.get((HEARTS, SEARCH))
    lines = [
        "",
        "## ISMCTS iterations per CPU second",
        "",
        f"Searches of {ISMCTS_ITERATIONS} iterations from a cycle of 8 positions of seeded",
        "random games, a new bot each search, in the same interleaved rounds. cardcore:",
        "`ismcts` with no options, so each game's search hints (heuristic play-outs where",
        "the game has them, which cost more per iteration than random ones). OpenSpiel:",
        "its C++ ISMCTS (`pyspiel.ISMCTSBot`, UCT constant 2, one random rollout an",
        "iteration, information-state keys) on hearts after the passing phase (a search",
        "from the passing phase crashes `pyspiel` 2.0.2). One process each: `workers=1`.",
        "",
        "| game | iterations/s | against OpenSpiel hearts |",
        "|---|---|---|",
    ]
    for label in rows:
        v = rates[(label, SEARCH)]
        m = med[(label, SEARCH)]
        ratio = f"**{m / ref:.2f}x**" if ref else ""
        lines.append(f"| {label} | {_k(m)} ({_k(min(v))}-{_k(max(v))}) | {ratio} |")
    return lines


NOTES_MARKER = "<!-- notes: kept when the file is regenerated -->"
"""What follows this line in the report file is kept when the script rewrites it."""


def _kept_notes(path: str) -> str:
    """The hand-written notes at the end of an existing report (from the marker on)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return ""
    at = text.find(NOTES_MARKER)
    return "" if at < 0 else "\n" + text[at:]


def _versions() -> dict[str, str]:
    from importlib import metadata

    out = {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "machine": f"{platform.machine()}, {platform.system()} {platform.release()}",
    }
    for dist in ("cardcore", "open_spiel", "rlcard"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "not installed"
    try:
        from cardcore._build import build_line, installed_distributions

        out["cardcore build"] = build_line(installed_distributions()).removeprefix("Build: ")
    except ImportError:
        out["cardcore build"] = "unknown"
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the comparison and write the report."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per loop per round")
    ap.add_argument("--warmup", type=float, default=0.3, help="untimed CPU seconds per loop")
    ap.add_argument("--only", default="", help="only loops whose label contains this text")
    ap.add_argument("--out", default="", help="write the markdown report here")
    args = ap.parse_args(argv)
    if args.rounds < 1 or args.seconds <= 0:
        ap.error("--rounds must be at least 1 and --seconds positive")
    problems: list[str] = []
    loops = cardcore_loops(args.only, problems)
    for more, problem in (spiel_loops(args.only), rlcard_loops(args.only)):
        loops.update(more)
        if problem:
            problems.append(problem)
    if not loops:
        ap.error(f"no loop matches --only {args.only!r}")
    rates = measure(loops, args.rounds, args.seconds, args.warmup)
    text = report(rates, problems, args.rounds, args.seconds, _versions())
    if args.out:
        notes = _kept_notes(args.out)
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + notes)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
