"""Fixed and spread limit: bet sizes, completing, the half-bet rule and the cap (sections 5, 7, 12)."""
import pytest

from cash_params import CASH, cash_params
from rulings.betting import Action, BettingError, Game, Hand, Player, position, positions

A = Action


def hand(game: Game, seats: int, *streets, stacks: dict | None = None, **kw) -> Hand:
    """Seats 1..n in postflop order (1 is the small blind, n the button when n > 2)."""
    stacks = stacks or {}
    return Hand(game, tuple(Player(s, stacks.get(s)) for s in range(1, seats + 1)),
                tuple(streets) or ((),), **kw)


L_20_40 = Game("fixed-limit", small_blind=1000, big_blind=2000, bet_sizes=(2000, 2000, 4000, 4000))
FLOP = {"first_street": 1, "pot_before": 6000}
HALF, FULL = cash_params(limit_reopen="half_bet"), cash_params(limit_reopen="full_bet")


def test_bet_size_by_street():
    assert position(hand(L_20_40, 3), CASH).min_raise_to == 4000          # preflop: raise the BB to 40
    assert position(hand(L_20_40, 3, **FLOP), CASH).max_raise_to == 2000  # flop: small bet
    turn = hand(L_20_40, 3, first_street=2, pot_before=6000)
    p = position(turn, CASH)
    assert (p.min_raise_to, p.max_raise_to) == (4000, 4000)         # turn: big bet, min == max
    with pytest.raises(BettingError) as err:
        list(positions(hand(L_20_40, 3, (A(1, "bet", 2000),), first_street=2, pot_before=6000), CASH))
    assert err.value.expected == "fold, check or bet to 40"


def test_wiki_cap_1():
    # A $20, B $40, C $60, A $80: capped; B owes $40 (two bets), C owes $20 (one).
    h = hand(L_20_40, 3, (A(1, "bet", 2000), A(2, "raise", 4000), A(3, "raise", 6000), A(1, "raise", 8000)),
             **FLOP)
    b = position(h, CASH)
    assert (b.actor, b.to_call, b.can_raise, b.min_raise_to) == (2, 4000, False, None)
    assert b.reason == "the betting is capped at a bet and 3 raises"
    assert position(h, CASH, seat=3).to_call == 2000


def test_rrp_br_3_two_round_games_allow_a_bet_and_four_raises():
    g = Game("fixed-limit", small_blind=1000, big_blind=2000, bet_sizes=(2000, 4000), betting_rounds=2)
    acts = (A(1, "bet", 4000), A(2, "raise", 8000), A(3, "raise", 12000), A(1, "raise", 16000))
    h = hand(g, 3, acts, first_street=1, pot_before=6000)
    p = position(h, CASH)
    assert (p.can_raise, p.min_raise_to) == (True, 20000)
    capped = position(hand(g, 3, acts + (A(2, "raise", 20000),), first_street=1, pot_before=6000), CASH)
    assert capped.reason == "the betting is capped at a bet and 4 raises"


def test_rrp_br_6_half_bet_all_in_is_a_bet():
    # A $15 all-in on a $20 round counts as a bet: the next player raises to $35.
    h = hand(L_20_40, 3, (A(1, "bet", 1500),), stacks={1: 1500}, **FLOP)
    assert (position(h, HALF).min_raise_to, position(h, HALF).max_raise_to) == (3500, 3500)
    # Under the full-bet rule it is not a bet: the next player may call it or complete to $20.
    assert (position(h, FULL).min_raise_to, position(h, FULL).to_call) == (2000, 1500)


def test_barge_lim_1():
    g = Game("fixed-limit", small_blind=200, big_blind=400, bet_sizes=(400, 400, 800, 800))
    small = hand(g, 3, (A(1, "bet", 100),), stacks={1: 100}, first_street=1, pot_before=1200)
    p = position(small, CASH)
    assert (p.to_call, p.min_raise_to, p.max_raise_to) == (100, 400, 400)
    half = hand(g, 3, (A(1, "bet", 300),), stacks={1: 300}, first_street=1, pot_before=1200)
    assert position(half, CASH).min_raise_to == 700


def test_wiki_reopen_1():
    # Opener $20, all-in to $25, a call: the opener owes $5 and may not re-raise under either rule.
    acts = (A(1, "bet", 2000), A(2, "raise", 2500), A(3, "call"))
    h = hand(L_20_40, 3, acts, stacks={2: 2500}, **FLOP)
    for params in (HALF, FULL):
        p = position(h, params)
        assert (p.actor, p.to_call, p.can_raise) == (1, 500, False)
    # An all-in to $30 reopens it under the half-bet rule only.
    h30 = hand(L_20_40, 3, (A(1, "bet", 2000), A(2, "raise", 3000), A(3, "call")), stacks={2: 3000}, **FLOP)
    assert (position(h30, HALF).can_raise, position(h30, HALF).min_raise_to) == (True, 5000)
    assert position(h30, FULL).can_raise is False
    # The third player, who had not acted, could complete the $25 to $40.
    assert position(h, CASH, after=2).min_raise_to == 4000


def test_wiki_complete_blind():
    # $5 game with $1/$2 blinds: call 2 or complete to 5; then the next raise is to 10.
    g = Game("fixed-limit", small_blind=100, big_blind=200, bet_sizes=(500, 500, 1000, 1000))
    h = hand(g, 4, (A(3, "complete", 500),))
    first = position(h, CASH, after=0)
    assert (first.to_call, first.min_raise_to, first.max_raise_to) == (200, 500, 500)
    assert position(h, CASH).min_raise_to == 1000


def test_wiki_bringin_1():
    # Stud, $5 first round with a $2 bring-in: call 2 or complete to 5; once at 5 the raise is to 10.
    g = Game("fixed-limit", ante=50, bring_in=200, bet_sizes=(500, 500, 1000, 1000, 1000), betting_rounds=5)
    h = hand(g, 5, (A(3, "bring-in", 200), A(4, "complete", 500)))
    p = position(h, CASH, after=1)
    assert (p.actor, p.to_call, p.min_raise_to) == (4, 200, 500)
    assert position(h, CASH).min_raise_to == 1000
    # The completion is the bet and the bring-in is not: four more bets would cap it.
    raises = (A(5, "raise", 1000), A(1, "raise", 1500), A(2, "raise", 2000))
    capped = position(hand(g, 5, (A(3, "bring-in", 200), A(4, "complete", 500)) + raises), CASH)
    assert capped.reason == "the betting is capped at a bet and 3 raises"


def test_stud_later_street_opens_with_whoever_the_actions_name():
    g = Game("fixed-limit", bring_in=200, bet_sizes=(500, 500, 1000, 1000, 1000), betting_rounds=5)
    calls = (A(1, "bring-in", 200), A(2, "call"), A(3, "call"))
    h = hand(g, 3, calls, (A(2, "check"), A(3, "bet", 500)))
    assert position(h, CASH, after=3).actor == 2
    p = position(h, CASH)
    assert (p.actor, p.to_call, p.min_raise_to) == (1, 500, 1000)


CAPPED_THEN_FOLD = (A(1, "bet", 2000), A(2, "raise", 4000), A(3, "raise", 6000), A(1, "raise", 8000),
                    A(2, "fold"))
BET_RAISE_FOLD = (A(1, "bet", 2000), A(2, "raise", 4000), A(3, "fold"))


def test_rrp_br_4_heads_up_before_the_cap_lifts_it():
    p = position(hand(L_20_40, 3, BET_RAISE_FOLD + (A(1, "raise", 6000), A(2, "raise", 8000)), **FLOP), CASH)
    assert (p.actor, p.can_raise, p.min_raise_to) == (1, True, 10000)


def test_rrp_br_4_once_capped_stays_capped():
    p = position(hand(L_20_40, 3, CAPPED_THEN_FOLD, **FLOP), CASH)
    assert (p.actor, p.to_call, p.can_raise) == (3, 2000, False)


def test_wiki_cap_hu_2_only_when_heads_up_at_round_start():
    at_start = cash_params(heads_up_exception="at_round_start")
    mid = hand(L_20_40, 3, BET_RAISE_FOLD + (A(1, "raise", 6000), A(2, "raise", 8000)), **FLOP)
    assert position(mid, at_start).can_raise is False
    two = hand(L_20_40, 2, (A(1, "bet", 2000), A(2, "raise", 4000), A(1, "raise", 6000),
                            A(2, "raise", 8000)), **FLOP)
    assert position(two, at_start).can_raise is True
    assert position(two, cash_params(heads_up_exception="none")).can_raise is False


def test_wiki_cap_hu_1_before_the_third_bet():
    before_third = cash_params(heads_up_exception="before_third_bet")
    early = hand(L_20_40, 3, BET_RAISE_FOLD + (A(1, "raise", 6000), A(2, "raise", 8000)), **FLOP)
    assert position(early, before_third).can_raise is True
    late = hand(L_20_40, 3, (A(1, "bet", 2000), A(2, "raise", 4000), A(3, "raise", 6000), A(1, "fold"),
                             A(2, "raise", 8000)), **FLOP)
    # Heads-up only after the third bet: the cap holds, so seat 3 may only call the fourth.
    p = position(late, before_third)
    assert (p.actor, p.can_raise) == (3, False)
    assert position(late, CASH).can_raise is True     # the default (before the cap) lifts it here


def test_tda_2024_48_tournament_cap_holds_heads_up():
    """The tournament rule is the parameter's tournament default (rulebooks/standard/raise-caps.yaml)."""
    g = Game("fixed-limit", setting="tournament", small_blind=1000, big_blind=2000,
             bet_sizes=(2000, 2000, 4000, 4000))
    two = hand(g, 2, (A(1, "bet", 2000), A(2, "raise", 4000), A(1, "raise", 6000), A(2, "raise", 8000)),
               **FLOP)
    assert position(two, cash_params(heads_up_exception="none")).can_raise is False
    assert position(two, cash_params(heads_up_exception="before_cap")).can_raise is True


def test_rrp_br_3_all_in_players_do_not_count_toward_three():
    # Seat 4 caps it all-in: three players still have chips, so the cap holds for seat 1.
    acts = (A(1, "bet", 2000), A(2, "raise", 4000), A(3, "raise", 6000), A(4, "raise", 8000))
    h = hand(L_20_40, 4, acts, stacks={4: 8000}, **FLOP)
    assert position(h, CASH).can_raise is False
    # Seat 3 calls all-in for $40: seats 1 and 2 are heads-up before the cap, so it is lifted
    # unless the all-in player is counted.
    short = hand(L_20_40, 3, (A(1, "bet", 2000), A(2, "raise", 4000), A(3, "call")), stacks={3: 4000}, **FLOP)
    assert position(short, CASH).actor == 1
    counted = cash_params(count_all_in_players=True)
    more = short.streets[0] + (A(1, "raise", 6000), A(2, "raise", 8000))
    assert position(Hand(L_20_40, short.players, (more,), **FLOP), CASH).can_raise is True
    assert position(Hand(L_20_40, short.players, (more,), **FLOP), counted).can_raise is False


def test_spread_limit_bets_and_raises():
    # A $2-$6 spread: bet 2..6; a raise is at least the last bet or raise and at most 6.
    g = Game("spread-limit", small_blind=100, big_blind=200, spread_min=200, bet_sizes=(600,) * 4)
    opening = position(hand(g, 3, first_street=1, pot_before=600), CASH)
    assert (opening.min_raise_to, opening.max_raise_to) == (200, 600)
    after_bet = position(hand(g, 3, (A(1, "bet", 400),), first_street=1, pot_before=600), CASH)
    assert (after_bet.min_raise_to, after_bet.max_raise_to) == (800, 1000)
    after_raise = position(hand(g, 3, (A(1, "bet", 400), A(2, "raise", 1000)), first_street=1, pot_before=600), CASH)
    assert (after_raise.min_raise_to, after_raise.max_raise_to) == (1600, 1600)


def test_limit_raise_must_be_exact():
    h = hand(L_20_40, 3, (A(1, "bet", 2000), A(2, "raise", 5000)), **FLOP)
    with pytest.raises(BettingError) as err:
        list(positions(h, CASH))
    assert (err.value.index, err.value.expected) == (1, "fold, call to 20 or raise to 40")


# TDA-2024-RP10 (the custom its tournaments do not follow): in stud, an open pair showing on fourth street lets
# any player bet the big bet instead of the small one; once the big bet is made every raise is a big bet.
STUD_5_10 = Game("fixed-limit", ante=100, bring_in=200, bet_sizes=(500, 500, 1000, 1000, 1000), betting_rounds=5)
FOURTH = {"first_street": 1, "pot_before": 2400, "open_pair": (1,)}


def test_an_open_pair_on_fourth_street_allows_the_small_or_the_big_bet():
    p = position(hand(STUD_5_10, 4, **FOURTH), CASH)
    assert (p.min_raise_to, p.max_raise_to) == (500, 1000)
    # the big bet made: the raise is a big bet, to $20
    big = position(hand(STUD_5_10, 4, (A(1, "bet", 1000),), **FOURTH), CASH)
    assert (big.to_call, big.min_raise_to, big.max_raise_to) == (1000, 2000, 2000)
    # the small bet made: a raise of the small bet or of the big bet ($10 or $15), until the big bet is made
    small = position(hand(STUD_5_10, 4, (A(1, "bet", 500),), **FOURTH), CASH)
    assert (small.min_raise_to, small.max_raise_to) == (1000, 1500)
    after = position(hand(STUD_5_10, 4, (A(1, "bet", 500), A(2, "raise", 1500)), **FOURTH), CASH)
    assert (after.to_call, after.min_raise_to, after.max_raise_to) == (1500, 2500, 2500)


def test_the_open_pair_option_has_two_amounts_and_needs_the_pair_and_the_house():
    with pytest.raises(BettingError) as err:     # $7 is neither bet
        list(positions(hand(STUD_5_10, 4, (A(1, "bet", 700),), **FOURTH), CASH))
    assert err.value.expected == "fold, check or bet to 5 or 10"
    # no pair showing: the small bet only, and $10 is refused
    plain = {**FOURTH, "open_pair": ()}
    assert position(hand(STUD_5_10, 4, **plain), CASH).max_raise_to == 500
    with pytest.raises(BettingError):
        list(positions(hand(STUD_5_10, 4, (A(1, "bet", 1000),), **plain), CASH))
    # the tournament rule (no doubling): the pair changes nothing
    no = cash_params(open_pair_big_bet=False)
    assert (position(hand(STUD_5_10, 4, **FOURTH), no).max_raise_to) == 500
    # fifth street is a big-bet round anyway: an open pair listed for it gives nothing more
    fifth = position(hand(STUD_5_10, 4, first_street=2, pot_before=4400, open_pair=(2,)), CASH)
    assert (fifth.min_raise_to, fifth.max_raise_to) == (1000, 1000)
