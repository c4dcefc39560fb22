"""The error raised when an environment module is imported without the ``rl`` extra."""

from __future__ import annotations

__all__ = ["missing_rl"]

RL_HINT = (
    "pip install './[rl]' at the top of a cardcore checkout (cardcore is not on PyPI), "
    "or pip install numpy gymnasium pettingzoo"
)


def missing_rl(module: str, error: ModuleNotFoundError) -> ModuleNotFoundError:
    """A ModuleNotFoundError that names the ``rl`` extra and how to install it.

    Args:
        module: the adapter module being imported (``cardcore.adapters.gymnasium``).
        error: the failed import of numpy, gymnasium or pettingzoo.

    Returns:
        The error to raise, with the same missing module name.
    """
    name = error.name or "a module"
    return ModuleNotFoundError(
        f"{module} needs the 'rl' extra, and {name} is not installed: {RL_HINT}",
        name=error.name,
    )
