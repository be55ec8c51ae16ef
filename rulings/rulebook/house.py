"""House rulebooks: set parameters, add rules, add exceptions, replace or disable standard rules."""
from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path

from rulings.catalogue import did_you_mean
from rulings.problems import Problem, ProblemsError
from rulings.rulebook.load import cross_check, parse_rule
from rulings.rulebook.model import Rulebook
from rulings.rulebook.schema import RULE, Spec, _f, check_shape
from rulings.yamlsrc import Located, load_file

HOUSE_FILE = Spec("map", "A house rulebook: what the room changes in the book it extends.", {
    "rulebook": _f(Spec("str", "The house book's name."), True),
    "extends": _f(Spec("str", "The book it extends (standard)."), True),
    "title": _f(Spec("str", "The room's name for its rules."), True),
    "parameters": _f(Spec("dict", "Parameter values: name -> value.", item=Spec("scalar", "A value."))),
    "rules": _f(Spec("list", "Rules the house adds, as exceptions (exception_to) or replacements (replaces).",
                     item=RULE)),
    "disable": _f(Spec("list", "Standard rules the house does not use.", item=Spec("map", "A disabled rule.", {
        "rule": _f(Spec("str", "The rule id."), True),
        "reason": _f(Spec("str", "Why the house does not use it."), True),
    }))),
})


def _param_value(doc: Located, name: str, value, book: Rulebook, problems: list[Problem]):
    p = book.parameters.get(name)
    path = ("parameters", name)
    if p is None:
        close = did_you_mean(name, book.parameters)
        problems.append(doc.problem(path, "R204", f"unknown parameter '{name}'",
                                    f"did you mean '{close}'?" if close else None, key=True))
        return None
    try:
        return p.coerce(value)
    except ValueError as exc:   # MoneyError is a ValueError
        close = did_you_mean(value, p.values) if p.values else None
        problems.append(doc.problem(path, "R205", str(exc), f"did you mean '{close}'?" if close else None))
        return None


def load_house(path: Path, standard: Rulebook) -> Rulebook:
    """Merge a house book over the standard book; raise ProblemsError with every problem, load nothing half-way."""
    doc, problems = load_file(path)
    if doc is None:
        raise ProblemsError(problems)
    if not isinstance(doc.data, dict):
        raise ProblemsError([doc.problem((), "R106", "a house rulebook must be a mapping")])
    if not check_shape(doc, doc.data, HOUSE_FILE, (), problems):
        raise ProblemsError(problems)
    data = doc.data
    if data["extends"] != "standard":
        raise ProblemsError([doc.problem(("extends",), "R104", f"unknown book '{data['extends']}'",
                                         "house books extend the standard book: extends: standard")])
    book = copy.copy(standard)
    book.rules = dict(standard.rules)
    book.name, book.title, book.extends = data["rulebook"], data["title"], "standard"
    book.files = standard.files + [str(path)]
    book.settings, book.disabled = {}, {}
    for name, value in (data.get("parameters") or {}).items():
        v = _param_value(doc, name, value, book, problems)
        if v is not None:
            book.settings[name] = v
    for i, raw in enumerate(data.get("disable") or []):
        rid = raw["rule"]
        if rid not in book.rules:
            close = did_you_mean(rid, book.rules)
            problems.append(doc.problem(("disable", i, "rule"), "R104", f"unknown rule '{rid}'",
                                        f"did you mean '{close}' ({book.rules[close].origin})?" if close else None))
            continue
        book.disabled[rid] = raw["reason"]
        del book.rules[rid]
    for i, raw in enumerate(data.get("rules") or []):
        rule = parse_rule(doc, raw, ("rules", i), "house", book.parameters, problems, house=book.name)
        if rule is None:
            continue
        target = rule.replaces
        if target:
            if target not in standard.rules:
                close = did_you_mean(target, standard.rules)
                problems.append(doc.problem(("rules", i, "replaces"), "R104", f"unknown rule '{target}'",
                                            f"did you mean '{close}' ({standard.rules[close].origin})?" if close else None))
                continue
            del book.rules[target]
            rule = replace(rule, modifies=target)
        elif rule.exception_to:
            rule = replace(rule, modifies=rule.exception_to)
        if rule.id in book.rules:
            problems.append(doc.problem(("rules", i, "id"), "R103", f"duplicate rule id '{rule.id}'",
                                        f"it is defined at {book.rules[rule.id].origin}"))
            continue
        book.rules[rule.id] = rule
    problems += cross_check(book, {doc.file: doc})
    if problems:
        raise ProblemsError(problems)
    return book
