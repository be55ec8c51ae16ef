"""Exact betting arithmetic: pure functions over a hand's actions, no engine, no I/O."""
from rulings.betting.model import (  # noqa: F401
    ACTION_KINDS, STRUCTURES, SETTINGS, Action, BettingError, Game, Hand, Money, Params, Player,
    Position, SidePot,
)
from rulings.betting.arithmetic import position, positions  # noqa: F401,E402
from rulings.betting.kill import KillLimits, kill_limits  # noqa: F401,E402
from rulings.betting.limits import pot_limit_max, round_up  # noqa: F401,E402
from rulings.betting.pots import side_pots  # noqa: F401,E402
