"""Where pokerkit 0.7.7 departs from card-room rules: our answer, and proof that pokerkit says otherwise.

Each test names the rule it checks. It asserts the card-room number from
``rulings.betting`` and then plays the same spot in pokerkit and asserts
that pokerkit gives a different one, so the departure stays documented and
checked (if a pokerkit upgrade fixes one, its test fails and says so).
Amounts are in cents: ``usd(20)`` is $20.
"""
from __future__ import annotations

import sys
from pathlib import Path

from pokerkit import FixedLimitTexasHoldem, Mode, NoLimitTexasHoldem

sys.path.insert(0, str(Path(__file__).parent))

from oracle import AUTOMATIONS, merge  # noqa: E402

from cash_params import CASH, cash_params  # noqa: E402
from rulings.betting import Action, Game, Hand, Player, position  # noqa: E402


def usd(dollars: int) -> int:
    return dollars * 100


def seats(*stacks: int | None) -> tuple[Player, ...]:
    """Players in postflop order in seats 1, 2, 3, ..."""
    return tuple(Player(seat, stack) for seat, stack in enumerate(stacks, start=1))


def A(seat: int, kind: str, to: int | None = None) -> Action:
    return Action(seat, kind, to)


def pk_limit(stacks: list[int], small: int, big: int):
    """pokerkit fixed-limit hold'em with blinds ``small``/``big`` and bets ``big``/``2*big``."""
    return FixedLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, (small, big), big, 2 * big,
                                              stacks, len(stacks), mode=Mode.CASH_GAME)


def pk_no_limit(stacks: list[int], blinds: tuple[int, ...], min_bet: int):
    return NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, blinds, min_bet, stacks,
                                           len(stacks), mode=Mode.CASH_GAME)


# -- half-bet rule -------------------------------------------------------------------------------

# $10/$20 fixed limit: everyone limps, the flop is a $20 round. C has $35 left after the limp.
HALF_BET_STACKS = (usd(500), usd(500), usd(55), usd(500))
HALF_BET_FLOP = (A(1, "bet", usd(20)), A(2, "call", usd(20)), A(3, "raise", usd(35)),
                 A(4, "call", usd(35)))


def half_bet_hand() -> Hand:
    # seats 1-4 are A (small blind), B (big blind), C and D; C is first in preflop
    preflop = (A(3, "call", usd(20)), A(4, "call", usd(20)), A(1, "call", usd(20)), A(2, "check"))
    return Hand(Game("fixed-limit", small_blind=usd(10), big_blind=usd(20),
                     bet_sizes=(usd(20), usd(20), usd(40), usd(40))),
                seats(*HALF_BET_STACKS), (preflop, HALF_BET_FLOP))


def test_rrp_br_6_tda_2024_47b_half_bet_all_in_reopens_for_the_bettor() -> None:
    ours = position(half_bet_hand(), cash_params(limit_reopen="half_bet"))
    assert ours.actor == 1 and ours.to_call == usd(15)
    assert ours.can_raise and ours.min_raise_to == usd(55)
    # under the full-bet parameter our answer is pokerkit's
    assert not position(half_bet_hand(), cash_params(limit_reopen="full_bet")).can_raise

    state = pk_limit(list(HALF_BET_STACKS), usd(10), usd(20))
    for _ in range(3):
        state.check_or_call()
    state.check_or_call()                                     # BB checks
    state.complete_bet_or_raise_to(usd(20))                   # A bets
    state.check_or_call()                                     # B calls
    state.complete_bet_or_raise_to(usd(35))                   # C all-in for 35
    state.check_or_call()                                     # D calls
    assert state.actor_index == 0 and state.checking_or_calling_amount == usd(15)
    assert state.min_completion_betting_or_raising_to_amount is None   # pokerkit: full-bet rule only


def test_rrp_br_6_complete_a_short_all_in_bet_to_a_full_bet() -> None:
    # $10/$20 fixed limit; A has $5 left on the flop and bets it; B may complete to $20.
    stacks = (usd(25), usd(500), usd(500))
    preflop = (A(3, "call", usd(20)), A(1, "call", usd(20)), A(2, "check"))
    hand = Hand(Game("fixed-limit", small_blind=usd(10), big_blind=usd(20),
                     bet_sizes=(usd(20), usd(20), usd(40), usd(40))),
                seats(*stacks), (preflop, (A(1, "bet", usd(5)),)))
    ours = position(hand, CASH)
    assert ours.actor == 2 and ours.to_call == usd(5)
    assert ours.can_raise and ours.min_raise_to == usd(20) and ours.max_raise_to == usd(20)

    state = pk_limit(list(stacks), usd(10), usd(20))
    state.check_or_call()
    state.check_or_call()
    state.check_or_call()
    state.complete_bet_or_raise_to(usd(5))
    assert state.actor_index == 1
    assert state.min_completion_betting_or_raising_to_amount == usd(25)   # no completing in pokerkit


# -- short all-in opening bet ------------------------------------------------------------------

def test_rrp_nl_3_checker_may_not_raise_a_short_all_in_opening_bet() -> None:
    # NL $10/$20, three-handed, everyone limps; on the flop A checks, B bets his last $15, C calls.
    stacks = (usd(1000), usd(35), usd(1000))
    preflop = (A(3, "call", usd(20)), A(1, "call", usd(20)), A(2, "check"))
    flop = (A(1, "check"), A(2, "bet", usd(15)), A(3, "call", usd(15)))
    hand = Hand(Game("no-limit", small_blind=usd(10), big_blind=usd(20)), seats(*stacks),
                (preflop, flop))
    ours = position(hand, CASH)
    assert ours.actor == 1 and ours.to_call == usd(15)
    assert not ours.can_raise

    state = pk_no_limit(list(stacks), (usd(10), usd(20)), usd(20))
    state.check_or_call()
    state.check_or_call()
    state.check_or_call()
    state.check_or_call()   # A checks the flop
    state.complete_bet_or_raise_to(usd(15))
    state.check_or_call()
    assert state.actor_index == 0
    assert state.min_completion_betting_or_raising_to_amount == usd(35)   # pokerkit reopens


def test_tda_2024_47a_limper_may_not_raise_a_short_all_in_over_the_blind() -> None:
    # Found by the oracle's generator: the preflop form of the same departure. NL $10/$20,
    # four-handed: UTG limps, the button moves in for $25 (5 over the blind), both blinds call.
    stacks = (usd(1000), usd(1000), usd(1000), usd(25))
    preflop = (A(3, "call", usd(20)), A(4, "raise", usd(25)), A(1, "call", usd(25)),
               A(2, "call", usd(25)))
    hand = Hand(Game("no-limit", small_blind=usd(10), big_blind=usd(20)), seats(*stacks),
                (preflop,))
    ours = position(hand, CASH)
    assert ours.actor == 3 and ours.to_call == usd(5)
    assert not ours.can_raise

    state = pk_no_limit(list(stacks), (usd(10), usd(20)), usd(20))
    state.check_or_call()
    state.complete_bet_or_raise_to(usd(25))
    state.check_or_call()
    state.check_or_call()
    assert state.actor_index == 2
    assert state.min_completion_betting_or_raising_to_amount == usd(45)   # pokerkit reopens


def test_rrp_nl_5_tda_2024_47a_short_all_ins_that_add_up_reopen_for_the_bettor() -> None:
    # Found by the oracle's generator. NL $50/$100, five-handed, all limp. On the flop A bets
    # $100; B, C and D move in for $150, $210 and $230 (each short); E calls $230. A now faces
    # $130, more than the $100 bet, so he may raise (to $330 at least). pokerkit restarts its
    # count of short all-ins once two of them add up to a raise, sees only D's $20 after that,
    # and refuses.
    stacks = (usd(10000), usd(250), usd(310), usd(330), usd(10000))
    preflop = (A(3, "call", usd(100)), A(4, "call", usd(100)), A(5, "call", usd(100)),
               A(1, "call", usd(100)), A(2, "check"))
    flop = (A(1, "bet", usd(100)), A(2, "raise", usd(150)), A(3, "raise", usd(210)),
            A(4, "raise", usd(230)), A(5, "call", usd(230)))
    hand = Hand(Game("no-limit", small_blind=usd(50), big_blind=usd(100)), seats(*stacks),
                (preflop, flop))
    ours = position(hand, CASH)
    assert ours.actor == 1 and ours.to_call == usd(130)
    assert ours.can_raise and ours.min_raise_to == usd(330)

    state = pk_no_limit(list(stacks), (usd(50), usd(100)), usd(100))
    for _ in range(5):
        state.check_or_call()
    for to in (100, 150, 210, 230):
        state.complete_bet_or_raise_to(usd(to))
    state.check_or_call()
    assert state.actor_index == 0 and state.checking_or_calling_amount == usd(130)
    assert state.min_completion_betting_or_raising_to_amount is None


# -- short all-in big blind --------------------------------------------------------------------

def test_rrp_nl_2_short_all_in_big_blind_is_called_for_the_full_blind() -> None:
    # NL $5/$10, the big blind has only $7 and posts it all; UTG calls $10 or raises to $20:
    # the big blind is the opening bet, and a short one does not lower it (RRP-NL-2, RRP-BB-8).
    stacks = (usd(1000), usd(7), usd(1000), usd(1000))
    hand = Hand(Game("no-limit", small_blind=usd(5), big_blind=usd(10)), seats(*stacks), ((),))
    ours = position(hand, CASH)
    assert ours.actor == 3 and ours.to_call == usd(10) and ours.min_raise_to == usd(20)

    state = pk_no_limit(list(stacks), (usd(5), usd(10)), usd(10))
    assert state.actor_index == 2
    assert state.checking_or_calling_amount == usd(7)
    assert state.min_completion_betting_or_raising_to_amount == usd(17)


# -- heads-up order -----------------------------------------------------------------------------

def test_tda_2024_34_heads_up_button_acts_first_preflop_even_with_equal_blinds() -> None:
    # Found by the oracle's generator. NL $1/$1 heads-up: seat 2 has the button and the small
    # blind, and acts first preflop. pokerkit tells the blinds apart by size only, so with equal
    # blinds it takes the button for the big blind and lets the other player act first.
    stacks = (usd(100), usd(100))
    hand = Hand(Game("no-limit", small_blind=usd(1), big_blind=usd(1)), seats(*stacks), ((),))
    assert position(hand, CASH).actor == 2

    state = pk_no_limit(list(stacks), (usd(1), usd(1)), usd(1))
    assert state.actor_index == 0


# -- limit cap -----------------------------------------------------------------------------------

def test_rrp_br_3_a_bet_and_three_raises_caps_the_round() -> None:
    # $10/$20 fixed limit, five-handed: the big blind is the bet; UTG, the next two raise: capped.
    stacks = (usd(1000),) * 5
    preflop = (A(3, "raise", usd(40)), A(4, "raise", usd(60)), A(5, "raise", usd(80)))
    hand = Hand(Game("fixed-limit", small_blind=usd(10), big_blind=usd(20),
                     bet_sizes=(usd(20), usd(20), usd(40), usd(40))), seats(*stacks), (preflop,))
    ours = position(hand, CASH)
    assert ours.actor == 1 and ours.to_call == usd(70)
    assert not ours.can_raise

    state = pk_limit(list(stacks), usd(10), usd(20))
    for to in (40, 60, 80):
        state.complete_bet_or_raise_to(usd(to))
    assert state.actor_index == 0
    assert state.min_completion_betting_or_raising_to_amount == usd(100)  # blind not counted


# -- straddle increments -------------------------------------------------------------------------

def test_rrp_nl_2_str_straddle_sets_the_raise_increment() -> None:
    # NL $1/$2 with a $4 straddle: the first player in raises to at least $8.
    stacks = (usd(300),) * 5
    hand = Hand(Game("no-limit", small_blind=usd(1), big_blind=usd(2)), seats(*stacks), ((),),
                straddles=(usd(4),))
    ours = position(hand, CASH)
    assert ours.actor == 4 and ours.to_call == usd(4) and ours.min_raise_to == usd(8)

    state = pk_no_limit(list(stacks), (usd(1), usd(2), usd(4)), usd(2))
    assert state.actor_index == 3
    assert state.min_completion_betting_or_raising_to_amount == usd(6)


# -- fold-win pots -------------------------------------------------------------------------------

def test_tda_2024_15b_fold_win_pot_holds_the_called_part_of_the_winners_bet() -> None:
    # NL $1/$2 heads-up on the flop of a $4 pot: A bets $3, B raises to $9, A folds.
    # The pot is 4 + 3 + 3 = $10 (B's uncalled $6 goes back to him).
    stacks = (usd(100), usd(100))
    preflop = (A(2, "call", usd(2)), A(1, "check"))
    flop = (A(1, "bet", usd(3)), A(2, "raise", usd(9)), A(1, "fold"))
    hand = Hand(Game("no-limit", small_blind=usd(1), big_blind=usd(2)), seats(*stacks),
                (preflop, flop))
    ours = position(hand, CASH)
    assert [(p.amount, p.eligible) for p in ours.side_pots] == [(usd(10), (2,))]

    state = pk_no_limit(list(stacks), (usd(1), usd(2)), usd(2))
    state.check_or_call()
    state.check_or_call()
    state.complete_bet_or_raise_to(usd(3))
    state.complete_bet_or_raise_to(usd(9))
    state.fold()
    pk_pots = merge([(p.amount, frozenset({1 if i == 0 else 2 for i in p.player_indices}))
                     for p in state.pots])
    assert pk_pots == [(usd(7), frozenset({2}))]   # the winner's called $3 is missing

