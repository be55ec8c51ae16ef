"""Side pots of a hand told from a later street: the money from before (``pot_before``) is
contested by every live seat, one all-in on an earlier street included. pokerkit, playing the
whole hand, is the oracle; ``round_facts.pots_now`` reads it the same way."""
from pokerkit import Automation, NoLimitTexasHoldem

from rulings.betting import Action, Game, Hand, Params, Player, position
from rulings.betting.arithmetic import _walk
from rulings.facts.round import pots_now

PARAMS = Params(False, False, 0, "half_bet", 3, 4, "before_cap", False, True, "big_blind_first")
AUTOMATIONS = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
               Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
               Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
               Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)


def test_money_from_earlier_streets_is_a_pot_for_every_live_seat():
    # 5/10 no-limit: the small blind (100 chips) is all-in preflop and called twice; on the flop
    # the big blind bets 100 and the button calls.
    state = NoLimitTexasHoldem.create_state(AUTOMATIONS, False, 0, (5, 10), 10, (100, 1000, 1000), 3)
    state.check_or_call()
    state.complete_bet_or_raise_to(100)
    state.check_or_call()
    state.check_or_call()
    state.complete_bet_or_raise_to(100)
    state.check_or_call()
    theirs = [(pot.amount, tuple(i + 1 for i in pot.player_indices)) for pot in state.pots]
    assert theirs == [(300, (1, 2, 3)), (200, (2, 3))]
    # The same hand told from the flop: seats 1 (the all-in small blind), 2 and 3, 300 in the middle.
    hand = Hand(Game("no-limit", small_blind=5, big_blind=10), (Player(1, 0), Player(2, 900), Player(3, 900)),
                ((Action(2, "bet", 100), Action(3, "call")),), first_street=1, pot_before=300)
    ours = [(pot.amount, pot.eligible) for pot in position(hand, PARAMS).side_pots]
    assert ours == theirs
    for *_, table, _move, _quote in _walk(hand, PARAMS):
        pass
    assert [(pot.amount, pot.eligible) for pot in pots_now(table)] == theirs
