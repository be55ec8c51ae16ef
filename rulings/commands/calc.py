"""`rulings calc`: the betting numbers for a position in an incident or a PHH hand history."""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from rulings.betting import BettingError, Hand, Position
from rulings.betting.arithmetic import position
from rulings.money import major, show
from rulings.problems import ProblemsError, render_text
from rulings.report.render import dumps

FIELDS = ("actor", "pot", "to_call", "current_bet", "last_full_raise", "min_raise_to", "max_raise_to")


def position_json(pos: Position) -> dict:
    """The documented calc contract (docs/calc.md); money in the game's units, exact."""
    out: dict[str, Any] = {"actor": pos.actor}
    for name in FIELDS[1:]:
        value = getattr(pos, name)
        out[name] = None if value is None else major(value)
    out["can_raise"] = pos.can_raise
    out["reason"] = pos.reason
    out["side_pots"] = [{"amount": major(p.amount), "eligible": list(p.eligible)} for p in pos.side_pots]
    return out


def blinds_not_given(pos: Position) -> tuple[Position, str]:
    """A big-bet game told without its blinds (``Incident.blinds_unknown``): the numbers they size shown
    unknown, never from a big blind of 0 (RRP-NL-2: the big blind is the smallest bet on every round; on the
    first round the blinds are also what is called and the pot)."""
    unknown: dict[str, Any] = {"min_raise_to": None, "last_full_raise": None}
    if pos.street == 0:
        unknown.update(pot=None, pot_in_middle=None, to_call=None, current_bet=None, max_raise_to=None,
                       side_pots=(), actor=None)
    return replace(pos, **unknown), "the blinds were not given: what they size is unknown (game: blinds: [small, big])"


def bring_in_due(hand: Hand, pos: Position, after: int | None) -> bool:
    """Stud's first round with nothing but antes in: the round is not over, it waits for the bring-in."""
    acts = [a for street in hand.streets for a in street][:after]
    return pos.actor is None and hand.game.bring_in > 0 and hand.first_street == 0 and pos.street == 0 \
        and all(a.kind == "post" for a in acts)


def bring_in_turn(hand: Hand, pos: Position, incident: Any, after: int | None) -> dict | None:
    """Stud's first round waiting for the bring-in, with the upcards given: the seat due (the weakest upcard,
    rulings/facts/round.py) and what it may put in: the bring-in, or a full bet (in limit, the completion)."""
    if incident is None or not bring_in_due(hand, pos, after):
        return None
    from rulings.facts.round import bring_in_due_seat
    seat = bring_in_due_seat(incident)
    if seat is None:
        return None
    return {"seat": seat, "amount": hand.game.bring_in, "bet_from": pos.min_raise_to, "bet_to": pos.max_raise_to}


def position_text(pos: Position, setting: str, seat: int | None = None, waiting: bool = False,
                  due: dict | None = None, big_bet: bool = False, fixed: bool = False) -> str:
    """The numbers as text; with ``seat`` (calc --seat) other than the seat to act, the first line names both.
    ``waiting``: stud's first round, still to be opened by the bring-in; ``due``: the seat the upcards make
    the bring-in and its amounts (``bring_in_turn``); ``fixed``: a fixed-limit game, whose two amounts (stud's open
    pair: the small bet or the big bet) are the only ones, not the ends of a range."""
    def m(v):
        return "-" if v is None else show(v, setting)
    actor = pos.actor if pos.actor is not None else due["seat"] if due else None
    if due:
        full = f"bets {m(due['bet_from'])} to {m(due['bet_to'])}" if big_bet and due["bet_to"] != due["bet_from"] \
            else f"{'bets' if big_bet else 'completes to'} {m(due['bet_from'])}"
        to_act: int | str = f"{due['seat']} (the bring-in: brings it in for {m(due['amount'])} or {full})"
    else:
        to_act = pos.actor if pos.actor is not None else "the bring-in, not yet made (rulings rule names the seat " \
            "from the upcards)" if waiting else "unknown (the blinds say who opens)" if pos.pot is None \
            else "(street complete)"
    head = f"seat to act: {to_act}" if seat is None or seat == actor \
        else f"numbers for seat {seat} (seat to act: {to_act})"
    lines = [head,
             f"pot:             {m(pos.pot)} ({m(pos.pot_in_middle)} in the middle)",
             f"to call:         {m(pos.to_call)}",
             f"current bet:     {m(pos.current_bet)}",
             f"last full raise: {m(pos.last_full_raise)}",
             f"raise to:        {m(pos.min_raise_to)} or {m(pos.max_raise_to)}"
             if pos.can_raise and fixed and pos.min_raise_to != pos.max_raise_to else
             f"raise to:        {m(pos.min_raise_to)} .. {m(pos.max_raise_to)}" if pos.can_raise
             else f"may not raise:   {pos.reason}"]
    for i, p in enumerate(pos.side_pots):
        lines.append(f"{'main pot' if i == 0 else f'side pot {i}'}: {m(p.amount)} — seats {', '.join(map(str, p.eligible))}")
    rest = 0 if pos.pot is None else pos.pot - sum(p.amount for p in pos.side_pots)
    if rest > 0 and pos.side_pots:
        lines.append(f"not called yet:  {m(rest)} (in no pot until someone calls it)")
    return "\n".join(lines)


def _phh_after(actions, lines: int | None) -> int | None:
    """For a PHH file --after counts lines of its actions list; the arithmetic counts hand actions."""
    if lines is None:
        return None
    count = 0
    for a in actions:
        if a.line is not None and a.line >= lines:
            break
        count += 1
    return count


def _check_pot(incident, pos: Position) -> None:
    """A pot the floor counted that the actions do not make is a contradiction, not a guess."""
    if incident is not None and incident.pot_now is not None and incident.pot_now != pos.pot:
        setting = incident.hand.game.setting
        raise ProblemsError([incident.source.problem(
            ("pot_now",), "I105", f"pot_now: {show(incident.pot_now, setting)} does not match the actions, "
            f"which make the pot {show(pos.pot, setting)}", "check the pot and the listed actions")])


def _hand_and_setting(args, book) -> tuple[Hand, str, list[str], Any]:
    path = Path(args.source)
    if path.suffix in (".phh", ".phhs"):
        from rulings.incident.phh_hand import read_phh
        ph = read_phh(path, structure=args.structure)[0]
        args.after = _phh_after(ph.actions, args.after)
        return ph.hand, ph.hand.game.setting, list(ph.filled), ph
    from rulings.incident import load_incident
    incident = load_incident(path, book)   # checked under the book the numbers come from
    hand = incident.hand
    if args.structure:
        hand = replace(hand, game=replace(hand.game, structure=args.structure))
    return hand, hand.game.setting, [], incident


def calc(args) -> int:
    from rulings.ruling import books
    from rulings.ruling.decide import incident_params
    from rulings.facts.situation import betting_params
    incident = phh = None
    try:
        book, _ = books.load(args.house, compile=False)
        hand, setting, notes, source = _hand_and_setting(args, book)
        incident, phh = (source, None) if not hasattr(source, "line_of") else (None, source)
        overrides = incident_params(book, incident) if incident is not None else {}
        params = betting_params(book.param_values(setting, overrides))
        pos = position(hand, params, after=args.after, seat=args.seat)
        if args.after is None:
            _check_pot(incident, pos)
        if incident is not None and incident.blinds_unknown and hand.game.structure in ("no-limit", "pot-limit"):
            pos, note = blinds_not_given(pos)
            notes.append(note)
    except ProblemsError as exc:
        print(render_text(exc.problems), file=sys.stderr)
        return 2
    except BettingError as exc:
        if incident is not None:
            from rulings.incident.checks import betting_problem
            print(render_text([betting_problem(incident, exc)]), file=sys.stderr)
            return 2
        line = phh.line_of(exc.index) if phh is not None and exc.index is not None else None
        where = f"actions[{line}]" if line is not None else f"action {exc.index}" if exc.index is not None \
            else (exc.field or "hand")
        seat = f", seat {exc.seat}" if exc.seat is not None else ""
        expected = f"; expected {exc.expected}" if exc.expected else ""
        print(f"rulings: {args.source}: {where}{seat}: {exc}{expected}", file=sys.stderr)
        return 2
    except ValueError as exc:   # PhhError and friends: the file is wrong
        line = getattr(exc, "line", None)
        print(f"rulings: {args.source}" + (f": actions[{line}]" if line is not None else "") + f": {exc}",
              file=sys.stderr)
        return 2
    due = bring_in_turn(hand, pos, incident, args.after)
    if args.format == "json":
        out = position_json(pos)
        if due is not None:   # the replay names nobody before the bring-in; the upcards do
            out["actor"] = due["seat"]
            out["bring_in"] = {"seat": due["seat"], "amount": major(due["amount"]),
                               "bet_from": major(due["bet_from"]), "bet_to": major(due["bet_to"])}
        out["filled"] = notes
        print(dumps(out))
    else:
        print(position_text(pos, setting, args.seat, bring_in_due(hand, pos, args.after), due,
                            hand.game.structure in ("no-limit", "pot-limit"), hand.game.structure == "fixed-limit"))
        for n in notes:
            print(f"note: {n}")
    return 0
