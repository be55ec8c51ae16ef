"""Betting parameters for the arithmetic tests, written out in full.

The arithmetic has no defaults of its own (the rulebook declares every
parameter it reads); these are the standard book's cash-game values, and
``tests/test_params_one_place.py`` fails if the two ever differ.
"""
from __future__ import annotations

from dataclasses import replace

from rulings.betting import Params

CASH = Params(sb_counts_as_bb=False, preflop_assume_full_blinds=False, rounding_unit=0,
              limit_reopen="half_bet", max_raises=3, two_round_max_raises=4,
              heads_up_exception="before_cap", count_all_in_players=False, open_pair_big_bet=True,
              bba_short_order="big_blind_first")


def cash_params(**changes) -> Params:
    """The cash-game values with ``changes`` made."""
    return replace(CASH, **changes)
