"""Effects checked by kind, for every rule, from their expressions and the rule's conditions (never examples).

An effect or derived value fills a fact of the catalogue, and the fact's type says what may fill it:

- money is an amount: worked out from amounts (a fact or parameter of type money) and whole numbers, never
  from a seat, a count or text; an amount that is put in or given back cannot be negative, so every
  subtraction in it must be one the rule's conditions (or an ``if ... else`` around it) show is not
  negative: ``put_out_to - max_raise_to if put_out_to > max_raise_to else 0``, or ``chips_to - current_bet``
  in a rule that tests ``chips_to: {above: current_bet}``;
- a seat is a seat of the table: a seat fact, or a seat number written plainly (1 to 1,000,000), never
  money, a count or arithmetic on seats;
- a count or a percent is worked out from its own kind and whole numbers;
- a flag is true or false; text and a named value are text (an enum's quoted values its own).

Every branch of an ``if ... else`` and every side of ``| default(...)`` or ``min``/``max`` must fit, so a
sentence's text can never stand where money is due ("wager to x"). Every misfit is said at the effect's own
line (R202): its kind where the value is parsed (``load.check_effect`` asks ``kind_problem``), an amount's
sign with its rule's conditions, inherited ones too, once the book is whole (``kind_problems``). ``Checker``
holds each value to its kind again when a rule fires (``rulings/engine/rulesets.py``), so a value out of
kind makes the rule fail instead of being read out.
"""
from __future__ import annotations

from typing import Any, Callable

from jinja2 import nodes

from rulings.money import digits
from rulings.problems import control_character
from rulings.rulebook.catalogue import facts
from rulings.rulebook.bounds import bound, type_of
from rulings.rulebook.expressions import (ENGINE_MAX, bound_of, check_expression, parse_expression,
                                          value_type)
from rulings.rulebook.model import AnyOf, Condition, Parameter, Rule

MAX_SEAT_NUMBER = 1_000_000       # the incident reader's largest seat number
NUMERIC = ("money", "count", "percent", "seat")
_FITS = {"money": {"money", "number"}, "count": {"count", "number"}, "percent": {"percent", "number"},
         "seat": {"seat"}, "bool": {"bool"}, "enum": {"enum", "text"}, "text": {"text", "enum"}}
_WORDS = {"money": "an amount", "count": "a count", "percent": "a percent", "seat": "a seat", "number":
          "a whole number", "bool": "true or false", "enum": "a named value", "text": "text", "none": "nothing",
          "mixed": "arithmetic mixing kinds (an amount with a seat or a count, seats added)", "list": "a list",
          "any": "a value of no known kind"}


def _canon(node: nodes.Node) -> str:
    """An expression written one way, so two spellings of the same arithmetic compare equal."""
    if isinstance(node, nodes.Const):
        return repr(node.value)
    if isinstance(node, nodes.Name):
        return node.name
    if isinstance(node, nodes.Getattr):
        parts = []
        root: nodes.Node = node
        while isinstance(root, nodes.Getattr):
            parts.append(root.attr)
            root = root.node
        return _canon(root) + "." + ".".join(reversed(parts))
    if isinstance(node, nodes.BinExpr):
        return f"({_canon(node.left)} {node.operator} {_canon(node.right)})"
    if isinstance(node, nodes.Filter):
        return f"{node.name}({_canon(node.node) if node.node else ''}, {', '.join(_canon(a) for a in node.args)})"
    return f"<{type(node).__name__} {id(node)}>"   # never equal to another


def _known(when: tuple, parse: Callable[[str], nodes.Node]) -> set[tuple[str, str]]:
    """The (a, b) pairs with a >= b that hold wherever the conditions hold (an ``any_of``: those of every group)."""
    out: set[tuple[str, str]] = set()
    for c in when:
        if isinstance(c, AnyOf):
            groups = [_known(g, parse) for g in c.groups]
            out |= set.intersection(*groups) if groups else set()
        elif isinstance(c, Condition) and c.op in ("above", "at_least", "below", "at_most"):
            try:
                fact = _canon(parse(c.fact))
                value = _canon(parse(str(c.value))) if c.is_expr else repr(c.value)
            except Exception:   # a condition the loader refused already: no knowledge from it
                continue
            out.add((fact, value) if c.op in ("above", "at_least") else (value, fact))
    return out


def _test(node: nodes.Node) -> set[tuple[str, str]]:
    """The (a, b) pairs with a >= b an ``if`` test gives its first branch."""
    if isinstance(node, nodes.And):
        return _test(node.left) | _test(node.right)
    if isinstance(node, nodes.Compare) and len(node.ops) == 1:
        left, op, right = _canon(node.expr), node.ops[0].op, _canon(node.ops[0].expr)
        return {(left, right)} if op in ("gt", "gteq") else {(right, left)} if op in ("lt", "lteq") else set()
    return set()


class _Kinds:
    """The kinds an expression can give, and whether it can be negative, for one book's facts and parameters."""

    def __init__(self, params: dict[str, Parameter]):
        self.cat, self.params = facts(), params

    def of_name(self, name: str) -> tuple[str, bool]:
        """A name's kind and whether it is never negative."""
        if name.startswith("param."):
            p = self.params.get(name[6:])
            if p is None:
                return "any", False
            kind = p.type if p.type in ("money", "count", "percent", "bool", "enum") else "any"
            return kind, kind == "money" or (p.minimum is not None and p.minimum >= 0)
        f = self.cat.get(name)
        if f is None:
            return "any", False
        return f.type, f.type in NUMERIC

    def kinds(self, node: nodes.Node) -> set[str]:
        if isinstance(node, nodes.Const):
            v = node.value
            return {"bool" if isinstance(v, bool) else "number" if isinstance(v, int) else
                    "text" if isinstance(v, str) else "none" if v is None else "any"}
        if isinstance(node, nodes.Name):
            return {self.of_name(node.name)[0]}
        if isinstance(node, nodes.Getattr):
            return {self.of_name(_canon(node))[0]}
        if isinstance(node, (nodes.Add, nodes.Sub)):
            units = (self.kinds(node.left) | self.kinds(node.right)) - {"number"}
            if not units:
                return {"number"}
            if len(units) == 1 and units <= {"money", "count", "percent"}:
                return units
            return {"mixed"}
        if isinstance(node, nodes.Mul):
            left, right = self.kinds(node.left), self.kinds(node.right)
            for a, b in ((left, right), (right, left)):   # an amount times a count or a number is an amount
                if a <= {"money"} and b <= {"number", "count"}:
                    return {"money"}
            units = (left | right) - {"number"}
            return units if len(units) <= 1 and units <= {"count", "percent"} else {"mixed"}
        if isinstance(node, nodes.FloorDiv):
            left = self.kinds(node.left)
            return left if left <= {"money", "count", "percent", "number"} and self.kinds(node.right) == {
                "number"} else {"mixed"}
        if isinstance(node, (nodes.Neg, nodes.Pos)):
            inner = self.kinds(node.node)
            return inner if inner <= {"money", "count", "percent", "number"} else {"mixed"}
        if isinstance(node, (nodes.Compare, nodes.And, nodes.Or, nodes.Not)):
            return {"bool"}
        if isinstance(node, nodes.Concat):
            return {"text"}
        if isinstance(node, nodes.CondExpr):
            return self.kinds(node.expr1) | (self.kinds(node.expr2) if node.expr2 is not None else {"none"})
        if isinstance(node, nodes.Filter):
            if node.name == "default":
                return (self.kinds(node.node) if node.node else set()) | set().union(
                    *(self.kinds(a) for a in node.args[:1]))
            if node.name in ("min", "max") and isinstance(node.node, (nodes.List, nodes.Tuple)):
                return set().union(*(self.kinds(i) for i in node.node.items)) or {"none"}
            if node.name == "abs" and node.node is not None:
                return self.kinds(node.node)
            if node.name in ("money", "join", "cards"):
                return {"text"}
        return {"any"}

    def sign(self, node: nodes.Node, known: set[tuple[str, str]]) -> int:
        """NONNEG: never negative; FACTS: a difference of facts no condition orders (the rule's own reading
        of its facts, such as a string raise's chips above the bet: held at rule time); NEGATIVE: negative
        for some facts whatever they mean (a negative number, a minus sign, a number or a parameter taken
        from an amount with nothing to show it is smaller)."""
        if isinstance(node, nodes.Const):
            ok = isinstance(node.value, int) and not isinstance(node.value, bool) and node.value >= 0
            return NONNEG if ok else NEGATIVE
        if isinstance(node, nodes.Name):
            return NONNEG if self.of_name(node.name)[1] else NEGATIVE
        if isinstance(node, nodes.Getattr):
            return NONNEG if self.of_name(_canon(node))[1] else NEGATIVE
        if isinstance(node, (nodes.Add, nodes.Mul)):
            return max(self.sign(node.left, known), self.sign(node.right, known))
        if isinstance(node, nodes.FloorDiv):
            right = node.right
            ok = isinstance(right, nodes.Const) and type(right.value) is int and right.value > 0
            return self.sign(node.left, known) if ok else NEGATIVE
        if isinstance(node, nodes.Sub):
            return self._difference(node.left, node.right, known)
        if isinstance(node, nodes.CondExpr):
            return max(self.sign(node.expr1, known | _test(node.test)),
                       NONNEG if node.expr2 is None else self.sign(node.expr2, known))
        if isinstance(node, nodes.Filter) and node.node is not None:
            if node.name == "default":
                return max([self.sign(node.node, known)] + [self.sign(a, known) for a in node.args[:1]])
            if node.name in ("min", "max") and isinstance(node.node, (nodes.List, nodes.Tuple)):
                each = [self.sign(i, known) for i in node.node.items] or [NEGATIVE]
                return max(each) if node.name == "min" else min(each)
            if node.name == "abs":
                return NONNEG
        return NEGATIVE

    def _difference(self, left: nodes.Node, right: nodes.Node, known: set[tuple[str, str]]) -> int:
        """The sign of ``left - right``: the same arithmetic, a pair the conditions give or a default's two
        cases each is NONNEG; a number or a parameter taken away unshown is NEGATIVE; facts apart, FACTS."""
        a, b = _canon(left), _canon(right)
        if a == b or (a, b) in known:
            return NONNEG
        for side, other, first in ((left, right, True), (right, left, False)):
            if isinstance(side, nodes.Filter) and side.name == "default" and side.node is not None and side.args:
                return max(self._difference(v, other, known) if first else self._difference(other, v, known)
                           for v in (side.node, side.args[0]))
        if isinstance(right, nodes.Const) and type(right.value) is int and right.value <= 0:
            return self.sign(left, known)
        if any(x == a and digits(y.lstrip("-")) is not None and isinstance(right, nodes.Const)
               and type(right.value) is int and int(y) >= right.value for x, y in known):
            return NONNEG
        taken = [right] + list(right.find_all(nodes.Node))
        if any(isinstance(n, nodes.Const) and type(n.value) is int or isinstance(n, nodes.Getattr) for n in taken):
            return NEGATIVE   # a number or a parameter the book writes: small amounts go below zero
        return max(self.sign(left, known), self.sign(right, known), FACTS)


NONNEG, FACTS, NEGATIVE = 0, 1, 2


def kinds_for(params: dict[str, Parameter]) -> _Kinds:
    """The kinds of one book's names (its parameters, the fact catalogue)."""
    return _Kinds(params)


def kind_problem(kinds: _Kinds, fact, expr: str) -> tuple[str, str] | None:
    """What is wrong with one effect or derived value for its fact's kind, and what to write instead; or None.
    Said where the value is parsed (``load.check_effect``), at its own line."""
    tree = parse_expression(expr)
    want = _FITS.get(fact.type)
    if want is None:
        return None
    if fact.type == "seat" and isinstance(tree, nodes.Const) and type(tree.value) is int:
        if 1 <= tree.value <= MAX_SEAT_NUMBER:
            return None
        return (f"'{fact.name}' is a seat of the table, and {tree.value} is no seat number (1 to {MAX_SEAT_NUMBER:,})",
                HINTS["seat"])
    got = kinds.kinds(tree)
    if "any" in got:   # a name no catalogue knows: the loader says so (R201), once
        return None
    wrong = sorted(got - want)
    if wrong:
        said = ", ".join(_WORDS.get(w, w) for w in wrong)
        return f"'{fact.name}' is {_WORDS[fact.type]}, but '{_clip(expr)}' can give {said}", HINTS[fact.type]
    return None


def sign_problem(kinds: _Kinds, fact, expr: str, known: set[tuple[str, str]]) -> tuple[str, str] | None:
    """An amount that can be negative whatever its facts mean, given the rule's conditions; or None."""
    if fact.type != "money" or kinds.sign(parse_expression(expr), known) != NEGATIVE:
        return None
    return (f"'{fact.name}' is an amount, which cannot be negative, and '{_clip(expr)}' can be: a number or "
            "a parameter is taken from an amount, or a minus sign, with no condition showing it stays >= 0",
            HINTS["negative"])


def _said_when_parsed(kinds: _Kinds, fact, expr: str, params: dict[str, Parameter]) -> bool:
    """Whether ``load.check_effect`` said a problem of this value already: not an expression on the whitelist,
    a type or kind that does not fit, or a plainly negative number."""
    if check_expression(expr):
        return True
    tree = parse_expression(expr)
    if kind_problem(kinds, fact, expr) is not None or "any" in kinds.kinds(tree):   # R202, or R201 for a name
        return True
    if fact.type in NUMERIC and bound_of(expr, bound(params)) > ENGINE_MAX:
        return True
    if value_type(expr, type_of(params)) not in (_TYPE.get(fact.type), "any", "none"):
        return True
    return (isinstance(tree, nodes.Const) and type(tree.value) is int and tree.value < 0) or (
        isinstance(tree, nodes.Neg) and isinstance(tree.node, (nodes.Const, nodes.Name, nodes.Getattr)))


_TYPE = {"money": "number", "count": "number", "percent": "number", "seat": "number", "bool": "bool",
         "enum": "text", "text": "text"}


HINTS = {
    "money": "an amount is worked out from amounts and whole numbers, in every branch of an 'if ... else' and "
             "every side of '| default()' (docs/facts.md gives each fact's type)",
    "seat": "a seat comes from a seat fact (kill_last_winner, button_seat, ...) or is a seat number written "
            "plainly; never from an amount or a count",
    "count": "a count is worked out from counts and whole numbers", "percent": "a percent from percents and "
             "whole numbers", "bool": "write true or false, or a test", "enum": "write one of the fact's values, "
             "in quotes inside an expression", "text": "text comes from text facts or quoted words",
    "negative": "test it in when: (chips_to: {above: current_bet}) or write 'a - b if a > b else 0'",
}


def kind_problems(rules: dict[str, Rule], at_rule: Callable[[Rule], Any], params: dict[str, Parameter],
                  raw_effects: Callable[[Rule], dict]) -> list:
    """Every effect and derived value of every rule written in the files ``at_rule`` can place (a rule of
    another book was checked with its book), checked against its fact's kind with the rule's conditions,
    inherited ones included. ``raw_effects(rule)`` gives the names the rule wrote under ``effects:``, so a
    value the loader worked out (``change_from:``) is said at the ``change_from:`` that made it."""
    kinds, cat, out = _Kinds(params), facts(), []
    for rule in rules.values():
        at = at_rule(rule)
        if at is None:
            continue
        known = _known(rule.when, parse_expression)
        written = raw_effects(rule)
        for part, items in (("effects", rule.then.effects), ("derive", rule.then.derive)):
            for name, expr in items:
                fact = cat.get(name)
                if fact is None:
                    continue
                try:   # a value refused where it was parsed is said once, there
                    message = None if _said_when_parsed(kinds, fact, str(expr), params) else sign_problem(
                        kinds, fact, str(expr), known)
                except Exception:
                    continue
                if message is not None:
                    path = ("then", part, name) if part == "derive" or name in written else ("then", "change_from")
                    out.append(at(path, "R202", *message))
    return out


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


class Checker:
    """Each effect held to its fact's kind when its rule fires: an amount a whole, non-negative number within
    the largest accepted, a seat a seat number, a flag a flag, a named value one of its fact's, text without a
    control character. ``why`` says what is wrong, or None; the engine makes the rule fail on it."""

    def __init__(self):
        self.cat = facts()

    def why(self, name: str, value: Any) -> str | None:
        fact = self.cat.get(name)
        if fact is None or value is None:
            return None
        t = fact.type
        whole = type(value) is int
        if t == "money" and not (whole and 0 <= value <= ENGINE_MAX):
            return f"{name} would be {_clip(repr(value))}, which is no amount"
        if t in ("count", "percent") and not (whole and value >= 0):
            return f"{name} would be {_clip(repr(value))}, which is no {t}"
        if t == "seat" and not (whole and 1 <= value <= MAX_SEAT_NUMBER):
            return f"{name} would be {_clip(repr(value))}, which is no seat of the table"
        if t == "bool" and not isinstance(value, bool):
            return f"{name} would be {_clip(repr(value))}, not true or false"
        if t == "enum" and value not in fact.values:
            return f"{name} would be {_clip(repr(value))}, not one of its values"
        if t == "text" and not all(isinstance(v, int) and not isinstance(v, bool) or isinstance(v, str) and
                                   control_character(v) is None for v in (value if isinstance(value, (list, tuple))
                                                                          else [value])):
            return f"{name} would be {_clip(repr(value))}, which is not plain text"
        return None
