"""Who acts first and last before the flop when someone straddles, from any seat.

WIKI-STRADDLE-MS: "With $10-$25 blinds and a $50 button straddle, the SB
acts first, then the BB, and so on; the straddler gets the option."
WIKI-STRADDLE-1 / RRP-NL-14: an under-the-gun straddle is live, action
starts on its left and the straddler acts last. The minimum raise over a
straddle is one straddle (RRP-NL-2-STR; pokerkit measures it by the big
blind instead, a departure kept in test_betting_departures.py), so only the
order, the calls and the pot are compared with pokerkit here. Amounts in
cents: seats 1..6, seat 1 the small blind, seat 6 the button.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from pokerkit import HandHistory, Mode, NoLimitTexasHoldem

sys.path.insert(0, str(Path(__file__).parent))

from oracle import AUTOMATIONS  # noqa: E402

from cash_params import CASH  # noqa: E402
from rulings.betting import Action, BettingError, Game, Hand, Player, position, positions  # noqa: E402
from rulings.incident.phh_hand import loads_phh  # noqa: E402

A = Action
NL_10_25 = Game("no-limit", small_blind=1000, big_blind=2500)
PL_10_25 = Game("pot-limit", small_blind=1000, big_blind=2500)
SEATS = tuple(Player(s, 200000) for s in range(1, 7))
BLINDS = (A(1, "post", 1000), A(2, "post", 2500))


def hand(*actions: Action, game: Game = NL_10_25, straddles: tuple[int, ...] = (), flop: bool = False) -> Hand:
    """The preflop actions (and an empty flop, to ask who opens it)."""
    return Hand(game, SEATS, (tuple(actions), ()) if flop else (tuple(actions),), straddles=straddles)


def called_around(posts: tuple[Action, ...], order: list[int], game: Game = NL_10_25) -> list[tuple]:
    """(actor, to_call, pot, min_raise_to) before each call, as everyone in ``order`` calls in turn."""
    seen = []
    acts = posts
    for seat in order:
        p = position(hand(*acts, game=game), CASH)
        seen.append((p.actor, p.to_call, p.pot, p.min_raise_to))
        acts += (A(seat, "call"),)
    return seen


def test_wiki_straddle_ms_button_straddle_the_small_blind_acts_first():
    # $10-$25 and a $50 button straddle: the SB (seat 1) acts first, facing $40 more to make $50
    # with $10 in; the minimum raise is one straddle, to $100; the pot is $85.
    posts = BLINDS + (A(6, "post", 5000),)
    p = position(hand(*posts), CASH)
    assert (p.actor, p.to_call, p.current_bet, p.pot, p.min_raise_to) == (1, 4000, 5000, 8500, 10000)
    # Then the BB faces $25 more, and seats 3, 4, 5 face the whole $50; the button acts last.
    seen = called_around(posts, [1, 2, 3, 4, 5])
    assert [(actor, to_call) for actor, to_call, _, _ in seen] == [
        (1, 4000), (2, 2500), (3, 5000), (4, 5000), (5, 5000)]
    assert [pot for _, _, pot, _ in seen] == [8500, 12500, 15000, 20000, 25000]
    option = position(hand(*posts, *(A(s, "call") for s in (1, 2, 3, 4, 5))), CASH)
    assert (option.actor, option.to_call, option.can_raise, option.min_raise_to, option.pot) == (
        6, 0, True, 10000, 30000)
    flop = position(hand(*posts, *(A(s, "call") for s in (1, 2, 3, 4, 5)), A(6, "check"), flop=True), CASH)
    assert (flop.street, flop.actor, flop.pot) == (1, 1, 30000)


def test_button_straddle_acting_before_the_blinds_is_out_of_turn():
    posts = BLINDS + (A(6, "post", 5000),)
    with pytest.raises(BettingError) as err:
        list(positions(hand(*posts, A(3, "call")), CASH))
    assert "seat 3 acted out of turn; seat 1 is due" in str(err.value)


def test_button_straddler_raised_gets_to_act_again_and_a_raise_reopens_to_him():
    # SB raises to $150 (a full raise of $100 over the $50 straddle); everyone folds to the button.
    posts = BLINDS + (A(6, "post", 5000),)
    acts = posts + (A(1, "raise", 15000),) + tuple(A(s, "fold") for s in (2, 3, 4, 5))
    p = position(hand(*acts), CASH)
    assert (p.actor, p.to_call, p.min_raise_to) == (6, 10000, 25000)


def test_utg_straddle_order_is_unchanged():
    # $50 under-the-gun straddle (seat 3): seat 4 acts first and seat 3 last, given as game
    # straddles or as posts.
    for h, posts in ((hand(straddles=(5000,)), ()), (hand(*BLINDS, A(3, "post", 5000)), BLINDS + (A(3, "post", 5000),))):
        p = position(h, CASH)
        assert (p.actor, p.to_call, p.min_raise_to) == (4, 5000, 10000)
    seen = called_around(BLINDS + (A(3, "post", 5000),), [4, 5, 6, 1, 2])
    assert [(actor, to_call) for actor, to_call, _, _ in seen] == [
        (4, 5000), (5, 5000), (6, 5000), (1, 4000), (2, 2500)]
    last = position(hand(*BLINDS, A(3, "post", 5000), *(A(s, "call") for s in (4, 5, 6, 1, 2))), CASH)
    assert (last.actor, last.to_call, last.min_raise_to) == (3, 0, 10000)


def test_the_last_straddler_acts_last_after_a_restraddle():
    # UTG straddles $50 and UTG+1 re-straddles $100: seat 5 opens, seat 4 closes.
    p = position(hand(straddles=(5000, 10000)), CASH)
    assert (p.actor, p.to_call, p.min_raise_to) == (5, 10000, 20000)
    # A button straddle of $50 re-straddled to $100 by the cutoff on his right: the button opens.
    posts = BLINDS + (A(6, "post", 5000), A(5, "post", 10000))
    seen = called_around(posts, [6, 1, 2, 3, 4])
    assert [(actor, to_call) for actor, to_call, _, _ in seen] == [
        (6, 5000), (1, 9000), (2, 7500), (3, 10000), (4, 10000)]
    last = position(hand(*posts, *(A(s, "call") for s in (6, 1, 2, 3, 4))), CASH)
    assert (last.actor, last.to_call) == (5, 0)


def test_mississippi_straddle_from_the_middle_starts_on_its_left():
    # $50 from seat 4 (no UTG straddle): seat 5 opens, then 6, the blinds, seat 3; seat 4 last.
    posts = BLINDS + (A(4, "post", 5000),)
    seen = called_around(posts, [5, 6, 1, 2, 3])
    assert [(actor, to_call) for actor, to_call, _, _ in seen] == [
        (5, 5000), (6, 5000), (1, 4000), (2, 2500), (3, 5000)]


def test_pot_limit_button_straddle_limits():
    # PL $10-$25, $50 button straddle: the SB calls $40 (pot $125) and may raise to $10 + 40 + 125 = $175.
    p = position(hand(*BLINDS, A(6, "post", 5000), game=PL_10_25), CASH)
    assert (p.actor, p.to_call, p.min_raise_to, p.max_raise_to) == (1, 4000, 10000, 17500)


def test_a_new_players_big_blind_post_still_acts_in_turn():
    # A new player's $25 in seat 4 is no straddle: with no straddle the action starts at seat 3.
    p = position(hand(*BLINDS, A(4, "post", 2500)), CASH)
    assert (p.actor, p.to_call) == (3, 2500)
    # With a button straddle as well, the new player acts in his turn after the blinds and seat 3.
    seen = called_around(BLINDS + (A(4, "post", 2500), A(6, "post", 5000)), [1, 2, 3, 4, 5])
    assert [(actor, to_call) for actor, to_call, _, _ in seen] == [
        (1, 4000), (2, 2500), (3, 5000), (4, 2500), (5, 5000)]


def test_a_limit_post_above_the_big_blind_outside_the_blinds_still_acts_in_turn():
    # In a limit game such a post may be a kill blind (RRP-KILL-2: the killer acts in turn).
    game = Game("fixed-limit", small_blind=1000, big_blind=2000, bet_sizes=(4000, 4000, 8000, 8000))
    p = position(hand(A(1, "post", 1000), A(2, "post", 2000), A(5, "post", 4000), game=game), CASH)
    assert (p.actor, p.to_call) == (3, 4000)


# -- the same spots in pokerkit ------------------------------------------------------------------

@pytest.mark.parametrize("forced", [
    (1000, 2500, 0, 0, 0, 5000),        # button straddle
    (1000, 2500, 5000, 0, 0, 0),        # under the gun
    (1000, 2500, 5000, 10000, 0, 0),    # re-straddle
    (1000, 2500, 0, 5000, 0, 0),        # Mississippi from seat 4
    (1000, 2500, 0, 0, 10000, 5000),    # button, re-straddled from the cutoff
    (1000, 2500, 0, 0, 0, 0),           # no straddle
])
def test_order_calls_and_pot_agree_with_pokerkit(forced):
    # Everyone calls round to the last straddler, who checks: compare the seat to act, the call and the
    # pot at each step. Posts are given in seat order except that a larger straddle comes after a smaller.
    state = NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, forced, 2500, [200000] * 6, 6,
                                            mode=Mode.CASH_GAME)
    posts = tuple(A(i + 1, "post", amount) for i, amount in sorted(enumerate(forced), key=lambda x: x[1]) if amount)
    posts = BLINDS + tuple(a for a in posts if a.seat > 2)
    acts: tuple[Action, ...] = posts
    steps = 0
    while state.actor_index is not None and state.street_index == 0:
        ours = position(hand(*acts), CASH)
        theirs = (state.actor_index + 1, state.checking_or_calling_amount, state.total_pot_amount)
        assert (ours.actor, ours.to_call, ours.pot) == theirs, (steps, acts)
        acts += (A(ours.actor, "call" if ours.to_call else "check"),)
        state.check_or_call()
        steps += 1
    assert steps == 6
    after = position(hand(*acts, flop=True), CASH)
    assert (after.street, after.actor, after.pot) == (1, 1, state.total_pot_amount)


# -- PHH files with straddles --------------------------------------------------------------------

PHH = """variant = 'NT'
antes = [0, 0, 0, 0, 0, 0]
blinds_or_straddles = {forced}
min_bet = 25
starting_stacks = [2000, 2000, 2000, 2000, 2000, 2000]
actions = {actions}
"""


@pytest.mark.parametrize("forced, actions, due, to_call", [
    # the button straddle: SB, BB and seat 3 call; seat 4 faces the whole $50
    ([10, 25, 0, 0, 0, 50], ["p1 cc", "p2 cc", "p3 cc"], 4, 5000),
    # a $50 button straddle re-straddled to $100 by the cutoff: the button opens, then the SB; the BB owes $75
    ([10, 25, 0, 0, 100, 50], ["p6 cc", "p1 cc"], 2, 7500),
])
def test_phh_straddles_are_read_in_pokerkits_order(forced, actions, due, to_call):
    text = PHH.format(forced=forced, actions=actions)
    [ours] = loads_phh(text)
    p = position(ours.hand, CASH)
    *_, state = iter(HandHistory.loads(text))
    assert (p.actor, p.to_call) == (due, to_call)
    assert (state.actor_index + 1, state.checking_or_calling_amount * 100) == (due, to_call)
