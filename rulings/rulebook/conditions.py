"""Reading a rule's `when`: fact names, tests and literal values checked against the catalogue."""
from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from rulings.rulebook.catalogue import Fact, did_you_mean, facts
from rulings.rulebook.expressions import check_condition, names_in, param_names_in
from rulings.money import MoneyError, to_minor
from rulings.problems import Problem
from rulings.rulebook.bounds import MAX_ALTERNATIVES, bound
from rulings.rulebook.model import AnyOf, Condition, Parameter
from rulings.yamlsrc import Located

COMPARE = ("above", "at_least", "below", "at_most")
TESTS = ("not", "in", "not_in", "missing", "present") + COMPARE


class _Target:
    """A fact or a parameter, seen the same way for checking values."""

    def __init__(self, name: str, type_: str, values: tuple):
        self.name, self.type, self.values = name, type_, values

    @property
    def numeric(self) -> bool:
        return self.type in ("money", "count", "percent", "seat")


def target(name: str, params: dict[str, Parameter]) -> _Target | None:
    if name.startswith("param."):
        p = params.get(name[6:])
        return _Target(name, p.type, tuple(p.values)) if p else None
    f: Fact | None = facts().get(name)
    return _Target(name, f.type, f.values) if f else None


def unknown_name_hint(name: str, params: dict[str, Parameter]) -> str:
    pool = ["param." + p for p in params] if name.startswith("param.") else list(facts())
    close = did_you_mean(name, pool)
    return f"did you mean '{close}'?" if close else "fact names are listed in docs/facts.md"


def literal(doc: Located, path: tuple, t: _Target, value: Any, problems: list[Problem],
            params: dict[str, Parameter] | None = None) -> tuple[Any, bool] | None:
    """Convert a literal to the target's type, or accept an arithmetic expression for numbers."""
    if t.type == "enum":
        if value not in t.values:
            close = did_you_mean(value, t.values)
            problems.append(doc.problem(path, "R203", f"'{value}' is not a value of {t.name} "
                                        f"({', '.join(map(str, t.values))})",
                                        f"did you mean '{close}'?" if close else None))
            return None
        return value, False
    if t.type == "bool":
        if not isinstance(value, bool):
            problems.append(doc.problem(path, "R202", f"{t.name} is true or false, not {value!r}"))
            return None
        return value, False
    if t.type == "text":
        problems.append(doc.problem(path, "R202", f"{t.name} is free text and cannot be tested; "
                                    "test the facts read from it instead"))
        return None
    # numbers: a literal (money in the game's units) or an expression over numeric facts
    if isinstance(value, bool):
        problems.append(doc.problem(path, "R202", f"{t.name} is a number, not true/false"))
        return None
    if isinstance(value, str) and not value.strip().lstrip("$").replace(",", "").replace(".", "").isdigit():
        issues = check_condition(value, bound(params or {}))
        if issues:
            for msg in issues:
                problems.append(doc.problem(path, "R301", f"expression '{value if len(value) <= 60 else value[:60] + '...'}': {msg}"))
            return None
        return value, True
    try:
        return (to_minor(value) if t.type == "money" else _whole(value)), False
    except (MoneyError, ValueError) as exc:
        problems.append(doc.problem(path, "R202", f"{t.name}: {exc}"))
        return None


def _whole(value: Any) -> int:
    if isinstance(value, int):
        return value
    raise ValueError(f"{value!r} is not a whole number")


def expression_names(doc: Located, path: tuple, text: str, params: dict[str, Parameter],
                     problems: list[Problem], numeric_only: bool = True, extra: AbstractSet[str] = frozenset(),
                     template: bool = False) -> None:
    """Every name an expression reads must be a known (numeric) fact or a declared parameter."""
    for name in sorted(names_in(text, template) - {"param"} - set(extra)):
        f = facts().get(name)
        if f is None:
            problems.append(doc.problem(path, "R201", f"unknown fact '{name}' in '{text}'",
                                        unknown_name_hint(name, params)))
        elif numeric_only and not f.numeric:
            problems.append(doc.problem(path, "R202", f"'{name}' is not a number and cannot be used in arithmetic"))
    for pname in sorted(param_names_in(text, template)):
        if pname not in params:
            problems.append(doc.problem(path, "R204", f"unknown parameter 'param.{pname}'",
                                        unknown_name_hint("param." + pname, params)))


def parse_when(doc: Located, when: dict, path: tuple, params: dict[str, Parameter],
               rulings: set[str] | None, problems: list[Problem]) -> tuple:
    """Turn a `when` mapping into conditions, reporting every problem."""
    out: list[Condition | AnyOf] = []
    if not isinstance(when, dict) or not when:
        problems.append(doc.problem(path, "R106", "a condition group needs at least one test",
                                    "an empty group matches every incident; write the tests it needs"))
        return ()
    for name, spec in when.items():
        here = path + (name,)
        if name == "any_of":
            if not isinstance(spec, list) or not spec or not all(isinstance(g, dict) for g in spec):
                problems.append(doc.problem(here, "R106", "any_of takes a list of condition mappings"))
                continue
            if len(spec) > MAX_ALTERNATIVES:
                problems.append(doc.problem(here, "R502", f"any_of has {len(spec):,} groups; the limit is "
                                            f"{MAX_ALTERNATIVES}", "split the rule, or derive a fact that sums them up"))
                continue
            out.append(AnyOf(tuple(parse_when(doc, g, here + (i,), params, rulings, problems)
                                   for i, g in enumerate(spec))))
            continue
        if name == "ruled":
            if not isinstance(spec, str):
                problems.append(doc.problem(here, "R106", "ruled: takes one ruling name",
                                            "to wait for one of several rulings, write any_of: [{ruled: a}, {ruled: b}]"))
                continue
            if rulings is not None and spec not in rulings:
                close = did_you_mean(spec, rulings)
                problems.append(doc.problem(here, "R104", f"no rule gives the ruling '{spec}'",
                                            f"did you mean '{close}'?" if close else None))
            out.append(Condition("ruled", "present", spec))
            continue
        t = target(str(name), params)
        if t is None:
            code = "R204" if str(name).startswith("param.") else "R201"
            what = "parameter" if code == "R204" else "fact"
            problems.append(doc.problem(here, code, f"unknown {what} '{name}'",
                                        unknown_name_hint(str(name), params), key=True))
            continue
        tests = spec if isinstance(spec, dict) else {"eq": spec}
        for op, value in tests.items():
            at = here + ((op,) if isinstance(spec, dict) else ())
            if op not in TESTS and op != "eq":
                close = did_you_mean(op, TESTS)
                problems.append(doc.problem(at, "R101", f"unknown test '{op}'",
                                            f"did you mean '{close}'?" if close else "tests: " + ", ".join(TESTS), key=True))
                continue
            if op in ("missing", "present"):
                if value is not True:
                    problems.append(doc.problem(at, "R106", f"'{op}' takes the value true"))
                    continue
                out.append(Condition(t.name, op))
                continue
            if op in COMPARE and not t.numeric:
                problems.append(doc.problem(at, "R202", f"'{op}' compares numbers, but {t.name} is {t.type}"))
                continue
            if op in ("in", "not_in"):
                if not isinstance(value, list) or not value:
                    problems.append(doc.problem(at, "R106", f"'{op}' takes a list of values"))
                    continue
                if len(value) > MAX_ALTERNATIVES:
                    problems.append(doc.problem(at, "R502", f"'{op}' lists {len(value):,} values; the limit is "
                                                f"{MAX_ALTERNATIVES}", "use at_least/at_most for a range of numbers"))
                    continue
                vals = [literal(doc, at + (i,), t, v, problems, params) for i, v in enumerate(value)]
                plain = [v for v in vals if v is not None and not v[1]]
                if len(plain) == len(vals):
                    out.append(Condition(t.name, op, tuple(v[0] for v in plain)))
                elif all(v is not None for v in vals):
                    problems.append(doc.problem(at, "R202", f"'{op}' takes plain values, not expressions"))
                continue
            conv = literal(doc, at, t, value, problems, params)
            if conv is None:
                continue
            if conv[1]:
                expression_names(doc, at, conv[0], params, problems)
            out.append(Condition(t.name, op, conv[0], conv[1]))
    return tuple(out)


GAME_FACTS = ("structure", "variant")   # the facts that tell which game a rule speaks of


def admitted(when) -> dict[str, set]:
    """The structures and variants a rule's conditions (inherited ones included) let it apply to: each value
    of the catalogue's list that no test of ``structure`` or ``variant`` rules out (an ``any_of`` admits what
    any of its groups admits)."""
    out = {name: set(facts()[name].values) for name in GAME_FACTS}
    for c in when:
        if isinstance(c, AnyOf):
            union: dict[str, set] = {name: set() for name in GAME_FACTS}
            for group in c.groups:
                for name, values in admitted(group).items():
                    union[name] |= values
            for name in GAME_FACTS:
                out[name] &= union[name]
        elif c.fact in out and not c.is_expr:
            if c.op == "eq":
                out[c.fact] &= {c.value}
            elif c.op == "in":
                out[c.fact] &= set(c.value)
            elif c.op == "not":
                out[c.fact] -= {c.value}
            elif c.op == "not_in":
                out[c.fact] -= set(c.value)
            elif c.op == "missing":
                out[c.fact] = set()
    return out


def admitted_by_book(rules: dict) -> dict[str, dict[str, set]]:
    """``admitted`` for every rule, narrowed by the facts it reads that only rules set: a rule that tests a
    derived fact (one without a catalogue default) applies only in the games some rule deriving it applies
    in (``oversize`` is derived only in pot-limit, so a rule that reads it speaks of pot-limit alone)."""
    cat = facts()
    derivers: dict[str, list[str]] = {}
    for rule in rules.values():
        for name in {n for n, _ in rule.then.derive} | {n for n, _ in rule.then.effects}:
            derivers.setdefault(name, []).append(rule.id)
    reads: dict[str, set[str]] = {}
    for rule in rules.values():
        reads[rule.id] = {c.fact for c in rule.when if isinstance(c, Condition) and c.op != "missing"
                          and c.fact in derivers and c.fact in cat and cat[c.fact].default is None}
    out = {rid: admitted(rule.when) for rid, rule in rules.items()}
    changed = True
    while changed:   # each pass only takes values away: it ends
        changed = False
        for rid, names in reads.items():
            for name in names:
                for dim in GAME_FACTS:
                    union = set().union(*(out[d][dim] for d in derivers[name] if d != rid))
                    if not out[rid][dim] <= union:
                        out[rid][dim] &= union
                        changed = True
    return out


def citations_fit(rules: dict, where) -> list[Problem]:
    """R116: a rule some game its conditions admit has no source for. Every structure and variant the
    rule's conditions let it apply to must be one that some key it cites speaks for (the key's
    ``applies:`` in rulings/citations.yaml; a room's own key speaks for
    every game of the room). Settings are not refused here: a rule cites the sources of both settings, and
    the report quotes the one written for the incident's setting first (rulings/ruling/decide.py)."""
    from rulings.rulebook.catalogue import fit
    out: list[Problem] = []
    reach = admitted_by_book(rules)
    for rule in rules.values():
        if not rule.cites:
            continue
        at = where(rule)
        if at is None:
            continue
        games = reach[rule.id]
        missed = [(s, v) for s in sorted(games["structure"]) for v in sorted(games["variant"])
                  if all(fit(k, s, v, None) == 2 for k in rule.cites)]
        if missed:
            structures = sorted({s for s, _ in missed})
            variants = sorted({v for _, v in missed})
            told = "; ".join(f"{k}: {_speaks(k)}" for k in rule.cites)
            out.append(at(("cites",), "R116",
                          f"no source the rule cites speaks for {', '.join(structures)} "
                          f"{'/'.join(variants) if len(variants) < len(games['variant']) else 'games'}, "
                          f"which its conditions admit ({told})",
                          "cite a source written for those games, or limit the rule's when: to the games its "
                          "sources speak for (structure:, variant:)"))
    return out


def _speaks(key: str) -> str:
    from rulings.rulebook.catalogue import citations
    c = citations().get(key)
    if c is None:
        return "the room's own rule"
    parts = [", ".join(c.structures) if c.structures else "every structure",
             ", ".join(c.games) if c.games else "every game"]
    return " / ".join(parts)
