"""The RL codec of Nestors: every action numbered, every observation as floats.

The action index (744 actions, the same for every option and deal): ``pass``; ``bid 5``
to ``bid 190`` by fives; ``trump A``, ``trump J``, ``trump 10``; ``take`` of every pair
of the 36 cards; ``play`` and ``leave`` of each of the 36 cards.

The observation: the card table as the seat knows it (every zone, plus the current
trick in playing order), the seat and the seat to move, then the public facts of
:func:`nestors_facts`, which end with the public history a seat may have missed since
its last decision (NS-8.1): every call of this deal's auction and of the last scored
deal's, in order (who called, pass or bid, and the amount), and per card who played it,
in which trick and who took it, over this deal's finished tricks (before this deal's
first trick ends: over the last scored deal's, so trick 12 and the carry cards reach
every seat), and the void deals since (each void deal's auction is the same three
passes, from the dealer's right).
"""

from __future__ import annotations

import itertools
import struct
from collections.abc import Callable, Iterator
from typing import Final

from cardcore import DECK_36, Card
from cardcore.adapters import (
    ActionIndex,
    PackedFacts,
    Slots,
    TableCodec,
    TableEncoding,
    one_hot,
    scaled,
)
from cardcore_nestors.actions import TRUMP_RANKS, Bid, Leave, NestorsAction, Pass, Play, Take, Trump
from cardcore_nestors.options import MAX_BID
from cardcore_nestors.rules import Nestors
from cardcore_nestors.state import (
    DealInfo,
    MatchInfo,
    NestorsObservation,
    Phase,
    PlayInfo,
    TrickRecord,
)

__all__ = [
    "CALLS_AT",
    "CALL_SIZE",
    "CALL_SLOTS",
    "FACTS_SIZE",
    "nestors_actions",
    "nestors_codec",
    "nestors_facts",
    "nestors_facts_packer",
]

_PHASES: Final = tuple(Phase)
_MATCH_SIZE: Final = 2 + 2
"""The scores and the team that last made its contract."""
_DEAL_SIZE: Final = 1 + 4 + 4 + 1 + 4 + 3 + 4
"""The deal number, dealer, passes, high bid, bidder, trump and each seat's highest bid."""
_PLAY_SIZE: Final = 1 + 4 + 2 + 2 + 16
"""The trick number and leader, tricks and points per team, and the shown voids."""
CALL_SLOTS: Final = MAX_BID // 5 + 3
"""The most calls an auction can have, 41: bids rise by at least 5 from at least 5 up
to 190 (NS-4.2, NS-9.7), so at most 38 of them, and a pass is final and the third ends
the auction (NS-4.2, NS-4.3), so at most 3 passes (the dealer's forced bid after three
passes, NS-4.4, is the auction's only bid). A longer list of calls is no auction of
Nestors: encoding it raises ``ValueError`` rather than dropping a call."""
CALL_SIZE: Final = 4 + 1 + 1
"""Per call: the seat that called (one-hot), 1 for a pass, the bid over 190 (0 for a pass)."""
_CALLS_SIZE: Final = 2 * CALL_SLOTS * CALL_SIZE
"""This deal's calls, then the last scored deal's, each in order; unused slots are 0."""
_TRICKS_SIZE: Final = 36 * (4 + 1 + 4)
"""Per card: the seat that played it, its trick's number and the seat that took it."""
_HISTORY_SIZE: Final = _TRICKS_SIZE + 2
"""The cards of the shown tricks, whether those are the last deal's, and the void deals."""
CALLS_AT: Final = len(_PHASES) + _MATCH_SIZE + _DEAL_SIZE + _PLAY_SIZE
"""Where the calls start in the facts: ``CALL_SLOTS`` slots of ``CALL_SIZE`` for this
deal's auction, then as many for the last scored deal's."""
FACTS_SIZE: Final = CALLS_AT + _CALLS_SIZE + _HISTORY_SIZE
"""How many public facts :func:`nestors_facts` returns."""

# Facts are built on every environment step: one-hots and bit lists come from tables.
_PHASE_HOT: Final = {p: tuple(one_hot(i, len(_PHASES))) for i, p in enumerate(_PHASES)}
_SEAT_HOT: Final = {s: tuple(one_hot(s, 4)) for s in (None, 0, 1, 2, 3)}
_TEAM_HOT: Final = {t: tuple(one_hot(t, 2)) for t in (None, 0, 1)}
_TRUMP_HOT: Final = {
    r: tuple(one_hot(TRUMP_RANKS.index(r) if r else None, 3)) for r in (0, *TRUMP_RANKS)
}
_BITS4: Final = tuple(tuple(float((m >> i) & 1) for i in range(4)) for m in range(16))


def nestors_actions() -> Iterator[NestorsAction]:
    """Every action a Nestors player can ever take, in the index's fixed order."""
    yield Pass()
    for points in range(5, MAX_BID + 1, 5):
        yield Bid(points)
    for rank in TRUMP_RANKS:
        yield Trump(rank)
    for a, b in itertools.combinations(DECK_36, 2):
        yield Take((a, b))
    for card in DECK_36:
        yield Play(card)
    for card in DECK_36:
        yield Leave(card)


def nestors_facts(obs: NestorsObservation, threshold: int, max_deals: int) -> list[float]:
    """The public numbers of an observation, each in ``[-1, 1]`` (``FACTS_SIZE`` of them).

    Args:
        obs: the observation.
        threshold: the game's target score (scores are scaled by it).
        max_deals: the game's limit on deals (the deal number is scaled by it).

    Returns:
        Phase one-hot; team scores; the team that last made its contract; the deal
        number; the dealer; the seats that passed; the high bid; the high bidder; the
        trump rank; each seat's highest bid; the trick number; its leader; tricks and
        hand points per team; per seat, the suits it has shown it lacks; every call of
        this deal's auction in order, then every call of the last scored deal's
        (``CALL_SLOTS`` slots each, from ``CALLS_AT``; per call the seat that called, 1
        for a pass, the bid over 190; unused slots all 0); then the history: per card
        (in deck order) the seat that played it, its trick's number and the seat that
        took it, over this deal's finished tricks or, before the
        first of them, the last scored deal's; 1 when those are the last deal's; and
        the void deals since the last scored one.
    """
    tricks, previous = _shown_tricks(obs)
    return [
        *_PHASE_HOT[obs.phase],
        *_match_facts(obs.match, threshold),
        *_deal_facts(obs.deal, max_deals),
        *_play_facts(obs.play),
        *_calls_facts(obs.deal.calls),
        *_calls_facts(_scored_calls(obs.match)),
        *_tricks_facts(tricks),
        *_history_tail(obs, previous, max_deals),
    ]


def _shown_tricks(obs: NestorsObservation) -> tuple[tuple[TrickRecord, ...], bool]:
    """This deal's finished tricks, or before the first, the last scored deal's."""
    done = obs.play.done
    if done:
        return done, False
    for r in reversed(obs.match.recent):
        if not r.void:
            return r.tricks, True
    return done, False


def _scored_calls(match: MatchInfo) -> tuple[tuple[int, int], ...]:
    """The auction of the latest scored deal (void deals after it are skipped)."""
    for r in reversed(match.recent):
        if not r.void:
            return r.calls
    return ()


# Every call's floats, keyed by ``(seat, bid)`` as in ``DealInfo.calls``.
_CALL_HOT: Final = {
    (seat, bid): (*_SEAT_HOT[seat], float(bid == 0), bid / MAX_BID)
    for seat in range(4)
    for bid in range(0, MAX_BID + 1, 5)
}


def _calls_facts(calls: tuple[tuple[int, int], ...]) -> list[float]:
    """The calls in order, ``CALL_SIZE`` floats each, padded with 0 to ``CALL_SLOTS``."""
    if len(calls) > CALL_SLOTS:  # no auction is this long (CALL_SLOTS): never drop a call
        raise ValueError(
            f"an auction of {len(calls)} calls, more than the {CALL_SLOTS} the rules allow"
        )
    out: list[float] = []
    for call in calls:
        hot = _CALL_HOT.get(call)
        if hot is None:
            raise ValueError(
                f"{call!r} is not a call: (seat 0 to 3, bid 0 for a pass or 5 to {MAX_BID} by fives)"
            )
        out.extend(hot)
    out.extend(itertools.repeat(0.0, (CALL_SLOTS - len(calls)) * CALL_SIZE))
    return out


def _history_tail(obs: NestorsObservation, previous: bool, max_deals: int) -> tuple[float, float]:
    voids = sum(1 for r in obs.match.recent if r.void)
    return float(previous), scaled(voids, max_deals)


_CARD_AT: Final = {c: i for i, c in enumerate(DECK_36)}


def _tricks_facts(tricks: tuple[TrickRecord, ...]) -> list[float]:
    out = [0.0] * _TRICKS_SIZE
    for t in tricks:
        _mark_trick(out, t)
    return out


def _mark_trick(out: list[float], t: TrickRecord) -> None:
    """Write one finished trick's facts: who played each card, when, and who took it."""
    taken = [c for c in (*t.cards, t.carry) if c != t.left]
    if t.number == 1:  # the bidder's trump; the row cards were played by nobody
        played: tuple[tuple[Card, int | None], ...] = (
            (t.cards[0], t.leader),
            *((c, None) for c in t.cards[1:]),
        )
    else:
        played = tuple((c, (t.leader + i) % 4) for i, c in enumerate(t.cards))
    for card, seat in played:
        at = 9 * _CARD_AT[card]
        if seat is not None:
            out[at + seat] = 1.0
        out[at + 4] = t.number / 12
    for card in taken:
        at = 9 * _CARD_AT[card]
        out[at + 5 : at + 9] = _SEAT_HOT[t.winner]


_TRICKS_STRUCT: Final = struct.Struct(f"<{_TRICKS_SIZE}f")


def _tricks_packer() -> Callable[[tuple[TrickRecord, ...]], bytes]:
    """:func:`_tricks_facts` packed, each finished trick worked out once.

    The tricks of a deal grow one at a time: the latest tuple's floats and bytes are
    kept, the same tuple (by identity) is answered from them, and a tuple of one more
    trick than the kept ones (the rest equal) marks only that trick on a copy of the
    kept floats, as :func:`_tricks_facts` would, in the same order. Anything else (a
    new deal, another game) is worked out afresh.
    """
    kept: list[tuple[tuple[TrickRecord, ...], list[float], bytes]] = [
        ((), [0.0] * _TRICKS_SIZE, _TRICKS_STRUCT.pack(*([0.0] * _TRICKS_SIZE)))
    ]

    def packed(tricks: tuple[TrickRecord, ...]) -> bytes:
        old, floats, data = kept[0]
        if old is tricks:
            return data
        n = len(old)
        if len(tricks) == n + 1 and tricks[:n] == old:
            floats = list(floats)
            _mark_trick(floats, tricks[n])
        else:
            floats = _tricks_facts(tricks)
        data = _TRICKS_STRUCT.pack(*floats)
        kept[0] = (tricks, floats, data)
        return data

    return packed


def nestors_facts_packer(threshold: int, max_deals: int) -> Callable[[NestorsObservation], bytes]:
    """:func:`nestors_facts` as packed float32s, the way the codec uses them.

    The match, deal and play records of an observation are shared by the observations
    of many steps (a match record lasts a deal, a play record a trick), so each part is
    packed once per record object (:class:`cardcore.adapters.PackedFacts`).

    Args:
        threshold: the game's target score.
        max_deals: the game's limit on deals.

    Returns:
        A function from an observation to its ``4 * FACTS_SIZE`` bytes of facts.
    """
    match = PackedFacts[MatchInfo](lambda m: _match_facts(m, threshold), _MATCH_SIZE)
    deal = PackedFacts[DealInfo](lambda d: _deal_facts(d, max_deals), _DEAL_SIZE)
    play = PackedFacts[PlayInfo](_play_facts, _PLAY_SIZE)
    calls = PackedFacts[DealInfo](lambda d: _calls_facts(d.calls), CALL_SLOTS * CALL_SIZE)
    scored = PackedFacts[MatchInfo](
        lambda m: _calls_facts(_scored_calls(m)), CALL_SLOTS * CALL_SIZE
    )
    tricks_of = _tricks_packer()
    phase = _PHASE_BYTES
    tail = struct.Struct("<2f")

    def packed(obs: NestorsObservation) -> bytes:
        tricks, previous = _shown_tricks(obs)
        return b"".join(
            (
                phase[obs.phase],
                match(obs.match),
                deal(obs.deal),
                play(obs.play),
                calls(obs.deal),
                scored(obs.match),
                tricks_of(tricks),
                tail.pack(*_history_tail(obs, previous, max_deals)),
            )
        )

    return packed


def _match_facts(match: MatchInfo, threshold: int) -> tuple[float, ...]:
    return (
        scaled(match.scores[0], threshold),
        scaled(match.scores[1], threshold),
        *_TEAM_HOT[match.last_made],
    )


def _deal_facts(deal: DealInfo, max_deals: int) -> tuple[float, ...]:
    return (
        scaled(deal.number, max_deals),
        *_SEAT_HOT[deal.dealer],
        *_BITS4[deal.passed],
        deal.high / MAX_BID,
        *_SEAT_HOT[deal.bidder],
        *_TRUMP_HOT[deal.trump],
        *_highest_bids(deal),
    )


def _highest_bids(deal: DealInfo) -> tuple[float, float, float, float]:
    best = [0, 0, 0, 0]
    for seat, bid in deal.calls:
        best[seat] = max(best[seat], bid)
    return best[0] / MAX_BID, best[1] / MAX_BID, best[2] / MAX_BID, best[3] / MAX_BID


def _play_facts(play: PlayInfo) -> tuple[float, ...]:
    voids = play.voids
    return (
        play.trick / 12,
        *_SEAT_HOT[play.leader if play.trick else None],
        play.tricks[0] / 12,
        play.tricks[1] / 12,
        scaled(play.points[0], MAX_BID),
        scaled(play.points[1], MAX_BID),
        *_BITS4[voids[0]],
        *_BITS4[voids[1]],
        *_BITS4[voids[2]],
        *_BITS4[voids[3]],
    )


_PHASE_BYTES: Final = {p: struct.pack(f"<{len(hot)}f", *hot) for p, hot in _PHASE_HOT.items()}


def nestors_codec(game: Nestors, num_players: int) -> TableCodec[NestorsAction]:
    """The Nestors codec (registered by the plugin's ``cardcore_register_codecs`` hook)."""
    threshold = game.options.threshold
    max_deals = game.max_deals
    encoding = TableEncoding.for_game(
        game,
        num_players,
        facts=nestors_facts_packer(threshold, max_deals),
        facts_size=FACTS_SIZE,
        slots=[Slots("trick", 3)],
    )
    return TableCodec(encoding, ActionIndex(nestors_actions()))
