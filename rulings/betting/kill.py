"""Kill-pot sizes: the kill blind and the raised limits of a killed hand."""
from __future__ import annotations

from dataclasses import dataclass

from rulings.betting.limits import street_bet
from rulings.betting.model import BettingError, Game, Money

# The kill multiplier as a fraction (numerator, denominator), so the arithmetic stays in ints.
KILL_SIZES = {"full": (2, 1), "half": (3, 2)}


@dataclass(frozen=True)
class KillLimits:
    """The blind a killer posts and the small and big bets the killed hand is played for."""

    kill_blind: Money
    small_bet: Money
    big_bet: Money


def kill_limits(game: Game, size: str) -> KillLimits:
    """The kill blind and limits for a ``'full'`` (2x) or ``'half'`` (1.5x) kill (RRP-KILL-INTRO).

    The kill blind is the multiple of the big blind; the small and big bets
    are the multiples of the game's first and last street bets. A half kill
    that would need a fraction of the smallest unit is refused. WIKI-KILL-1:
    $20/$40 with a full kill is a $40 blind and $40/$80; $4/$8 with a half
    kill is a $6 blind and $6/$12.

    >>> kill_limits(Game("fixed-limit", small_blind=1000, big_blind=2000,
    ...                  bet_sizes=(2000, 2000, 4000, 4000)), "full")
    KillLimits(kill_blind=4000, small_bet=4000, big_bet=8000)
    >>> kill_limits(Game("fixed-limit", small_blind=200, big_blind=400,
    ...                  bet_sizes=(400, 400, 800, 800)), "half")
    KillLimits(kill_blind=600, small_bet=600, big_bet=1200)
    """
    if size not in KILL_SIZES:
        raise BettingError(f"unknown kill size {size!r}", field="kill.size", expected="full | half")
    if game.big_blind <= 0:
        raise BettingError("a kill needs a big blind to multiply", field="game", expected="a big blind")
    numerator, denominator = KILL_SIZES[size]
    amounts = (game.big_blind, street_bet(game, 0), street_bet(game, game.betting_rounds - 1))
    for amount in amounts:
        if amount * numerator % denominator:
            raise BettingError(
                f"a {size} kill of {amount} is {amount * numerator}/{denominator}, not a whole unit",
                field="kill.size", expected="a full kill, or limits that divide evenly")
    blind, small, big = (amount * numerator // denominator for amount in amounts)
    return KillLimits(kill_blind=blind, small_bet=small, big_bet=big)
