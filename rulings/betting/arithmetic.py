"""Replay a hand's actions and give the exact numbers (to call, minimum and maximum raise) at any point."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from rulings.betting.model import (
    ACTION_KINDS, Action, BettingError, Hand, Money, Params, Position, SidePot,
)
from rulings.betting.pots import side_pots
from rulings.betting.quote import Quote, opening, over_reason, quote_due, quote_for, quote_is_quiet
from rulings.betting.quote import in_units as _m
from rulings.betting.table import Table, put_in


def positions(hand: Hand, params: Params) -> Iterator[tuple[int, Action, Position]]:
    """Replay the hand, yielding each action with the Position of the seat due to act before it.

    The index counts every action over all streets from 0, posts included.
    Each action is checked before it is yielded; an illegal one raises
    ``BettingError`` naming its index, seat and what was legal instead.
    "bet" and "raise" are read alike (any wager above the current bet);
    "complete" is a limit wager and refused in big-bet games; a "call" with
    nothing to call is a check; any wager that takes the whole stack is an
    all-in, a call when it does not go above the bet. In a stud game (one
    with a bring-in) each street is opened by whichever seat the actions
    name. OLR-PL-1 ($1/$2 pot-limit): the first player in may raise to 4..7.

    >>> from rulings.betting.model import Game, Player
    >>> params = Params(False, False, 0, "half_bet", 3, 4, "before_cap", False, True, "big_blind_first")
    >>> hand = Hand(Game("pot-limit", small_blind=100, big_blind=200),
    ...             tuple(Player(seat) for seat in (1, 2, 3)), ((Action(3, "raise", 700),),))
    >>> [(i, a.kind, p.min_raise_to, p.max_raise_to) for i, a, p in positions(hand, params)]
    [(0, 'raise', 400, 700)]
    """
    return _walk(hand, params, None, False, True)   # seen=True (by position: one call per hand)     # a generator: nothing runs until the first step is asked for


def position_if_legal(hand: Hand, params: Params, seat: int | None = None) -> Position | None:
    """``position`` for a hand the reader did not check as it is (a seat's catch-up acts added to it): None
    where the betting does not allow it, so that a fact builder never meets a refusal."""
    try:
        return position(hand, params, seat=seat)
    except BettingError:
        return None


def position(hand: Hand, params: Params, after: int | None = None,
             seat: int | None = None, tables: list[Table] | None = None) -> Position:
    """The Position after the first ``after`` actions (None: all of them).

    The numbers are for the seat due to act, or for ``seat`` as if it were
    to act now; ``to_call`` is capped at the seat's chips and the raise
    window at its all-in total. When the betting of the last street given
    is complete the actor is None and the numbers are for the next street's
    opening. For ``after`` short of the end the Position is the one
    ``positions`` yields at that index. When ``first_street`` is above 0,
    stacks are read as the chips each seat had when that street began.
    RRP-NLPL-INTRO: a $100 pot and a $50 bet allow a raise to $250.

    >>> from rulings.betting.model import Game, Player
    >>> params = Params(False, False, 0, "half_bet", 3, 4, "before_cap", False, True, "big_blind_first")
    >>> hand = Hand(Game("pot-limit", big_blind=500), (Player(1), Player(2)),
    ...             ((Action(1, "bet", 5000),),), first_street=1, pot_before=10000)
    >>> position(hand, params).max_raise_to
    25000
    """
    total = sum(map(len, hand.streets))
    if after is not None and not 0 <= after <= total:
        raise BettingError(f"the hand has no point after {after} actions", field="after",
                           expected=f"a count from 0 to {total}")
    for _index, action, table, _how, _checked in _walk(hand, params, after):
        pass    # the last step is the point asked for: the action at ``after``, unchecked, or the end
    if tables is not None:   # the caller keeps the replayed table too (read only: the Position shares its dicts)
        tables.append(table)
    if seat is not None and seat not in table.behind:
        raise BettingError(f"seat {seat} is not in the hand", seat=seat, field="seat",
                           expected=" | ".join(str(s) for s in table.order))
    last_street = hand.first_street + len(hand.streets) - 1
    if action is not None and not table.over and (table.posting or table.cursor is None):
        actor = action.seat     # a post, or a stud street opened by the seat the actions name
    elif table.posting or table.street > last_street:
        actor = None
    else:
        actor = table.actor()
    return _position(table, actor, seat if seat is not None else actor)


Refuse = Callable[[str, str], BettingError]
Step = tuple[int, "Action | None", Table, "str | None", "Quote | None"]


def _walk(hand: Hand, params: Params, stop: int | None = None, every_quote: bool = False,
          seen: bool = False) -> Iterator[Any]:
    """Yield (index, action, table before it, move, quote) for each action once checked, then
    (count, None, final table, None, None). At index ``stop`` the action is yielded unchecked,
    with no move, and the walk ends. The quote is that of the seat acting; it may be None for a
    fold, check or call unless ``every_quote`` (then it is there for every action but a post).

    ``seen``: yield (index, action, Position before it) instead, and nothing at the end: the steps
    of ``positions``, made here rather than by a second generator around this one."""
    table = Table.start(hand, params)
    quiet = not (every_quote or seen) and quote_is_quiet(table)
    index = 0
    posts: list[tuple[int, Money]] = []
    for offset, actions in enumerate(hand.streets):
        street = hand.first_street + offset
        for action in actions:
            seat, kind = action.seat, action.kind
            if table.posting and kind != "post":
                table.open_first(posts)
            if seen and kind in USUAL and street == table.street and not table.over and table.cursor is not None \
                    and seat == (table.due if table.fresh else table.next_due()):
                # The usual step of a replay, in one place: a fold, check, call, bet or raise by the seat due
                # that _move would let through as it is. Anything else, legal or not, goes to _move below.
                quote = quote_due(table, seat, table.behind[seat])   # the seat due can act
                to_call, low, high, can_raise, _ = quote
                to = action.to
                if kind == "fold":
                    yield index, action, _snapshot(table, seat, quote)
                    table.fold(seat)
                    table.turn_after(seat)
                    index += 1
                    continue
                if kind == "check" or kind == "call":
                    committed = table.committed[seat]
                    if to_call == 0 and (kind == "check" or to is None or to == committed):
                        yield index, action, _snapshot(table, seat, quote)
                        table.acted[seat] = committed
                        table.turn_after(seat)
                        index += 1
                        continue
                    if kind == "call" and (to is None or to == committed + to_call):
                        yield index, action, _snapshot(table, seat, quote)
                        table.put(seat, committed + to_call)
                        table.acted[seat] = committed + to_call
                        table.turn_after(seat)
                        index += 1
                        continue
                # A wager: the quote's window is already capped at the seat's all-in total, and a seat
                # that may raise faces the current bet (another seat can act).
                elif can_raise and to is not None and low is not None and table.current_bet < to and low <= to \
                        and (high is None or to <= high) and (to == low or to == high or not table.pair_option):
                    yield index, action, _snapshot(table, seat, quote)
                    table.wager(seat, to)
                    table.turn_after(seat)
                    index += 1
                    continue
            elif seen and kind == "post" and table.posting and street < table.rounds and seat in table.behind:
                # A forced bet while they are still being posted, which _move would let through as it is.
                to, stack, committed = action.to, table.behind[seat], table.committed[seat]
                if to is not None and to > committed and (stack is None or to <= committed + stack):
                    yield index, action, _snapshot(table, seat, POSTING)
                    table.put(seat, to)
                    posts.append((seat, to))
                    index += 1
                    continue
            if index == stop:
                yield index, action, table, None, None
                return
            move, quoted = _move(table, index, action, street, quiet)
            if seen:
                # _move has let the action through only from the seat due, the seat opening a stud
                # street or a poster, so that seat is the actor and the quote _move made is its own.
                yield index, action, _position(table, action.seat, action.seat, quoted)
            else:
                yield index, action, table, move, quoted
            if move == "post":
                posted = action.to
                assert posted is not None   # _post refuses a post without its street total
                table.put(seat, posted)
                posts.append((seat, posted))
            else:
                table.play(seat, move, action.to, None if quoted is None else quoted[0])
            index += 1
        if table.posting:
            table.open_first(posts)
    if not table.over and table.street < hand.first_street + len(hand.streets) - 1:
        due = table.actor()
        raise BettingError(f"street {table.street} ended before its betting was complete", index=index,
                           seat=due, field="streets",
                           expected=f"an action by seat {due}" if due is not None else "more actions")
    if not seen:
        yield index, None, table, None, None


PLAYS = tuple(kind for kind in ACTION_KINDS if kind != "post")   # a tuple: any kind may be asked, hashable or not
PASSIVE = ("fold", "check", "call")
USUAL = ("call", "check", "fold", "raise", "bet")   # the commonest first
POSTING: Quote = (0, None, None, False, "the forced bets are still being posted")


def _move(table: Table, index: int, action: Action, street: int, quiet: bool) -> tuple[str, Quote | None]:
    """Check one action against the table; return how to apply it and the seat's quote (or raise BettingError).

    ``quiet``: working out the raise window cannot refuse the hand (``quote_is_quiet``)."""
    seat, kind = action.seat, action.kind
    # The usual case, a play by the seat due on the table's own street, passes every check of
    # _turn (a seat due is in the hand, live and has chips; the table's street is a betting round).
    if not (kind in PLAYS and street == table.street and not table.over and table.cursor is not None
            and seat == (table.due if table.fresh else table.next_due())):
        if kind == "post":
            _turn(table, index, action, street)
            return _post(table, action, _refuser(index, seat)), None
        _turn(table, index, action, street)
    committed = table.committed[seat]
    # A fold, check or call needs only the amount to call; the raise window is worked out for it
    # only where working it out cannot itself refuse the hand (a limit game's bet sizes, a house
    # setting), so that such a refusal still comes at the same action.
    quote = None if quiet and kind in PASSIVE else quote_for(table, seat)
    to_call = table.to_call(seat) if quote is None else quote[0]
    if kind == "fold":
        return "fold", quote
    if kind == "check" or (kind == "call" and to_call == 0 and action.to in (None, committed)):
        if to_call > 0:
            raise _refused(index, seat, f"seat {seat} checked facing a bet of {_m(table.facing(seat))}",
                       _options(table, seat, quote or quote_for(table, seat)))
        return "check", quote
    if kind == "call":
        call_to = committed + to_call
        if action.to is not None and action.to != call_to:
            raise _refused(index, seat, f"a call by seat {seat} goes to {_m(call_to)}, not {_m(action.to)}",
                       _options(table, seat, quote or quote_for(table, seat)))
        return "call", quote
    assert quote is not None   # only a fold, check or call goes unquoted, and each has returned above
    if action.to is None:
        raise _refused(index, seat, f"a {kind} needs the street total it goes to ('to')", _options(table, seat, quote))
    to = action.to
    all_in = table.all_in_total(seat)
    if all_in is not None and to > all_in:
        behind = all_in - table.committed[seat]   # all_in_total: what he has on the street and behind
        raise _refused(index, seat, f"seat {seat} has {_m(behind)} behind and cannot {kind} to {_m(to)}",
                   f"a street total of at most {_m(all_in)} (all-in)")
    if kind == "bring-in":
        return _bring_in(table, to, _refuser(index, seat), all_in), quote
    if kind == "complete" and table.big_bet:
        raise _refused(index, seat, "completing a bet exists only in limit games (RRP-NL-4)",
                       _options(table, seat, quote))
    if to <= table.facing(seat):
        if to == all_in:
            return "call", quote       # all-in for no more than a call
        raise _refused(index, seat, f"a {kind} to {_m(to)} is not above the current bet of {_m(table.facing(seat))}",
                   _options(table, seat, quote))
    _, low, high, can_raise, reason = quote
    if not can_raise or low is None:   # a quote that allows a raise has its minimum (quote_due)
        raise _refused(index, seat, f"seat {seat} may not raise: {reason}", _options(table, seat, quote))
    if high is not None and to > high:
        raise _refused(index, seat, f"a {kind} to {_m(to)} is above the maximum of {_m(high)}",
                   _options(table, seat, quote))
    if to < low and to != all_in:
        raise _refused(index, seat, f"a {kind} to {_m(to)} is below the minimum of {_m(low)}",
                   _options(table, seat, quote))
    if table.pair_option and high is not None and to not in (low, high) and to != all_in:
        raise _refused(index, seat, f"a {kind} to {_m(to)} is neither the small bet nor the big bet "
                       f"(to {_m(low)} or {_m(high)})", _options(table, seat, quote))
    return "wager", quote


def _refused(index: int, seat: int, message: str, expected: str) -> BettingError:
    return BettingError(message, index=index, seat=seat, field="actions", expected=expected)


def _refuser(index: int, seat: int) -> Refuse:
    def refuse(message: str, expected: str) -> BettingError:
        return _refused(index, seat, message, expected)
    return refuse


def _turn(table: Table, index: int, action: Action, street: int) -> None:
    """Refuse an action of an unknown kind, by a seat not in the hand or not due, or on the wrong street."""
    game, seat, kind = table.hand.game, action.seat, action.kind
    refuse = _refuser(index, seat)
    if kind not in ACTION_KINDS:
        raise refuse(f"unknown action kind {kind!r}", " | ".join(ACTION_KINDS))
    if seat not in table.behind:
        raise refuse(f"seat {seat} is not in the hand", " | ".join(str(s) for s in table.order))
    if street >= game.betting_rounds:
        raise refuse(f"the game has no betting round {street}", f"streets 0 to {game.betting_rounds - 1}")
    if kind == "post":
        return
    if table.over:
        raise refuse(f"seat {seat} acted after {over_reason(table)}", "no further action")
    if table.street < street:
        due = table.actor()
        raise refuse(f"street {table.street} is not finished: seat {due} is still to act",
                     f"an action by seat {due} on street {table.street}")
    if table.street > street:
        raise refuse(f"the betting on street {street} was already complete",
                     f"the action on street {table.street}")
    if seat in table.folded:
        raise refuse(f"seat {seat} has already folded", "no action from a folded seat")
    if table.behind[seat] == 0:
        raise refuse(f"seat {seat} is all-in and has no more actions", "no action from an all-in seat")
    if table.cursor is None:
        if table.street == 0 and game.bring_in > 0 and kind not in ("bring-in", "complete", "bet"):
            raise refuse("the first round of a stud game opens with the bring-in",
                         f"a bring-in of {_m(game.bring_in)} or a completion")
    elif seat != table.actor():
        due = table.actor()
        raise refuse(f"seat {seat} acted out of turn; seat {due} is due", f"an action by seat {due}")


def _post(table: Table, action: Action, refuse: Refuse) -> str:
    if not table.posting:
        raise refuse("forced bets are posted only before the first street's betting",
                     "a post at the start of street 0")
    if action.to is None or action.to <= table.committed[action.seat]:
        raise refuse("a post needs the seat's street total after it ('to')", "a post with 'to'")
    all_in = table.all_in_total(action.seat)
    if all_in is not None and action.to > all_in:
        behind = all_in - table.committed[action.seat]   # all_in_total: what he has on the street and behind
        raise refuse(f"seat {action.seat} has {_m(behind)} behind and cannot post {_m(action.to)}",
                     f"a post of at most {_m(all_in)}")
    return "post"


def _bring_in(table: Table, to: Money, refuse: Refuse, all_in: Money | None) -> str:
    game = table.hand.game
    if game.bring_in <= 0 or table.street != 0 or table.acted:
        raise refuse("a bring-in only opens the first round of a stud game", "a bet, call or check")
    amount = game.bring_in if all_in is None else min(game.bring_in, all_in)
    if to != amount:
        raise refuse(f"the bring-in is {_m(amount)}, not {_m(to)}", f"a bring-in to {_m(amount)} or a completion")
    return "bring-in"


def _options(table: Table, seat: int, quote: Quote) -> str:
    """The legal actions in words, for BettingError.expected."""
    to_call, low, high, can_raise, _ = quote
    parts = ["fold", f"call to {_m(table.committed[seat] + to_call)}" if to_call else "check"]
    if can_raise and low is not None:   # a quote that allows a raise has its minimum
        verb = "raise" if table.current_bet else "bet"
        if high is None:
            parts.append(f"{verb} to {_m(low)} or more")
        elif high == low:
            parts.append(f"{verb} to {_m(low)}")
        elif table.pair_option:
            parts.append(f"{verb} to {_m(low)} or {_m(high)}")
        else:
            parts.append(f"{verb} to {_m(low)}..{_m(high)}")
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def _position(table: Table, actor: int | None, seat: int | None, quote: Quote | None = None) -> Position:
    """The frozen Position for ``seat`` (None: the opening numbers of the street, for no one seat);
    ``quote`` is the seat's quote when the caller has just made it on this same table."""
    if table.posting:
        quote = POSTING
    elif quote is not None:
        pass
    elif seat is not None:
        quote = quote_for(table, seat)
    elif table.over:
        quote = (0, None, None, False, over_reason(table))
    else:
        quote = opening(table)
    return _snapshot(table, actor, quote)


def _snapshot(table: Table, actor: int | None, quote: Quote) -> Position:
    """The frozen Position of the table as it stands, with ``quote`` for its numbers."""
    # The Position holds the table's chip dicts as they stand now; the table copies them before it
    # changes them again (Table.shared). The side pots are worked out from them only if read.
    table.shared = True
    to_call, low, high, can_raise, reason = quote
    cap_reached = not table.big_bet and table.bets >= table.cap
    middle = table.middle
    # Position(...) without the frozen __init__'s sixteen object.__setattr__ calls (most of the cost
    # of a Position, and a replay makes one per action): its __dict__ given whole, as one display.
    position = _new(Position)
    _set(position, "__dict__", {
        "actor": actor, "street": table.street, "pot": middle + table.in_front, "pot_in_middle": middle,
        "to_call": to_call, "current_bet": table.current_bet, "last_full_raise": table.last_full_raise,
        "min_raise_to": low, "max_raise_to": high, "can_raise": can_raise, "reason": reason,
        "_side_pots": (_side_pots, table.banked, table.committed, table.folded, table.dead, table.live_seats,
                       table.behind),
        "committed": table.committed, "stacks": table.behind, "capped": cap_reached and not table.uncapped,
        "cap_reached": cap_reached})
    return position


_new = object.__new__
_set = object.__setattr__


def _side_pots(banked: tuple[dict[int, Money], ...], committed: dict[int, Money], folded: frozenset[int],
               dead: Money, live: tuple[int, ...], behind: dict[int, Money | None]) -> tuple[SidePot, ...]:
    """The side pots of a Position (put off until read: model._ReadOnce), from the table as it stood;
    a round still open is cut only at all-ins."""
    pots = side_pots(put_in(banked, committed), folded, behind)
    if dead:
        pots = _with_dead(pots, dead, tuple(sorted(live)))
    return pots


def _with_dead(pots: tuple[SidePot, ...], dead: Money, live: tuple[int, ...]) -> tuple[SidePot, ...]:
    """Add ``pot_before``, the money of the streets before the hand is told from, which belongs to no seat.

    Every live seat contests it, a seat all-in on an earlier street (nothing put
    in since) included: so it joins the first of this street's pots only when
    that pot's contenders are all the live seats, and is a pot of its own,
    listed first, otherwise (as pokerkit's pots have it, and ``round_facts.pots_now``).
    A flop bet of 100 and a call over 300 from preflop, with one seat all-in
    preflop: 300 for all three seats, then 200 for the two.

    >>> _with_dead((SidePot(200, (2, 3)),), 300, (1, 2, 3))
    (SidePot(amount=300, eligible=(1, 2, 3)), SidePot(amount=200, eligible=(2, 3)))
    >>> _with_dead((SidePot(200, (2, 3)),), 300, (2, 3))
    (SidePot(amount=500, eligible=(2, 3)),)
    """
    if pots and pots[0].eligible == live:
        return (SidePot(pots[0].amount + dead, live),) + pots[1:]
    return (SidePot(dead, live),) + pots
