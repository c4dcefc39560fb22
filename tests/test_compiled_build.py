"""The compiled build (mypyc) plays exactly as the pure-Python modules, its reference.

``make test`` runs this file twice: in the development venv (editable, pure) and in a venv
of the compiled wheels (``make compiled-test``, where ``CARDCORE_EXPECT_COMPILED=1``). In
both, the digests of this process are compared with those of a child process that loads
every module from its source (``CARDCORE_PURE=1``): in the compiled venv that is the
compiled build against the pure one, over every installed game, preset and player count.

Run as a script (``python tests/test_compiled_build.py``), it prints the digests as JSON.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
EXPECT_COMPILED = os.environ.get("CARDCORE_EXPECT_COMPILED", "") == "1"
"""Set by ``make compiled-test``: this process runs on the compiled wheels."""
OURS = ("cardcore", "cardcore-box", "cardcore-nestors", "cardcore-noddy", "cardcore-nyuri")
"""The distributions whose wheels compile their hot modules."""
SEARCHED = 3
"""Decisions of each game searched by ISMCTS (from the start), for the search digest."""
GAMES_IN_AN_ENV = 3
"""Games played in each environment (one reset after another) for its digest."""


def digests() -> dict[str, dict[str, str]]:
    """Per game, preset and player count: digests of a seeded game and of search choices.

    ``record``: the match record of a game of seeded random bots; ``observations``: every
    seat's (and the onlooker's) observation at every step, as its repr and as rendered;
    ``encodings``: each seat's encoded observation and legal action indices at its turns
    (when the game has a codec); ``search``: the choices of a seeded ISMCTS at the first
    decisions.
    """
    from cardcore import SPECTATOR, PluginHost, play_match
    from cardcore.adapters import CodecError, legal_indices, load_codec

    host = PluginHost()
    out: dict[str, dict[str, str]] = {}
    for name, spec in sorted(host.games().items()):
        for preset in sorted(spec.presets):
            game = host.load_game(name, preset=preset)
            for players in range(spec.min_players, spec.max_players + 1):
                seed = players * 7 + 1
                bots = [host.load_bot("random", game, seed=seed + i) for i in range(players)]
                record = play_match(game, bots, seed=seed, preset=preset)
                try:
                    codec = load_codec(game, players, host=host)
                except CodecError:
                    codec = None
                obs_h, enc_h, search_h = hashlib.sha256(), hashlib.sha256(), hashlib.sha256()
                state = game.initial_state(players, seed)
                for step, text in enumerate(record.actions):
                    for seat in [SPECTATOR, *range(players)]:
                        obs = game.observe(state, seat)
                        obs_h.update(f"{obs!r}\n{game.render(obs)}\n".encode())
                    cur = game.current_player(state)
                    assert cur is not None
                    mine = game.observe(state, cur)
                    if codec is not None:
                        vector = codec.encode(mine)
                        enc_h.update(struct.pack(f"<{len(vector)}d", *vector))
                        enc_h.update(repr(legal_indices(codec, mine)).encode())
                    if step < SEARCHED:
                        bot = host.load_bot("ismcts", game, seed=step, iterations=40)
                        search_h.update(f"{bot.act(mine)}\n".encode())
                    state = game.apply(state, game.parse_action(text))
                assert game.outcome(state) is not None
                out[f"{name}/{preset}/{players}p"] = {
                    "record": hashlib.sha256(record.dumps().encode()).hexdigest(),
                    "observations": obs_h.hexdigest(),
                    "encodings": enc_h.hexdigest() if codec is not None else "no codec",
                    "search": search_h.hexdigest(),
                }
    return out


def env_digests() -> dict[str, str]:
    """Per game, preset and player count: a digest of the PettingZoo environment's steps.

    Every observation array and action mask an agent is handed in a seeded game whose
    moves are drawn from the masks: the environments fill them on their own path (buffers
    and mask loops of their own), not through ``codec.encode``.
    """
    import random

    import numpy as np

    from cardcore import PluginHost
    from cardcore.adapters import CodecError, pettingzoo

    out: dict[str, str] = {}
    for name, spec in sorted(PluginHost().games().items()):
        for preset in sorted(spec.presets):
            for players in range(spec.min_players, spec.max_players + 1):
                try:
                    env = pettingzoo.env(name, players, preset=preset)
                except CodecError:  # a game without a codec has no environment
                    continue
                h, pick = hashlib.sha256(), random.Random(players).random
                for game in range(GAMES_IN_AN_ENV):
                    env.reset(seed=players * 7 + game)
                    while env.agents:
                        obs, reward, done, cut, _ = env.last()
                        h.update(f"{env.agent_selection} {reward} {done} {cut}\n".encode())
                        for array in obs.values():
                            h.update(np.ascontiguousarray(array).tobytes())
                        if done or cut:
                            env.step(None)
                            continue
                        legal = np.flatnonzero(obs["action_mask"])
                        env.step(int(legal[int(pick() * len(legal))]))
                out[f"{name}/{preset}/{players}p"] = h.hexdigest()
    return out


def test_the_environments_hand_out_what_the_pure_modules_do() -> None:
    """The PettingZoo environment's observations and masks are alike in both builds."""
    here = env_digests()
    code = (
        f"import json, runpy; m = runpy.run_path({str(Path(__file__))!r}); "
        "print(json.dumps(m['env_digests']()))"
    )
    pure = _child(code, CARDCORE_PURE="1")
    assert pure.returncode == 0, pure.stderr
    there = json.loads(pure.stdout)
    assert {k.split("/", 1)[0] for k in here} >= {"box", "nestors", "noddy", "nyuri"}
    assert here == there, sorted(k for k in here if here[k] != there.get(k))


def _child(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "CARDCORE_PURE"}
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,  # a hang guard only
        env={**environ, **env},
        cwd=ROOT,
    )


def test_records_observations_encodings_and_search_match_the_pure_modules() -> None:
    """Every game, preset and player count digests alike in this build and the pure one."""
    from cardcore import PluginHost

    here = digests()
    code = f"import runpy; runpy.run_path({str(Path(__file__))!r}, run_name='__main__')"
    pure = _child(code, CARDCORE_PURE="1")
    assert pure.returncode == 0, pure.stderr
    there = json.loads(pure.stdout)
    games = PluginHost().games()
    assert {k.rsplit("/", 1)[0] for k in here} == {
        f"{name}/{preset}" for name, spec in games.items() for preset in spec.presets
    }
    assert set(here) == set(there)
    differ = {key: sorted(k for k in here[key] if here[key][k] != there[key][k]) for key in here}
    assert not {k: v for k, v in differ.items() if v}, "the compiled build plays differently"


def test_the_pure_variable_loads_every_module_from_its_source() -> None:
    """With ``CARDCORE_PURE=1`` no module of cardcore or a game is a compiled extension."""
    code = (
        "import sys, cardcore, cardcore._cards, cardcore._rng\n"
        "from cardcore import PluginHost\n"
        "from cardcore._build import compiled_modules, installed_distributions\n"
        "for spec in PluginHost().games().values(): spec.factory(spec.presets['default'])\n"
        "mods = [m for d in installed_distributions() for m in compiled_modules(d)]\n"
        "ext = [n for n, m in sys.modules.items() if n.startswith('cardcore')\n"
        "       and not str(getattr(m, '__file__', '') or '').endswith(('.py', '.pyc'))\n"
        "       and getattr(m, '__file__', None)]\n"
        "print(mods, ext, cardcore._cards.__file__.endswith('.py'))\n"
    )
    done = _child(code, CARDCORE_PURE="1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[]", "[]", "True"]


def test_the_build_is_the_one_this_venv_was_made_with() -> None:
    """The compiled venv loads compiled modules of cardcore and every game; an editable one none."""
    from cardcore._build import compiled_modules

    compiled = {dist: compiled_modules(dist) for dist in OURS}
    if EXPECT_COMPILED:
        assert all(compiled.values()), compiled
        assert "cardcore._cards" in compiled["cardcore"]
    else:
        assert not any(compiled.values()), compiled


def test_every_listed_core_module_is_compiled() -> None:
    """The compiled venv loads each module of ``mypyc-modules`` compiled; an editable one none."""
    import tomllib

    from cardcore._build import compiled_modules

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]
    names = {
        p.removeprefix("src/").removesuffix(".py").replace("/", ".")
        for p in listed["mypyc-modules"]
    }
    assert {
        "cardcore._actions",
        "cardcore._lazy",
        "cardcore._table",
        "cardcore.bots._tree",
    } <= names
    assert set(compiled_modules("cardcore")) == (names if EXPECT_COMPILED else set())


def test_lazy_actions_keep_their_own_abc_registry() -> None:
    """A list or tuple is no lazy sequence, even once ``Sequence`` has cached it."""
    from collections.abc import Sequence

    from cardcore import CardSubsets, ConcatActions, LazyActions

    assert isinstance([], Sequence) and isinstance((), Sequence) and isinstance("", Sequence)
    for cls in (LazyActions, ConcatActions, CardSubsets):
        assert not isinstance([], cls) and not isinstance((), cls) and not isinstance("", cls)
        assert not issubclass(list, cls) and not issubclass(tuple, cls)
    lazy = ConcatActions((1, 2))
    assert isinstance(lazy, Sequence) and isinstance(lazy, LazyActions)
    assert lazy == (1, 2)
    assert lazy != [1, 2]
    assert lazy != (1,) and lazy != "x"  # noqa: PLR1714


@settings(max_examples=300, deadline=None)
@given(
    masks=st.lists(st.integers(0, 2**64 - 1) | st.integers(0, 2**52 - 1), max_size=20),
    k=st.integers(0, 2**64 - 1) | st.just(2**52 - 1),
)
def test_the_table_projection_counts_and_keeps_the_known_cards(masks: list[int], k: int) -> None:
    """Each zone's size and known cards, in either build (compiled: machine-word loops)."""
    from cardcore._projection import known_of, sizes_of

    zones = tuple(masks)
    assert sizes_of(zones) == tuple(m.bit_count() for m in zones)
    known = known_of(zones, k)
    assert known == tuple(m & k for m in zones)
    assert (known is zones) == all(m & k == m for m in zones)
    if EXPECT_COMPILED:  # compiled, a zone that keeps all its cards is passed on as is
        assert all(kept is m for m, kept in zip(zones, known, strict=True) if m & k == m)


@settings(max_examples=300, deadline=None)
@given(
    a=st.lists(st.integers(-5, 5000), max_size=60).map(sorted),
    x=st.integers(-10, 5100),
    lo=st.integers(0, 60),
)
def test_the_lazy_listings_bisection_is_the_bisect_modules(a: list[int], x: int, lo: int) -> None:
    """The compiled build's search of a sorted list gives ``bisect.bisect_right``'s index."""
    import bisect

    from cardcore._lazy import _bisect_words

    lo = min(lo, len(a))
    assert _bisect_words(a, x, lo) == bisect.bisect_right(a, x, lo)
    assert _bisect_words(a, x) == bisect.bisect_right(a, x)


def _subclass(base: type) -> type:
    """A subclass of ``base`` at module level (pickle finds it by name), with ``note``."""
    sub = type(f"_Noted{base.__name__}", (base,), {"__module__": __name__})
    globals()[sub.__name__] = sub
    return sub


def test_every_game_pickles_to_the_same_game_and_plays_the_same() -> None:
    """A game of every preset, and a Python subclass with an attribute of its own, come
    back from pickle with their class and options and play the same seeded match (the
    search workers and the kit send games to other processes; a compiled game could not
    be pickled before)."""
    import pickle

    from cardcore import PluginHost, play_match

    host = PluginHost()
    for name, spec in sorted(host.games().items()):
        for preset in sorted(spec.presets):
            game = host.load_game(name, preset=preset)
            sub = _subclass(type(game))(game.options)
            sub.note = "kept"
            for original in (game, sub):
                copy = pickle.loads(pickle.dumps(original))
                assert type(copy) is type(original), (name, preset)
                assert copy.options == original.options, (name, preset)
                players = spec.min_players
                records = [
                    play_match(
                        g, [host.load_bot("random", g, seed=i) for i in range(players)], seed=5
                    )
                    for g in (original, copy)
                ]
                assert records[0].actions == records[1].actions, (name, preset)
            assert pickle.loads(pickle.dumps(sub)).note == "kept"


def test_version_and_bench_name_the_loaded_build() -> None:
    """``--version`` ends with a Build line, and the bench's machine facts carry it too."""
    from cardcore._bench import machine_info
    from cardcore.cli._info import version_text

    last = version_text().splitlines()[-1]
    build = machine_info()["build"]
    if EXPECT_COMPILED:
        assert last.startswith("Build: compiled with mypyc: cardcore (")
        assert "cardcore-nyuri (" in last
    else:
        assert last == "Build: pure Python"
    assert last == f"Build: {build}"


def test_the_pure_variable_is_named_when_set() -> None:
    """With ``CARDCORE_PURE=1`` the Build line says the pure modules were asked for."""
    done = _child(
        "from cardcore.cli._info import version_text; print(version_text())", CARDCORE_PURE="1"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "Build: pure Python (CARDCORE_PURE is set)"


def test_every_distribution_carries_the_same_build_hook() -> None:
    """The plugins' hatch_build.py files are copies of the core's (each sdist builds alone)."""
    hook = (ROOT / "hatch_build.py").read_bytes()
    copies = sorted(ROOT.glob("plugins/*/hatch_build.py"))
    assert [p.parent.name for p in copies] == [d for d in OURS if d != "cardcore"]
    assert all(p.read_bytes() == hook for p in copies)


def _project(tmp_path: Path, source: str) -> Path:
    """A one-module project built with the repository's hook, compiling that module."""
    project = tmp_path / "proj"
    (project / "src" / "cardcore_probe").mkdir(parents=True)
    (project / "src" / "cardcore_probe" / "__init__.py").write_text("", encoding="utf-8")
    (project / "src" / "cardcore_probe" / "hot.py").write_text(source, encoding="utf-8")
    shutil.copy(ROOT / "hatch_build.py", project)
    (project / "pyproject.toml").write_text(
        "[build-system]\n"
        'requires = ["hatchling>=1.21"]\n'
        'build-backend = "hatchling.build"\n'
        "[project]\n"
        'name = "cardcore-probe"\n'
        'version = "0.1.0"\n'
        'requires-python = ">=3.11"\n'
        "[tool.hatch.build.targets.wheel]\n"
        'packages = ["src/cardcore_probe"]\n'
        "[tool.hatch.build.targets.wheel.hooks.custom]\n"
        'mypyc-modules = ["src/cardcore_probe/hot.py"]\n',
        encoding="utf-8",
    )
    return project


_PIP_WHEEL = [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation"]
_PIP_WHEEL += ["--no-index"]


def _build(project: Path, **env: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    out = project.parent / "wheels"
    environ = {k: v for k, v in os.environ.items() if k != "CARDCORE_PURE"}
    done = subprocess.run(
        [*_PIP_WHEEL, "-w", str(out), str(project)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,  # a hang guard only
        env={**environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", **env},
    )
    wheels = sorted(out.glob("*.whl"))
    names = zipfile.ZipFile(wheels[0]).namelist() if len(wheels) == 1 else []
    return done, [w.name for w in wheels] + names


def test_a_failed_compile_builds_the_pure_wheel_and_says_why(tmp_path: Path) -> None:
    """A module mypyc refuses leaves a working pure wheel and the compiler's message."""
    project = _project(tmp_path, "def f() -> int:\n    return 'not an int'\n")
    done, files = _build(project)
    assert done.returncode == 0, done.stderr
    assert files[0] == "cardcore_probe-0.1.0-py3-none-any.whl"
    assert "cardcore_probe/hot.py" in files
    assert not [f for f in files if f.endswith(".so")]
    log = done.stdout + done.stderr
    assert "the mypyc compile failed" in log
    assert "Incompatible return value type" in log


def test_the_pure_variable_builds_the_pure_wheel(tmp_path: Path) -> None:
    """``CARDCORE_PURE=1`` builds the pure wheel without trying the compiler."""
    project = _project(tmp_path, "def f() -> int:\n    return 1\n")
    done, files = _build(project, CARDCORE_PURE="1")
    assert done.returncode == 0, done.stderr
    assert files[0] == "cardcore_probe-0.1.0-py3-none-any.whl"
    log = done.stdout + done.stderr
    assert "CARDCORE_PURE is set: building the pure-Python wheel" in log
    assert "compiling" not in log


def _main() -> Any:
    print(json.dumps(digests(), indent=1, sort_keys=True))


if __name__ == "__main__":
    _main()
