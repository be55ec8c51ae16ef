"""Running a rulebook's examples through the whole path (incident, arithmetic, engine) and checking them."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulings.rulebook.catalogue import facts
from rulings.engine.rulesets import Engine, EngineError
from rulings.incident import incident_from_data
from rulings.money import MoneyError, show, to_minor
from rulings.problems import ProblemsError
from rulings.rulebook.model import Example, Rule, Rulebook
from rulings.ruling.decide import Report, rule_on


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


def _shown(name: str, value: Any, setting: str) -> str:
    f = facts().get(name)
    if f is not None and f.type == "money" and isinstance(value, int) and not isinstance(value, bool):
        return show(value, setting)
    return str(value)


def judged(report: Report | Exception, rule: Rule, ex: Example) -> Outcome:
    """An example's outcome from the report its incident got (or the refusal), as run_example gives it."""
    if isinstance(report, ProblemsError):
        return Outcome(rule.id, ex.name, str(ex.origin), False,
                       "the example's incident is refused: " + "; ".join(p.message for p in report.problems))
    if isinstance(report, Exception):
        return Outcome(rule.id, ex.name, str(ex.origin), False, f"the engine failed: {report}")
    wrong = check(report, rule, ex.expect)
    return Outcome(rule.id, ex.name, str(ex.origin), not wrong, "; ".join(wrong))
