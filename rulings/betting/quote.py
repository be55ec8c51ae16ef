"""The raise window of one seat: what it must call, the smallest and largest raise-to, or why it may not raise."""
from __future__ import annotations

from rulings.betting.limits import minimum_bet, pot_limit_max, street_bet
from rulings.betting.model import Money
from rulings.betting.table import Table
from rulings.money import show

# What one seat may do now: (to_call, min_raise_to, max_raise_to, can_raise, reason), the reason
# being why it may not raise. A plain tuple: one is made at every action, and a named tuple's
# constructor is a Python call that costs more than the rest of a fold's quote.
Quote = tuple[Money, "Money | None", "Money | None", bool, "str | None"]


def quote_is_quiet(table: Table) -> bool:
    """Whether ``quote_for`` cannot raise BettingError: a big-bet game (no bet sizes by street) with a
    known ``limit_reopen``."""
    return table.plain_full


def quote_for(table: Table, seat: int) -> Quote:
    """To call, and the raise window with the reason when there is none, for one seat.

    Made at every action, so the usual case is worked out here: a seat that
    can act while another can too faces the current bet (``Table.to_call``)
    and is asked ``refusal``'s remaining questions in ``refusal``'s order;
    only a seat refused goes through ``refusal`` for the reason.
    """
    stack = table.behind[seat]
    if table.over or stack == 0 or seat in table.folded:
        return (table.to_call(seat), None, None, False, refusal(table, seat))
    return quote_due(table, seat, stack)


def quote_due(table: Table, seat: int, stack: Money | None) -> Quote:
    """``quote_for`` a seat that can act (live, with chips; the betting not over), ``stack`` its chips
    behind: the seat due, as a replay asks at every action."""
    if table.able <= 1:
        return (table.to_call(seat), None, None, False, refusal(table, seat))
    bet = table.current_bet
    committed = table.committed[seat]
    owed = bet - committed
    if owed < 0:
        owed = 0
    to_call = owed if stack is None or owed <= stack else stack
    # Table.others_can_call_a_raise, written out (it would be one more call at every action).
    behind, committed_of = table.behind, table.committed
    for other in table.live_seats:
        if other != seat:
            reach = behind[other]
            if reach is None or committed_of[other] + reach > bet:
                break
    else:
        return (to_call, None, None, False, refusal(table, seat))
    if stack is not None and committed + stack <= bet:
        return (to_call, None, None, False, only_a_call(seat))    # refusal's reason, its earlier ones ruled out
    if table.plain_full:
        # A big-bet game: the seat faces the current bet, a raise is full at full_size() or more and no
        # cap applies, so reopened_for and capped() come to this.
        last, least = table.last_full_raise, table.least_bet
        assert least is not None    # plain_full is a big-bet game's, and only fixed limit has no least bet (start)
        full = last if last >= least else least
        acted = table.acted
        if seat in acted and bet - acted[seat] < full:
            return (to_call, None, None, False, refusal(table, seat))
        low = bet + full
        high = pot_limit_to(table, bet, owed) if table.pot_limit else None
    else:
        if (seat in table.acted and not table.reopened_for(seat)) or (not table.big_bet and table.capped()):
            return (to_call, None, None, False, refusal(table, seat))
        if table.big_bet:
            last, least = table.last_full_raise, table.least_bet
            low = bet + (last if least is not None and last >= least else table.full_size())   # full_size()
            high = pot_limit_to(table, bet, owed) if table.pot_limit else None
        elif (game := table.hand.game).structure == "fixed-limit":
            low = high = table.full_level + street_bet(game, table.street + table.doubled)
            if table.pair_option and not table.doubled:    # the small bet or the big bet, nothing between
                high = table.full_level + street_bet(game, table.street + 1)
        else:
            low = table.full_level + table.full_size()
            high = table.full_level + street_bet(game, table.street)
    if high is not None and high < low:
        high = low      # a pot smaller than the minimum bet still allows the minimum
    if stack is not None:
        # Short of the minimum, the seat may still raise all-in (table stakes).
        all_in = committed + stack
        if all_in < low:
            low = all_in
        if high is None or all_in < high:
            high = all_in
    return (to_call, low, high, True, None)


def only_a_call(seat: int) -> str:
    """Why a seat whose chips reach no further than the current bet may not raise."""
    return f"seat {seat} has only enough chips to call"


def pot_limit_to(table: Table, bet: Money, owed: Money) -> Money:
    """The pot-limit maximum raise-to (``table_pot_limit_max``) for a seat that owes ``owed`` to call
    ``bet``, the current bet; written out after the first street, where no blind rule applies."""
    if table.street or table.blinds is None:
        size = table.middle + table.in_front + owed
        rounding = table.params.rounding_unit
        if rounding > 0:
            size = -(-size // rounding) * rounding
        return bet + size
    return table_pot_limit_max(table, owed)


def refusal(table: Table, seat: int) -> str | None:
    """Why the seat may not raise now, or None when it may."""
    if table.over:
        return over_reason(table)
    if seat in table.folded:
        return f"seat {seat} has folded"
    stack = table.behind[seat]
    if stack == 0:
        return "no chips behind"
    # From here the seat can act, so another can exactly when it is not the only one, and then
    # the seat faces the current bet (Table.facing).
    if table.able <= 1:
        return "every other player is all-in"
    if not table.others_can_call_a_raise(seat):
        return "no other player has chips left to call a raise"
    if stack is not None and table.committed[seat] + stack <= table.current_bet:
        return only_a_call(seat)
    if seat in table.acted and not table.reopened_for(seat):
        if table.facing(seat) <= table.acted[seat]:
            return f"seat {seat} has acted and nothing has been bet since"
        if table.short_all_in is not None:
            return (f"the all-in to {in_units(table.short_all_in[1])} was less than a full raise and the "
                    f"betting was not reopened for seat {seat}")
        return f"the betting was not reopened for seat {seat}"
    if table.capped():
        raises = table.cap - 1
        return f"the betting is capped at a bet and {raises} raises"
    return None


def table_pot_limit_max(table: Table, call: Money) -> Money:
    """PL-FORMULA with the preflop house parameters (TDA-2024-54B, RRP-PL-5), for a seat that must
    put in ``call`` (not capped at its stack) to call the current bet."""
    game, params, blinds = table.hand.game, table.params, table.blinds
    pot = table.middle + table.in_front
    if table.street == 0 and blinds is not None:
        small = table.committed[blinds.sb_seat] if blinds.sb_seat is not None else 0
        if params.preflop_assume_full_blinds:
            # Count the blinds at face value: a dead or short blind does not shrink the pot.
            pot += max(game.small_blind + game.big_blind - blinds.sb_post - blinds.bb_post, 0)
            small = max(small, game.small_blind)
        if params.sb_counts_as_bb and not table.bb_acted and small > 0:
            # Only the part of a BB the small blind has not yet put in is added.
            pot += max(game.big_blind - small, 0)
    return pot_limit_max(table.current_bet, pot, call, params.rounding_unit)


def opening(table: Table) -> Quote:
    """The bet window at a street's opening when no seat is named."""
    game = table.hand.game
    low = minimum_bet(game, table.street)
    if game.structure == "pot-limit":
        pot = table.middle + table.in_front
        high = max(pot_limit_max(0, pot, 0, table.params.rounding_unit), low)
    elif game.structure == "no-limit":
        high = None
    else:
        high = street_bet(game, table.street + table.pair_option)   # an open pair: up to the big bet
    return (0, low, high, True, None)


def over_reason(table: Table) -> str:
    live = table.live()
    if len(live) <= 1:
        return f"the hand is over: only seat {live[0]} is left" if live else "the hand is over"
    if sum(table.can_act(seat) for seat in live) <= 1:
        return "the betting is over: every player but one is all-in"
    return "the last betting round is complete"


def in_units(amount: int) -> str:
    """An amount in a message, in the game's units (chips or dollars), not in hundredths."""
    return show(amount, "tournament")
