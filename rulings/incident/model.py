"""The values an incident is read into: the hand, its disputed acts, the table's history, the procedure.

Plain data, checked by the reader (rulings/incident/); the fact builders
(rulings/facts/situation.py and the modules it calls) read these and never refuse.
Money is in minor units (hundredths), never float.
"""
from __future__ import annotations

from dataclasses import field
from typing import Any

from rulings.betting import Action, Hand
from rulings.records import LazyFrozen, evolve, record
from rulings.yamlsrc import Located


@record(frozen=True)
class Disputed(LazyFrozen):
    seat: int
    said: str | None = None
    motions: tuple[tuple[int, ...], ...] = ()   # chip values per motion, minor units
    words_first: str | None = None
    based_on_count: int | None = None
    prior_chips: tuple[int, ...] = ()            # chips of an earlier bet still in front (TDA-2024-46)
    prior_pulled: str | None = None              # none | part | all of them pulled back
    flags: dict[str, bool] = field(default_factory=dict)   # released, misunderstood, bettor_showed, ...
    count_answer: int | None = None              # the bet size the dealer gave when asked (TDA-2024-49)
    hidden_chips: int | None = None              # chips found behind after an all-in was called (TDA-2024-62)
    side_deal: str | None = None                 # insurance | proposition | run_twice (RRP-NL-17)
    buy_in: int | None = None                    # chips the player is buying in for (RRP-BUYIN, RRP-NL-16)
    cashed_out: int | None = None                # chips he took with him when he last left this game (RRP-BUYIN)
    minutes_away: int | None = None              # minutes since he left it
    dealer_took: tuple[str, int | None] | None = None   # the act as the dealer took it: (action, street total)


@record(frozen=True)
class Act(LazyFrozen):
    """One disputed act placed in the hand: on ``street`` after the first ``after_count`` actions listed there."""

    disputed: Disputed
    street: str
    after_count: int
    after: tuple[Action, ...] = ()             # what happened after it on its street, before it was noticed
    inputs: dict[str, Any] = field(default_factory=dict)   # this act's noticed, pointed_out_by, ...
    path: tuple = ("disputed",)                # where the act is written (for problems)
    chips_key: str = "chips"                   # chips (one motion) or motions, as written


@record(frozen=True)
class ShowdownEvent(LazyFrozen):
    """One thing done at showdown, in order: a seat shows, mucks, tables or declares."""

    seat: int
    kind: str                                  # shows | mucks | tables | declares
    cards: tuple[str, ...] = ()
    declares: str | None = None                # high | low | both (a declaration game)
    path: tuple = ()                           # where it is written


@record(frozen=True)
class Award(LazyFrozen):
    """Who won one pot: 0 is the main pot, 1 the first side pot, and so on."""

    pot: int
    winners: tuple[int, ...]
    path: tuple = ()                           # where it is written


@record(frozen=True)
class Told(LazyFrozen):
    """A street told by who was left at its end and the pot then, not action by action."""

    street: str
    left: tuple[int, ...]                      # the seats still in at its end
    pot: int | None                            # the pot then (None: not known)
    pots: tuple[tuple[int, tuple[int, ...]], ...] = ()   # by amount with the seats in each, main pot first
    path: tuple = ()


@record(frozen=True)
class Pot(LazyFrozen):
    """One finished pot at the table: who won it, its size, how much was blinds, whether it saw a flop, its kill."""

    winners: tuple[int, ...]
    amount: int | None                         # None: not told (read only where a rule needs it)
    blind_money: int | None
    flop: bool | None = None
    kill_seat: int | None = None
    kill_blind: int | None = None


@record(frozen=True)
class Table(LazyFrozen):
    """The table's kill-pot state as the floor describes it before the hand about to be dealt."""

    pots: tuple[Pot, ...] = ()                      # oldest first; the last is the pot just finished
    split_game: bool = False
    new_game: bool = False
    button: tuple[int, int] | None = None           # (seat, legs) entering the last pot
    button_neutral: bool = False                    # the floor said the button was in the middle
    left: tuple[int, ...] = ()
    returned: tuple[int, ...] = ()
    new_players: tuple[int, ...] = ()
    voluntary: dict[str, Any] | None = None
    kill_posted: dict[str, Any] | None = None
    face_up: bool | None = None
    underpaid: dict[str, Any] | None = None
    blind_passed: dict[str, Any] | None = None
    broken_game: dict[str, bool] | None = None
    variant: str = "holdem"


@record(frozen=True)
class Procedure(LazyFrozen):
    """The procedure section as read: input facts, plus the raw values the arithmetic needs."""

    facts: dict[str, Any] = field(default_factory=dict)
    raw: dict[str, dict[str, Any]] = field(default_factory=dict)
    variant: str = "holdem"
    derived: tuple[str, ...] = ()      # "section.field" the floor left out and the hand's actions decide


@record(frozen=True)
class HandLog(LazyFrozen):
    """What the whole-hand form adds to the hand: the board, stud upcards by street, showdown, pot winners."""

    streets: tuple[str, ...] = ()                           # the streets the log covers, in order
    board: tuple[str, ...] = ()                             # the community cards dealt, in order
    upcards: dict[str, dict[int, tuple[str, ...]]] = field(default_factory=dict)   # street -> seat -> its upcards
    showdown: tuple[ShowdownEvent, ...] = ()
    awards: tuple[Award, ...] = ()
    big_blind_ante: int = 0                                 # posted by the big blind for the whole table
    folded: tuple[int, ...] = ()                            # seats that folded anywhere in the log
    told: tuple["Told", ...] = ()                           # streets told by who was left and the pot, first


@record(frozen=True)
class Incident(LazyFrozen):
    """A validated incident: the hand so far, the disputed act, when it was noticed.

    ``disputed``, ``street``, ``hand`` and ``after`` are those of the act ruled on (the first
    in hand order); ``acts`` lists every disputed act of the incident (one or more).
    """

    name: str
    hand: Hand
    street: str
    disputed: Disputed | None
    after: tuple[Action, ...]
    inputs: dict[str, Any]                     # other input facts: noticed, pointed_out_by, ...
    params: dict[str, Any] = field(default_factory=dict)
    house: str | None = None
    pot_now: int | None = None
    source: Located | None = None
    table: Table | None = None                 # the table's kill-pot history (rulings/facts/kill.py)
    upcards: dict[int, str] = field(default_factory=dict)   # stud: each seat's upcard on the first round, e.g. "2c"
    exposed_downcard: int | None = None        # stud: the seat whose showing card is a downcard exposed in the deal
    split: dict | None = None                  # a tied pot: {winners: (seats), pot: index, smallest_chip: minor units}
    procedure: Procedure | None = None         # a table procedure in dispute (rulings/facts/procedure.py)
    acts: tuple[Act, ...] = ()                 # every disputed act, in hand order
    log: HandLog | None = None                 # the whole-hand form's board, upcards, showdown, pot winners
    action_paths: tuple[tuple, ...] = ()       # each action of ``hand`` (over all streets): where it is written
    checked: Any = None                        # the parameter values the reader checked it under
    whole_hand: Hand | None = None             # the whole log (``hand`` stops at the act ruled on)
    focused: bool = False                      # one of several acts' own incident (``each_act``): ruled on it alone
    pot_unknown: bool = False                  # a later street's pot not given: ``hand.pot_before`` is a stand-in 0,
                                               # and every fact that reads the pot is unknown (rulings/facts/situation.py)
    unsized: tuple[int, ...] = ()             # actions (index over every street) told without an amount that the
                                               # limits do not fix: replayed on the smallest allowed, a stand-in
    limits_unknown: bool = False               # a limit game's sizes not given (nothing in the hand is sized by them):
                                               # replayed on a stand-in size, every fact sized by it left out
    unkilled_game: Any = None                  # a killed hand (table.kill_posted): the game at its own limits;
                                               # ``hand.game`` then has the killed limits every bet is played at
    bba_posts: tuple = ()                      # a big blind ante: (the big blind's seat, his chips before posting,
                                               # blind posted, ante posted, the order a short stack was split in or
                                               # None when he covered both, the ante due); () without one, on a
                                               # later street, or his stack not given
    blinds_unknown: bool = False               # a big-bet game given without blinds (nor bring-in, ante or betting
                                               # unit): replayed on none posted, every fact the blinds size left out
    no_betting: bool = False                   # a section that needs no betting (the deal), told without a structure:
                                               # replayed on a stand-in, the structure and button facts left out
    # the check's replay of each disputed act (hand up to it, betting params, seat, Position, final table),
    # read by the fact builders of that act's ruling (rulings/incident/checks.py ``replayed_position``);
    # what the reader worked out, not what the incident says: left out of comparisons and repr
    replays: tuple = field(default=(), compare=False, repr=False)


def act_of(incident: Incident) -> Disputed:
    """The disputed act of an incident that has one: what the builders of the act's own facts read.

    They run only for a seat's act (``rulings.facts.situation.build``: no seat, no act facts); an incident without
    one reaching them is a bug in the caller, said as such rather than as an attribute error on None.
    """
    if incident.disputed is None:
        raise LookupError(f"{incident.name}: a fact of the disputed act asked of an incident without one")
    return incident.disputed


def hand_at(incident: Incident, act: Act) -> Hand:
    """The hand up to one disputed act."""
    whole = incident.whole_hand or incident.hand
    log = incident.log
    names = log.streets if log is not None else (incident.street,)
    k = names.index(act.street)
    return evolve(whole, streets=whole.streets[:k] + (whole.streets[k][:act.after_count],))


def focus(incident: Incident, act: Act) -> Incident:
    """The incident as seen at one disputed act: the hand up to it, its street, what came after it, its timing."""
    hand = hand_at(incident, act)
    count = sum(map(len, hand.streets))
    inputs = {**incident.inputs, **act.inputs}
    return evolve(incident, hand=hand, street=act.street, disputed=act.disputed, after=act.after,
                   inputs=inputs, action_paths=incident.action_paths[:count])
