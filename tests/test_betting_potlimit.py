"""Pot-limit maximums and minimums against the inventory's worked numbers (sections 3 and 18)."""
import pytest

from cash_params import CASH, cash_params
from rulings.betting import Action, BettingError, Game, Hand, Player, position, positions

A = Action


def hand(game: Game, seats: int, *streets, stacks: dict | None = None, **kw) -> Hand:
    """Seats 1..n in postflop order (1 is the small blind, n the button when n > 2)."""
    stacks = stacks or {}
    return Hand(game, tuple(Player(s, stacks.get(s)) for s in range(1, seats + 1)),
                tuple(streets) or ((),), **kw)


PL_1_2 = Game("pot-limit", small_blind=100, big_blind=200)
PL_5_10 = Game("pot-limit", small_blind=500, big_blind=1000, betting_unit=500)
PLO_100_200 = Game("pot-limit", small_blind=100, big_blind=200)


def test_rrp_nlpl_intro():
    # $100 in the pot, a $50 bet: call $50 and raise $200, to $250.
    h = hand(Game("pot-limit", big_blind=500), 2, (A(1, "bet", 5000),), first_street=1, pot_before=10000)
    p = position(h, CASH)
    assert (p.actor, p.to_call, p.max_raise_to, p.min_raise_to) == (2, 5000, 25000, 10000)


def test_wiki_pl_1():
    # $10 pot: open up to 10, then 40, then 140; the least re-raise after 10 and 40 is 70.
    g = Game("pot-limit", big_blind=100)
    h = hand(g, 3, (A(1, "bet", 1000), A(2, "raise", 4000)), first_street=1, pot_before=1000)
    assert position(h, CASH, after=0).max_raise_to == 1000
    assert position(h, CASH, after=1).max_raise_to == 4000
    p = position(h, CASH)
    assert (p.actor, p.max_raise_to, p.min_raise_to, p.last_full_raise) == (3, 14000, 7000, 3000)


def test_olr_pl_1():
    # $1/$2 blinds: the first player in raises to 4..7; after a raise to 7 the next 12..24 (D1).
    h = hand(PL_1_2, 4, (A(3, "raise", 700),))
    first = position(h, CASH, after=0)
    assert (first.actor, first.pot, first.min_raise_to, first.max_raise_to) == (3, 300, 400, 700)
    p = position(h, CASH)
    assert (p.actor, p.pot, p.min_raise_to, p.max_raise_to) == (4, 1000, 1200, 2400)


def test_pl_formula_big_blind_facing_a_raise():
    # The BB's own $2 is already in: 7 + 10 + 5 = $22, not "3L + T".
    h = hand(PL_1_2, 3, (A(3, "raise", 700), A(1, "fold")))
    p = position(h, CASH)
    assert (p.actor, p.to_call, p.max_raise_to) == (2, 500, 2200)


def test_pl_formula_bet_and_call():
    # Pot $200, a $150 bet and a $150 call: the next player may make it $800.
    h = hand(Game("pot-limit", big_blind=100), 3, (A(1, "bet", 15000), A(2, "call")),
             first_street=1, pot_before=20000)
    assert position(h, CASH).max_raise_to == 80000


def test_rrp_pl_5_small_blind_counts_as_big_blind():
    # $5/$10: $35 on the actual blinds, $40 with the SB counted as a BB.
    h = hand(PL_5_10, 4)
    assert position(h, CASH).max_raise_to == 3500
    assert position(h, cash_params(sb_counts_as_bb=True)).max_raise_to == 4000


def test_rrp_pl_5_ends_when_the_big_blind_has_acted():
    # Three limps, then the BB raises to $20 and one limper calls: the pot is the real $60.
    limped = (A(3, "call"), A(4, "call"), A(1, "call"), A(2, "raise", 2000), A(3, "call"))
    h = hand(PL_5_10, 4, limped)
    p = position(h, cash_params(sb_counts_as_bb=True))
    # Seat 4 has $10 in and faces $10 more: 20 + 60 + 10 = $90, with no SB bonus any more.
    assert (p.actor, p.pot, p.max_raise_to) == (4, 6000, 9000)
    # Before the BB acts the SB counts as a BB, but once the SB completed there is nothing to add.
    assert position(h, cash_params(sb_counts_as_bb=True), after=3).max_raise_to == 5000


def test_tda_2024_54b_dead_small_blind():
    # PLO 100/200 with a dead SB (no small blind posted): 700 assuming full blinds, 600 literally.
    h = hand(PLO_100_200, 6, (A(2, "post", 200), A(3, "raise", 700)))
    assert position(h, cash_params(preflop_assume_full_blinds=True), after=1).max_raise_to == 700
    assert position(h, CASH, after=1).max_raise_to == 600


def test_tda_2024_54b_short_all_in_big_blind():
    # The BB is all-in for 100: the first player still calls 200 and may pot to 700.
    h = hand(PLO_100_200, 6, (A(1, "post", 100), A(2, "post", 100)), stacks={2: 100})
    p = position(h, cash_params(preflop_assume_full_blinds=True))
    assert (p.actor, p.to_call, p.current_bet, p.max_raise_to) == (3, 200, 200, 700)
    assert position(h, CASH).max_raise_to == 600


def test_tda_2024_54b_against_rrp_pl_5():
    # The three answers of D11: 700 at face value, 800 with the SB counted as a BB.
    h = hand(PLO_100_200, 6)
    assert position(h, cash_params(preflop_assume_full_blinds=True)).max_raise_to == 700
    assert position(h, cash_params(sb_counts_as_bb=True)).max_raise_to == 800


def test_barge_pl_1_button_repot():
    # PLO 100/200: folds to the CO, who makes it 500; the button may pot to 1,800.
    h = hand(PLO_100_200, 6, (A(3, "fold"), A(4, "fold"), A(5, "raise", 500)))
    p = position(h, CASH)
    assert (p.actor, p.max_raise_to) == (6, 1800)
    assert position(h, CASH, after=0).max_raise_to == 700


def test_barge_pl_1_stud():
    # Pot-limit stud: 8 antes of 100 and a 150 bring-in make 950; a raise can go to 1,250.
    g = Game("pot-limit", ante=100, bring_in=150)
    h = hand(g, 8, (A(5, "bring-in", 150),))
    p = position(h, CASH)
    assert (p.actor, p.pot, p.max_raise_to) == (6, 950, 1250)


def test_rrp_pl_4_rounding_unit():
    # Counted in $25 units, an $80 pot counts as $100: the pot after the call is rounded up.
    h = hand(Game("pot-limit", big_blind=500), 2, first_street=1, pot_before=8000)
    assert position(h, cash_params(rounding_unit=2500)).max_raise_to == 10000
    assert position(h, CASH).max_raise_to == 8000
    facing = hand(Game("pot-limit", big_blind=500), 2, (A(1, "bet", 3000),), first_street=1, pot_before=8000)
    # 3,000 to call makes the pot 14,000 after the call; rounded to 15,000, so up to 18,000.
    assert position(facing, cash_params(rounding_unit=2500)).max_raise_to == 18000


def test_pl_maximum_capped_at_stack():
    h = hand(PL_1_2, 4, stacks={3: 550})
    p = position(h, CASH)
    assert (p.min_raise_to, p.max_raise_to) == (400, 550)


def test_rrp_pl_1_over_pot_wager_is_refused_with_the_maximum():
    h = hand(Game("pot-limit", big_blind=500), 2, (A(1, "bet", 5000), A(2, "raise", 40000)),
             first_street=1, pot_before=10000)
    with pytest.raises(BettingError) as err:
        list(positions(h, CASH))
    assert (err.value.index, err.value.seat, err.value.field) == (1, 2, "actions")
    assert err.value.expected.endswith("..250")
