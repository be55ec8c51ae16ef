"""Replaying a hand: turn order, streets, forced bets, and the errors an illegal action raises."""
import pytest

from cash_params import CASH, cash_params
from rulings.betting import Action, BettingError, Game, Hand, Params, Player, position, positions

A = Action
NL = Game("no-limit", small_blind=50, big_blind=100)


def hand(game: Game, seats: int, *streets, stacks: dict | None = None, **kw) -> Hand:
    """Seats 1..n in postflop order (1 is the small blind, n the button when n > 2)."""
    stacks = stacks or {}
    return Hand(game, tuple(Player(s, stacks.get(s)) for s in range(1, seats + 1)),
                tuple(streets) or ((),), **kw)


def error(h: Hand, params: Params = cash_params()) -> BettingError:
    with pytest.raises(BettingError) as err:
        list(positions(h, params))
    return err.value


def test_index_counts_posts_and_every_street():
    h = hand(NL, 3, (A(1, "post", 50), A(2, "post", 100), A(3, "call"), A(1, "call"), A(2, "check")),
             (A(1, "check"), A(2, "bet", 100), A(3, "fold"), A(1, "call")))
    seen = [(i, a.seat, p.actor, p.street) for i, a, p in positions(h, CASH)]
    assert seen == [(0, 1, 1, 0), (1, 2, 2, 0), (2, 3, 3, 0), (3, 1, 1, 0), (4, 2, 2, 0),
                    (5, 1, 1, 1), (6, 2, 2, 1), (7, 3, 3, 1), (8, 1, 1, 1)]


def test_position_after_k_is_what_positions_yields_at_k():
    h = hand(NL, 4, (A(3, "raise", 300), A(4, "call"), A(1, "fold"), A(2, "call")),
             (A(2, "check"), A(3, "bet", 500)))
    for index, _action, at in positions(h, CASH):
        assert position(h, CASH, after=index) == at


def test_heads_up_button_posts_the_small_blind_and_acts_first_preflop():
    h = hand(NL, 2, (A(2, "call"), A(1, "check")), ())
    first = position(h, CASH, after=0)
    assert (first.actor, first.committed, first.to_call) == (2, {1: 100, 2: 50}, 50)
    flop = position(h, CASH)
    assert (flop.actor, flop.street, flop.pot) == (1, 1, 200)


def test_street_complete_gives_the_next_opening_with_no_actor():
    p = position(hand(NL, 2, (A(2, "call"), A(1, "check"))), CASH)
    assert (p.actor, p.street, p.pot_in_middle, p.current_bet, p.to_call) == (None, 1, 200, 0, 0)
    assert (p.min_raise_to, p.max_raise_to, p.can_raise) == (100, None, True)


def test_position_for_a_named_seat():
    h = hand(NL, 4, (A(3, "raise", 300),), stacks={1: 250})
    p = position(h, CASH, seat=1)
    assert (p.actor, p.to_call, p.can_raise, p.reason) == (4, 200, False, "seat 1 has only enough chips to call")
    assert position(h, CASH, seat=2).min_raise_to == 500


def test_antes_go_into_the_middle():
    g = Game("no-limit", small_blind=50, big_blind=100, ante=10)
    p = position(hand(g, 4), CASH)
    assert (p.pot_in_middle, p.pot, p.actor, p.max_raise_to) == (40, 190, 3, None)


def test_unknown_stacks_are_never_all_in():
    p = position(hand(NL, 3, first_street=1, pot_before=300), CASH)
    assert (p.actor, p.current_bet, p.min_raise_to, p.max_raise_to, p.stacks) == (
        1, 0, 100, None, {1: None, 2: None, 3: None})


def test_all_in_by_a_bet_for_less_than_a_call_is_a_call():
    h = hand(NL, 3, (A(1, "bet", 500), A(2, "raise", 300)), stacks={2: 300}, first_street=1, pot_before=300)
    p = position(h, CASH)
    assert (p.actor, p.committed[2], p.stacks[2], p.current_bet) == (3, 300, 0, 500)


def test_everyone_all_in_skips_the_remaining_streets():
    h = hand(NL, 2, (A(2, "raise", 1000), A(1, "call")), (), (), (), stacks={1: 1000, 2: 1000})
    p = position(h, CASH)
    assert (p.actor, p.pot, p.reason) == (None, 2000, "the betting is over: every player but one is all-in")


def test_no_raise_when_no_one_could_call_it():
    # Seat 4 faces an all-in; the blinds are still to act but cannot cover even the call.
    h = hand(NL, 4, (A(3, "raise", 2000),), stacks={1: 1500, 2: 1000, 3: 2000})
    p = position(h, CASH)
    assert (p.actor, p.can_raise, p.reason) == (4, False, "no other player has chips left to call a raise")


def test_error_out_of_turn():
    e = error(hand(NL, 4, (A(4, "call"),)))
    assert (e.index, e.seat, e.field, e.expected) == (0, 4, "actions", "an action by seat 3")
    assert str(e) == "seat 4 acted out of turn; seat 3 is due"


def test_error_after_folding():
    e = error(hand(NL, 3, (A(3, "fold"), A(1, "call"), A(2, "check")), (A(3, "check"),)))
    assert (e.index, e.seat, str(e)) == (3, 3, "seat 3 has already folded")


def test_error_check_facing_a_bet():
    e = error(hand(NL, 3, (A(3, "check"),)))
    assert (e.index, e.expected) == (0, "fold, call to 1 or raise to 2 or more")


def test_error_bet_below_the_minimum():
    e = error(hand(NL, 3, (A(1, "bet", 50),), first_street=1, pot_before=300))
    assert str(e) == "a bet to 0.50 is below the minimum of 1"


def test_error_wager_larger_than_the_stack():
    e = error(hand(NL, 3, (A(3, "raise", 900),), stacks={3: 800}))
    assert (e.index, e.expected) == (0, "a street total of at most 8 (all-in)")


def test_error_raise_to_below_the_current_bet():
    e = error(hand(NL, 3, (A(3, "raise", 300), A(1, "raise", 200))))
    assert (e.index, str(e)) == (1, "a raise to 2 is not above the current bet of 3")


def test_error_unknown_kind_and_missing_to():
    assert error(hand(NL, 3, (A(3, "shove"),))).expected.startswith("post | fold")
    assert "needs the street total" in str(error(hand(NL, 3, (A(3, "raise"),))))


def test_error_call_to_the_wrong_total():
    e = error(hand(NL, 3, (A(3, "raise", 300), A(1, "call", 250))))
    assert (e.index, str(e), e.expected) == (1, "a call by seat 1 goes to 3, not 2.50",
                                             "fold, call to 3 or raise to 5 or more")


def test_call_with_to_for_a_short_stack_is_the_all_in():
    h = hand(NL, 3, (A(3, "raise", 300), A(1, "call", 120)), stacks={1: 120})
    assert position(h, CASH).committed[1] == 120


def test_error_complete_in_no_limit():
    assert "only in limit" in str(error(hand(NL, 3, (A(3, "complete", 200),))))


def test_error_raise_after_the_cap():
    g = Game("fixed-limit", small_blind=50, big_blind=100, bet_sizes=(100, 100, 200, 200))
    e = error(hand(g, 4, (A(3, "raise", 200), A(4, "raise", 300), A(1, "raise", 400), A(2, "raise", 500))))
    assert (e.index, str(e)) == (3, "seat 2 may not raise: the betting is capped at a bet and 3 raises")


def test_error_action_after_the_hand_is_over():
    e = error(hand(NL, 3, (A(3, "fold"), A(1, "fold"), A(2, "check"))))
    assert (e.index, str(e)) == (2, "seat 2 acted after the hand is over: only seat 2 is left")


def test_error_next_street_before_this_one_is_finished():
    e = error(hand(NL, 3, (A(3, "call"),), (A(1, "check"),)))
    assert (e.index, str(e)) == (1, "street 0 is not finished: seat 1 is still to act")


def test_error_action_after_the_street_is_complete():
    e = error(hand(NL, 2, (A(2, "call"), A(1, "check"), A(1, "bet", 100))))
    assert (e.index, str(e)) == (2, "the betting on street 0 was already complete")


def test_error_post_after_the_betting_started():
    e = error(hand(NL, 3, (A(1, "post", 50), A(2, "post", 100), A(3, "call"), A(1, "post", 100))))
    assert e.index == 3


def test_error_position_after_out_of_range():
    with pytest.raises(BettingError) as err:
        position(hand(NL, 3, (A(3, "call"),)), CASH, after=5)
    assert err.value.field == "after"


def test_dead_small_blind_posts_start_left_of_the_big_blind():
    h = hand(NL, 4, (A(2, "post", 100),))
    p = position(h, CASH)
    assert (p.actor, p.pot, p.to_call) == (3, 100, 100)


def test_a_post_out_of_the_blinds_acts_in_turn_with_the_option():
    # A new player in seat 4 posts a live big blind: action still starts with seat 3.
    h = hand(NL, 5, (A(1, "post", 50), A(2, "post", 100), A(4, "post", 100), A(3, "call"), A(4, "check")))
    assert position(h, CASH, after=3).actor == 3
    assert position(h, CASH).actor == 5


def test_error_a_later_street_given_while_this_one_is_unfinished():
    e = error(hand(NL, 3, (A(3, "call"),), ()))
    assert (e.index, e.seat, e.field, str(e)) == (1, 1, "streets", "street 0 ended before its betting was complete")


def test_error_action_by_an_all_in_seat():
    e = error(hand(NL, 3, (A(3, "raise", 500), A(1, "call"), A(2, "call")), (A(3, "check"),), stacks={3: 500}))
    assert (e.index, str(e)) == (3, "seat 3 is all-in and has no more actions")


def test_error_unknown_structure():
    with pytest.raises(BettingError) as err:
        position(hand(Game("table-stakes"), 2), CASH)
    assert err.value.field == "game"
