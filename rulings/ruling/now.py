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
    """Whose turn it is after the act as ruled, and what he faces; None when it cannot be said."""
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
    money = lambda v: show(v, report.setting)  # noqa: E731
    if pos.actor is None:
        return "The betting on this street is complete."
    faces = f"{money(pos.to_call)} to call" if pos.to_call else "no bet (he may check)"
    return f"Seat {pos.actor} is next to act and faces {faces}."


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
        turn = _turn(report)
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
        nxt = _next(incident, report, to) or _turn(report)
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


def _turn(report: Any) -> str | None:
    """When the act was out of turn, the ruling in force on whose turn it is (stud: back to the bring-in; else
    back to the skipped seat due, and what he faces)."""
    if report.facts.get("in_turn") is not False:
        return None
    r = next((r for r in report.rulings if r.decides == "turn"), None) or \
        next((r for r in report.rulings if r.decides == "next-to-act"), None)   # back to a skipped seat
    return None if r is None else _settled(r)


def _settled(r: Any) -> str:
    """A ruling's sentence, marked as the usual answer when the floor decides it."""
    if r.discretion is None or "floor" in r.sentence.lower():   # a sentence that says so already stands
        return r.sentence
    return _usual(r.sentence)


def _usual(line: str) -> str:
    return f"The floor decides (see FLOOR DISCRETION); the usual answer: {line[0].lower()}{line[1:]}"
