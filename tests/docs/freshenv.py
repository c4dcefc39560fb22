"""Wheels of every distribution in the repository, and fresh virtual environments from them.

The docs test installs what a user installs: wheels (never an editable checkout) in a
virtual environment that shares nothing with the development one. Building the wheels
takes a second or two, so they are built anew for every test session; a virtual
environment is kept between sessions under ``.venv/fresh/`` and reused only while the
wheels it was made from are byte for byte the same (hatchling builds reproducible wheels)
and nothing has been installed into it since.

No test reaches a package index: the third-party wheels those venvs need (every
dependency of every distribution and extra, pytest, and hatchling for the examples that
build a plugin) are put in ``.venv/wheelhouse/`` by ``make`` before pytest runs
(``python -m tests.docs.freshenv .venv/wheelhouse``), and every ``pip`` of the docs test
runs with ``--no-index`` and that folder.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".venv" / "fresh"
WHEELHOUSE = ROOT / ".venv" / "wheelhouse"
"""The third-party wheels the fresh venvs install from (see the module docstring)."""
TOOLS = ("pytest", "hatchling")
"""Installed by the docs examples besides the distributions' own dependencies."""


def project_dirs() -> list[Path]:
    """The folders of every distribution: cardcore, each plugin and each example plugin."""
    dirs = [ROOT]
    dirs += sorted(p.parent for p in ROOT.glob("plugins/*/pyproject.toml"))
    dirs += sorted(p.parent for p in ROOT.glob("examples/*/pyproject.toml"))
    return dirs


def dist_name(folder: Path) -> str | None:
    """The normalised distribution name that ``folder/pyproject.toml`` declares, if any."""
    try:
        text = (folder / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        return None
    m = re.search(r'^\[project\][^\[]*?^name\s*=\s*"([^"]+)"', text, re.M | re.S)
    return normalise(m[1]) if m else None


def normalise(name: str) -> str:
    """A distribution name in its canonical form (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def source_digest(folder: Path) -> str:
    """A digest of what goes into a folder's wheel: pyproject.toml, README.md and src/."""
    h = hashlib.sha256()
    files = [folder / "pyproject.toml", folder / "README.md"]
    src = folder / "src"
    if src.is_dir():
        files += sorted(p for p in src.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    for f in files:
        if f.is_file():
            h.update(f.relative_to(folder).as_posix().encode() + b"\0")
            h.update(f.read_bytes() + b"\0")
    return h.hexdigest()


def third_party_requirements() -> list[str]:
    """What the fresh venvs may need from outside the repository.

    Every build requirement and dependency of every distribution and of each of its
    extras (but ``dev``, the development set), with :data:`TOOLS`; the repository's own distributions left out.
    """
    ours = {name for d in project_dirs() if (name := dist_name(d)) is not None}
    found: set[str] = set(TOOLS)
    for d in project_dirs():
        data = tomllib.loads((d / "pyproject.toml").read_text(encoding="utf-8"))
        project = data["project"]
        # A docs example may build a wheel: its build requirements (mypyc's too) come
        # from the wheelhouse as well.
        reqs = list(data.get("build-system", {}).get("requires", []))
        reqs += project.get("dependencies", [])
        for extra, items in project.get("optional-dependencies", {}).items():
            if extra != "dev":
                reqs += items
        for req in reqs:
            m = re.match(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req)
            if m and normalise(m[1]) not in ours:
                found.add(req.strip())
    return sorted(found)


def wheelhouse() -> Path:
    """The folder of third-party wheels, made by ``make`` before pytest runs.

    Raises:
        RuntimeError: it has not been made (the message says how to make it).
    """
    if not (WHEELHOUSE / "DONE").is_file():
        raise RuntimeError(
            f"{WHEELHOUSE} is missing: the docs test installs the dependencies of the "
            "wheels from it and never from a package index; make it with `make wheelhouse` "
            "(make test does)"
        )
    return WHEELHOUSE


def make_wheelhouse(folder: Path) -> None:
    """Put a wheel of every :func:`third_party_requirements` and their dependencies in ``folder``.

    Raises:
        RuntimeError: pip failed; the message holds its output.
    """
    (folder / "DONE").unlink(missing_ok=True)
    folder.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "wheel", "-q", "-w", str(folder)]
    done = subprocess.run(
        [*cmd, *third_party_requirements()], capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}")
    (folder / "DONE").touch()


@dataclass(frozen=True)
class Wheels:
    """The built wheels: a folder, each distribution's wheel, and each source's digest."""

    folder: Path
    by_name: dict[str, Path]
    by_source: dict[str, Path]
    """Source digest (see :func:`source_digest`) -> the wheel built from that source."""

    def digest(self) -> str:
        """One digest over every wheel's bytes."""
        h = hashlib.sha256()
        for name in sorted(self.by_name):
            h.update(name.encode() + b"\0" + self.by_name[name].read_bytes())
        return h.hexdigest()


def build_wheels(folder: Path) -> Wheels:
    """Build a wheel of every distribution into ``folder`` (with this Python's hatchling).

    Args:
        folder: where the wheels go (created if needed).

    Returns:
        The wheels.

    Raises:
        RuntimeError: pip could not build them; the message holds pip's output.
    """
    folder.mkdir(parents=True, exist_ok=True)
    dirs = project_dirs()
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    cmd += ["-w", str(folder), *map(str, dirs)]
    env = {**os.environ, "CARDCORE_PURE": "1"}  # pure wheels: compiling takes minutes
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    if done.returncode:
        raise RuntimeError(f"building the wheels failed:\n{done.stdout}\n{done.stderr}")
    return built_wheels(folder)


def built_wheels(folder: Path) -> Wheels:
    """The wheels that :func:`build_wheels` built into ``folder`` earlier.

    Raises:
        RuntimeError: a distribution's wheel is missing.
    """
    dirs = project_dirs()
    files = {normalise(w.name.split("-")[0]): w for w in folder.glob("*.whl")}
    by_name: dict[str, Path] = {}
    by_source: dict[str, Path] = {}
    for d in dirs:
        name = dist_name(d)
        if name is None or name not in files:
            raise RuntimeError(f"no wheel was built for {d}")
        by_name[name] = files[name]
        by_source[source_digest(d)] = files[name]
    return Wheels(folder, by_name, by_source)


@dataclass(frozen=True)
class Venv:
    """A virtual environment made from the wheels."""

    path: Path
    wheels: Wheels

    @property
    def bin(self) -> Path:
        """Its scripts folder."""
        return self.path / "bin"

    @property
    def python(self) -> Path:
        """Its interpreter."""
        return self.bin / "python"

    def env(self, home: Path | None = None) -> dict[str, str]:
        """The environment of a shell in which this venv is activated (``HOME`` optional)."""
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTEST_ADDOPTS"}
            and not k.startswith(("PYTEST_", "COV_", "HYPOTHESIS_"))
        }
        env["PATH"] = f"{self.bin}{os.pathsep}{env.get('PATH', '')}"
        env["VIRTUAL_ENV"] = str(self.path)
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
        env["PIP_NO_INDEX"] = "1"  # an example that reaches for the index fails, loudly
        env["PIP_FIND_LINKS"] = f"{self.wheels.folder} {wheelhouse()}"
        if home is not None:  # pip keeps its cache where it was
            env.setdefault("PIP_CACHE_DIR", str(Path.home() / ".cache" / "pip"))
            env["HOME"] = str(home)
        return env

    def mark_changed(self) -> None:
        """Forget the cache stamp: something was installed that the wheels did not bring."""
        (self.path / "STAMP").unlink(missing_ok=True)


def fresh_venv(name: str, requirements: list[str], wheels: Wheels) -> Venv:
    """A venv with ``requirements`` installed from the wheels (dependencies: the wheelhouse).

    Reused from an earlier session when it was made from the same wheels and the same
    requirements and has not been changed since; otherwise made anew.

    Args:
        name: the venv's folder under ``.venv/fresh/``.
        requirements: what to ``pip install``, e.g. ``["cardcore", "pytest"]``.
        wheels: the wheels to install from (``--find-links``).

    Returns:
        The venv.

    Raises:
        RuntimeError: the venv could not be made; the message holds pip's output.
    """
    path = CACHE / name
    key = "\n".join([sys.version, wheels.digest(), *requirements])
    stamp = path / "STAMP"
    if stamp.is_file() and stamp.read_text(encoding="utf-8") == key:
        return Venv(path, wheels)
    shutil.rmtree(path, ignore_errors=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    base = getattr(sys, "_base_executable", sys.executable)
    pip = [str(path / "bin" / "python"), "-m", "pip", "install", "-q", "--no-index"]
    steps = [
        [base, "-m", "venv", str(path)],
        [
            *pip,
            "--find-links",
            str(wheels.folder),
            "--find-links",
            str(wheelhouse()),
            *requirements,
        ],
    ]
    for cmd in steps:
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode:
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}")
    stamp.write_text(key, encoding="utf-8")
    return Venv(path, wheels)


if __name__ == "__main__":  # make's wheelhouse step: python -m tests.docs.freshenv FOLDER
    make_wheelhouse(Path(sys.argv[1]) if len(sys.argv) > 1 else WHEELHOUSE)
