"""Values the betting arithmetic works on: the game, the house parameters, the hand, the answer.

All money is an ``int`` in the smallest unit (cents for a cash game, or a
hundredth of a chip). Nothing here is ever a float.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from types import FunctionType
from typing import Any

Money = int

STRUCTURES = ("no-limit", "pot-limit", "fixed-limit", "spread-limit")
SETTINGS = ("cash", "tournament")
ACTION_KINDS = ("post", "fold", "check", "call", "bet", "raise", "complete", "bring-in")


class BettingError(ValueError):
    """An action that cannot happen in this position.

    ``index`` is the action's place in the hand (0-based, over all streets),
    ``seat`` the seat that tried it, ``field`` the incident/PHH field at fault
    and ``expected`` what would have been legal.
    """

    def __init__(self, message: str, *, index: int | None = None, seat: int | None = None,
                 field: str | None = None, expected: str | None = None):
        super().__init__(message)
        self.index = index
        self.seat = seat
        self.field = field
        self.expected = expected


@dataclass(frozen=True)
class Game:
    """The game being played: structure, forced bets and limits."""

    structure: str                      # one of STRUCTURES
    setting: str = "cash"               # one of SETTINGS
    small_blind: Money = 0
    big_blind: Money = 0
    ante: Money = 0                     # per player
    bring_in: Money = 0                 # stud bring-in (0 when blinds are used)
    bet_sizes: tuple[Money, ...] = ()   # fixed-limit: the bet per street; spread-limit: the largest bet per street
    spread_min: Money = 0               # spread-limit: the smallest bet
    betting_unit: Money = 0             # chips move in multiples of this (0: any amount)
    betting_rounds: int = 4             # 2 for draw/lowball (affects the limit cap)


@dataclass(frozen=True)
class Params:
    """The house parameters that change betting arithmetic (inventory section 16).

    No defaults here: the rulebook declares each of these parameters (its
    ``arithmetic:`` field names the attribute) and the caller builds a Params
    from the book's values (``rulings.facts.situation.betting_params``).
    """

    sb_counts_as_bb: bool              # RRP-PL-5
    preflop_assume_full_blinds: bool   # TDA-2024-54B
    rounding_unit: Money               # RRP-PL-4: pot rounded up to this unit (0: none)
    limit_reopen: str                  # half_bet | full_bet (fixed/spread limit only)
    max_raises: int                    # a bet and N raises (games of 3+ rounds)
    two_round_max_raises: int          # a bet and N raises (two-round games)
    heads_up_exception: str            # none | before_cap | at_round_start | before_third_bet
    count_all_in_players: bool         # does an all-in player count toward "three or more"
    open_pair_big_bet: bool            # TDA-2024-RP10: stud's open pair on fourth street lets a player bet the big bet
    bba_short_order: str               # TDA-2024-RP11: a big blind too short for blind and big blind ante posts
                                       # big_blind_first | ante_first (the reader splits his chips: posts.py)


PARAM_NAMES = tuple(f.name for f in fields(Params))


@dataclass(frozen=True)
class Player:
    """A seat in the hand and the chips it started the hand with (None: not known, no limit)."""

    seat: int
    stack: Money | None = None


@dataclass(frozen=True)
class Action:
    """One action: ``to`` is the seat's street total after it (amount *to*), not the increment."""

    seat: int
    kind: str                 # one of ACTION_KINDS
    to: Money | None = None   # required for post/bet/raise/complete/bring-in; optional for call


@dataclass(frozen=True)
class Hand:
    """A hand as far as it went.

    ``players`` are in postflop order: first to act after the flop first,
    the button last. ``streets`` holds the actions of each street in order;
    street 0 is the first betting round. When ``first_street`` is above 0
    the hand is described from that street on and ``pot_before`` holds what
    was already in the middle. Forced bets (blinds, antes, straddles) are
    given as explicit ``post`` actions at the start of the first street, or,
    when there are none, posted automatically from ``game``. ``open_pair``
    lists the betting rounds on which a player still in shows an open pair
    (seven-card stud's fourth street, from the upcards): where the house
    allows it (``Params.open_pair_big_bet``) a player may bet the big bet there.
    ``kill_post`` is a kill blind posted with the automatic blinds.
    """

    game: Game
    players: tuple[Player, ...]
    streets: tuple[tuple[Action, ...], ...] = ((),)
    first_street: int = 0
    pot_before: Money = 0
    straddles: tuple[Money, ...] = field(default=())  # posted after the big blind, in order
    open_pair: tuple[int, ...] = field(default=())    # betting rounds with an open pair showing (stud's fourth street)
    # a kill blind posted before the deal (RRP kill pots): (seat, amount, whether the killer acts last on the first
    # round); posted with the blinds when they are posted automatically. It is the first round's bet; the killer
    # acts in his normal turn (RRP-KILL-2) unless he acts last (a lowball custom, RRP-KILL-10)
    kill_post: tuple[int, Money, bool] | None = None


@dataclass(frozen=True)
class SidePot:
    """A pot and the seats that may win it."""

    amount: Money
    eligible: tuple[int, ...]   # seats


@dataclass(frozen=True)
class Position:
    """The numbers a floorperson needs for the seat to act (or a named seat)."""

    actor: int | None
    street: int
    pot: Money                   # in the middle plus everything in front of players this street
    pot_in_middle: Money
    to_call: Money
    current_bet: Money           # the street's highest total
    last_full_raise: Money       # the largest full bet or raise increment of the street (TDA-2024-43A)
    min_raise_to: Money | None
    max_raise_to: Money | None
    can_raise: bool
    reason: str | None           # why not, when can_raise is False
    side_pots: tuple[SidePot, ...]
    committed: dict[int, Money]  # each seat's street total
    stacks: dict[int, Money | None]  # each seat's chips behind
    capped: bool = False         # limit: the round's bets reached the cap and no heads-up exception lifted it
    cap_reached: bool = False    # limit: the round's bets reached the cap, lifted heads-up or not


class _ReadOnce:
    """The ``side_pots`` field of Position: stored as given, and work put off is done on first read.

    A replay makes a Position at every action, and most readers never look at
    its side pots; it stores ``(work, *args)``, a plain tuple whose first item
    is a function, and the first read replaces it with ``work(*args)``. A plain
    tuple, because one is made per action: a tuple display costs less than any
    call. Side pots themselves are a tuple of ``SidePot``, never of functions.

    Installed on the class after ``dataclass`` has made it, so the field,
    its place in ``__init__``, ``__eq__``, ``__repr__`` and ``replace`` are
    those of a plain field (they all read it through here).
    """

    def __get__(self, obj: Position | None, owner: type | None = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__["_side_pots"]
        if type(value) is tuple and value and type(value[0]) is FunctionType:
            value = obj.__dict__["_side_pots"] = value[0](*value[1:])
        return value

    def __set__(self, obj: Position, value: Any) -> None:
        obj.__dict__["_side_pots"] = value    # only __init__ gets here: the frozen __setattr__ refuses others


Position.side_pots = _ReadOnce()  # type: ignore[assignment]

# The keys of a Position's __dict__, in field order (side_pots is stored as _side_pots);
# arithmetic._position writes that dict itself.
STORED = tuple("_side_pots" if f.name == "side_pots" else f.name for f in fields(Position))
