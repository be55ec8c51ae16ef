"""Consultation: from a partial incident, the ruling so far and only the questions whose answers change it.

A step rules on the incident as it stands, then tries every allowed answer of
every fact the floorperson could still give (a fact some rule asked for, or an
input fact the incident leaves out) and keeps a question only when at least
one answer gives different rulings from now. Questions come most important
first: one a rule asked, then the one whose answers lead to the most
different rulings. An answer is written into the incident at the fact's own
field (the catalogue's ``from``) and the incident is ruled on again at once.

Nothing here decides what a fact means: the rulebook does, through the same
``rule_on`` the command line uses.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from rulings.catalogue import Fact, did_you_mean, facts
from rulings.engine import Engine, reads
from rulings.incident import read_incident
from rulings.matters import matters
from rulings.problems import Problem, ProblemsError
from rulings.rulebook.model import Rulebook
from rulings.ruling import Report, group_of, rule_on
from rulings.yamlsrc import Located, load_text

# the incident fields a consultation may ask about; game fields are required or have a reader default
_ASKABLE_ROOTS = ("disputed", "table")


def askable(fact: Fact) -> bool:
    """A fact the floor can answer with one value written at one field of the incident."""
    if fact.kind != "input" or fact.type not in ("enum", "bool") or not fact.source or "[" in fact.source:
        return False
    parts = fact.source.split(".")
    return len(parts) == 1 or (len(parts) == 2 and parts[0] in _ASKABLE_ROOTS)


def allowed(fact: Fact) -> tuple[Any, ...]:
    return (True, False) if fact.type == "bool" else tuple(fact.values)


def _path(fact: Fact) -> tuple[str, ...]:
    return tuple(fact.source.split("."))


def _get(data: dict, path: tuple[str, ...]) -> Any:
    node: Any = data
    for p in path:
        if not isinstance(node, dict) or p not in node:
            return None
        node = node[p]
    return node


def _parent_present(data: dict, path: tuple[str, ...]) -> bool:
    return len(path) == 1 or isinstance(data.get(path[0]), dict)


def _set(data: dict, path: tuple[str, ...], value: Any) -> dict:
    out = copy.deepcopy(data)
    node = out
    for p in path[:-1]:
        node = node.setdefault(p, {})
    node[path[-1]] = value
    return out


def _answer_problem(fact: str, message: str, hint: str | None) -> Problem:
    return Problem("<answers>", 0, 0, "C101", f"answers.{fact}: {message}", ("answers", fact), hint)


def apply_answers(data: dict, answers: dict[str, Any]) -> dict:
    """The incident data with each answer written at its fact's field; every bad answer refused at once."""
    cat = facts()
    problems = []
    out = data
    for name, value in answers.items():
        fact = cat.get(name)
        if fact is None or not askable(fact):
            choices = [f for f, spec in cat.items() if askable(spec)]
            close = did_you_mean(name, choices)
            problems.append(_answer_problem(name, "is not a question the consultation can take an answer to",
                                            f"did you mean '{close}'?" if close else "answerable: " + ", ".join(choices)))
            continue
        if isinstance(value, bool) is not (fact.type == "bool") or value not in allowed(fact):
            problems.append(_answer_problem(name, f"{value!r} is not one of the allowed answers",
                                            "one of: " + ", ".join(str(v).lower() if isinstance(v, bool) else str(v)
                                                                   for v in allowed(fact))))
            continue
        path = _path(fact)
        if not _parent_present(out, path):
            problems.append(_answer_problem(name, f"the incident has no {path[0]} section to answer it in",
                                            f"describe the {path[0]} first"))
            continue
        out = _set(out, path, value)
    if problems:
        raise ProblemsError(problems)
    return out


def _signature(report: Report, matters: frozenset[str] | None = None) -> tuple:
    """The rulings in force (on the given matters only, when given) and the open conflicts."""
    return (tuple(sorted((r.rule, r.ruling, tuple(sorted((k, str(v)) for k, v in r.effects.items())))
                         for r in report.rulings if matters is None or group_of(r.decides) in matters)),
            tuple(tuple(c) for c in report.conflicts))


def _own_matters(report: Report) -> frozenset[str] | None:
    """The matters the dispute is about: those of the rulings in force now (None: nothing is ruled yet,
    so any answer that brings a ruling matters). A question whose answers only add a ruling on some
    other matter (a side deal, a pot count) cannot change the ruling on the dispute and is not asked."""
    own = {group_of(r.decides) for r in report.rulings}
    own |= {m for m, spec in matters()[0].items() if (spec or {}).get("about") in own}
    return frozenset(own) or None


def _brief(report: Report) -> list[dict]:
    return [{"rule": r.rule, "ruling": r.ruling, "sentence": r.sentence} for r in report.rulings]


@dataclass
class Step:
    """One step of a consultation: the report so far and the questions that would change it."""

    outcome: str
    report: Report
    questions: list[dict] = field(default_factory=list)
    open: list[dict] = field(default_factory=list)
    data: dict = field(default_factory=dict)        # the incident with the answers written in
    answers: dict = field(default_factory=dict)


class Consultation:
    """Rule on partial incidents with one compiled book; each ``step`` is independent (no state kept)."""

    def __init__(self, book: Rulebook, engine: Engine, file: str = "<incident>"):
        self.book, self.engine, self.file = book, engine, file

    def parse(self, incident: dict | str | Located) -> Located:
        """An incident given as data, or as YAML/JSON text (then problems carry line and column)."""
        if isinstance(incident, Located):
            return incident
        if isinstance(incident, str):
            doc, problems = load_text(incident, self.file)
            if doc is None:
                raise ProblemsError(problems)
            if not isinstance(doc.data, dict):
                raise ProblemsError([Problem(self.file, 1, 1, "I103", "expected a mapping of fields")])
            return doc
        if not isinstance(incident, dict):
            raise ProblemsError([Problem(self.file, 0, 0, "I103", "the incident is a mapping of fields")])
        return Located(self.file, incident, {})

    def _rule(self, doc: Located, data: dict) -> Report:
        return rule_on(read_incident(Located(doc.file, data, doc.marks), self.book), self.book, self.engine)

    def rule(self, incident: dict | str | Located, answers: dict[str, Any] | None = None) -> Step:
        """Rule once with the answers, without searching for questions (what a recorded ruling needs)."""
        doc = self.parse(incident)
        answers = dict(answers or {})
        data = apply_answers(doc.data, answers)
        report = self._rule(doc, data)
        return Step(report.outcome, report, [], list(report.questions), data, answers)

    def step(self, incident: dict | str | Located, answers: dict[str, Any] | None = None,
             skipped: tuple[str, ...] = ()) -> Step:
        """Rule on the incident with the answers so far; list the questions whose answers change the rulings."""
        doc = self.parse(incident)
        answers = dict(answers or {})
        data = apply_answers(doc.data, answers)
        report = self._rule(doc, data)
        own = _own_matters(report)
        now = _signature(report, own)
        cat = facts()
        asked = {q["fact"]: q for q in report.questions if q.get("fact")}
        candidates: list[str] = [f for f in asked if f in cat and askable(cat[f])]
        for name, fact in cat.items():
            if askable(fact) and name not in candidates and _parent_present(data, _path(fact)) \
                    and _get(data, _path(fact)) is None:
                candidates.append(name)
        questions, order = [], list(cat)
        for name in candidates:
            if name in answers or name in skipped:
                continue
            q = self._question(doc, data, cat[name], asked.get(name), now, own)
            if q is not None:
                questions.append(q)
        # a rule's own question first, then one where leaving it out matches no answer (it decides),
        # then the one whose answers split the rulings most
        questions.sort(key=lambda q: (q.pop("_rule_asked"), q.pop("_now_is_an_answer"), -q.pop("_distinct"),
                                      -q.pop("_changing"), order.index(q["fact"])))
        open_ = [q for q in report.questions if not q.get("fact") or q["fact"] not in cat
                 or not askable(cat[q["fact"]])]
        outcome = "ruled" if report.rulings else "questions" if questions or open_ else "not_covered"
        return Step(outcome, report, questions, open_, data, answers)

    def _question(self, doc: Located, data: dict, fact: Fact, asked: dict | None, now: tuple,
                  own: frozenset[str] | None = None) -> dict | None:
        values, signatures, changing, differing = [], set(), 0, set()
        current_rules: set[str] = set()
        for value in allowed(fact):
            try:
                report = self._rule(doc, _set(data, _path(fact), value))
            except ProblemsError:
                continue   # not a possible answer for this incident (e.g. needs another field first)
            sig = _signature(report, own)
            signatures.add(sig)
            if sig != now:
                changing += 1
                differing |= {r.rule for r in report.rulings}
            current_rules |= {r.rule for r in report.rulings}
            values.append({"value": value, "outcome": report.outcome, "leads_to": _brief(report)})
        if not changing:
            return None
        field_name = fact.name
        needing = [rid for rid in sorted(differing | current_rules)
                   if rid in self.book.rules and field_name in reads(self.book.rules[rid].when)]
        asked_by = asked["asked_by"] if asked else (needing[0] if needing else sorted(differing)[0] if differing else None)
        return {"fact": fact.name, "question": (asked or {}).get("question") or fact.question, "type": fact.type,
                "field": fact.source, "asked_by": asked_by, "rules": needing or sorted(differing),
                "values": values, "_rule_asked": asked is None, "_now_is_an_answer": now in signatures, "_distinct": len(signatures), "_changing": changing}
