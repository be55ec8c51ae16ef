"""Running a rulebook's examples through the whole path (incident, arithmetic, engine) and checking them."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulings.catalogue import facts
from rulings.engine import Engine
from rulings.expressions import param_names_in
from rulings.incident import incident_from_data
from rulings.money import MoneyError, show, to_minor
from rulings.problems import ProblemsError
from rulings.rulebook.model import AnyOf, Example, Rule, Rulebook
from rulings.ruling import Report, incident_params, rule_on
from rulings.situation import build


@dataclass(frozen=True)
class Outcome:
    rule: str
    example: str
    origin: str
    ok: bool
    why: str = ""
    changed_by_house: str = ""   # not a failure: the house changed this rule, and says how


def _expected(name: str, value: Any) -> Any:
    f = facts().get(name)
    if f is not None and f.type == "money" and not isinstance(value, bool):
        try:
            return to_minor(value)
        except MoneyError:
            return value
    return value


def gives(report: Report, rule: Rule) -> bool:
    """Whether the rule decided anything: a ruling in force, or (for derive-only rules) it fired."""
    if rule.then.ruling:
        return any(r.rule == rule.id for r in report.rulings)
    return rule.id in report.trace


def check(report: Report, rule: Rule, expect: dict) -> list[str]:
    """What the report gets wrong about the example's expectation (empty: all met)."""
    wrong = []
    if expect.get("fires", True) is False:
        if gives(report, rule):
            wrong.append(f"{rule.id} was expected not to apply, but it did")
        return wrong
    if "ruling" in expect or "effects" in expect:
        mine = next((r for r in report.rulings if r.rule == rule.id), None)
        if mine is None:
            beaten = next((r for r in report.overridden if r.rule == rule.id), None)
            wrong.append(f"{rule.id} gave no ruling" + (f" (overridden by {beaten.overridden_by})" if beaten else
                                                         f"; rules that fired: {', '.join(report.trace) or 'none'}"))
            return wrong
        if "ruling" in expect and mine.ruling != expect["ruling"]:
            wrong.append(f"ruling {mine.ruling!r}, expected {expect['ruling']!r}")
        for k, v in (expect.get("effects") or {}).items():
            got, want = mine.effects.get(k), _expected(k, v)
            if got != want:
                wrong.append(f"effect {k} = {_shown(k, got, report.setting)}, "
                             f"expected {_shown(k, want, report.setting)}")
    for k, v in (expect.get("derives") or {}).items():
        got = next((d["value"] for d in report.derived if d["by"] == rule.id and d["fact"] == k), None)
        if got != _expected(k, v):
            wrong.append(f"derived {k} = {_shown(k, got, report.setting)}, "
                         f"expected {_shown(k, _expected(k, v), report.setting)}")
    for fact in expect.get("asks") or []:
        if not any(q["fact"] == fact for q in report.questions):
            wrong.append(f"no open question about {fact}")
    if "overridden_by" in expect:
        beaten = next((r for r in report.overridden if r.rule == rule.id), None)
        if beaten is None or beaten.overridden_by != expect["overridden_by"]:
            wrong.append(f"expected to be overridden by {expect['overridden_by']}")
    return wrong


def run_example(book: Rulebook, engine: Engine, rule: Rule, ex: Example) -> Outcome:
    try:
        incident = incident_from_data(ex.incident, file=str(ex.origin))
        report = rule_on(incident, book, engine)
    except ProblemsError as exc:
        return Outcome(rule.id, ex.name, str(ex.origin), False,
                       "the example's incident is refused: " + "; ".join(p.message for p in exc.problems))
    wrong = check(report, rule, ex.expect)
    return Outcome(rule.id, ex.name, str(ex.origin), not wrong, "; ".join(wrong))


def run_examples(book: Rulebook, engine: Engine, rules: list[Rule] | None = None) -> list[Outcome]:
    return [run_example(book, engine, rule, ex)
            for rule in (rules if rules is not None else book.rules.values()) for ex in rule.examples]


def example_rulings(book: Rulebook, engine: Engine, ex: Example) -> list[str]:
    """The rulings an example's incident gets under a book, one line each, for comparing two books."""
    try:
        report = rule_on(incident_from_data(ex.incident, file=str(ex.origin)), book, engine)
    except ProblemsError as exc:
        return ["refused: " + "; ".join(p.message for p in exc.problems)]
    lines = []
    for r in report.rulings:
        effects = ", ".join(f"{k} {_shown(k, v, report.setting)}" for k, v in r.effects.items())
        lines.append(f"{r.rule}: {r.ruling}" + (f" ({effects})" if effects else ""))
    return sorted(lines)


def _shown(name: str, value: Any, setting: str) -> str:
    f = facts().get(name)
    if f is not None and f.type == "money" and isinstance(value, int) and not isinstance(value, bool):
        return show(value, setting)
    return str(value)


def rule_params(rule: Rule) -> set[str]:
    """The parameters a rule reads in its conditions, numbers and sentence."""
    found: set[str] = set()

    def walk(conds) -> None:
        for c in conds:
            if isinstance(c, AnyOf):
                for g in c.groups:
                    walk(g)
            elif c.fact.startswith("param."):
                found.add(c.fact[6:])
            elif c.is_expr:
                found.update(param_names_in(c.value))
    walk(rule.when)
    for _, expr in rule.then.effects + rule.then.derive:
        found.update(param_names_in(expr))
    if rule.then.say:
        found.update(param_names_in(rule.then.say, template=True))
    return found


def _house_cause(book: Rulebook, base: Rulebook, rule: Rule, ex: Example, report: Report) -> str:
    """Why the house changed this example's outcome, or "" when the house did not cause it."""
    beaten = next((r for r in report.overridden if r.rule == rule.id), None)
    if beaten and _declared_over(book, beaten.overridden_by, rule.id):
        return f"overridden by house rule {beaten.overridden_by}, a declared exception to it"
    incident = incident_from_data(ex.incident, file=str(ex.origin))
    setting = incident.hand.game.setting
    overrides = incident_params(book, incident)
    old, new = base.param_values(setting, overrides), book.param_values(setting, overrides)
    changed = sorted(n for n in new if old.get(n) != new[n])
    read = [n for n in changed if n in rule_params(rule)]
    if read:
        return "; ".join(f"the house sets {n} to {new[n]!r} (was {old[n]!r}), which this rule reads" for n in read)
    if changed and build(incident, old).facts != build(incident, new).facts:
        return ("the house's " + ", ".join(f"{n}: {new[n]!r}" for n in changed)
                + " changes the betting numbers this rule reads")
    return ""


def _declared_over(book: Rulebook, winner: str | None, loser: str) -> bool:
    """Whether ``winner`` is a house rule declared (directly or through a chain) an exception to ``loser``.

    A house rule that wins only by being more specific was not declared to
    change the rule, so the change it makes counts as a failure.
    """
    seen: set[str] = set()
    rule = book.rules.get(winner or "")
    if rule is None or not rule.house:
        return False
    while rule is not None and rule.exception_to and rule.id not in seen:
        seen.add(rule.id)
        if rule.exception_to == loser:
            return True
        rule = book.rules.get(rule.exception_to)
    return False


def house_outcomes(book: Rulebook, engine: Engine, base: Rulebook) -> list[Outcome]:
    """The house's own examples, then the base book's examples re-run under the house.

    A base example the house changed (the rule is disabled, replaced or
    overridden by a declared exception, or reads a parameter the house set,
    directly or through the betting numbers) is reported as changed by the
    house, not failed; any other difference is a failure.
    """
    out = [run_example(book, engine, r, ex) for r in book.rules.values() if r.house and r.id not in base.rules
           for ex in r.examples]
    replaced = {r.replaces: r.id for r in book.rules.values() if r.replaces}
    for rule in base.rules.values():
        for ex in rule.examples:
            where = str(ex.origin)
            if rule.id in book.disabled:
                out.append(Outcome(rule.id, ex.name, where, True, "",
                                   f"disabled by the house: {book.disabled[rule.id]}"))
                continue
            if rule.id in replaced or book.rules.get(rule.id) != rule:
                out.append(Outcome(rule.id, ex.name, where, True, "",
                                   f"replaced by house rule {replaced.get(rule.id, rule.id)}"))
                continue
            result = run_example(book, engine, rule, ex)
            if result.ok:
                out.append(result)
                continue
            try:
                report = rule_on(incident_from_data(ex.incident, file=where), book, engine)
                cause = _house_cause(book, base, rule, ex, report)
            except ProblemsError:
                cause = ""
            out.append(Outcome(rule.id, ex.name, where, bool(cause), "" if cause else result.why, cause))
    return out
