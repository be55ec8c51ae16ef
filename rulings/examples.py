"""Running a rulebook's examples through the whole path (incident, arithmetic, engine) and checking them."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulings.catalogue import facts
from rulings.engine import Engine, EngineError
from rulings.expressions import param_names_in
from rulings.incident import incident_from_data
from rulings.money import MoneyError, show, to_minor
from rulings.problems import ProblemsError
from rulings.rulebook.model import AnyOf, Example, Rule, Rulebook
from rulings.ruling import Report, rule_on


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
        incident = incident_from_data(ex.incident, file=str(ex.origin), book=book)
        report = rule_on(incident, book, engine)
    except ProblemsError as exc:
        return Outcome(rule.id, ex.name, str(ex.origin), False,
                       "the example's incident is refused: " + "; ".join(p.message for p in exc.problems))
    except EngineError as exc:   # one broken rule must not hide every other example's result
        return Outcome(rule.id, ex.name, str(ex.origin), False, f"the engine failed: {exc}")
    wrong = check(report, rule, ex.expect)
    return Outcome(rule.id, ex.name, str(ex.origin), not wrong, "; ".join(wrong))


def run_examples(book: Rulebook, engine: Engine, rules: list[Rule] | None = None) -> list[Outcome]:
    return [run_example(book, engine, rule, ex)
            for rule in (rules if rules is not None else book.rules.values()) for ex in rule.examples]


def example_rulings(book: Rulebook, engine: Engine, ex: Example) -> list[str]:
    """The rulings an example's incident gets under a book, one line each, for comparing two books."""
    try:
        report = rule_on(incident_from_data(ex.incident, file=str(ex.origin), book=book), book, engine)
    except ProblemsError as exc:
        return ["refused: " + "; ".join(p.message for p in exc.problems)]
    except EngineError as exc:
        return [f"engine failed: {exc}"]
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


def _changed_params(book: Rulebook, base: Rulebook, ex: Example) -> dict[str, tuple[Any, Any]]:
    """The parameters whose value for this example differs between the base book and the house."""
    game = ex.incident.get("game") if isinstance(ex.incident.get("game"), dict) else {}
    setting = game.get("setting", "cash")
    given = ex.incident.get("params") if isinstance(ex.incident.get("params"), dict) else {}
    overrides = {k: v for k, v in given.items() if k in book.parameters}
    old, new = base.param_values(setting, overrides), book.param_values(setting, overrides)
    return {n: (old.get(n), new[n]) for n in sorted(new) if old.get(n) != new[n]}


def _said(changed: dict[str, tuple[Any, Any]], names: list[str]) -> str:
    return ", ".join(f"{n} to {changed[n][1]!r} (was {changed[n][0]!r})" for n in names)


def _house_cause(book: Rulebook, engine: Engine, base: Rulebook, base_engine: Engine, rule: Rule,
                 ex: Example) -> str:
    """Why the house changed this example's outcome, or "" when the house did not cause it.

    The house caused it when the rule lost to a declared house exception, or
    when a parameter the house set is read by this rule, by any rule that fired
    with or without the house (so a change travels down a chain of derived
    facts), or by the betting arithmetic behind the facts, or when the house's
    parameters make the example's incident one the reader refuses.
    """
    changed = _changed_params(book, base, ex)
    try:
        incident = incident_from_data(ex.incident, file=str(ex.origin), book=book)
        report = rule_on(incident, book, engine)
    except ProblemsError as exc:
        return (f"the house sets {_said(changed, list(changed))}, under which the example's incident is refused: "
                + "; ".join(p.message for p in exc.problems)) if changed else ""
    beaten = next((r for r in report.overridden if r.rule == rule.id), None)
    if beaten and _declared_over(book, beaten.overridden_by, rule.id):
        return f"overridden by house rule {beaten.overridden_by}, a declared exception to it"
    if not changed:
        return ""
    before = rule_on(incident, base, base_engine)
    readers = {rule.id} | set(report.trace) | set(before.trace)
    read = [n for n in changed if any(n in rule_params(book.rules.get(r) or base.rules[r]) for r in readers)]
    if read:
        return f"the house sets {_said(changed, read)}, which this rule or a rule it depends on reads"
    if before.facts != report.facts:
        return f"the house sets {_said(changed, list(changed))}, which changes the betting numbers"
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


def house_outcomes(book: Rulebook, engine: Engine, base: Rulebook, base_engine: Engine) -> list[Outcome]:
    """The house's own examples, then the base book's examples re-run under the house.

    A base example the house changed (the rule is disabled, replaced or
    overridden by a declared exception, or a parameter the house set reaches
    it) is reported as changed by the house, not failed; any other difference
    is a failure.
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
                cause = _house_cause(book, engine, base, base_engine, rule, ex)
            except (ProblemsError, EngineError):
                cause = ""
            out.append(Outcome(rule.id, ex.name, where, bool(cause), "" if cause else result.why, cause))
    return out
