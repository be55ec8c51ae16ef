"""No-limit minimum raises and reopening against the inventory's worked numbers (sections 5, 6, 11)."""
import pytest

from cash_params import CASH
from rulings.betting import Action, BettingError, Game, Hand, Player, position, positions

A = Action


def hand(game: Game, seats: int, *streets, stacks: dict | None = None, **kw) -> Hand:
    """Seats 1..n in postflop order (1 is the small blind, n the button when n > 2)."""
    stacks = stacks or {}
    return Hand(game, tuple(Player(s, stacks.get(s)) for s in range(1, seats + 1)),
                tuple(streets) or ((),), **kw)


NL_50_100 = Game("no-limit", small_blind=50, big_blind=100)
NL_100_200 = Game("no-limit", small_blind=100, big_blind=200)


def test_tda_2024_43a_ex1():
    # 100-200: 600, then 1,600, then 3,600: the increment is now 2,000, so the least raise is to 5,600.
    h = hand(NL_100_200, 6, (A(3, "raise", 600), A(4, "raise", 1600), A(5, "raise", 3600)))
    p = position(h, CASH)
    assert (p.actor, p.last_full_raise, p.min_raise_to) == (6, 2000, 5600)


def test_tda_2024_43a_ex2():
    # 50-100: an all-in to 150 does not change the increment of 100; the least raise is to 250.
    h = hand(NL_50_100, 4, (A(3, "raise", 150),), stacks={3: 150})
    p = position(h, CASH)
    assert (p.actor, p.to_call, p.last_full_raise, p.min_raise_to) == (4, 150, 100, 250)


def test_tda_2024_43a_ex3():
    # A bet of 300 raised to 1,000: the increment is 700, so the least re-raise is to 1,700.
    h = hand(NL_50_100, 3, (A(1, "bet", 300), A(2, "raise", 1000)), first_street=1, pot_before=300)
    assert position(h, CASH).min_raise_to == 1700


def test_tda_2024_43a_ex4a():
    # 25-50: 125, 200, then 500: the increment is 300, so the least raise is to 800.
    g = Game("no-limit", small_blind=25, big_blind=50)
    h = hand(g, 6, (A(3, "raise", 125), A(4, "raise", 200), A(5, "raise", 500)))
    assert position(h, CASH).min_raise_to == 800


def test_tda_2024_43a_ex4b():
    # 25-50: a raise to 500, called twice: the least re-raise is to 950.
    g = Game("no-limit", small_blind=25, big_blind=50)
    h = hand(g, 6, (A(3, "raise", 500), A(4, "call"), A(5, "call")))
    p = position(h, CASH)
    assert (p.actor, p.min_raise_to) == (6, 950)


EX1 = (A(1, "bet", 100), A(2, "raise", 125), A(3, "call"), A(4, "raise", 200), A(5, "call"))
EX1_STACKS = {2: 125, 4: 200}


def test_tda_2024_47a_ex1_a_may_raise():
    h = hand(NL_50_100, 5, EX1, stacks=EX1_STACKS, first_street=1, pot_before=500)
    p = position(h, CASH)
    assert (p.actor, p.to_call, p.can_raise, p.min_raise_to) == (1, 100, True, 300)


def test_tda_2024_47a_ex1_c_faces_75_and_may_not_raise():
    h = hand(NL_50_100, 5, EX1 + (A(1, "call"),), stacks=EX1_STACKS, first_street=1, pot_before=500)
    p = position(h, CASH)
    assert (p.actor, p.to_call, p.can_raise, p.min_raise_to) == (3, 75, False, None)
    assert p.reason == ("the all-in to 2 was less than a full raise and the betting was not "
                        "reopened for seat 3")


def test_tda_2024_47a_ex1_c_faces_175_and_may_raise():
    h = hand(NL_50_100, 5, EX1 + (A(1, "raise", 300),), stacks=EX1_STACKS, first_street=1, pot_before=500)
    p = position(h, CASH)
    assert (p.actor, p.to_call, p.can_raise, p.min_raise_to) == (3, 175, True, 400)


def test_tda_2024_47a_ex2():
    # An open of 300, all-ins to 500, 650 and 800, a call: the least raise is still 300 on top, 1,100.
    acts = (A(1, "bet", 300), A(2, "raise", 500), A(3, "raise", 650), A(4, "raise", 800), A(5, "call"))
    h = hand(NL_50_100, 6, acts, stacks={2: 500, 3: 650, 4: 800}, first_street=1, pot_before=300)
    p = position(h, CASH)
    assert (p.actor, p.to_call, p.last_full_raise, p.min_raise_to) == (6, 800, 300, 1100)


EX3_GAME = Game("no-limit", small_blind=2000, big_blind=4000)
# Seats: 1 SB, 2 BB, 3 = A, 4 = C (all-in 7,500); the SB folds.
EX3 = (A(3, "call"), A(4, "raise", 7500), A(1, "fold"))


def test_tda_2024_47a_ex3_big_blind_minimum():
    h = hand(EX3_GAME, 4, EX3, stacks={4: 7500})
    p = position(h, CASH)
    assert (p.actor, p.to_call, p.min_raise_to) == (2, 3500, 11500)


def test_tda_2024_47a_ex3_bb_calls_limper_may_not_raise():
    h = hand(EX3_GAME, 4, EX3 + (A(2, "call"),), stacks={4: 7500})
    p = position(h, CASH)
    assert (p.actor, p.to_call, p.can_raise) == (3, 3500, False)


def test_tda_2024_47a_ex3_bb_raises_limper_may_reraise():
    h = hand(EX3_GAME, 4, EX3 + (A(2, "raise", 11500),), stacks={4: 7500})
    p = position(h, CASH)
    assert (p.actor, p.to_call, p.can_raise, p.min_raise_to) == (3, 7500, True, 15500)


def test_rrp_nl_4():
    # A $100 bet and a $140 all-in: a raise must go to at least $240.
    h = hand(NL_50_100, 3, (A(1, "bet", 10000), A(2, "raise", 14000)), stacks={2: 14000},
             first_street=1, pot_before=1000)
    assert position(h, CASH).min_raise_to == 24000


def test_rrp_nl_5():
    # A bets 100, B makes 200, C is all-in for 288, A calls: B was never fully raised.
    acts = (A(1, "bet", 100), A(2, "raise", 200), A(3, "raise", 288), A(1, "call"))
    h = hand(NL_50_100, 3, acts, stacks={3: 288}, first_street=1, pot_before=300)
    p = position(h, CASH)
    assert (p.actor, p.to_call, p.can_raise) == (2, 88, False)
    # A, facing 188 after his 100, could have re-raised.
    assert position(h, CASH, after=3).can_raise is True
    with pytest.raises(BettingError) as err:
        list(positions(Hand(h.game, h.players, (acts + (A(2, "raise", 500),),), first_street=1, pot_before=300), CASH))
    assert err.value.index == 4 and err.value.expected == "fold or call to 2.88"


def test_rrp_nl_3_short_all_in_opening_bet_does_not_reopen_for_a_checker():
    # NL 10/20 postflop: A checks, B bets all-in 15, C calls: A may call or fold, not raise.
    g = Game("no-limit", small_blind=1000, big_blind=2000)
    acts = (A(1, "check"), A(2, "bet", 1500), A(3, "call"))
    h = hand(g, 3, acts, stacks={2: 1500}, first_street=1, pot_before=6000)
    p = position(h, CASH)
    assert (p.actor, p.to_call, p.can_raise) == (1, 1500, False)
    # C, who had not acted, could raise: to 15 + 20 = 35.
    assert position(h, CASH, after=2).min_raise_to == 3500


def test_short_all_in_big_blind_still_sets_the_full_blind():
    # 5/10 with the BB all-in for 7: the others call 10 and raise to at least 20.
    g = Game("no-limit", small_blind=500, big_blind=1000)
    h = hand(g, 4, (A(1, "post", 500), A(2, "post", 700)), stacks={2: 700})
    p = position(h, CASH)
    assert (p.actor, p.to_call, p.current_bet, p.min_raise_to) == (3, 1000, 1000, 2000)
    auto = hand(g, 4, stacks={2: 700})
    assert position(auto, CASH).min_raise_to == 2000


def test_wiki_minraise_1():
    # Over a $5 bet a raise is at least $5 more; $2 more is refused unless it is the whole stack.
    g = Game("no-limit", small_blind=100, big_blind=200)
    short = hand(g, 2, (A(1, "bet", 500), A(2, "raise", 700)), first_street=1, pot_before=400)
    with pytest.raises(BettingError) as err:
        list(positions(short, CASH))
    assert "below the minimum of 10" in str(err.value)
    all_in = hand(g, 2, (A(1, "bet", 500), A(2, "raise", 700)), stacks={2: 700}, first_street=1, pot_before=400)
    assert position(all_in, CASH).actor == 1


def test_rrp_nl_2_straddle_is_a_new_bring_in():
    # 1/2 with a 4 straddle: action starts left of the straddler and the least raise is to 8.
    g = Game("no-limit", small_blind=100, big_blind=200)
    h = hand(g, 6, straddles=(400,))
    p = position(h, CASH)
    assert (p.actor, p.to_call, p.last_full_raise, p.min_raise_to) == (4, 400, 400, 800)


def test_rrp_nl_14_straddler_has_the_option():
    g = Game("no-limit", small_blind=100, big_blind=200)
    calls = tuple(A(s, "call") for s in (4, 5, 6, 1, 2))
    h = hand(g, 6, calls, straddles=(400,))
    p = position(h, CASH)
    assert (p.actor, p.to_call, p.can_raise, p.min_raise_to) == (3, 0, True, 800)


def test_rrp_bb_8_big_blind_has_the_option():
    h = hand(NL_50_100, 3, (A(3, "call"), A(1, "call")))
    p = position(h, CASH)
    assert (p.actor, p.to_call, p.min_raise_to) == (2, 0, 200)
    done = hand(NL_50_100, 3, (A(3, "call"), A(1, "call"), A(2, "check")))
    q = position(done, CASH)
    assert (q.actor, q.street, q.pot, q.pot_in_middle, q.current_bet) == (None, 1, 300, 300, 0)


def test_olr_sidepot_1_no_raise_when_nobody_can_call_it():
    # Bob is all-in; Andy bets all he has; Chuck may only call: nobody is left to call a raise.
    g = Game("no-limit", small_blind=100, big_blind=200)
    acts = (A(1, "bet", 3500), A(2, "raise", 8450))
    h = hand(g, 3, acts, stacks={1: 3500, 2: 8450}, first_street=1, pot_before=0)
    p = position(h, CASH)
    assert (p.actor, p.to_call, p.can_raise) == (3, 8450, False)
    assert p.reason == "every other player is all-in"
