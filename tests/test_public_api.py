"""The public surface: complete, sorted, and light to import."""

from __future__ import annotations

import subprocess
import sys

import cardcore


def test_all_is_sorted_and_complete() -> None:
    """__all__ is sorted and names exactly the public re-exports."""
    assert cardcore.__all__ == sorted(cardcore.__all__, key=lambda s: (not s.isupper(), s))
    public = {n for n in dir(cardcore) if not n.startswith(("_", "@"))} - {
        "bots",
        "cli",
        "testing",
        "arena",
        "adapters",
        "web",
    }
    assert public - set(cardcore.__all__) == set()
    for name in cardcore.__all__:
        assert hasattr(cardcore, name)


def test_import_cardcore_is_light() -> None:
    """Importing cardcore loads no game, CLI library, numpy, dask, hypothesis or rich."""
    code = (
        "import sys, cardcore; "
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('cardcore_highcard','cardcore_nyuri','cardcore_noddy','cardcore_box','cardcore_nestors',"
        "'numpy','dask','distributed','rich','hypothesis','argparse','openskill','gymnasium','pettingzoo')"
        " or m.startswith('cardcore.cli')]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_py_typed_is_shipped() -> None:
    """The package is marked as typed."""
    from importlib import resources

    assert resources.files("cardcore").joinpath("py.typed").is_file()
