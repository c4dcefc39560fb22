"""Build hook: compile the hot modules with mypyc when the wheel is built.

Hatchling runs this hook for every wheel (``pip install .``, ``python -m build``,
``pip wheel``). It compiles the modules listed as ``mypyc-modules`` under
``[tool.hatch.build.targets.wheel.hooks.custom]`` in ``pyproject.toml`` into extension
modules and adds them to the wheel, beside the Python sources they were made from
(Python imports an extension module before a source file of the same name).

The pure-Python wheel is built instead, with one line on stderr that says why, when:

- ``CARDCORE_PURE`` is set to anything but ``""`` or ``0``;
- the wheel is an editable install (``pip install -e``);
- mypyc or setuptools cannot be imported, or there is no working C compiler;
- the compile fails for any other reason (its last lines are shown).

The pure modules are the reference: a compiled wheel behaves the same, only faster.
Every distribution of the repository carries an identical copy of this file, so that its
source distribution builds on its own.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PURE_VARIABLE = "CARDCORE_PURE"
"""Set it (to anything but ``""`` or ``0``) to build the pure-Python wheel."""

_COMPILE = r"""
import sys
from mypyc.build import mypycify
from setuptools import Distribution

out, temp, *modules = sys.argv[1:]
extensions = mypycify(modules, opt_level="3", debug_level="0", target_dir=temp)
dist = Distribution({
    "ext_modules": extensions,
    "script_name": "setup.py",
    "script_args": ["build_ext", "--build-lib", out, "--build-temp", temp],
})
dist.parse_command_line()
dist.run_commands()
"""
"""Run in a child process, so that a crash of the compiler cannot take the build down."""


_MYPY_FLAGS = ["--follow-imports=silent"]
"""The type checker reports errors in the compiled modules only, not in what they import
(a plugin built in isolation reads cardcore's sources, whose optional imports, such as
numpy, the build environment lacks)."""


def _say(message: str) -> None:
    print(f"cardcore build: {message}", file=sys.stderr, flush=True)


class MypycBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compile ``mypyc-modules`` into the wheel, or leave it pure (see the module docstring)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Add the compiled modules to ``build_data`` when they compile."""
        if self.target_name != "wheel" or version == "editable":
            return
        modules = [str(m) for m in self.config.get("mypyc-modules", [])]
        if not modules:
            return
        if os.environ.get(PURE_VARIABLE, "") not in {"", "0"}:
            _say(f"{PURE_VARIABLE} is set: building the pure-Python wheel")
            return
        why = self._unavailable()
        if why:
            _say(f"{why}; building the pure-Python wheel")
            return
        out = Path(tempfile.mkdtemp(prefix="cardcore-mypyc-"))
        self._out = out
        temp = out / "temp"
        lib = out / "lib"
        env = dict(os.environ)
        paths = [str(Path(self.root) / p) for p in self.config.get("mypy-path", [])]
        paths = [p for p in paths if Path(p).is_dir()]
        if paths:
            env["MYPYPATH"] = os.pathsep.join([*paths, *filter(None, [env.get("MYPYPATH")])])
        _say(f"compiling {len(modules)} modules with mypyc (set {PURE_VARIABLE}=1 to skip)")
        done = subprocess.run(  # noqa: S603 - this interpreter, running mypyc
            [sys.executable, "-c", _COMPILE, str(lib), str(temp), *_MYPY_FLAGS, *modules],
            cwd=self.root,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        built = sorted(lib.rglob("*" + _suffix())) if lib.is_dir() else []
        if done.returncode or len(built) < len(modules):
            lines = (done.stdout + done.stderr).strip().splitlines()
            errors = [ln for ln in lines if "error" in ln.lower() and len(ln) < 500]
            tail = "\n".join((errors or lines)[-15:])
            _say(
                f"the mypyc compile failed (exit code {done.returncode}); building the "
                f"pure-Python wheel instead. The compiler said:\n{tail}"
            )
            return
        for so in built:
            build_data["force_include"][str(so)] = so.relative_to(lib).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        _say(f"compiled {len(built)} extension modules")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the compiler's temporary folder."""
        out = getattr(self, "_out", None)
        if out is not None:
            shutil.rmtree(out, ignore_errors=True)

    @staticmethod
    def _unavailable() -> str:
        """Why a compile cannot be tried here ("" when it can)."""
        for module in ("mypyc", "setuptools"):
            try:
                __import__(module)
            except ImportError:
                return f"{module} is not installed in the build environment"
        compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
        if shutil.which(compiler) is None:
            return f"no C compiler ({compiler}) was found"
        return ""


def _suffix() -> str:
    return str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")
