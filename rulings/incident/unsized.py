"""Actions told without their amount: a bet, raise or complete the floor gives as "raised", with no `to`.

In a fixed-limit game the amount follows from the limits (the street's bet on top of the bet faced, or the
seat's last chips): it is filled in exactly. In the other games it is not known: the betting is replayed on
the smallest amount the rules allow (or the seat's last chips, when fewer) as a stand-in, and the action is
named in ``Incident.unsized``, so the fact builders leave out every fact of a disputed act the stand-in
reaches (rulings/facts/situation.py asks the amount instead), and what the hand says of stacks is not read
(rulings/incident/hand_says.py).
Where the arithmetic cannot place the action (out of turn, no raise allowed) the amount is left out, and the
replay refuses the action with the betting's own words (I106). Nothing here raises.
"""
from __future__ import annotations

from dataclasses import replace

from rulings.betting import BettingError, Hand, Params, position
from rulings.betting.model import Action

SIZED = ("bet", "raise", "complete")


def fill_unsized(hand: Hand, params: Params, exact: bool = True) -> tuple[Hand, tuple[int, ...]]:
    """The hand with each amountless bet, raise or complete given its amount (exact in fixed-limit, else the
    smallest allowed), and the indices (over every street, in order) of the stand-ins. ``exact`` False: the
    limits themselves are a stand-in, so no amount is exact."""
    if not any(a.kind in SIZED and a.to is None for street in hand.streets for a in street):
        return hand, ()
    exact = exact and hand.game.structure == "fixed-limit"
    streets = [list(s) for s in hand.streets]
    stand_ins: list[int] = []
    index = 0
    for k, street in enumerate(streets):
        for i, a in enumerate(street):
            if a.kind in SIZED and a.to is None:
                prefix = replace(hand, streets=tuple(tuple(s) for s in streets[:k]) + (tuple(street[:i]),))
                to = _smallest(prefix, params, a.seat)
                if to is None:
                    return replace(hand, streets=tuple(tuple(s) for s in streets)), tuple(stand_ins)
                street[i] = Action(a.seat, a.kind, to)
                if not exact:
                    stand_ins.append(index)
            index += 1
    return replace(hand, streets=tuple(tuple(s) for s in streets)), tuple(stand_ins)


def _smallest(prefix: Hand, params: Params, seat: int) -> int | None:
    """The smallest bet or raise the seat may make after ``prefix`` (his last chips when fewer); None when the
    seat is not the one to act or may not raise."""
    try:
        pos = position(prefix, params, seat=seat)
    except BettingError:
        return None
    if pos.actor != seat or not pos.can_raise or pos.min_raise_to is None:
        return None
    stack = pos.stacks.get(seat)
    committed = pos.committed.get(seat, 0)
    if stack is not None and committed + stack < pos.min_raise_to:
        return committed + stack            # all in for less than a full raise
    return pos.min_raise_to
