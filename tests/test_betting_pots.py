"""Side pots and uncalled chips (inventory section 8), alone and through a replayed hand."""
from cash_params import CASH
from rulings.betting import Action, Game, Hand, Player, SidePot, position, side_pots

A = Action


def test_wiki_sidepot_1():
    # A $20 open, a $5 all-in, a $20 call: $15 main pot for all three, $30 side pot for two.
    assert side_pots({1: 2000, 2: 500, 3: 2000}, set()) == (
        SidePot(1500, (1, 2, 3)), SidePot(3000, (1, 3)))


def test_olr_sidepot_1():
    # Bob all-in for $35; Andy bets $84.50 and Chuck calls: a $99 side pot for Andy and Chuck.
    pots = side_pots({"bob": 3500, "andy": 8450, "chuck": 8450}, set())
    assert [pot.amount for pot in pots] == [10500, 9900]
    assert pots[1].eligible == ("andy", "chuck")


def test_uncalled_excess_is_in_no_pot():
    # pokerkit-notes: stacks 200/100/50 all in: 150 for everyone, 100 for the two biggest, 100 back.
    assert side_pots({0: 200, 1: 100, 2: 50}, set()) == (SidePot(150, (0, 1, 2)), SidePot(100, (0, 1)))


def test_folded_money_stays_in_the_pot_without_its_seat():
    # A bets 100 and folds to a raise; B is all-in for 50; C raised to 300 (200 of it uncalled).
    pots = side_pots({1: 100, 2: 50, 3: 300}, {1})
    assert pots == (SidePot(150, (2, 3)), SidePot(100, (3,)))
    assert sum(pot.amount for pot in pots) == 100 + 50 + 100


def test_equal_levels_merge_into_one_pot():
    assert side_pots({1: 100, 2: 100, 3: 40}, {3}) == (SidePot(240, (1, 2)),)


def test_tda_2024_16_ex3_side_pot_from_a_replayed_hand():
    # A 700 all-in preflop, two callers, a 1,000 bet and a call on the turn: a 2,000 side pot.
    g = Game("no-limit", small_blind=100, big_blind=200)
    pre = (A(3, "raise", 700), A(4, "call"), A(1, "fold"), A(2, "call"))
    h = Hand(g, tuple(Player(s, 700 if s == 3 else None) for s in (1, 2, 3, 4)),
             (pre, (A(2, "check"), A(4, "check")), (A(2, "bet", 1000), A(4, "call")),
              (A(2, "check"), A(4, "check"))))
    p = position(h, CASH)
    assert p.actor is None and p.reason == "the last betting round is complete"
    assert p.side_pots == (SidePot(100 + 3 * 700, (2, 3, 4)), SidePot(2000, (2, 4)))


def test_position_side_pots_hold_pot_before_in_the_main_pot():
    g = Game("no-limit", big_blind=200)
    h = Hand(g, (Player(1, 500), Player(2), Player(3)), ((A(1, "bet", 500), A(2, "call"), A(3, "raise", 1500)),),
             first_street=1, pot_before=1200)
    p = position(h, CASH)
    # Seat 3's 1,000 beyond seat 1's all-in has not been called yet: it is in no pot.
    assert p.side_pots == (SidePot(1200 + 3 * 500, (1, 2, 3)),)
    assert p.pot == 1200 + 500 + 500 + 1500
