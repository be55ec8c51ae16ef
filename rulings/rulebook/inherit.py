"""Exceptions inherit: an `exception_to` rule applies when the rule it modifies applies and its own `when` holds.

A rule written with ``exception_to: X`` states only what it adds (as in
Catala); at load time its conditions become X's conditions (X's own
inherited ones included, down a chain of exceptions) followed by its own, so
the engine sees one plain conjunction and needs to know nothing of this.
The conditions as written are kept on the rule (``Rule.written``) for the
posted rulebook and for re-inheriting when a house replaces X.

A rule written with ``overrides: X`` is the older, weaker link: it beats X
where both apply but states every condition itself (for a rule that must also
apply where X does not).

Refused here, with every problem at once:
- R112: an exception's own test that contradicts a test it inherits (it could never apply);
- R113: exceptions that point at each other in a loop.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from rulings.problems import Problem
from rulings.rulebook.bounds import MAX_ALTERNATIVES, MAX_CONDITIONS, alternatives, conditions
from rulings.rulebook.model import AnyOf, Condition, Rule

_ANY = None   # "every value" in the value sets below


def _values(c: Condition) -> tuple[set | None, set]:
    """(values allowed, values refused) by one plain test; None allowed means any value.

    ``missing`` allows only the absent value (the marker ``_ABSENT``).
    """
    if c.op == "eq":
        return {c.value}, set()
    if c.op == "in":
        return set(c.value), set()
    if c.op == "not":
        return _ANY, {c.value, _ABSENT}
    if c.op == "not_in":
        return _ANY, set(c.value) | {_ABSENT}
    if c.op == "missing":
        return {_ABSENT}, set()
    if c.op == "present":
        return _ANY, {_ABSENT}
    return _ANY, {_ABSENT}   # a comparison needs the fact present


class _Absent:
    def __repr__(self) -> str:
        return "absent"


_ABSENT = _Absent()


def _range(c: Condition) -> tuple[int | None, int | None]:
    """The closed range of whole numbers a literal comparison allows (None: no bound)."""
    v = c.value
    if c.is_expr or not isinstance(v, int) or isinstance(v, bool):
        return None, None
    return {"above": (v + 1, None), "at_least": (v, None), "below": (None, v - 1), "at_most": (None, v),
            "eq": (v, v)}.get(c.op, (None, None))


def contradiction(a: Condition, b: Condition) -> bool:
    """Whether two tests on the same fact can never both hold (checked only where it is certain)."""
    if a.fact != b.fact or a.fact == "ruled" or a.is_expr or b.is_expr:
        return False
    (alla, refa), (allb, refb) = _values(a), _values(b)
    if alla is not None and allb is not None and not (alla & allb):
        return True
    if alla is not None and not (alla - refb):
        return True
    if allb is not None and not (allb - refa):
        return True
    (lo1, hi1), (lo2, hi2) = _range(a), _range(b)
    lo = max((x for x in (lo1, lo2) if x is not None), default=None)
    hi = min((x for x in (hi1, hi2) if x is not None), default=None)
    return lo is not None and hi is not None and lo > hi


def _say(c: Condition) -> str:
    if c.op in ("missing", "present"):
        return f"{c.fact}: {{{c.op}: true}}"
    value = list(c.value) if isinstance(c.value, tuple) else c.value
    if isinstance(value, bool):
        value = str(value).lower()
    return f"{c.fact}: {value}" if c.op == "eq" else f"{c.fact}: {{{c.op}: {value}}}"


def combine(inherited: tuple, own: tuple) -> tuple:
    """The inherited conditions, then the rule's own ones that are not already among them."""
    return tuple(inherited) + tuple(c for c in own if c not in inherited)


def inherit_all(rules: dict[str, Rule], where: Callable[[Rule], Callable[..., Problem] | None]) -> list[Problem]:
    """Give every inheriting exception its combined conditions, in place; the problems found.

    ``where(rule)`` returns a function making a Problem at a path inside that
    rule (``("exception_to",)``, ``("when", name)``), or None for a rule
    already checked (a house book's base): such rules are re-combined but not
    reported on.
    """
    problems: list[Problem] = []
    done: dict[str, tuple] = {}
    looped: set[str] = set()

    def effective(rule: Rule, trail: tuple[str, ...]) -> tuple:
        if rule.id in done:
            return done[rule.id]
        if rule.written is None or not rule.exception_to or rule.exception_to not in rules:
            done[rule.id] = rule.when
            return rule.when
        if rule.id in trail:
            loop = trail[trail.index(rule.id):] + (rule.id,)
            for rid in loop[:-1]:
                if rid not in looped:
                    looped.add(rid)
                    at = where(rules[rid])
                    if at is not None:
                        problems.append(at(("exception_to",), "R113", "exceptions point at each other in a "
                                           "loop: " + " -> ".join(loop),
                                           "an exception modifies a rule that stands on its own; "
                                           "break the loop"))
            done[rule.id] = rule.written
            return rule.written
        base = rules[rule.exception_to]
        inherited = effective(base, trail + (rule.id,))
        when = combine(inherited, rule.written)
        done[rule.id] = when
        at = where(rule)
        if at is not None:
            _check(rule, base, inherited, when, at, problems)
        if when != rule.when:
            rules[rule.id] = replace(rule, when=when)
        return when

    for rule in list(rules.values()):
        effective(rule, ())
    return problems


def _check(rule: Rule, base: Rule, inherited: tuple, when: tuple, at, problems: list[Problem]) -> None:
    for c in rule.written or ():   # an exception's own conditions (``effective`` checks only one that has them)
        if not isinstance(c, Condition):
            continue
        for b in inherited:
            if isinstance(b, Condition) and contradiction(c, b):
                problems.append(at(("when", c.fact), "R112",
                                   f"'{_say(c)}' contradicts '{_say(b)}', which '{rule.id}' inherits from "
                                   f"'{base.id}' (an exception applies only where the rule it modifies "
                                   "applies), so it could never apply",
                                   "drop the test, or write overrides: instead of exception_to: and state "
                                   "every condition the rule needs"))
                break
    if conditions(when) > MAX_CONDITIONS:
        problems.append(at(("when",), "R502", f"{conditions(when)} tests with the ones inherited from "
                           f"'{base.id}'; the limit is {MAX_CONDITIONS}", "split the rule"))
    elif alternatives(when) > MAX_ALTERNATIVES:
        problems.append(at(("when",), "R502", f"with the tests inherited from '{base.id}' the conditions can "
                           f"match in {alternatives(when):,} ways; the limit is {MAX_ALTERNATIVES}",
                           "split the rule into several"))




def reads(when) -> set[str]:
    """The facts a rule's conditions test (their expressions included)."""
    from rulings.rulebook.expressions import names_in
    out: set[str] = set()
    for c in when:
        if isinstance(c, AnyOf):
            for g in c.groups:
                out |= reads(g)
        elif c.fact != "ruled":
            out.add(c.fact)
            if c.is_expr:
                out |= names_in(c.value)
    return out


def fact_defaults(rules: dict[str, Rule], where: Callable[[Rule], Callable[..., Problem] | None],
                  problems: list[Problem]) -> dict[str, object]:
    """The defaults of the derived facts the rules read, in the order the engine gives them.

    A default is given only when nothing is left to fire, one fact at a
    time, so a fact comes before the facts whose deriving rules read it; two
    facts whose deriving rules read each other (R114) cannot be ordered.
    """
    from rulings.rulebook.catalogue import facts
    cat = facts()
    read = set().union(*(reads(r.when) for r in rules.values())) if rules else set()
    wanted = [n for n, f in cat.items() if f.default is not None and n in read]
    derivers = {n: [r for r in rules.values() if n in dict(r.then.derive)] for n in wanted}
    order: list[str] = []
    state: dict[str, int] = {}

    def visit(name: str, trail: tuple[str, ...]) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            rule = derivers[trail[-1]][0]
            at = where(rule)
            if at is not None:
                problems.append(at(("then", "derive"), "R114", "facts with defaults whose deriving rules read "
                                   "each other: " + " -> ".join(trail[trail.index(name):] + (name,)),
                                   "a default is given once nothing else can fire; break the circle"))
            return
        state[name] = 1
        for rule in derivers[name]:
            for other in sorted(reads(rule.when) & set(wanted)):
                if other != name:
                    visit(other, trail + (name,))
        state[name] = 2
        order.append(name)

    for name in wanted:
        visit(name, ())
    return {n: cat[n].default for n in order}
