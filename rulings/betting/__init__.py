"""Exact betting arithmetic: pure functions over a hand's actions, no engine, no I/O."""
from rulings.betting.model import (  # noqa: F401
    ACTION_KINDS, STRUCTURES, SETTINGS, Action, BettingError, Game, Hand, Money, Params, Player,
    Position, SidePot,
)
