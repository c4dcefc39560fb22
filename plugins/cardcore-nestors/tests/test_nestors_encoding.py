"""The RL codec of Nestors: the codec check, the action index and the public facts."""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs
import pytest

from cardcore import load_game, parse_card
from cardcore.adapters import check_codec
from cardcore.testing import check_codec_hook
from cardcore_nestors import (
    Bid,
    Leave,
    Nestors,
    NestorsOptions,
    NestorsState,
    Pass,
    Phase,
    Play,
    Take,
    Trump,
)
from cardcore_nestors.encoding import (
    CALL_SIZE,
    CALL_SLOTS,
    CALLS_AT,
    FACTS_SIZE,
    nestors_actions,
    nestors_facts,
)
from cardcore_nestors.options import MAX_BID


@pytest.mark.parametrize("preset", ["default", "pagat"])
def test_codec_check_passes(preset: str) -> None:
    """check_codec passes: fixed index, exact masks, sizes, values, observation only."""
    report = check_codec("nestors", 4, games=2, preset=preset, threshold=200, seed=3)
    assert report.num_actions == 744
    assert report.decisions > 100
    assert report.twins > 0


def test_the_hooks_declare_the_codec_by_reference() -> None:
    """The hooks declare the codec by reference: listing the games imports no NumPy."""
    check_codec_hook("nestors")


def test_action_index_lists_every_kind_of_action_once() -> None:
    """Pass, 38 bids, 3 trumps, 630 takes, 36 plays and 36 leaves, in that order."""
    actions = list(nestors_actions())
    assert len(actions) == len(set(actions)) == 1 + 38 + 3 + 630 + 36 + 36
    assert actions[0] == Pass()
    assert actions[1] == Bid(5) and actions[38] == Bid(190)
    assert actions[39:42] == [Trump(14), Trump(11), Trump(10)]
    assert Take((parse_card("9♠"), parse_card("K♦"))) in actions[42:672]
    assert actions[672] == Play(parse_card("6♣"))
    assert actions[-1] == Leave(parse_card("A♠"))


def test_facts_of_the_first_decision() -> None:
    """At the first call: auction phase, no scores, the dealer known, no bid or trump."""
    game = load_game("nestors")
    state = game.initial_state(4, 5, dealer=2)
    seat = game.current_player(state)
    assert seat is not None
    facts = nestors_facts(game.observe(state, seat), 1000, 420)
    assert len(facts) == FACTS_SIZE
    phases = list(Phase)
    assert facts[: len(phases)] == [float(p is Phase.AUCTION) for p in phases]
    at = len(phases)
    assert facts[at : at + 4] == [0.0, 0.0, 0.0, 0.0]  # scores, then no team made a contract
    assert facts[at + 4] == pytest.approx(1 / 420)  # deal 1
    assert facts[at + 5 : at + 9] == [0.0, 0.0, 1.0, 0.0]  # seat 2 deals
    assert all(-1.0 <= x <= 1.0 for x in facts)


def test_packed_facts_are_the_facts_as_float32() -> None:
    """The codec's packed facts equal ``nestors_facts`` packed, for every seat all through
    two deals played in turns (so records of one game never answer for the other)."""
    import random
    import struct

    from cardcore_nestors.encoding import nestors_facts_packer

    game = load_game("nestors")
    packed = nestors_facts_packer(1000, 420)
    rng = random.Random(3)
    states = [game.initial_state(4, seed) for seed in (4, 5)]
    checked = 0
    for _ in range(150):
        for i, state in enumerate(states):
            if game.current_player(state) is None:
                continue
            for seat in (-1, 0, 1, 2, 3):
                obs = game.observe(state, seat)
                want = struct.pack(f"<{FACTS_SIZE}f", *nestors_facts(obs, 1000, 420))
                assert packed(obs) == want
                assert nestors_facts_packer(1000, 420)(obs) == want  # nothing remembered
                checked += 1
            legal = game.legal_actions(state)
            states[i] = game.apply(state, legal[rng.randrange(len(legal))])
    assert checked > 1000


@pytest.mark.parametrize("preset", ["default", "pagat"])
def test_tricks_packed_one_at_a_time_equal_the_facts_over_many_games(preset: str) -> None:
    """The trick history packed one finished trick at a time (NS-8.1) equals
    ``nestors_facts`` packed afresh, for every seat at every decision of many seeded
    games of short matches, each game played through (so each trick adds to the last)."""
    import struct

    from cardcore_nestors.encoding import nestors_facts_packer

    game = load_game("nestors", preset=preset, threshold=200)
    assert isinstance(game, Nestors)
    packed = nestors_facts_packer(200, game.max_deals)
    rng = random.Random(8)
    checked = tricks_seen = 0
    for seed in range(6):
        state = game.initial_state(4, seed)
        while game.current_player(state) is not None:
            for seat in (-1, 0, 1, 2, 3):
                obs = game.observe(state, seat)
                want = struct.pack(f"<{FACTS_SIZE}f", *nestors_facts(obs, 200, game.max_deals))
                assert packed(obs) == want
                checked += 1
                tricks_seen = max(tricks_seen, len(obs.play.done))
            legal = game.legal_actions(state)
            state = game.apply(state, legal[rng.randrange(len(legal))])
    assert checked > 2000
    assert tricks_seen >= 8  # deals were played deep into their tricks


# ---- every call of the auction, in order (NS-4.1 to NS-4.4, NS-8.1) --------------------


def _decode_calls(block: Sequence[float]) -> list[tuple[int, int]]:
    """The calls a block of call slots holds, in order: ``(seat, bid)``, 0 for a pass."""
    assert len(block) == CALL_SLOTS * CALL_SIZE
    calls: list[tuple[int, int]] = []
    for at in range(0, len(block), CALL_SIZE):
        seat_hot, is_pass, bid = block[at : at + 4], block[at + 4], block[at + 5]
        if not any(block[at : at + CALL_SIZE]):
            assert not any(block[at:]), "a call after an empty slot"
            break
        assert sorted(seat_hot) == [0.0, 0.0, 0.0, 1.0]
        assert (is_pass == 1.0 and bid == 0.0) or (is_pass == 0.0 and bid > 0.0)
        calls.append((list(seat_hot).index(1.0), round(bid * MAX_BID)))
    return calls


def _auctions(facts: Sequence[float]) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """This deal's calls and the last scored deal's, decoded from an observation's facts."""
    block = CALL_SLOTS * CALL_SIZE
    mine = facts[CALLS_AT : CALLS_AT + block]
    return _decode_calls(mine), _decode_calls(facts[CALLS_AT + block : CALLS_AT + 2 * block])


def _called(game: Nestors, state: NestorsState, *calls: str) -> NestorsState:
    for text in calls:
        state = game.apply(state, game.parse_action(text))
    return state


def test_auctions_with_the_same_highest_bids_encode_differently() -> None:
    """NS-4.1, NS-4.2, NS-8.1: every bid and pass is public, so two auctions whose seats
    end on the same highest bids (1: 110, 3: 115) but called differently encode
    differently, in this deal and, once it is scored, as the last deal's auction."""
    game = Nestors()
    start = game.initial_state(4, 8, dealer=0)  # seats 1 and 3 hold an A, J or 10
    long = _called(game, start, "bid 100", "pass", "bid 105", "pass", "bid 110", "bid 115", "pass")
    short = _called(game, start, "bid 110", "pass", "bid 115", "pass", "pass")
    for state in (long, short):
        assert state.deal.bidder == 3 and state.deal.high == 115
        assert state.phase is Phase.TRUMP
    # Everything but the calls is the same, so play both deals on with the same moves.
    pairs = []
    while long.deal.number == 1:
        pairs.append((long, short))
        first = game.legal_actions(long)[0]
        long, short = game.apply(long, first), game.apply(short, first)
    pairs.append((long, short))
    assert long.match == attrs.evolve(short.match, recent=long.match.recent)
    assert long.match.recent[-1].calls != short.match.recent[-1].calls
    for a, b in pairs:
        for seat in (-1, 0, 1, 2, 3):
            fa = nestors_facts(game.observe(a, seat), 1000, game.max_deals)
            fb = nestors_facts(game.observe(b, seat), 1000, game.max_deals)
            assert fa != fb
    end_long = nestors_facts(game.observe(long, 0), 1000, game.max_deals)
    end_short = nestors_facts(game.observe(short, 0), 1000, game.max_deals)
    assert _auctions(end_long)[1] == [
        (1, 100),
        (2, 0),
        (3, 105),
        (0, 0),
        (1, 110),
        (3, 115),
        (1, 0),
    ]
    assert _auctions(end_short)[1] == [(1, 110), (2, 0), (3, 115), (0, 0), (1, 0)]


def test_the_longest_auction_fills_every_call_slot() -> None:
    """NS-4.2, NS-4.3, NS-9.7: with ``min_bid=5``, bids 5 to 190 by fives and three
    passes make the longest auction, 41 calls, one per slot; a longer list (no auction
    of Nestors) is refused with an error, not cut short."""
    game = Nestors(NestorsOptions(min_bid=5))
    state = game.initial_state(4, 8, dealer=0)  # every seat holds an A, J or 10
    while state.phase is Phase.AUCTION:
        raised = Bid(state.deal.high + 5) if state.deal.high < MAX_BID else Pass()
        state = game.apply(state, raised if raised in game.legal_actions(state) else Pass())
    calls = state.deal.calls
    assert len(calls) == CALL_SLOTS == 41
    assert [b for _, b in calls if b] == list(range(5, MAX_BID + 1, 5))
    assert state.phase is Phase.TRUMP
    obs = game.observe(state, 2)
    assert _auctions(nestors_facts(obs, 1000, game.max_deals)) == (list(calls), [])
    longer = attrs.evolve(obs, deal=attrs.evolve(obs.deal, calls=(*calls, (0, 0))))
    with pytest.raises(ValueError, match="an auction of 42 calls, more than the 41"):
        nestors_facts(longer, 1000, game.max_deals)
    odd = attrs.evolve(obs, deal=attrs.evolve(obs.deal, calls=((1, 7),)))
    with pytest.raises(ValueError, match=r"\(1, 7\) is not a call"):
        nestors_facts(odd, 1000, game.max_deals)


def test_every_call_decodes_back_in_random_games() -> None:
    """NS-8.1: at every step of random games, every seat's facts decode back to this
    deal's calls and to the last scored deal's (void deals after it skipped), in order."""
    game = Nestors(NestorsOptions(threshold=300))
    rng = random.Random(11)
    scored_seen = 0
    for seed in (1, 2):
        state = game.initial_state(4, seed)
        while game.current_player(state) is not None:
            for seat in (-1, 0, 1, 2, 3):
                obs = game.observe(state, seat)
                scored = [r.calls for r in obs.match.recent if not r.void]
                mine, last = _auctions(nestors_facts(obs, 300, game.max_deals))
                assert mine == list(obs.deal.calls)
                assert last == list(scored[-1] if scored else ())
                scored_seen += bool(scored)
            legal = game.legal_actions(state)
            state = game.apply(state, legal[rng.randrange(len(legal))])
    assert scored_seen > 100
