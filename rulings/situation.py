"""From a validated incident to the flat facts the engine matches: betting numbers, chips, words.

Everything here is arithmetic or reading: what the pot is, what a call costs,
how many chips went in, what the words said. What any of it *means* for the
ruling is decided by the rulebook, never here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulings.acts import act_facts
from rulings.betting import BettingError, Hand, Params
from rulings.betting.model import PARAM_NAMES
from rulings.betting.arithmetic import position
from rulings.incident import Incident
from rulings.kill import kill_facts
from rulings.money import show
from rulings.procedure import procedure_facts
from rulings.problems import Problem, ProblemsError
from rulings.rulebook.model import ParamValues
from rulings.round_facts import round_facts
from rulings.said import said_facts

CHIP_KINDS = ("call", "bet", "raise", "complete", "bring-in")


@dataclass
class Situation:
    """The facts of one incident, plus the questions reading it raised."""

    facts: dict[str, Any]
    questions: list[dict] = field(default_factory=list)


def betting_params(values: ParamValues) -> Params:
    """The house parameters the arithmetic honours, from the book's values and its declarations.

    Which parameter supplies which attribute is the book's word (each
    declaration's ``arithmetic:``); a book that leaves one out is refused.
    """
    supplied = {attr: values[name] for name, attr in values.arithmetic.items() if name in values}
    missing = [f for f in PARAM_NAMES if f not in supplied]
    if missing:
        raise ProblemsError([Problem("<rulebook>", 0, 0, "R111",
                                     "no parameter of the book supplies the betting arithmetic's "
                                     + ", ".join(missing), hint="declare one with arithmetic: NAME")])
    return Params(**supplied)


def refusal(incident: Incident, exc: BettingError) -> ProblemsError:
    """A betting error as an incident problem pointing at the action at fault."""
    path: tuple = ("actions",)
    if exc.index is not None:
        path = ("actions", exc.index)
    doc = incident.source
    where = ".".join(str(p) for p in path) if exc.index is None else f"actions[{path[1]}]"
    msg = f"{where}: {exc}" + (f" (seat {exc.seat})" if exc.seat is not None else "")
    hint = f"expected {exc.expected}" if exc.expected else None
    if doc is None:
        return ProblemsError([Problem("<incident>", 0, 0, "I106", msg, hint=hint)])
    return ProblemsError([doc.problem(path, "I106", msg, hint)])


def build(incident: Incident, params: ParamValues) -> Situation:
    """Compute every fact the rules may read; refuse contradictions with the field at fault."""
    hand: Hand = incident.hand
    game = hand.game
    setting = game.setting
    bparams = betting_params(params)
    f: dict[str, Any] = {
        "structure": game.structure, "setting": setting, "street": incident.street,
        "small_blind": game.small_blind, "big_blind": game.big_blind, "ante": game.ante,
        "betting_unit": game.betting_unit, "players_dealt": len(hand.players),
    }
    if game.bet_sizes:
        f["small_bet"], f["big_bet"] = game.bet_sizes[0], game.bet_sizes[-1]
    f.update(incident.inputs)
    sit = Situation(f)
    seat = incident.disputed.seat if incident.disputed else None
    try:
        pos = position(hand, bparams, seat=seat)
    except BettingError as exc:
        raise refusal(incident, exc) from None
    if incident.pot_now is not None and incident.pot_now != pos.pot:
        doc = incident.source
        raise ProblemsError([doc.problem(("pot_now",), "I105",
                                         f"pot_now: {show(incident.pot_now, setting)} does not match the actions, "
                                         f"which make the pot {show(pos.pot, setting)}",
                                         "check the pot and the listed actions")])
    f.update(pot=pos.pot, pot_in_middle=pos.pot_in_middle, current_bet=pos.current_bet,
             last_full_raise=pos.last_full_raise, min_raise_to=pos.min_raise_to,
             max_raise_to=pos.max_raise_to, can_raise=pos.can_raise,
             capped=pos.capped, cap_reached=pos.cap_reached)
    f.update(kill_facts(incident, params))   # a kill question may have no disputed act
    f.update(procedure_facts(incident, params))   # nor may a procedure question (clock, posting, button, showdown)
    if seat is None:
        return sit
    f.update(to_call=pos.to_call, committed=pos.committed.get(seat, 0), stack=pos.stacks.get(seat),
             facing_bet=pos.to_call > 0, in_turn=pos.actor == seat)
    if incident.street == "preflop":
        f.update(_preflop_facts(hand))
    _chips(incident, f, setting)
    _words(incident, f, sit, params)
    if incident.after:
        f["actions_since"] = len(incident.after)
        f["chip_actions_since"] = sum(1 for a in incident.after if a.kind in CHIP_KINDS)
    if incident.disputed.based_on_count is not None:
        f["bet_from_count"] = incident.disputed.based_on_count
    f.update(act_facts(incident, f, pos.actor))
    f.update(round_facts(incident, bparams, pos, f))   # options, reopening, pots, straddles (rulings/round_facts.py)
    return sit


def _preflop_facts(hand: Hand) -> dict[str, Any]:
    order = [p.seat for p in hand.players]
    bb_seat = order[0] if len(order) == 2 else order[1]
    acts = hand.streets[0] if hand.streets else ()
    posts = {a.seat: a.to for a in acts if a.kind == "post"}
    short = False
    if posts:
        sb_seat = order[1] if len(order) == 2 else order[0]
        short = (posts.get(sb_seat, 0) or 0) < hand.game.small_blind or \
                (posts.get(bb_seat, 0) or 0) < hand.game.big_blind
    return {"preflop_bb_acted": any(a.seat == bb_seat and a.kind != "post" for a in acts),
            "blind_short_or_dead": short}


def _chips(incident: Incident, f: dict, setting: str) -> None:
    motions = incident.disputed.motions
    chips = [c for m in motions for c in m]
    if not chips:
        return
    total = sum(chips)
    stack = f.get("stack")
    if stack is not None and total > stack:
        raise ProblemsError([incident.source.problem(
            ("disputed",), "I107",
            f"disputed.chips: {show(total, setting)} is more than the {show(stack, setting)} "
            f"seat {incident.disputed.seat} had behind", "check the chips or the stack")])
    smallest = min(chips)
    f.update(chips_total=total, chip_count=len(chips), motion_count=len(motions),
             chips_to=f["committed"] + total,
             every_chip_needed=total - smallest < f["to_call"],
             all_chips_in=stack is not None and total == stack)


def _words(incident: Incident, f: dict, sit: Situation, params: dict[str, Any]) -> None:
    """The words of the disputed act as facts (rulings/said.py), or the question they raise."""
    facts, question = said_facts(incident, f, params)
    f.update(facts)
    if question is not None:
        sit.questions.append({"fact": "said_kind", "question": question, "asked_by": "declaration reader"})
