"""A question is asked only when its answer can change the ruling (issue #43, class 3): over every example of
every book, each question the report asks about a fact the floor can answer with one value (an input enum or
flag, rulings/ruling/consult.py ``askable``) is answered with each of its values, and at least two answers
must rule differently (other numbers, or another ruling, on some matter: ``unknowns.ruled_as``). A question
whose answers all rule alike is a question that cannot change the answer.

Questions about amounts (a pot, a stack, the chips behind) have no list of answers to try; the pot and the
blinds are tried by rulings/ruling/unknowns.py before they are asked."""
from __future__ import annotations

import pytest

from examples_ruled import examples_ruled
from rulings.incident import incident_from_data
from rulings.problems import ProblemsError
from rulings.rulebook.catalogue import facts
from rulings.rulebook.house import house_names
from rulings.ruling import books
from rulings.ruling.consult import allowed, apply_answers, askable
from rulings.ruling.decide import rule_on
from rulings.ruling.unknowns import ruled_as

BOOKS = [None] + sorted(house_names())


@pytest.mark.parametrize("house", BOOKS)
def test_every_question_an_example_asks_has_answers_that_rule_differently(house):
    book, engine = books.load(house)
    cat = facts()
    tried, idle = 0, []
    for ruled in examples_ruled(house):
        if ruled.refused:
            continue
        rule, i, ex, report = ruled.rule, ruled.index, ruled.example, ruled.report
        for q in report.questions:
            fact = cat.get(q.get("fact") or "")
            if fact is None or not askable(fact):
                continue
            rulings = set()
            for value in allowed(fact):
                try:
                    data = apply_answers(ex.incident, {fact.name: value})
                    one = rule_on(incident_from_data(data, file=str(ex.origin), book=book), book, engine)
                except ProblemsError:
                    continue   # not a possible answer here (another field is needed first)
                rulings.add(ruled_as(one))
            tried += 1
            if len(rulings) < 2:
                idle.append(f"{rule.id} example {i}: {fact.name} ({q.get('asked_by')}) - every answer rules alike")
    assert not idle, "\n".join(idle[:20])
    if house is None:
        assert tried >= 10   # the book's examples ask questions; a test over none proves nothing
