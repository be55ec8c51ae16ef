"""Limits of the rulebook language: what lint refuses so that no book the loader accepts can hang,
overflow or exhaust the engine (durable-rules' measured limits are in docs/engine-notes.md).

Every limit is far above what the standard book needs (its largest values are
in the comments) and well below where the engine breaks. The number of rules
in one book is ``rulings.rulebook.load.MAX_RULES``, kept in one place.
"""
from __future__ import annotations

from math import prod

from rulings.rulebook.catalogue import facts
from rulings.money import MAX_MINOR
from rulings.rulebook.model import MAX_PARAM_COUNT, AnyOf, Parameter

MAX_ALTERNATIVES = 64     # values of one in:/not_in:, groups of one any_of, and the ways a whole `when`
                          # can match (durable-rules hung at 513 before vendor/durable-rules was fixed; it refuses
                          # 512 children of one node now); the standard book needs 6
MAX_CONDITIONS = 32       # tests in one rule, any_of groups included; the standard book needs 12
MAX_CITES = 12            # citation keys of one rule or parameter; the standard book needs 5
MAX_EXAMPLES = 20         # examples of one rule (lint runs each); the standard book needs 8
MAX_FACT_COUNT = 10 ** 6  # counts and seats read from an incident (bounded by the incident's size)
MAX_DERIVED_MONEY = MAX_MINOR * 100   # what lint assumes a rule computes as money, for the engine's range


def alternatives(when) -> int:
    """In how many ways a `when` can match: the size of the disjunction durable-rules expands."""
    def one(c) -> int:
        if isinstance(c, AnyOf):
            return sum(alternatives(g) for g in c.groups)
        return len(c.value) if c.op == "in" else 1
    return prod(one(c) for c in when)


def conditions(when) -> int:
    """Every test in a `when`, inside any_of groups too."""
    return sum(sum(conditions(g) for g in c.groups) if isinstance(c, AnyOf) else 1 for c in when)


def bound(params: dict[str, Parameter]):
    """The largest value each fact or parameter can hold, for checking arithmetic against the engine's range."""
    cat = facts()

    def of(name: str) -> int:
        if name.startswith("param."):
            p = params.get(name[6:])
            if p is None:
                return 0
            if p.maximum is not None:
                return abs(int(p.maximum))
            return MAX_MINOR if p.type == "money" else MAX_PARAM_COUNT
        f = cat.get(name)
        if f is None:
            return 0
        if f.type == "money":
            return MAX_DERIVED_MONEY if f.kind == "derived" else MAX_MINOR
        if f.type == "percent":
            return MAX_DERIVED_MONEY
        return MAX_FACT_COUNT if f.numeric else 1
    return of


def type_of(params: dict[str, Parameter], extra: dict[str, str] | None = None):
    """A fact's or parameter's type as expressions see it: number, bool, text or any."""
    cat = facts()

    def kind(t: str) -> str:
        return "number" if t in ("money", "count", "percent", "seat") else "bool" if t == "bool" else "text"

    def of(name: str) -> str:
        if extra and name in extra:
            return extra[name]
        if name.startswith("param."):
            p = params.get(name[6:])
            return kind(p.type) if p else "any"
        f = cat.get(name)
        return kind(f.type) if f else "any"
    return of
