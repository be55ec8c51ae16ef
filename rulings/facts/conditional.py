"""A conditional statement ("if you bet, I'm all in"; TDA-2024-59) read for what holding the player to it means.

Whether the statement binds is the floor's call, decided in rulebooks/standard/declarations.yaml. Here only
the arithmetic a floor needs to make that call: what the words make the condition and the consequence, whether
the act told after the words met the condition, and, had the player been held to it at that point, his street
total and what the player who met the condition would then owe to call. Nothing here refuses or guesses: a
statement this reader cannot split, a consequence the declaration reader cannot read, a condition not met or a
stack not given leave the facts that need them out.
"""
from __future__ import annotations

import re
from typing import Any

from rulings.betting import Params
from rulings.betting.arithmetic import position_if_legal
from rulings.incident.model import Incident
from rulings.records import evolve

# "if you bet, I'm all in" / "if he raises then I call" / "if anyone bets I raise to 5,000"
_COND = re.compile(r"^\s*if\b(?P<cond>[^,;]*?)\b(?P<verb>bets?|raises?|re-?raises?|calls?|checks?)\b"
                   r"(?P<rest>[^,;]*?)(?:\s*[,;]\s*|\s+then\s+|\s+(?=i\b|i'))(?:then\s+)?(?P<then>.+?)\s*[.!]?\s*$",
                   re.IGNORECASE)
_VERB = {"bet": "bet", "bets": "bet", "raise": "raise", "raises": "raise", "reraise": "raise", "reraises": "raise",
         "re-raise": "raise", "re-raises": "raise", "call": "call", "calls": "call", "check": "check",
         "checks": "check"}
# the acts that meet a condition: a bet facing a bet is a raise, and "if you bet" is met by either
_MEETS = {"bet": ("bet", "raise"), "raise": ("raise",), "call": ("call",), "check": ("check",)}


def conditional_facts(incident: Incident, params: Params) -> dict[str, Any]:
    """The conditional_* facts of the disputed act's words (empty when they are no conditional this reads)."""
    from rulings.facts.declaration import Declaration, parse_declaration
    d = incident.disputed
    if d is None or d.said is None:
        return {}
    m = _COND.match(d.said.replace("\u2019", "'"))
    if m is None:
        return {}
    then = parse_declaration(m["then"])
    if not isinstance(then, Declaration) or then.later or then.kind not in ("call", "bet", "raise", "all-in", "fold"):
        return {}
    on = _VERB[m["verb"].lower()]
    out: dict[str, Any] = {"conditional_on": on, "conditional_then": then.kind}
    after = incident.after
    i = next((k for k, a in enumerate(after) if a.seat != d.seat), None)
    if i is None or any(a.seat == d.seat for a in after[:i]):
        return out     # nothing told after the words, or the player acted first: the condition is not in question
    met = after[i].kind in _MEETS[on]
    out["conditional_met"] = met
    if not met or then.kind == "fold":
        return out
    hand = incident.hand
    streets = hand.streets[:-1] + (tuple(hand.streets[-1]) + tuple(after[:i + 1]),)
    pos = position_if_legal(evolve(hand, streets=streets), params, seat=d.seat)
    if pos is None:
        return out
    committed, stack = pos.committed.get(d.seat, 0), pos.stacks.get(d.seat)
    if then.kind == "all-in":
        if stack is None:
            return out     # all-in for a stack not given: unknown
        to = committed + stack
    elif then.kind == "call":
        to = committed + pos.to_call
    elif not pos.can_raise or pos.min_raise_to is None:
        return out
    elif then.amount is None:
        to = pos.min_raise_to     # "I raise" with no amount: the smallest raise
    else:
        to = then.amount if then.amount_means != "by" else pos.current_bet + then.amount
    if stack is not None:
        to = min(to, committed + stack)
    other = after[i].seat
    owes = max(to - pos.committed.get(other, 0), 0)
    other_stack = pos.stacks.get(other)
    if other_stack is not None:
        owes = min(owes, other_stack)
    out.update(conditional_binding_to=to, conditional_met_by=other, conditional_binding_to_call=owes)
    return out
