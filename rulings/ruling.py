"""From the rules that fired to a report: the rulings in force, the ones overridden, derived facts, open questions."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulings.catalogue import citations, did_you_mean, facts
from rulings.problems import Problem, ProblemsError
from rulings.engine import Engine, Fired
from rulings.incident import Incident
from rulings.rulebook.model import Discretion, Rulebook
from rulings.situation import build


@dataclass
class Ruling:
    rule: str
    ruling: str
    decides: str
    title: str
    sentence: str
    text: str
    effects: dict[str, Any]
    discretion: Discretion | None
    convention: str | None
    cites: list[str]
    origin: str
    chain: list[str]
    house: str | None = None
    modifies: str | None = None
    overridden_by: str | None = None
    reason: str | None = None


@dataclass
class Report:
    incident: str
    book: str
    setting: str
    rulings: list[Ruling] = field(default_factory=list)
    overridden: list[Ruling] = field(default_factory=list)
    conflicts: list[list[str]] = field(default_factory=list)
    derived: list[dict] = field(default_factory=list)
    questions: list[dict] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    trace: list[str] = field(default_factory=list)
    problems: list[dict] = field(default_factory=list)   # rules that failed: {"rule", "problem"}

    @property
    def outcome(self) -> str:
        """ruled (a ruling is in force), questions (none yet, questions open) or not_covered."""
        return "ruled" if self.rulings else "questions" if self.questions else "not_covered"

    def final(self, name: str) -> Ruling | None:
        return next((r for r in self.rulings if r.ruling == name), None)


def _excepts(book: Rulebook, rid: str, other: str) -> bool:
    """Whether rule ``rid`` is (directly or through a chain) an exception to ``other``."""
    seen = set()
    rule = book.rules.get(rid)
    while rule and rule.exception_to and rule.id not in seen:
        seen.add(rule.id)
        if rule.exception_to == other:
            return True
        rule = book.rules.get(rule.exception_to)
    return False


def _make(f: Fired) -> Ruling:
    r = f.rule
    return Ruling(r.id, r.then.ruling or "", r.then.decides or "", r.title, f.sentence or r.title, r.text,
                  dict(f.effects), r.then.discretion, r.then.convention, list(r.cites), str(r.origin),
                  list(f.chain), r.house, r.modifies)


def resolve(book: Rulebook, fired: list[Fired]) -> tuple[list[Ruling], list[Ruling], list[list[str]]]:
    """Pick the rulings in force: a declared exception beats its rule, then the more specific wins."""
    candidates = [(_make(f), f) for f in fired if f.rule.then.ruling]
    final, overridden, conflicts = [], [], []
    by_question: dict[str, list[tuple[Ruling, Fired]]] = {}

    def weight(item: tuple[Ruling, Fired]) -> int:
        return item[1].rule.condition_count() + len(item[0].chain)
    for ruling, f in candidates:
        by_question.setdefault(ruling.decides, []).append((ruling, f))
    for group in by_question.values():
        alive = list(group)
        for ruling, _ in group:
            beaten_by = next((o.rule for o, _ in group if o is not ruling and _excepts(book, o.rule, ruling.rule)), None)
            if beaten_by:
                ruling.overridden_by, ruling.reason = beaten_by, f"{beaten_by} is a declared exception to it"
                overridden.append(ruling)
                alive = [(r, f) for r, f in alive if r is not ruling]
        if len(alive) > 1:
            best = max(weight(i) for i in alive)
            top = [i for i in alive if weight(i) == best]
            for ruling, f in alive:
                if weight((ruling, f)) < best:
                    ruling.overridden_by = top[0][0].rule
                    ruling.reason = f"{top[0][0].rule} applies to a narrower case"
                    overridden.append(ruling)
            alive = top
            if len(top) > 1 and len({(r.ruling, tuple(sorted(r.effects.items()))) for r, _ in top}) > 1:
                conflicts.append([r.rule for r, _ in top])
        final += alive
    # the most specific ruling first: it is the one the floor was called over
    final.sort(key=weight, reverse=True)
    return [r for r, _ in final], overridden, conflicts


def incident_params(book: Rulebook, incident: Incident) -> dict[str, Any]:
    """The incident's own parameter values (what-if overrides), checked against the book."""
    out, problems = {}, []
    for name, value in incident.params.items():
        p = book.parameters.get(name)
        where = ("params", name)
        try:
            if p is None:
                close = did_you_mean(name, book.parameters)
                raise ValueError(f"unknown parameter '{name}'" + (f"; did you mean '{close}'?" if close else ""))
            out[name] = p.coerce(value)
        except ValueError as exc:
            msg = f"params.{name}: {exc}"
            problems.append(incident.source.problem(where, "I104", msg) if incident.source
                            else Problem("<incident>", 0, 0, "I104", msg))
    if problems:
        raise ProblemsError(problems)
    return out


def rule_on(incident: Incident, book: Rulebook, engine: Engine) -> Report:
    """Rule on one incident with a compiled book."""
    setting = incident.hand.game.setting
    params = book.param_values(setting, incident_params(book, incident))
    situation = build(incident, params)
    run = engine.run(situation.facts, params)
    final, overridden, conflicts = resolve(book, run.fired)
    report = Report(incident.name, book.name, setting, final, overridden, conflicts,
                    facts=dict(situation.facts), params=params, trace=[f.rule.id for f in run.fired],
                    problems=[{"rule": rid, "problem": msg} for rid, msg in run.failures])
    for f in run.fired:
        for key, value in f.derived.items():
            report.derived.append({"fact": key, "value": value, "by": f.rule.id, "chain": list(f.chain)})
    cat = facts()
    report.questions = list(situation.questions)
    for f in run.fired:
        for name in f.rule.then.ask:
            if name not in situation.facts and not any(q["fact"] == name for q in report.questions):
                report.questions.append({"fact": name, "question": cat[name].question, "asked_by": f.rule.id})
    for group in conflicts:
        report.questions.append({"fact": None, "asked_by": ", ".join(group),
                                 "question": "These rules give different answers to the same question and "
                                             "neither is an exception to the other; the floor must choose."})
    return report


def citation(key: str) -> dict:
    c = citations().get(key)
    if c is None:   # a house's own rule number
        return {"key": key, "source": "House rule", "section": key}
    return {"key": key, "source": c.source, "section": c.section}
