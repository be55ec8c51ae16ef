"""What happens now: the dealer's next steps from the rulings in force, in the floor's words.

Nothing here decides anything, but it says which ruling the report leads with
(``lead``: the ruling on the dispute's own matter). It reads the ruling in force on the wager (its
street total, what goes back, what is still owed, what each caller gets back)
and, when nothing happened after the act, replays the hand with the act as
ruled to say whose turn it is and what that player faces.
"""
from __future__ import annotations

from typing import Any

from rulings.betting import BettingError
from rulings.betting.arithmetic import position
from rulings.betting.model import Action
from rulings.incident import Incident
from rulings.money import show
from rulings.ruling.matters import beside_wager, follows, matters, now_order
from rulings.records import evolve
from rulings.incident.checks import betting_params
from rulings.facts.acts import skipped_seats
from rulings.facts.round import skipped_replay


def _wager(rulings: list[Any]) -> Any:
    return next((r for r in rulings if r.decides == "wager" and isinstance(r.effects.get("wager_to"), int)),
                None)


def _kind(to: int, f: dict) -> str | None:
    """The act as the arithmetic names it (bet and raise are read alike)."""
    bet, mine = f.get("current_bet", 0), f.get("committed", 0)
    if to > bet:
        return "raise"
    if to == bet:
        return "call" if bet > mine else "check"
    return None


def _next(incident: Incident, report: Any, to: int) -> str | None:
    """Whose turn it is after the act as ruled, and what he may do; None when it cannot be said. The
    numbers (``options``) are kept on ``report.next``."""
    f = report.facts
    if incident.after or not f.get("in_turn") or incident.disputed is None:
        return None
    kind = _kind(to, f)
    if kind is None:
        return None
    hand = incident.hand
    act = Action(incident.disputed.seat, kind, to if kind == "raise" else None)
    hand = evolve(hand, streets=hand.streets[:-1] + (hand.streets[-1] + (act,),))
    try:
        pos = position(hand, betting_params(report.params))  # type: ignore[arg-type]  # rule_on keeps the ParamValues
    except BettingError:
        return None
    if pos.actor is None:
        return "The betting on this street is complete."
    return _faces(incident, report, pos, pos.actor)


def _faces(incident: Incident, report: Any, pos: Any, seat: int) -> str:
    """"Seat N is next to act ...": what he faces and, where the arithmetic can tell it from what the floor
    gave, what he may do (``options``, kept on ``report.next``)."""
    money = lambda v: show(v, report.setting)  # noqa: E731
    data = options(incident, report, pos, seat)
    faces = f"{money(pos.to_call)} to call" if pos.to_call else "no bet" if data else "no bet (he may check)"
    line = f"Seat {seat} is next to act and faces {faces}"
    if data is None:
        return line + "."
    report.next = data
    return f"{line}: he may {_options_said(data, pos, seat, report)}."


def options(incident: Incident, report: Any, pos: Any, seat: int) -> dict[str, Any] | None:
    """The next seat's options as the betting arithmetic gives them: his call, his smallest and largest
    raise-to and whether raising is open to him (and why not). None when a number would rest on a
    stand-in: an action told without its amount, a limit game's sizes or a big-bet game's blinds not
    given. A pot-limit maximum over a pot not given, and a no-limit maximum over a stack not given,
    are left out (unknown), never guessed."""
    if incident.unsized or incident.limits_unknown or incident.blinds_unknown:
        return None
    out: dict[str, Any] = {"seat": seat, "to_call": pos.to_call, "can_raise": bool(pos.can_raise)}
    if pos.to_call and pos.committed.get(seat, 0):   # the total the floor announces: "call $10 more, to $30"
        out["call_to"] = pos.committed[seat] + pos.to_call
    if pos.can_raise:
        if pos.min_raise_to is not None:
            out["min_raise_to"] = pos.min_raise_to
        if pos.max_raise_to is not None and not (incident.pot_unknown
                                                 and report.facts.get("structure") == "pot-limit"):
            out["max_raise_to"] = pos.max_raise_to
    elif pos.reason:
        out["reason"] = pos.reason
    return out


def _options_said(data: dict[str, Any], pos: Any, seat: int, report: Any) -> str:
    """The options of ``options`` in the floor's words: "fold, call $150 or raise to at least $400 and at
    most $1,000 (all-in)"."""
    money = lambda v: show(v, report.setting)  # noqa: E731
    stack = pos.stacks.get(seat)
    all_in_to = None if stack is None else pos.committed.get(seat, 0) + stack
    call = data["to_call"]
    if not call:
        parts = ["check"]
    else:
        to = f" (to {money(data['call_to'])})" if data.get("call_to") else ""
        parts = ["fold", f"call {money(call)}{to}" + (" (all-in)" if stack is not None and call >= stack else "")]
    if not data["can_raise"]:
        why = f" ({data['reason']})" if data.get("reason") else ""
        return " or ".join(parts) + f"; raising is not open to him{why}"
    verb = "raise" if pos.current_bet > 0 else "bet"
    low, high = data.get("min_raise_to"), data.get("max_raise_to")
    all_in = " (all-in)" if high is not None and high == all_in_to else ""
    if low is not None and high is not None and low == high:
        parts.append(f"{verb} to {money(low)}{all_in}")
    elif low is not None and high is not None and report.facts.get("structure") == "fixed-limit":
        parts.append(f"{verb} to {money(low)} or {money(high)}")   # stud's open pair: the small or the big bet
    elif low is not None and high is not None:
        parts.append(f"{verb} to at least {money(low)} and at most {money(high)}{all_in}")
    elif low is not None:
        parts.append(f"{verb} to at least {money(low)}")
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def now(incident: Incident, report: Any, first: Any = None) -> list[str]:
    """The dealer's next steps, most important first. ``first`` is the ruling the report leads with (``lead``)
    when ``report.rulings`` are still in the order resolve gave them (most specific first); without it the
    report's first ruling is taken for both."""
    money = lambda v: show(v, report.setting)  # noqa: E731
    lines: list[str] = []
    voids = matters()[1]
    undo = next((r for r in report.rulings if r.ruling in voids), None)
    seat = incident.disputed.seat if incident.disputed else None
    if undo is not None:
        lines.append(_settled(undo))
        back, faces = undo.effects.get("returned"), undo.effects.get("to_call")
        named = [f"gets {money(back)} back"] if isinstance(back, int) and back > 0 else []
        if isinstance(faces, int):
            named.append(f"faces {money(faces)} to call" if faces else "faces no bet")
        if named and seat is not None:
            lines.append(f"Seat {seat} " + " and ".join(named) + ".")
        turn = _turn(incident, report)
        if turn:
            lines.append(turn)
        return lines
    w = _wager(report.rulings)
    if w is not None and seat is not None:
        to = w.effects["wager_to"]
        kind = _kind(to, report.facts) or "wager"
        raised = f"raises to {money(to)}" if report.facts.get("facing_bet") else f"bets {money(to)}"
        if report.facts.get("said_kind") == "complete" and report.facts.get("structure") == "fixed-limit":
            raised = f"completes to {money(to)}"
        total = {"raise": raised,
                 "call": f"calls {money(to)}", "check": "checks"}.get(kind, f"is in for {money(to)}")
        line = f"Seat {seat} {total}"
        owed, back = w.effects.get("owed") or 0, w.effects.get("returned") or 0
        if isinstance(owed, int) and owed > 0:
            more = " more" if report.facts.get("put_out_to", 0) > report.facts.get("committed", 0) else ""
            line += f": he puts in {money(owed)}{more}"
        elif isinstance(back, int) and back > 0:
            line += f": {money(back)} goes back to him"
        adds = w.effects.get("correction_adds")
        if isinstance(adds, int) and adds > 0 and not (isinstance(owed, int) and owed > 0):
            line += f": he adds {money(adds)} to his bet"
        if w.discretion is not None:   # the usual answer, not a settled one; who acts next depends on it
            lines.append(_usual(line) + ".")
            alt, alt_back = w.effects.get("if_corrected_to"), w.effects.get("if_corrected_returned")
            if isinstance(alt, int) and isinstance(alt_back, int):
                lines.append(f"If the floor corrects it instead: the wager and each call of it go to {money(alt)}"
                             f" and each of those players gets {money(alt_back)} back.")
            return lines + _beside(report, w, lines)
        lines.append(line + ".")
        over = w.effects.get("bet_over_all_in")
        if isinstance(over, int) and over > 0:
            lines.append(f"The {money(over)} of the bet above his all-in goes back to the bettor unless another "
                         "player calls it (then it makes a side pot).")
        each = w.effects.get("callers_get_back")
        if isinstance(each, int) and each > 0:
            lines.append(f"Each player who called it gets {money(each)} back.")
        each = w.effects.get("callers_add")
        if isinstance(each, int) and each > 0:
            lines.append(f"Each player who called it puts in {money(each)} more.")
        nxt = _next(incident, report, to)
        if report.next is not None:
            report.next["after"] = w.rule
        nxt = nxt or _turn(incident, report)
        if nxt:
            lines.append(nxt)
        lines += _beside(report, w, lines)
    elif report.rulings:
        order = now_order()
        moving = sorted((r for r in report.rulings if r.decides in order), key=lambda r: order.index(r.decides))
        first = first or report.rulings[0]   # what the report's RULING says, then the rest in order
        shown = [first] + [r for r in moving if r is not first]
        for r in shown + [r for r in report.rulings[:1] if r not in shown]:   # and the most specific ruling
            lines.append(_settled(r))
            if r.decides == "next-to-act" and report.facts.get("in_turn") is False:
                may = _back_options(incident, report, r)
                if may:
                    lines[-1] += f" {may}"
    return lines


def _beside(report: Any, w: Any, said: list[str]) -> list[str]:
    """Beside the wager that leads, what the dealer must also do now: the rulings in force on the
    `beside_wager` matters (rulings/ruling/matters.yaml: another seat's straddle sent back), in `now:` order."""
    order, apart = now_order(), beside_wager()
    also = [r for r in report.rulings if r is not w and r.decides in apart and r.decides in order]
    return [line for line in (_settled(r) for r in sorted(also, key=lambda r: order.index(r.decides)))
            if line not in said]


def lead(incident: Incident, rulings: list[Any], weigh: Any = None) -> list[Any]:
    """The rulings in force (most specific first, as rulings/ruling/decide.py resolves them) in the order the report
    gives them: the first is the one it leads with, the ruling on the dispute's own matter (the text's RULING,
    and the first thing WHAT HAPPENS NOW says when no ruling sizes the wager). Only the order changes.

    First that tells two rulings apart:
    1. a ruling that undoes the disputed act;
    2. the more of the dispute's particulars its own conditions read: what the floor told beyond the act's
       words and chips (who pointed it out, what happened after, a request, the chips found behind, a
       buy-in, the tied pot, a house setting named for the dispute). ``weigh(rule id)`` gives that count and
       the rule's condition count (rulings/ruling/decide.py ``_told``);
    3. a ruling on the dispute's matters before one on a matter that only follows from what was decided
       (`follows:` in rulings/ruling/matters.yaml: the minimum raise, what the seat may do now, where the killer
       acts); a ruling whose one number is that of a following ruling (no cap: raise to at least the
       minimum) follows with it;
    4. on the dispute's matters, a ruling that stands on another in force (it read what the other decided)
       before it; with no wager sized, the `now:` order (who wins the pot before who shows first). Of the
       following ones, the narrower case (more conditions), then the `follows:` order;
    5. the order resolve gave.
    """
    voids, after, order = matters()[1], follows(), now_order()
    weigh = weigh or (lambda rid: (0, 0))
    place = {id(r): i for i, r in enumerate(rulings)}
    sized = _wager(rulings) is not None

    # a ruling whose one number is the one a ruling on a matter that follows gives (no cap: raise to at least
    # the minimum) says that number again, and follows with it
    said = {_numbers(r): r.decides for r in rulings if r.decides in after and len(r.effects) == 1}

    # a ruling that stands on another in force (it read what the other decided) is the conclusion
    ids = {r.rule for r in rulings}
    built_on = {r.rule for r in rulings if any(rid != r.rule and rid in ids for rid in r.chain)}

    def key(r: Any) -> tuple:
        particulars, narrow = weigh(r.rule)
        follow = r.decides if r.decides in after else said.get(_numbers(r)) if said else None
        if follow is not None:   # what only follows: the narrower case first, then the narrower matter
            return (r.ruling not in voids, -particulars, 1, -narrow, after.index(follow), place[id(r)])
        rank = order.index(r.decides) if not sized and r.decides in order else len(order)
        return (r.ruling not in voids, -particulars, 0, r.rule not in built_on, rank, place[id(r)])
    return sorted(rulings, key=key)


def _numbers(r: Any) -> tuple:
    return tuple(sorted((k, str(v)) for k, v in r.effects.items()))


def _turn(incident: Incident, report: Any) -> str | None:
    """When the act was out of turn, the ruling in force on whose turn it is (stud: back to the bring-in; else
    back to the skipped seat due, and what he faces), and what that seat may do."""
    if report.facts.get("in_turn") is not False:
        return None
    r = next((r for r in report.rulings if r.decides == "turn"), None) or \
        next((r for r in report.rulings if r.decides == "next-to-act"), None)   # back to a skipped seat
    if r is None:
        return None
    may = _back_options(incident, report, r)
    return _settled(r) + (f" {may}" if may else "")


def _back_options(incident: Incident, report: Any, r: Any) -> str | None:
    """For a ruling that sends the action back to a skipped seat, what that seat may do (kept on
    ``report.next``): the hand replayed with the skipped seats' acts told after the act out of turn; the act
    out of turn, and acts out of turn after it, wait."""
    seat = r.effects.get("out_of_turn_back_to")
    if not isinstance(seat, int) or isinstance(seat, bool) or incident.disputed is None:
        return None
    params = betting_params(report.params)  # type: ignore[arg-type]  # rule_on keeps the ParamValues
    try:
        due = position(incident.hand, params).actor
        replay = skipped_replay(incident, skipped_seats(incident, due))
        if replay is None:
            return None
        pos = position(replay[0], params)
    except BettingError:
        return None
    data = options(incident, report, pos, seat) if pos.actor == seat else None
    if data is None:
        return None
    report.next = data | {"after": r.rule}
    return f"Seat {seat} may {_options_said(data, pos, seat, report)}."


def _settled(r: Any) -> str:
    """A ruling's sentence, marked as the usual answer when the floor decides it."""
    if r.discretion is None or "floor" in r.sentence.lower():   # a sentence that says so already stands
        return r.sentence
    return _usual(r.sentence)


def _usual(line: str) -> str:
    return f"The floor decides (see FLOOR DISCRETION); the usual answer: {line[0].lower()}{line[1:]}"
