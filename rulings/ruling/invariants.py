"""What must hold on every report, whatever the book and the incident (checked by the tests on every example
and on thousands of generated incidents):

- one ruling in force per matter;
- a decided wager is legal for the structure: a bet or raise within the minimum and maximum the arithmetic
  gives (or all in), a call of the bet faced (or all in for less), never a raise where none is open, unless
  the ruling is one that says why it stands (``stands`` in rulings/ruling/matters.yaml, or floor discretion);
- chips conserve: the chips put out, plus what is still owed, less what goes back, make the wager;
- a seat never owes more than its stack.
"""
from __future__ import annotations

import collections

from rulings.ruling.decide import Report, matters


def violations(report: Report) -> list[str]:
    """Every invariant the report breaks, one line each (empty: all hold)."""
    out: list[str] = []
    counts = collections.Counter(r.decides for r in report.rulings)
    out += [f"{n} rulings in force on '{m}'" for m, n in counts.items() if n > 1]
    f = report.facts
    stands = set(matters()[2])
    committed, stack, bet = f.get("committed", 0), f.get("stack"), f.get("current_bet", 0)
    all_in = committed + stack if stack is not None else None
    for r in report.rulings:
        to = r.effects.get("wager_to")
        if r.decides != "wager" or not isinstance(to, int):
            continue
        owed, back = r.effects.get("owed") or 0, r.effects.get("returned") or 0
        name = f"{r.rule} ({r.ruling})"
        if all_in is not None and to > all_in:
            out.append(f"{name}: wager {to} is more than the seat's {all_in} in all")
        if all_in is not None and "chips_total" in f and owed > stack - f["chips_total"]:
            out.append(f"{name}: owes {owed} with only {stack - f['chips_total']} left behind")
        if "chips_to" in f and not f.get("prior_chips_total"):
            if f["chips_to"] + owed - back != to:
                out.append(f"{name}: chips {f['chips_to']} + owed {owed} - returned {back} != wager {to}")
        if r.ruling in stands or r.discretion is not None:
            continue
        if to > bet:
            lo, hi = f.get("min_raise_to"), f.get("max_raise_to")
            if not f.get("can_raise") and to != all_in:
                out.append(f"{name}: a raise to {to} where no raise is open")
            elif to != all_in and ((lo is not None and to < lo) or (hi is not None and to > hi)):
                out.append(f"{name}: wager {to} outside {lo}..{hi}")
        elif to < bet and to != all_in and to != committed:
            out.append(f"{name}: wager {to} under the bet {bet} without being all in")
    return out
