"""Kill blinds and killed limits (inventory section 1)."""
import pytest

from cash_params import CASH
from rulings.betting import Action, BettingError, Game, Hand, KillLimits, Player, kill_limits, position

L_20_40 = Game("fixed-limit", small_blind=1000, big_blind=2000, bet_sizes=(2000, 2000, 4000, 4000))
L_4_8 = Game("fixed-limit", small_blind=200, big_blind=400, bet_sizes=(400, 400, 800, 800))


def test_wiki_kill_1_full():
    assert kill_limits(L_20_40, "full") == KillLimits(kill_blind=4000, small_bet=4000, big_bet=8000)


def test_wiki_kill_1_half():
    assert kill_limits(L_4_8, "half") == KillLimits(kill_blind=600, small_bet=600, big_bet=1200)


def test_rrp_kill_intro_limits_without_bet_sizes():
    # Without bet_sizes the small bet is the big blind and the big bet twice it.
    g = Game("fixed-limit", small_blind=1000, big_blind=2000)
    assert kill_limits(g, "half") == KillLimits(3000, 3000, 6000)


def test_half_kill_of_an_odd_unit_is_refused():
    g = Game("fixed-limit", small_blind=1, big_blind=3, bet_sizes=(3, 3, 6, 6))
    with pytest.raises(BettingError) as err:
        kill_limits(g, "half")
    assert err.value.field == "kill.size"
    assert kill_limits(g, "full") == KillLimits(6, 6, 12)


def test_unknown_kill_size():
    with pytest.raises(BettingError) as err:
        kill_limits(L_20_40, "double")
    assert err.value.expected == "full | half"


def test_rrp_kill_2_killed_hand_is_played_at_the_kill_limits():
    # A killed $20/$40 hand: the killer (seat 5) posts $40 and acts in turn; the hand plays $40/$80.
    kill = kill_limits(L_20_40, "full")
    killed = Game("fixed-limit", small_blind=1000, big_blind=2000,
                  bet_sizes=(kill.small_bet, kill.small_bet, kill.big_bet, kill.big_bet))
    posts = (Action(1, "post", 1000), Action(2, "post", 2000), Action(5, "post", kill.kill_blind))
    h = Hand(killed, tuple(Player(s) for s in range(1, 7)), (posts,))
    p = position(h, CASH)
    assert (p.actor, p.to_call, p.min_raise_to, p.max_raise_to) == (3, 4000, 8000, 8000)
    calls = posts + tuple(Action(s, "call") for s in (3, 4))
    killer = position(Hand(killed, h.players, (calls,)), CASH)
    assert (killer.actor, killer.to_call, killer.min_raise_to) == (5, 0, 8000)   # in turn, with the option
