"""Bet-size arithmetic of each structure: minimum bet, pot-limit maximum, limit step, cap, reopening."""
from __future__ import annotations

from rulings.betting.model import BettingError, Game, Money, Params

BIG_BET = ("no-limit", "pot-limit")
LIMIT = ("fixed-limit", "spread-limit")
REOPEN = ("half_bet", "full_bet")   # the values of limit_reopen


def round_up(amount: Money, unit: Money) -> Money:
    """``amount`` rounded up to a multiple of ``unit`` (no rounding when ``unit`` is 0).

    RRP-PL-4: counted in $25 units, an $80 pot counts as $100.

    >>> round_up(8000, 2500)
    10000
    >>> round_up(8000, 0)
    8000
    """
    if unit <= 0:
        return amount
    return -(-amount // unit) * unit


def pot_limit_max(current_bet: Money, pot: Money, to_call: Money, rounding_unit: Money = 0) -> Money:
    """The largest pot-limit raise-to: the high bet plus the pot as it stands after the actor calls.

    ``pot`` is everything in the middle and in front of every player (the
    actor's own chips included) and ``to_call`` what the actor needs to
    call (PL-FORMULA). With a ``rounding_unit`` (RRP-PL-4) the pot after the
    call, which is the size of the raise, is rounded up to the unit.
    RRP-NLPL-INTRO: a $100 pot and a $50 bet allow a raise to $250.

    >>> pot_limit_max(50, 150, 50)
    250
    >>> pot_limit_max(0, 80, 0, rounding_unit=25)
    100
    """
    size = pot + to_call
    if rounding_unit > 0:
        size = -(-size // rounding_unit) * rounding_unit    # round_up, written out: one call fewer per action
    return current_bet + size


def street_bet(game: Game, street: int) -> Money:
    """The limit bet for a street: ``game.bet_sizes[street]``, or the small bet then the big bet.

    Without ``bet_sizes`` the first half of the rounds (rounded down) use the
    big blind and the rest twice the big blind, which is the usual split
    (hold'em 2+2, stud 2+3, single draw 1+1).

    >>> street_bet(Game("fixed-limit", big_blind=2000, bet_sizes=(2000, 2000, 4000, 4000)), 2)
    4000
    >>> street_bet(Game("fixed-limit", big_blind=400, betting_rounds=5), 2)
    800
    """
    if game.bet_sizes:
        if street >= len(game.bet_sizes):
            raise BettingError(f"the game gives no bet size for street {street}", field="game",
                               expected=f"bet_sizes for {street + 1} or more streets")
        return game.bet_sizes[street]
    if game.big_blind <= 0:
        raise BettingError("a limit game needs bet_sizes or a big blind", field="game",
                           expected="bet_sizes")
    return game.big_blind if street < game.betting_rounds // 2 else 2 * game.big_blind


def minimum_bet(game: Game, street: int) -> Money:
    """The smallest opening bet of a big-bet or spread-limit street (RRP-NL-2: the big blind).

    >>> minimum_bet(Game("no-limit", small_blind=100, big_blind=200), 3)
    200
    >>> minimum_bet(Game("spread-limit", big_blind=100, spread_min=200, bet_sizes=(600,) * 4), 0)
    200
    """
    if game.structure == "spread-limit" and game.spread_min > 0:
        return game.spread_min
    if game.structure == "fixed-limit":
        return street_bet(game, street)
    for amount in (game.big_blind, game.bring_in, game.betting_unit):
        if amount > 0:
            return amount
    return 1


def raise_cap(game: Game, params: Params) -> int:
    """How many bets (the bet plus its raises) a limit round allows (RRP-BR-3).

    >>> params = Params(False, False, 0, "half_bet", 3, 4, "before_cap", False, True, "big_blind_first")
    >>> raise_cap(Game("fixed-limit"), params)
    4
    >>> raise_cap(Game("fixed-limit", betting_rounds=2), params)
    5
    """
    raises = params.two_round_max_raises if game.betting_rounds == 2 else params.max_raises
    return 1 + raises


def is_full(increment: Money, full: Money, game: Game, params: Params) -> bool:
    """Whether a raise of ``increment`` over the last counted level counts as a full bet or raise.

    In big-bet games only a full increment counts (TDA-2024-47A). In limit
    games under the half-bet rule half of it is enough (RRP-BR-6: a $15
    all-in on a $20 round counts as a bet).

    >>> from dataclasses import replace
    >>> half = Params(False, False, 0, "half_bet", 3, 4, "before_cap", False, True, "big_blind_first")
    >>> is_full(1500, 2000, Game("fixed-limit"), half)
    True
    >>> is_full(1500, 2000, Game("fixed-limit"), replace(half, limit_reopen="full_bet"))
    False
    """
    if game.structure in LIMIT and params.limit_reopen == "half_bet":
        return 2 * increment >= full
    if params.limit_reopen not in REOPEN:
        raise BettingError(f"unknown limit_reopen {params.limit_reopen!r}", field="params",
                           expected="half_bet or full_bet")
    return increment >= full
