"""Seating plans and seeds: which bot sits where in each game, and with which seeds.

Every deal is played once per *arrangement* (a map from seat to entrant), with the same
game seed each time, so the luck of the deal cancels out between the bots.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Iterator, Sequence
from typing import Final, Literal

__all__ = ["SEATINGS", "Seating", "arrangements", "bot_seed", "deal_seed", "default_players"]

Seating = Literal["all", "rotate"]
"""``all``: every distinct arrangement; ``rotate``: cyclic rotations only."""

SEATINGS: Final[tuple[Seating, ...]] = ("all", "rotate")

MAX_ARRANGEMENTS: Final = 5040
"""Refuse seating plans longer than this (7!): they make a single deal too expensive."""

_PERSON: Final = b"cardcore-arena"


def _derive(*parts: int) -> int:
    digest = hashlib.blake2b(repr(parts).encode("ascii"), digest_size=8, person=_PERSON).digest()
    return int.from_bytes(digest, "big") >> 1  # 63 bits: fits a signed SQLite integer


def deal_seed(seed: int, deal: int, secret: str | None = None) -> int:
    """The game seed of deal ``deal`` of an arena seeded with ``seed``.

    Every arrangement of a deal uses this seed, so each one sees the same cards. With
    a ``secret`` (drawn at the start of a run and stored with it), nobody who knows
    only ``seed``, as a bot may from a command line, can compute the deals.
    """
    if secret is None:
        return _derive(seed, 0, deal)
    digest = hashlib.blake2b(
        repr((seed, 0, deal)).encode("ascii"),
        digest_size=8,
        key=secret.encode("utf-8")[:64],
        person=_PERSON,
    ).digest()
    return int.from_bytes(digest, "big") >> 1


def bot_seed(seed: int, deal: int, arrangement: int, seat: int) -> int:
    """The seed given to the bot in ``seat`` for one game of the arena."""
    return _derive(seed, 1, deal, arrangement, seat)


def default_players(num_bots: int, min_players: int, max_players: int) -> int:
    """The number of seats when none is given: one per bot when the game allows it.

    Raises:
        ValueError: more bots than the game has seats.
    """
    if num_bots > max_players:
        raise ValueError(f"{num_bots} bots, but the game seats at most {max_players} players")
    return max(num_bots, min_players)


def _multiset_permutations(items: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Distinct permutations of ``items`` in lexicographic order."""
    pool = sorted(items)
    counts = {v: pool.count(v) for v in pool}
    keys = sorted(counts)
    out: list[int] = []

    def rec() -> Iterator[tuple[int, ...]]:
        if len(out) == len(pool):
            yield tuple(out)
            return
        for v in keys:
            if counts[v]:
                counts[v] -= 1
                out.append(v)
                yield from rec()
                out.pop()
                counts[v] += 1

    yield from rec()


def _balanced_count(num_bots: int, units: int) -> int:
    low, extra = divmod(units, num_bots)
    per = math.factorial(units) // (
        math.factorial(low) ** (num_bots - extra) * math.factorial(low + 1) ** extra
    )
    ways: int = math.comb(num_bots, extra) * per
    return ways


def _balanced(num_bots: int, units: int) -> list[tuple[int, ...]]:
    """Every map from units to bots where each bot gets ``units // num_bots`` or one more."""
    low, extra = divmod(units, num_bots)
    found: set[tuple[int, ...]] = set()
    for lucky in itertools.combinations(range(num_bots), extra):
        items = [b for b in range(num_bots) for _ in range(low + (b in lucky))]
        found.update(_multiset_permutations(items))
    return sorted(found)


def _rotations(num_bots: int, units: int) -> list[tuple[int, ...]]:
    """Cyclic shifts of the round-robin pattern, bots relabelled cyclically too."""
    found: set[tuple[int, ...]] = set()
    for shift in range(num_bots):
        base = [(u + shift) % num_bots for u in range(units)]
        for r in range(units):
            found.add(tuple(base[(u + r) % units] for u in range(units)))
    return sorted(found)


def arrangements(
    num_bots: int,
    num_players: int,
    teams: Sequence[Sequence[int]] | None = None,
    seating: Seating = "all",
) -> tuple[tuple[int, ...], ...]:
    """The seating plan of every deal: for each game, the entrant index of every seat.

    Without partnerships each entrant holds ``num_players // num_bots`` seats or one more,
    and the plan holds every such arrangement (``all``) or the rotations of one
    (``rotate``), so every entrant sits in every seat equally often. In a partnership game
    with at most as many entrants as teams, the copies of an entrant form a team and the
    entrants are rotated over the teams instead; with exactly one entrant per seat,
    partners are different entrants and the entrants are rotated over the seats.

    Args:
        num_bots: number of entrants (distinct bots).
        num_players: number of seats.
        teams: the game's partnerships for ``num_players`` (``Game.teams``), or ``None``.
        seating: ``all`` or ``rotate``.

    Returns:
        The arrangements, sorted; each is a tuple of entrant indices, one per seat.

    Raises:
        ValueError: more entrants than seats, an entrant count that cannot be split
            fairly over the teams, or a plan longer than 5040 games per deal.
    """
    if seating not in SEATINGS:
        raise ValueError(f"seating must be one of {', '.join(SEATINGS)}, not {seating!r}")
    if not 1 <= num_bots <= num_players:
        raise ValueError(f"{num_bots} bots cannot fill {num_players} seats (need 1-{num_players})")
    team_mode = teams is not None and num_bots <= len(teams)
    if teams is not None and not team_mode and num_bots != num_players:
        raise ValueError(
            f"a partnership game with {len(teams)} teams takes at most {len(teams)} bots "
            f"(each bot plays as a team) or exactly {num_players} (one per seat), "
            f"not {num_bots}"
        )
    units = len(teams) if team_mode and teams is not None else num_players
    if seating == "all":
        count = _balanced_count(num_bots, units)
        if count > MAX_ARRANGEMENTS:
            raise ValueError(
                f"{count} arrangements per deal is too many; use seating 'rotate' "
                f"({units} or fewer)"
            )
        plans = _balanced(num_bots, units)
    else:
        plans = _rotations(num_bots, units)
    if not team_mode or teams is None:
        return tuple(plans)
    out = []
    for plan in plans:
        seats = [0] * num_players
        for t, members in enumerate(teams):
            for s in members:
                seats[s] = plan[t]
        out.append(tuple(seats))
    return tuple(out)
