"""The codec protocol (what a learning library needs from a game) and :class:`Slots`.

They live apart from the codec building blocks (:mod:`cardcore.adapters._codec`), which
the compiled build compiles: a runtime-checkable protocol and an attrs class stay
Python classes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, final, runtime_checkable

import attrs

__all__ = ["Codec", "Slots"]


@runtime_checkable
class Codec(Protocol):
    """How one game, at one player count, looks to a learning algorithm.

    Every value of an encoding lies in ``[-1, 1]`` (the environments declare that box),
    and :meth:`encode` reads nothing but the observation it is given, so an encoding can
    never hold more than the seat may know. The action numbering is fixed: it does not
    depend on the state, only on the game's options and the player count.
    """

    @property
    def observation_size(self) -> int:
        """The length of every encoding."""
        ...

    @property
    def num_actions(self) -> int:
        """How many actions the index numbers (the size of the ``Discrete`` space)."""
        ...

    def encode(self, observation: Any) -> Sequence[float]:
        """The observation as ``observation_size`` floats in ``[-1, 1]``."""
        ...

    def action_index(self, action: Any) -> int:
        """The fixed index of an action (``0 <= index < num_actions``).

        Raises:
            KeyError: the action is not in the index.
        """
        ...

    def action_at(self, index: int) -> Any:
        """The action with this index (the inverse of :meth:`action_index`).

        Raises:
            IndexError: the index is out of range.
        """
        ...


@final
@attrs.frozen
class Slots:
    """Encode positions of an ordered zone one-hot (52 floats each), e.g. a trick's order.

    Known bits of a zone say which cards are there; slots say where. A trick with
    ``Slots("trick", 4)`` encodes the first four cards played, in order.
    """

    zone: str
    """The ordered zone's name."""
    count: int = attrs.field(validator=attrs.validators.ge(1))
    """How many positions to encode."""
    from_top: bool = False
    """Count from the top (last placed) instead of the bottom (first placed)."""
